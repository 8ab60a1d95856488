"""The undo policy of asynchronous play, whatever the game: who may take back which turns.

A player takes back their own turns (and the bot seats' answers to them); taking back another
player's turn is an agreed rewind (`forced`); the game's table protocol may ask more (in a sealed
game, a move after which a card was revealed to its player, or a forced rewind, needs the others'
`RewindAgreed` first: `TableProtocol.check_agreed`). The fold
(game.py) checks every written undo again with `check_undo`; `Game.decide_undo` makes a new one
with `decide_undo`.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Protocol

from ..errors import IllegalMoveError, UsageError, excerpt
from ..events import Event, TurnUndone, actor

if TYPE_CHECKING:  # what the policy reads of a game (types only: no start-up cost)
    from .table_protocol import TableProtocol

    class History(Protocol):
        """What the undo policy reads of a game: a `Game`, or a `_Fold` under way."""

        @property
        def events(self) -> Sequence[Event]: ...

        @property
        def after(self) -> Sequence[int]: ...

        @property
        def undone(self) -> AbstractSet[int]: ...

        @property
        def seq(self) -> int: ...

        @property
        def players(self) -> tuple[str, ...]: ...

        @property
        def protocol(self) -> TableProtocol: ...


BOT_SEAT = "bot:"
"""How a bot's seat is named: `bot:SPEC` (`bot:mcts:400#2`)."""


def is_bot_seat(name: str) -> bool:
    """Whether `name` is a bot's seat: `bot:` then a spec (what `splendor_cli.bots.seat_spec`
    reads; the core cannot import the bots, and a test checks that the two agree)."""
    return name.startswith(BOT_SEAT) and bool(name[len(BOT_SEAT) :].partition("#")[0])


def _actor_at(game: History, index: int) -> str:
    """Who played the effective move `game.after[index]`."""
    return actor(game.events[game.after[index] - 1])


def others_of(actors: Sequence[str], by: str) -> list[str]:
    """The players but `by` whose moves these are, in order; the bot seats' moves that follow one
    of `by`'s (the bots' answers to it) do not count."""
    others: list[str] = []
    answered = False
    for name in actors:
        if name == by:
            answered = True
        elif not (answered and is_bot_seat(name)) and name not in others:
            others.append(name)
    return others


def _default_target(game: History, by: str) -> int:
    """The event a plain undo goes back to: just before the last move, or, when the last moves are
    bot seats' answers to a person's move (`by`'s, or anyone's when `by` is not said), just before
    that person's move."""
    index = len(game.after) - 1
    while index > 0 and is_bot_seat(_actor_at(game, index)):
        index -= 1
    if 0 < index < len(game.after) - 1 and (not by or by == _actor_at(game, index)):
        return game.after[index - 1]
    return game.after[-2]


def possessives(players: Sequence[str]) -> str:
    """`ann's and bob's`."""
    return " and ".join(f"{p}'s" for p in players)


def check_undo(game: History, *, to: int, by: str, forced: bool) -> list[str]:
    """Refuse an undo to `to` asked by `by` that the policy forbids; return the players whose moves
    it takes back (in order). An undo that nobody signed (`by` empty, as earlier releases wrote
    them) is not judged by the policy: it is read as it was written.

    Raises:
        IllegalMoveError: nothing to undo, `to` is not an effective event before the last, or
            the policy forbids it.
    """
    if len(game.after) < 2:
        raise IllegalMoveError("there is no turn to undo", rule="undo")
    if by and by not in game.players:
        raise IllegalMoveError(f"{excerpt(by)} does not play in this game", rule="undo")
    if to not in game.after[:-1]:
        if to in game.undone:
            why = "was undone already"
        elif 1 <= to <= game.seq and isinstance(game.events[to - 1], TurnUndone):
            why = "is an undo, not a turn"
        elif to == game.after[-1]:
            why = "is the last turn: the game is there already"
        elif 1 <= to < game.after[0]:
            why = "comes before the cards were dealt"
        else:
            why = "does not exist"
        raise IllegalMoveError(f"cannot undo to event #{to}: it {why}", rule="undo")
    indices = range(game.after.index(to) + 1, len(game.after))
    actors = [_actor_at(game, i) for i in indices]
    if by and not forced:  # a move `by` played for another (`play --for`) is theirs to take back too
        relayed = [getattr(game.events[game.after[i] - 1], "by", "") for i in indices]
        others = others_of([by if relayer == by else name for name, relayer in zip(actors, relayed)], by)
        if others:
            raise IllegalMoveError(
                f"{by} may take back only their own turns (and the bots' answers to them);"
                f" this would take back {possessives(others)}: agree on it and use --force",
                rule="undo",
            )
    return actors


def decide_undo(game: History, *, to: int | None, by: str, forced: bool) -> TurnUndone:
    """`Game.decide_undo` for a new undo (a fold re-checks a written one with `check_undo`)."""
    if len(game.after) < 2:
        raise IllegalMoveError("there is no turn to undo", rule="undo")
    if to is None:
        to = _default_target(game, by)
    actors = check_undo(game, to=to, by=by, forced=forced)
    why = game.protocol.undo_refused()
    if why:
        raise IllegalMoveError(why, rule="undo")
    game.protocol.check_agreed(game, actors, to=to, by=by or actors[0], forced=forced)
    if not by:  # nobody said who asks: the one whose moves they all are, if there is one
        others = others_of(actors, actors[0])
        if others and not forced:
            raise IllegalMoveError(
                f"this would take back {possessives([actors[0], *others])} turns: agree on it and use --force,"
                " with --as NAME to say who asks",
                rule="undo",
            )
        if others:
            raise UsageError(
                f"say who asks for this rewind over {possessives([actors[0], *others])} turns:"
                " --as NAME (or $SPLENDOR_PLAYER)"
            )
        by = actors[0]
    return TurnUndone(by=by, to=to, forced=forced)
