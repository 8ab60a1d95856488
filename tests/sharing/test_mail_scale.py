"""`apply` at scale and against hostile mail: blocks are read once each (duplicates dropped by
their lines, before they are parsed) and at most `mail.MAX_BLOCKS` of them a mail; a mail nesting
thousands of parts is skipped with a note while the others are applied; `apply --maildir`
remembers the mails it read, so an old mail's stale block is said once. How long a mail of 16,000
blocks takes is measured in bench/apply_mail.py (docs/performance.md), not here."""

from __future__ import annotations

import mailbox as stdlib_mailbox
import shutil
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from helpers import ok_in as ok
from helpers import run_in as run

from splendor_cli.sharing import mail

PLAYERS = "ann=ann@example.org,bob=bob@example.org"
MOVES = (("take", "red", "red"), ("take", "white", "blue", "green"), ("take", "black", "black"))


def _text_mail(subject: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["Subject"] = subject
    message.set_content(body)
    return message.as_bytes()


def _deliver(raw: bytes, maildir: Path) -> None:
    stdlib_mailbox.Maildir(str(maildir), create=True).add(raw)


def _tables(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """ann's copy after MOVES, bob's at the setup (under games/, with a Maildir), and the block
    of each of ann's moves."""
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    for home in (ann, bob):
        (home / "games").mkdir(parents=True)
    ok(ann, "new", "-g", "games/g.toml", "--players", PLAYERS, "--seed", 3)
    (bob / "games" / "g.toml").write_bytes((ann / "games" / "g.toml").read_bytes())
    shutil.copy(ann / "games" / "g.toml", tmp_path / "setup.toml")
    blocks = []
    for move in MOVES:
        ok(ann, "play", "-g", "games/g.toml", *move)
        blocks.append(ok(ann, "export", "-g", "games/g.toml"))
    return ann, bob, blocks


def test_blocks_are_parsed_once_each_and_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail quoting its blocks hundreds of times: each distinct block is parsed once (it was
    parsed at every copy, then deduplicated by a list search: 98 s for 16,000 blocks); past
    MAX_BLOCKS distinct blocks the rest is not read, and stderr says so."""
    ann, bob, blocks = _tables(tmp_path)
    setup = (bob / "games" / "g.toml").read_bytes()
    parsed: list[int] = []
    real = mail._parse

    def counted(*args: Any) -> mail.MoveBlock:
        parsed.append(1)
        return real(*args)

    monkeypatch.setattr(mail, "_parse", counted)
    (tmp_path / "many.eml").write_bytes(_text_mail("many", "\n> ".join(blocks * 300)))
    out = ok(bob, "apply", "-g", "games/g.toml", tmp_path / "many.eml")
    assert "applied #4 ann: take black black" in out
    assert (bob / "games" / "g.toml").read_bytes() == (ann / "games" / "g.toml").read_bytes()
    assert len(parsed) == len(MOVES)

    monkeypatch.setattr(mail, "MAX_BLOCKS", 2, raising=False)
    (bob / "games" / "g.toml").write_bytes(setup)
    code, out, err = run(bob, "apply", "-g", "games/g.toml", tmp_path / "many.eml")
    assert code == 0, (out, err)
    assert "applied #3" in out and "#4" not in out
    assert err == "splendor: the mail holds more than 2 move blocks: 1 more not read\n"


def test_a_mail_nesting_thousands_of_parts_is_skipped_and_the_others_applied(tmp_path: Path) -> None:
    """A mail of 5,000 nested multiparts crashed `apply --maildir` (RecursionError, exit 1) and
    blocked every other mail of the folder: now it is skipped with one line on stderr."""
    _, bob, blocks = _tables(tmp_path)
    nested = [b"From: eve@example.org\nSubject: deep\nMIME-Version: 1.0\n"]
    for depth in range(5000):
        nested.append(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (depth, depth))
    nested.append(b"Content-Type: text/plain\n\nhello\n")
    _deliver(b"".join(nested), bob / "Maildir")
    _deliver(_text_mail("first", blocks[0]), bob / "Maildir")
    code, out, err = run(bob, "apply", "--maildir", "Maildir")
    assert code == 0, (out, err)
    assert "applied #2 ann: take red red" in out
    assert err.count("\n") == 1 and "skipped" in err and "multipart" in err


def test_maildir_remembers_the_mails_it_read(tmp_path: Path) -> None:
    """A second run does not read again the mails the first read to the end; a stale block (the
    copies forked) fails once, not on every later run; a mail waiting for a turn this copy lacks
    is read again, and applies once that turn came."""
    _, bob, blocks = _tables(tmp_path)
    _deliver(_text_mail("third", blocks[2]), bob / "Maildir")  # waits for #2 and #3
    code, out, err = run(bob, "apply", "--maildir", "Maildir")
    assert code == 5 and "missing" in err
    _deliver(_text_mail("first", blocks[0]), bob / "Maildir")
    code, out, err = run(bob, "apply", "--maildir", "Maildir")
    assert code == 5 and "applied #2 ann: take red red" in out and "turn #3 is missing" in err
    _deliver(_text_mail("second", blocks[1]), bob / "Maildir")
    out = ok(bob, "apply", "--maildir", "Maildir")
    assert "applied #3" in out and "applied #4" in out and "1 message read before, not read again" in out
    out = ok(bob, "apply", "--maildir", "Maildir")
    assert "3 messages read before, not read again" in out

    carol = tmp_path / "carol"  # a copy that forked at #2: ann's #2 block is stale there
    (carol / "games").mkdir(parents=True)
    shutil.copy(tmp_path / "setup.toml", carol / "games" / "g.toml")
    ok(carol, "play", "-g", "games/g.toml", "take", "blue", "blue")
    _deliver(_text_mail("first", blocks[0]), carol / "Maildir")
    code, out, err = run(carol, "apply", "--maildir", "Maildir")
    assert code == 5 and "forked" in err, (out, err)
    out = ok(carol, "apply", "--maildir", "Maildir")
    assert "1 message read before, not read again" in out
