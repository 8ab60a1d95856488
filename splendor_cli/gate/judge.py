"""The one judge of what the fold does not judge alone (`judge_events`): the gate judges every
copy and every new event with it, and so does the history audit's checker (sharing/checker.py),
which imports it from here without the gate (the gate runs that audit: no circle).

Standard library only at import.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..events.codec import Record
    from ..projection import Game


def judge_events(record: Record, game: Game, *, after: int = 0) -> None:
    """Judge what the fold does not of the events of `record` (folded into `game`) after event
    `after`: in a game of format 3 on, each bot seat's move is computed again (bots/check.py).
    The history audit (`verify --git`) and the gate judge with this one function.

    Raises:
        CorruptLogError: naming the first event refused (exit 4).
    """
    from ..store import BOT_SEATS_FORMAT

    if record.header.format < BOT_SEATS_FORMAT or game.protocol.hidden or not game.states:
        return  # (bots/check.py, and the random module it loads, are imported for a bots' game alone)
    if after >= len(record.events):
        return
    from ..bots.check import check_moves

    check_moves(game, record.header.game, after=after)
