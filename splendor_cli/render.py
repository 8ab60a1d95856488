"""Text for people: the board and the log (placeholder until the rich renderer lands)."""

from __future__ import annotations

import json

from .projection import Game
from .views import LogEntry, state_json


def board_text(game: Game, *, width: int = 100, color: bool = False, ascii: bool = False) -> str:
    return json.dumps(state_json(game), indent=1)


def log_text(entries: list[LogEntry], *, color: bool = False) -> str:
    return "\n".join(f"{e.seq:>4} {e.player or '':<8} {e.notation}{'  (undone)' if e.undone else ''}" for e in entries)
