"""`splendor key new | show | export` through the command line: the keys are kept private
(a 0700 folder, a 0600 file, never through a link), never replaced without --force, and a key
file others may read, a link, or a malformed file is refused (exit 4) in one line."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli

from splendor_cli.app import entry
from splendor_cli.crypto.keys import PublicKey, SecretKey


def folder() -> Path:
    return Path(os.environ["XDG_DATA_HOME"]) / "splendor-cli" / "keys"


def key_file() -> Path:
    return folder() / "secret.toml"


def made(name: str = "ann") -> str:
    """Make keys for `name`; their fingerprint."""
    code, out, err = cli("key", "new", "--name", name)
    assert code == 0, err
    return out.split("fingerprint: ")[1].strip()


def test_key_new_makes_a_private_folder_and_file() -> None:
    """The folder is 0700 and the file 0600, whatever the umask; show prints the public keys."""
    old = os.umask(0)
    try:
        fingerprint = made()
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder().stat().st_mode) == 0o700
    assert stat.S_IMODE(key_file().stat().st_mode) == 0o600
    assert [p.name for p in folder().iterdir()] == ["secret.toml"]  # no temporary file left
    code, out, err = cli("key", "show")
    assert code == 0, err
    key = SecretKey.from_toml(key_file().read_text())
    assert f"fingerprint  {fingerprint}\n" in out and key.public.signing.hex() in out
    assert key.signing.hex() not in out and key.card.to_hex() not in out


def test_key_show_json() -> None:
    made()
    code, out, _ = cli("key", "show", "--json")
    assert code == 0
    shown = json.loads(out)
    assert set(shown) == {"name", "fingerprint", "signing", "card"} and shown["name"] == "ann"


def test_key_new_refuses_to_replace_keys_without_force() -> None:
    """A second `key new` is refused (exit 2) and leaves the key as it was; --force replaces it."""
    first = made()
    before = key_file().read_bytes()
    code, _, err = cli("key", "new", "--name", "ann")
    assert code == 2 and "a key exists already" in err and "--force" in err and err.count("\n") == 1
    assert key_file().read_bytes() == before
    code, out, _ = cli("key", "new", "--name", "ann", "--force")
    assert code == 0 and first not in out and key_file().read_bytes() != before
    assert stat.S_IMODE(key_file().stat().st_mode) == 0o600


def test_key_new_takes_the_name_from_the_environment_and_checks_it() -> None:
    """$SPLENDOR_PLAYER names the keys; a name that breaks the player-name rule is refused (exit 2)."""
    code, _, _ = cli("key", "new", env={"SPLENDOR_PLAYER": "bob"})
    assert code == 0 and SecretKey.from_toml(key_file().read_text()).name == "bob"
    code, _, err = cli("key", "new", "--force", "--name", "a b")
    assert code == 2 and "bad player name" in err


def test_without_keys_show_and_export_say_how_to_make_them() -> None:
    for args in (("key", "show"), ("key", "export")):
        code, _, err = cli(*args)
        assert code == 2 and "splendor key new" in err


def test_key_export_prints_the_public_keys_with_a_proof() -> None:
    """The export reads back as ann's public key, its proof of possession checked."""
    made()
    code, out, err = cli("key", "export")
    assert code == 0 and err == ""
    assert PublicKey.from_toml(out) == SecretKey.from_toml(key_file().read_text()).public
    assert "secret" not in out


def test_key_export_secret_warns_and_round_trips(tmp_path: Path) -> None:
    """--secret prints the secret file (a warning on stderr); -o writes a new 0600 file, never
    over an existing one."""
    made()
    code, out, err = cli("key", "export", "--secret")
    assert code == 0 and "warning" in err and "SECRET" in err
    assert SecretKey.from_toml(out) == SecretKey.from_toml(key_file().read_text())
    backup = tmp_path / "backup.toml"
    old = os.umask(0)
    try:
        code, _, err = cli("key", "export", "--secret", "-o", backup)
    finally:
        os.umask(old)
    assert code == 0 and f"wrote {backup}" in err
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600 and backup.read_text() == key_file().read_text()
    code, _, err = cli("key", "export", "-o", backup)
    assert code == 2 and "exists" in err and backup.read_text() == key_file().read_text()
    link = tmp_path / "link.toml"
    link.symlink_to(tmp_path / "nowhere.toml")
    assert cli("key", "export", "--secret", "-o", link)[0] == 2 and not (tmp_path / "nowhere.toml").exists()
    assert "back that file up too" not in cli("key", "export", "--secret")[2]  # no game joined yet
    games = key_file().parent / "games"
    games.write_text(f"{'ab' * 32} {'cd' * 32}\n")
    code, _, err = cli("key", "export", "--secret")
    assert code == 0 and f"your keys of each game you joined are in {games}: back that file up too" in err


def test_a_key_file_others_may_read_is_refused() -> None:
    """Mode 0644 (or any bit for the group or others): refused, exit 4, with the chmod hint."""
    made()
    key_file().chmod(0o640)
    code, out, err = cli("key", "show")
    assert code == 4 and out == "" and "open to others (mode 0640)" in err and "chmod 600" in err
    assert err.count("\n") == 1


def test_a_keys_folder_open_to_others_is_refused() -> None:
    made()
    folder().chmod(0o755)
    code, _, err = cli("key", "show")
    assert code == 4 and "folder" in err and "mode 0755" in err


def test_a_symlinked_key_file_is_refused(tmp_path: Path) -> None:
    """A key file that is a link (even to a private key file) is never read."""
    made()
    elsewhere = tmp_path / "elsewhere.toml"
    key_file().rename(elsewhere)
    key_file().symlink_to(elsewhere)
    code, _, err = cli("key", "show")
    assert code == 4 and "symbolic link" in err


def test_a_symlinked_keys_folder_is_refused(tmp_path: Path) -> None:
    """Not even a new key is written through a linked folder."""
    target = tmp_path / "target"
    target.mkdir(mode=0o700)
    folder().parent.mkdir(parents=True)
    folder().symlink_to(target)
    code, _, err = cli("key", "new", "--name", "ann")
    assert code == 4 and "symbolic link" in err and list(target.iterdir()) == []


@pytest.mark.parametrize(
    "data", [b"", b"format = 2\n", b"\xff\xfe", b'format = 1\nkind = "secret"\nname = "ann"\n', b"x" * 20000]
)
def test_a_malformed_key_file_is_refused(data: bytes) -> None:
    """A damaged key file: exit 4, one line naming the file."""
    made()
    key_file().write_bytes(data)
    code, _, err = cli("key", "show")
    assert code == 4 and str(key_file()) in err and err.count("\n") == 1, err


def test_the_fast_path_reads_key_commands() -> None:
    """`key new --name ann --force`, `key show --json` and `key export -o F` are plain command
    lines: the fast path takes them without typer."""
    for argv in (["key", "new", "--name", "ann", "--force"], ["key", "show", "--json"], ["key", "export", "-o", "f"]):
        parsed = entry.parse(argv)
        assert parsed is not None and parsed[0].name == " ".join(argv[:2])


def test_the_installed_command_runs_key_commands(tmp_path: Path) -> None:
    """`python -m splendor_cli key new` then `key show --json`, in a process of their own (the
    fast path, as a user runs them)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    run = [sys.executable, "-m", "splendor_cli", "key"]
    new = subprocess.run([*run, "new", "--name", "cy"], capture_output=True, text=True, env=env, check=False)
    assert new.returncode == 0, new.stderr
    shown = subprocess.run([*run, "show", "--json"], capture_output=True, text=True, env=env, check=False)
    assert json.loads(shown.stdout)["fingerprint"] in new.stdout


def test_no_other_command_loads_the_cryptography() -> None:
    """The command line (the registry, typer's app) loads no crypto, rbcl or nacl module until a
    `key` command runs."""
    code = (
        "import sys, splendor_cli.app.cli, splendor_cli.app.registry\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rbcl', 'nacl') or '.crypto' in m))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
