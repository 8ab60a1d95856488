"""The board in a turn mail is its reader's: the other players' blind reserves face down (a real
SMTP server on 127.0.0.1, the settings from a real notify.toml)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import cli
from sharing.test_notify import local_smtp, new_game, notify_settings, play, smtp_sink

__all__ = ["notify_settings"]  # the fixture, shared


def test_the_mail_to_bob_shows_anns_blind_reserve_face_down(notify_settings: Any, tmp_path: Path) -> None:
    """ann reserves blind from deck 2; the mail to bob (to move) draws it `? level 2`, its id
    nowhere in the board (the attached move block still names it: an open game's file does)."""
    path = tmp_path / "g.toml"
    new_game(path)
    play(path, "reserve", "deck", "2")
    code, out, err = cli("state", "-g", path, "--json", "--as", "ann")
    assert code == 0, err
    (card,) = next(p for p in json.loads(out)["players"] if p["name"] == "ann")["reserved"]
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        code, _, err = cli("notify", "-g", path)
    assert code == 0, err
    [message] = sink.messages()
    assert message["To"] == "bob <bob@example.org>"
    body = message.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    board = "\n".join(line for line in text.splitlines() if line.startswith("|"))  # the tables' rows
    assert "| Level 3 |" in board and "? level 2" in board and card not in board
