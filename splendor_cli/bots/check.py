"""A bot seat's moves, computed again by every reader: in a game of format 3 or later (one that
`splendor new` made with bot seats), each move of a seat named `bot:SPEC` must be the move its
bot makes, so that no player can play a bot seat's turn to their own advantage.

A bot is a pure function of the table and a random source, and the source of a bot seat's move
is seeded by the file alone (`seat_random`: the game's id and the number of events before the
move), so every reader gets the same move. A seat whose bot thinks for a time (`mcts:0.5s`) is not
reproducible and is not checked. A seat whose spec names no bot of this version (`bot:Greedy`, typed
into a header by hand: specs are case-sensitive) cannot be checked: its first move is refused.
Files of formats 1 and 2 are read as they were written.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import CorruptLogError, UsageError
from . import KINDS, make_bot, parse_spec, seat_spec


def seat_random(game_id: str, before: int) -> random.Random:
    """The random source of a bot seat's move in game `game_id`, played after event `before`:
    `random.Random("GAME_ID:BEFORE")` (what `splendor bot` and `play --bots` draw from)."""
    return random.Random(f"{game_id}:{before}")


def known(spec: str) -> bool:
    """Whether `spec` names a bot of this version (`parse_spec` takes it, as `splendor new` does)."""
    try:
        parse_spec(spec)
    except UsageError:
        return False
    return True


def reproducible(spec: str) -> bool:
    """Whether the bot of `spec` makes the same move from the same table and source (all but a
    think budget in seconds)."""
    try:
        return parse_spec(spec)[2] is None
    except Exception:  # a seat whose spec this version does not know: nothing to compute
        return False


_MOVES: dict[tuple[str, int, str, Any], Any] = {}
"""The moves `seat_move` computed in this process, by game, event before the move, spec and table."""
_MOST = 256


def seat_move(variant: Any, spec: str, table: Any, game_id: str, before: int) -> Any:
    """The move the bot of `spec` makes on `table` as a bot seat of game `game_id` after event
    `before` (its source: `seat_random`). A bot is a pure function of these, so a move computed
    once in a process (`splendor bot` plays it) is not computed again when the gate judges it."""
    key = (game_id, before, spec, table)
    move = _MOVES.get(key)
    if move is None:
        if len(_MOVES) >= _MOST:
            _MOVES.clear()
        move = _MOVES[key] = make_bot(variant, spec)(table, seat_random(game_id, before))
    return move


def check_moves(game: Any, game_id: str, *, after: int = 0) -> None:
    """Compute again each effective move of a bot seat after event `after`, and refuse the first
    that is not its bot's (the table it was played on, the source `seat_random` gives).

    Raises:
        CorruptLogError: naming the event, the move in the file and the bot's.
    """
    variant = game.variant
    events, played_after, states = game.events, game.after, game.states
    for index in range(1, len(played_after)):
        seq = played_after[index]
        if seq <= after:
            continue
        event = events[seq - 1]
        if not isinstance(event, variant.play_types):
            continue
        spec = seat_spec(event.player)
        if not spec:
            continue
        if not known(spec):  # `bot:Greedy` typed into a header: no bot, so no move of it is checked
            raise CorruptLogError(
                f"{event.player} is a bot seat, but {spec!r} names no bot of this version ({', '.join(KINDS)};"
                " names are case-sensitive): its moves cannot be computed again, so none is taken",
                seq=seq,
            )
        if not reproducible(spec):
            continue
        table = states[index - 1]
        move, played = seat_move(variant, spec, table, game_id, seq - 1), variant.move_of(event)
        want, got = variant.format_move(_as_written(variant, table, move)), variant.format_move(played)
        if want != got:
            raise CorruptLogError(
                f"{event.player} played {got!r}, but its bot plays {want!r} there: a bot seat's move is"
                " its bot's, which every reader computes again (`splendor bot` plays it)",
                seq=seq,
            )


def _as_written(variant: Any, table: Any, move: Any) -> Any:
    """The bot's `move` as the file records it (a payment by default made explicit): the move of
    the event it makes on `table`. Its outcome left to chance (a Duel's replenish) is drawn from a
    fixed source here: the log draws it when it is played, and the move's notation does not show it."""
    from ..projection.seeding import SeededChance

    try:
        return variant.move_of(variant.decide(table, variant.draw(table, move, SeededChance(bytes(32)))))
    except Exception:  # the bot's move does not play: compared as it is (and refused)
        return move
