"""Small things of playing by mail: `apply -g FILE` refuses another game's mail (rather than
creating that game beside it), and `export --whole` prints nothing a terminal acts on, whatever
the header says."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from helpers import ok_in as ok
from helpers import run_in as run

from splendor_cli import store
from splendor_cli.errors import UNSAFE

PLAYERS = "ann=ann@example.org,bob=bob@example.org"


def _whole_mail(path: Path) -> bytes:
    message = EmailMessage()
    message["Subject"] = "our game"
    message.set_content("the game so far\n")
    message.add_attachment(path.read_bytes(), maintype="application", subtype="toml", filename="g.toml")
    return message.as_bytes()


def test_apply_g_refuses_another_games_mail(tmp_path: Path) -> None:
    """-g names one game, the mail carries another whole: exit 2 naming both, nothing written
    (it created the other game under games/, ignoring -g)."""
    ok(tmp_path, "new", "-g", "mine.toml", "--players", PLAYERS, "--seed", 1)
    ok(tmp_path, "new", "-g", "other.toml", "--players", PLAYERS, "--seed", 2)
    ok(tmp_path, "play", "-g", "other.toml", "take", "red", "red")
    mine_id = store.read(tmp_path / "mine.toml").record.header.game
    other_id = store.read(tmp_path / "other.toml").record.header.game
    (tmp_path / "mail.eml").write_bytes(_whole_mail(tmp_path / "other.toml"))
    before = (tmp_path / "mine.toml").read_bytes()
    code, out, err = run(tmp_path, "apply", "-g", "mine.toml", "mail.eml")
    assert code == 2, (out, err)
    assert other_id in err and mine_id in err and err.count("\n") == 1
    assert (tmp_path / "mine.toml").read_bytes() == before
    assert not (tmp_path / "games").exists()


def test_export_whole_prints_no_bidi_control_from_the_header(tmp_path: Path) -> None:
    """A header field holding a right-to-left override and an isolate raw (TOML itself refuses
    raw C0 controls) is exported escaped, as TOML escapes: the same values, so the mailed game
    still creates the same game."""
    import random

    from helpers import deal

    from splendor_cli.events.codec import Header

    path = tmp_path / "g.toml"
    created = "2026-12-05T00:00:00Z\u202e\u2066x"
    header = Header(game="g-bidi", variant="base", players=("ann", "bob"), created=created)
    store.create(path, header, deal(("ann", "bob"), random.Random(3)))
    ok(tmp_path, "play", "-g", path, "take", "red", "red")
    loaded = store.read(path)  # the reader takes it, and the file holds it raw
    assert "\u202e" in path.read_text() and loaded.record.header.created == created
    printed = ok(tmp_path, "export", "-g", path, "--whole")
    assert not any(ord(char) in UNSAFE for char in printed.replace("\n", ""))
    assert "\\u202e" in printed
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "mail.txt").write_text(printed)
    ok(home, "apply", tmp_path / "mail.txt")
    copy = store.read(home / "games" / f"{loaded.record.header.game}.toml")
    assert copy.record.header == loaded.record.header and copy.record.head == loaded.record.head
