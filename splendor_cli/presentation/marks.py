"""What the log's readers for people (`log`, the replay) mark on a line besides its notation."""

from __future__ import annotations

from ..bots import seat_spec
from ..projection.log import LogEntry


def bot_move(entry: LogEntry) -> bool:
    """Whether `entry` is a move of a bot seat (`bot:SPEC`): its bot's, which every reader of a
    file of format 3 on computes again; marked `(bot)`."""
    return entry.turn is not None and bool(seat_spec(entry.player or ""))
