"""What a board shows: a game as one seat may know it (a sealed game's hidden cards), drawn as
text or as an SVG picture, and what a finished sealed game still owes (its players' keys).
Shared by `show`, `replay` and `sync`. Standard library only at import.
"""

from __future__ import annotations

from ..errors import IllegalMoveError, UsageError

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any

    from ..projection.game import Game
    from ..store import Loaded


def board(game: Any, color: str, variant: Any = None) -> str:
    """The board of `game` (a Game or a `Moment`) as text for this terminal (`--color WHEN`)."""
    from ..presentation.text import use_theme
    from .output import theme, use_color, width

    use_theme(theme())
    text: str = (variant or game.variant).board_text(game, width=width(), color=use_color(color), ascii=False)
    return text


class Moment:
    """A game as a board draws it: a sealed game's table as one seat may know it."""

    __slots__ = ("seq", "state")

    def __init__(self, seq: int, state: Any) -> None:
        self.seq, self.state = seq, state


def seen(game: Game, seat: str | None) -> Any:
    """`game` as `seat` may know it (a `Moment`): in a sealed game, what their key here opens;
    without a seat, or in an open game, `game` itself."""
    if game.sealing is None or seat is None or not game.states:
        return game
    from .sealed import view

    if seat not in game.players:
        raise UsageError(f"{seat!r} does not play in this game (players: {', '.join(game.players)})")
    return Moment(game.seq, view(game, seat))


def picture(loaded: Loaded, at: int | None, seat: str | None) -> str:
    """The table after event `at` (default: the last) as SVG, what that event changed highlighted."""
    played = loaded.game.at(at) if at is not None else loaded.game
    if not played.states:
        raise IllegalMoveError("the cards are not dealt yet: there is no table to draw", rule="seed")
    if seat is not None and seat not in played.players:
        raise UsageError(f"{seat!r} does not play in this game (players: {', '.join(played.players)})")
    return played.variant.board_svg(seen(played, seat), seat=seat, event=played.events[-1])


def keys_owed(game: Game) -> tuple[str, ...]:
    """The players of a sealed game that is over who have not published their keys (`show`)."""
    sealing = game.sealing
    if sealing is None or not game.states or not game.state.finished:
        return ()
    return tuple(player for player in sealing.players if player not in sealing.published)


def keys_owed_line(owed: tuple[str, ...]) -> str:
    """What `show` and `verify` say of a finished sealed game's unpublished keys (`keys_owed`)."""
    return (
        f"the game is over, but the keys of {', '.join(owed)} are not published: the audit cannot open"
        " the sealed cards nor re-make their shuffles (`splendor seal` publishes them)"
    )
