"""Mail folders (Maildir, mbox) read as raw messages, bounded, without following links; and what a
mail carries for `apply`: the games of its blocks, and whole game files."""

from __future__ import annotations

import mailbox as stdlib_mailbox
import os
import random
from email.message import EmailMessage
from pathlib import Path

import pytest
from helpers import BASE, DUEL, deal, deal_duel

from splendor_cli import store
from splendor_cli.errors import GameFileError, UsageError
from splendor_cli.events.codec import Header
from splendor_cli.sharing import mail, mailbox


def _mail(subject: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["To"] = "bob@example.org"
    message["Subject"] = subject
    message.set_content(body)
    return message.as_bytes()


def _maildir(path: Path) -> stdlib_mailbox.Maildir:
    return stdlib_mailbox.Maildir(str(path), create=True)


def _game(path: Path, game: str = "2026-12-02-ann-bob-1a2b", duel: bool = False) -> store.Loaded:
    variant = "duel" if duel else "base"
    header = Header(game=game, variant=variant, players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    setup = deal_duel(("ann", "bob"), random.Random(2)) if duel else deal(("ann", "bob"), random.Random(2))
    loaded = store.create(path, header, setup)
    move = "take b2 c3 d4" if duel else "take red red"
    return store.append(loaded, loaded.game.decide(loaded.game.variant.parse_moves(move)[0]))


# -- Maildir ------------------------------------------------------------------------------------


def test_a_maildir_is_read_from_new_and_cur_in_order_of_delivery(tmp_path: Path) -> None:
    """Messages of new/ and cur/ come oldest first (a name begins with its delivery time); dot
    files and tmp/ (deliveries under way) are not read."""
    root = tmp_path / "Maildir"
    box = _maildir(root)
    box.add(_mail("one", "first"))
    (root / "cur" / "1000.M1P1.host:2,S").write_bytes(_mail("older", "zero"))
    (root / "new" / "3000000000.M2P2.host").write_bytes(_mail("newer", "last"))
    (root / "new" / ".hidden").write_bytes(_mail("hidden", "no"))
    (root / "tmp" / "4000000000.M3P3.host").write_bytes(_mail("under way", "no"))
    read = mailbox.read_maildir(str(root))
    subjects = [m.data.split(b"Subject: ")[1].split(b"\n")[0] for m in read.messages]
    assert subjects == [b"older", b"one", b"newer"]
    assert read.notes == ()
    assert read.messages[0].label == "cur/1000.M1P1.host:2,S"


def test_a_link_in_a_maildir_is_never_followed(tmp_path: Path) -> None:
    """A message that is a symbolic link (say, to a private file), and a new/ or cur/ that is a
    link, are left out with a note: only what was delivered into the folder is read."""
    secret = tmp_path / "secret.txt"
    secret.write_bytes(_mail("secret", "private"))
    root = tmp_path / "Maildir"
    box = _maildir(root)
    box.add(_mail("real", "delivered"))
    os.symlink(secret, root / "new" / "2000.M9P9.host")
    read = mailbox.read_maildir(str(root))
    assert [b"private" in m.data for m in read.messages] == [False]
    assert read.notes == ("new/2000.M9P9.host: a symbolic link, not followed",)
    other = tmp_path / "Other"
    (other / "new").mkdir(parents=True)
    (other / "new" / "1.M1P1.h").write_bytes(_mail("elsewhere", "x"))
    linked = tmp_path / "Linked"
    linked.mkdir()
    os.symlink(other / "new", linked / "cur")
    (linked / "new").mkdir()
    read = mailbox.read_maildir(str(linked))
    assert read.messages == () and read.notes == ("cur/: a symbolic link, not followed",)


def test_a_maildir_is_bounded_in_size_and_count(tmp_path: Path) -> None:
    """A message over the size bound is skipped with a note; past the count bound, the newest are read."""
    root = tmp_path / "Maildir"
    _maildir(root)
    for number in range(5):
        (root / "new" / f"{1000 + number}.M{number}.host").write_bytes(_mail(f"m{number}", "x" * (10 + 1000 * number)))
    read = mailbox.read_maildir(str(root), most=3, limit=2500)
    assert [m.label for m in read.messages] == ["new/1002.M2.host"]
    assert read.notes[0] == "2 older messages not read (at most 3 are)"
    assert any(note.startswith("new/1003.M3.host: ") and "more than the 2500" in note for note in read.notes)


def test_a_folder_that_is_no_maildir_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a Maildir"):
        mailbox.read_maildir(str(tmp_path))


# -- mbox ---------------------------------------------------------------------------------------


def test_an_mbox_file_is_split_into_its_messages(tmp_path: Path) -> None:
    """An mbox written by the standard library reads back message by message, the `From ` lines
    of bodies (escaped `>From ` in the file) restored."""
    path = tmp_path / "inbox.mbox"
    box = stdlib_mailbox.mbox(str(path))
    box.add(_mail("one", "From here on, a line that looks like a separator\n"))
    box.add(_mail("two", "second\n"))
    box.flush()
    box.close()
    read = mailbox.read_mbox(str(path))
    assert [m.label for m in read.messages] == ["mbox message 1", "mbox message 2"]
    assert b"\nFrom here on" in read.messages[0].data and b"Subject: two" in read.messages[1].data
    assert not read.messages[0].data.startswith(b"From ")
    assert mailbox.read_mbox(str(path), most=1).messages[0].label == "mbox message 2"
    with pytest.raises(UsageError, match="no such mbox"):
        mailbox.read_mbox(str(tmp_path / "nope"))
    with pytest.raises(UsageError, match="more than"):
        mailbox.read_mbox(str(path), limit=10)


# -- what a mail carries ----------------------------------------------------------------------


def test_a_whole_game_is_found_attached_or_armoured(tmp_path: Path) -> None:
    """An attachment named *.toml that reads as a game file, and an armoured block (even quoted),
    are found; another TOML attachment is not."""
    loaded = _game(tmp_path / "g.toml")
    message = EmailMessage()
    message["Subject"] = "new game"
    message.set_content("here it is\n")
    message.add_attachment(loaded.data, maintype="application", subtype="toml", filename="game.toml")
    message.add_attachment(b'[tool]\nname = "x"\n', maintype="application", subtype="toml", filename="pyproject.toml")
    assert mail.find_game_files(message.as_bytes()) == [loaded.data]
    quoted = "> " + mail.armour_game(loaded.data).replace("\n", "\n> ")
    assert mail.find_game_files(_mail("again", "see below\n\n" + quoted)) == [loaded.data]
    assert mail.find_game_files(mail.armour_game(loaded.data)) == [loaded.data]
    assert mail.find_game_files(_mail("nothing", "no game\n")) == []
    read = store.from_bytes("attached", mail.find_game_files(message.as_bytes())[0])
    assert read.record == loaded.record


def test_blocks_of_two_games_of_two_kinds_are_read_game_by_game(tmp_path: Path) -> None:
    """One mail may hold blocks of a Splendor game and of a Duel: `block_games` names both without
    reading them, and `find_game_blocks` reads one game's with its own rules."""
    base = _game(tmp_path / "base.toml", game="game-base")
    duel = _game(tmp_path / "duel.toml", game="game-duel", duel=True)
    text = mail.export_text(base.record) + "\n> " + mail.export_text(duel.record).replace("\n", "\n> ")
    data = _mail("two games", text)
    assert mail.block_games(data) == ["game-base", "game-duel"]
    [one] = mail.find_game_blocks(data, "game-base", BASE)
    [two] = mail.find_game_blocks(data, "game-duel", DUEL)
    assert one.events == base.record.events[-1:] and two.events == duel.record.events[-1:]
    assert mail.find_game_blocks(data, "game-other", BASE) == []
    cut = text.split(mail.END)[0]
    with pytest.raises(GameFileError, match="cut short"):
        mail.find_game_blocks(_mail("cut", cut), "game-base", BASE)
