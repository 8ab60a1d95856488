"""Attacks by another local user, a hostile file and an interrupted command (the security issue):
each is reproduced and must be refused with the right exit code and one line, files untouched."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli

from splendor_cli import store
from splendor_cli.app.services.folders import lock_folder
from splendor_cli.errors import ConflictError


def _game(folder: Path, name: str = "g.toml") -> Path:
    path = folder / name
    code, _, err = cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)
    assert code == 0, err
    return path


@pytest.fixture
def locks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The lock folder, in a runtime folder of the test's own."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    return Path(lock_folder())


# -- the write lock ---------------------------------------------------------------------------


def test_a_planted_link_at_the_lock_file_is_not_followed(tmp_path: Path, locks: Path) -> None:
    """Another user plants a link where the lock file of a game goes, to a file of the victim:
    the victim's `play` refuses (exit 5) and the linked file keeps every byte."""
    path = _game(tmp_path)
    victim = tmp_path / "precious.txt"
    victim.write_text("my novel\n")
    import hashlib

    locks.mkdir(mode=0o700, exist_ok=True)
    key = hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:24]
    (locks / f"{key}.lock").symlink_to(victim)
    before = path.read_bytes()
    code, _, err = cli("play", "take white blue green", "-g", path)
    assert code == 5 and "write lock" in err and err.count("\n") == 1
    assert victim.read_text() == "my novel\n" and path.read_bytes() == before


@pytest.mark.parametrize("kind", ["link", "group-writable", "a file"])
def test_a_lock_folder_not_private_is_refused(tmp_path: Path, locks: Path, kind: str) -> None:
    """A lock folder that is a link, that others may write, or that is not a folder: exit 5, nothing written."""
    path = _game(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if kind == "link":
        locks.symlink_to(elsewhere)
    elif kind == "group-writable":
        locks.mkdir()
        locks.chmod(0o777)
    else:
        locks.write_text("")
    before = path.read_bytes()
    code, _, err = cli("play", "take white blue green", "-g", path)
    assert code == 5 and err.count("\n") == 1
    assert path.read_bytes() == before and list(elsewhere.iterdir()) == []


def test_the_lock_is_per_game_and_never_truncates(tmp_path: Path) -> None:
    """Holding one game's lock refuses a second writer of that game only; the lock file is never emptied."""
    first, second = _game(tmp_path, "a.toml"), _game(tmp_path, "b.toml")
    locks = tmp_path / "locks"
    with store.locked(first, locks):
        with pytest.raises(ConflictError), store.locked(first, locks):
            pass
        with store.locked(second, locks):
            pass
    assert stat.S_IMODE(locks.stat().st_mode) & 0o077 == 0


# -- how a game file is written ----------------------------------------------------------------


def test_a_link_given_with_g_is_followed_to_its_target(tmp_path: Path) -> None:
    """`-g link.toml` writes the game the link points to; the link stays a link."""
    target = _game(tmp_path)
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    assert cli("take", "white", "blue", "green", "-g", link)[0] == 0
    assert link.is_symlink() and 'gems = ["white", "blue", "green"]' in target.read_text()


def test_a_write_keeps_the_mode_and_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    """A game file shared read-only with a group stays so after a move; a new one is not 0600."""
    path = _game(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    path.chmod(0o640)
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_read_only_or_hard_linked_game_is_not_replaced(tmp_path: Path) -> None:
    """A read-only file is refused (exit 2), as is one with another hard link (a rename would cut
    the link off); both stay byte for byte."""
    path = _game(tmp_path)
    before = path.read_bytes()
    path.chmod(0o444)
    if os.access(path, os.W_OK):  # root may write anything: the check is then the other one
        path.chmod(0o644)
    else:
        code, _, err = cli("take", "white", "blue", "green", "-g", path)
        assert code == 2 and "read-only" in err and path.read_bytes() == before
        path.chmod(0o644)
    os.link(path, tmp_path / "other-name.toml")
    code, _, err = cli("take", "white", "blue", "green", "-g", path)
    assert code == 2 and "hard links" in err and path.read_bytes() == before


def test_an_interrupted_write_leaves_the_file_and_no_debris(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (or SIGTERM, turned into the same) in the middle of a write: exit 130, the file as
    it was, no temporary file left beside it."""
    path = _game(tmp_path)
    before = path.read_bytes()

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    code, _, err = cli("take", "white", "blue", "green", "-g", path)
    assert code == 130 and "interrupted" in err
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["g.toml"]


# -- files that are no files -----------------------------------------------------------------


def _splendor(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPLENDOR_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "splendor_cli", *args], cwd=cwd, capture_output=True, text=True, timeout=30, env=env
    )


def test_a_fifo_named_like_a_game_hangs_nothing(tmp_path: Path) -> None:
    """A FIFO `x.toml` beside the game: finding the game skips it; naming it is exit 4 at once."""
    _game(tmp_path)
    os.mkfifo(tmp_path / "trap.toml")
    found = _splendor(tmp_path, "state", "--json")
    assert found.returncode == 0, found.stderr
    named = _splendor(tmp_path, "state", "-g", "trap.toml")
    assert named.returncode == 4 and "not a regular file" in named.stderr


def test_a_device_is_not_read(tmp_path: Path) -> None:
    """`-g /dev/zero` is refused at once (exit 4) instead of reading without end."""
    result = _splendor(tmp_path, "state", "-g", "/dev/zero")
    assert result.returncode == 4 and "not a regular file" in result.stderr


def test_an_unknown_colour_is_refused_on_the_cached_path_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`show --json --color purple` is exit 2, whether the answer is in the cache or not."""
    path = _game(tmp_path)
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path / "cache"))
    env = {**os.environ}
    first = subprocess.run(
        [sys.executable, "-m", "splendor_cli", "show", "--json", "-g", str(path)], capture_output=True, env=env
    )
    assert first.returncode == 0
    again = subprocess.run(
        [sys.executable, "-m", "splendor_cli", "show", "--json", "--color", "purple", "-g", str(path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert again.returncode == 2 and "purple" in again.stderr


# -- hostile values --------------------------------------------------------------------------


def test_a_huge_value_is_refused_quickly_with_a_short_message(tmp_path: Path) -> None:
    """A megabyte string where a list of gems is expected: exit 4, one short line."""
    path = _game(tmp_path)
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    text = path.read_text().replace('gems = ["white", "blue", "green"]', f'gems = "{"x" * 1_000_000}"')
    path.write_text(text)
    code, _, err = cli("verify", "-g", path)
    assert code == 4 and err.count("\n") == 1 and len(err) < 400


@pytest.mark.parametrize(
    "poison", ["n = " + "9" * 5000, "n = " + "[" * 5000 + "]" * 5000], ids=["4300-digit integer", "deep array"]
)
def test_poisoned_toml_in_a_mail_block_or_a_merge_is_a_bad_file(tmp_path: Path, poison: str) -> None:
    """An integer of thousands of digits or arrays nested thousands deep, in a mail or a merge
    input: exit 4 (apply) or a conflict that leaves ours as it is (merge driver), never a bug."""
    path = _game(tmp_path)
    block = (
        "-----BEGIN SPLENDOR MOVE-----\ngame: x\nseq: 2\nparent: p\nplayer: ann\nmove: pass\n\n"
        f"[[events]]\n{poison}\n\ncheck: 0\n-----END SPLENDOR MOVE-----\n"
    )
    mail = tmp_path / "mail.txt"
    mail.write_text(block)
    before = path.read_bytes()
    code, _, err = cli("apply", mail, "-g", path)
    assert code == 4 and err.count("\n") == 1 and path.read_bytes() == before
    ours, theirs, base = tmp_path / "ours", tmp_path / "theirs", tmp_path / "base"
    ours.write_bytes(before)
    base.write_bytes(before)
    theirs.write_bytes(before + f"\n[[events]]\n{poison}\n".encode())
    code, _, err = cli("merge-driver", base, ours, theirs)
    assert code == 5 and "Traceback" not in err and ours.read_bytes() == before


def test_debris_of_a_killed_write_is_swept_by_the_next(tmp_path: Path) -> None:
    """kill -9 in the middle of a write leaves its temporary file: the next write of that game
    (under its lock, so no other is under way) removes it; other files are left alone."""
    path = _game(tmp_path)
    debris = tmp_path / ".g.toml.0123456789ab.tmp"
    debris.write_bytes(b"half a game")
    other = tmp_path / ".notes.0123456789ab.tmp"
    other.write_bytes(b"not ours")
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    assert not debris.exists() and other.exists()


def test_a_folder_that_cannot_be_written_is_a_bad_game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing beside the game fails (a read-only folder, a full disk): exit 4, one line, nothing written."""
    path = _game(tmp_path)
    before = path.read_bytes()
    real_open = os.open

    def refused(name: str, flags: int, mode: int = 0o777, **kwargs: object) -> int:
        if str(name).endswith(".tmp"):
            raise PermissionError(13, "Permission denied", name)
        return real_open(name, flags, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refused)
    code, _, err = cli("take", "white", "blue", "green", "-g", path)
    monkeypatch.undo()
    assert code == 4 and "cannot write beside it: Permission denied" in err and err.count("\n") == 1
    assert path.read_bytes() == before


def test_a_missing_merge_input_is_a_usage_error(tmp_path: Path) -> None:
    """The merge driver given a file that is not there: exit 2, one line (not a bug)."""
    path = _game(tmp_path)
    code, _, err = cli("merge-driver", tmp_path / "nope", path, path)
    assert code == 2 and "no such file" in err and err.count("\n") == 1


def test_no_lock_file_is_left_behind(tmp_path: Path, locks: Path) -> None:
    """After a move, the lock folder holds nothing: lock files go as their lock is let go."""
    path = _game(tmp_path)
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    assert list(locks.iterdir()) == []


@pytest.mark.parametrize("command", [["take", "white", "blue", "green"], ["state"]])
def test_a_game_path_that_is_a_folder_is_a_bad_game_file_for_every_command(tmp_path: Path, command: list[str]) -> None:
    """Reading and writing commands answer the same for a path that is not a file: exit 4."""
    folder = tmp_path / "not-a-file.toml"
    folder.mkdir()
    code, _, err = cli(*command, "-g", folder)
    assert code == 4 and "not a regular file" in err
