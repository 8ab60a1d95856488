"""A fork met by mail has a way out: `apply` writes it into the file as git's merge driver writes
one (the common events, this copy's branch, then the mail's), says so (exit 5), and `resolve
--keep` settles it exactly as it settles a fork left by git."""

from __future__ import annotations

import mailbox as stdlib_mailbox
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest
from helpers import ok_in as ok
from helpers import run_in as run

from splendor_cli import store
from splendor_cli.errors import ForkError
from splendor_cli.forks import split_fork

PLAYERS = "ann=ann@example.org,bob=bob@example.org"


def _forked_copies(tmp_path: Path) -> tuple[Path, Path, str]:
    """ann's copy after her 'take red red' and bob's where ann's #2 was 'take blue blue' (the
    copies forked after #1), each under games/; the block of ann's move."""
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    for home in (ann, bob):
        (home / "games").mkdir(parents=True)
    ok(ann, "new", "-g", "games/g.toml", "--players", PLAYERS, "--seed", 3)
    shutil.copy(ann / "games" / "g.toml", bob / "games" / "g.toml")
    ok(ann, "play", "-g", "games/g.toml", "take", "red", "red")
    ok(bob, "play", "-g", "games/g.toml", "take", "blue", "blue")
    return ann, bob, ok(ann, "export", "-g", "games/g.toml")


@pytest.mark.parametrize("keep", ["theirs", "ours"])
def test_apply_writes_a_mail_fork_that_resolve_settles(tmp_path: Path, keep: str) -> None:
    ann, bob, block = _forked_copies(tmp_path)
    mine = (bob / "games" / "g.toml").read_bytes()
    (tmp_path / "move.txt").write_text(block)
    code, out, err = run(bob, "apply", "-g", "games/g.toml", tmp_path / "move.txt")
    assert code == 5, (out, err)
    assert err.count("\n") == 1 and "forks the game" in err and "splendor resolve --keep" in err
    data = (bob / "games" / "g.toml").read_bytes()
    fork = split_fork(data)
    assert fork is not None and fork.seq == 1 and data.startswith(mine)
    with pytest.raises(ForkError):
        store.read(bob / "games" / "g.toml")
    out = ok(bob, "resolve", "-g", "games/g.toml", "--keep", keep)
    assert f"kept {keep}" in out
    want = mine if keep == "ours" else (ann / "games" / "g.toml").read_bytes()
    assert store.read(bob / "games" / "g.toml").record.head == store.from_bytes("x.toml", want).record.head
    ok(bob, "verify", "-g", "games/g.toml")


def test_apply_maildir_writes_the_fork_once(tmp_path: Path) -> None:
    """Through a Maildir: the fork is written and said (exit 5); once settled, the old mail is not
    read again (it would fork the game again)."""
    _, bob, block = _forked_copies(tmp_path)
    message = EmailMessage()
    message["Subject"] = "my move"
    message.set_content(block)
    stdlib_mailbox.Maildir(str(bob / "Maildir"), create=True).add(message.as_bytes())
    code, out, err = run(bob, "apply", "--maildir", "Maildir")
    assert code == 5 and "forks the game" in err, (out, err)
    assert split_fork((bob / "games" / "g.toml").read_bytes()) is not None
    ok(bob, "resolve", "-g", "games/g.toml", "--keep", "ours")
    out = ok(bob, "apply", "--maildir", "Maildir")
    assert "1 message read before, not read again" in out
    assert split_fork((bob / "games" / "g.toml").read_bytes()) is None


def test_a_whole_game_mailed_that_forks_the_copy_is_written_as_a_fork(tmp_path: Path) -> None:
    """The first mail of a game carries it whole: a copy it contradicts is forked the same way."""
    ann, bob, _ = _forked_copies(tmp_path)
    message = EmailMessage()
    message["Subject"] = "our game"
    message.set_content("the game so far\n")
    data = (ann / "games" / "g.toml").read_bytes()
    message.add_attachment(data, maintype="application", subtype="toml", filename="g.toml")
    (tmp_path / "game.eml").write_bytes(message.as_bytes())
    code, out, err = run(bob, "apply", "-g", "games/g.toml", tmp_path / "game.eml")
    assert code == 5 and "forks the game" in err and err.count("\n") == 1, (out, err)
    ok(bob, "resolve", "-g", "games/g.toml", "--keep", "theirs")
    assert store.read(bob / "games" / "g.toml").record.head == store.from_bytes("x.toml", data).record.head
