"""What a board shows: a game as one viewer may know it (the others' blind reserves face down, a
sealed game's hidden cards), drawn as text or as an SVG picture, and what a finished sealed game
still owes (its players' keys). Shared by `show`, `replay` and `sync`. Standard library only at
import.
"""

from __future__ import annotations

from ...errors import IllegalMoveError, UsageError, excerpt

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any

    from ...projection.game import Game
    from ...store import Loaded


def board(game: Any, color: str, variant: Any = None) -> str:
    """The board of `game` (a Game or a `Moment`) as text for this terminal (`--color WHEN`)."""
    from ...presentation.text import use_theme
    from ..output import theme, use_color, width

    use_theme(theme())
    text: str = (variant or game.variant).board_text(game, width=width(), color=use_color(color), ascii=False)
    return text


class Moment:
    """A game as a board draws it: its table as one viewer may know it (`seen`: the others' blind
    reserves face down; a sealed game's cards that the viewer's key opens)."""

    __slots__ = ("seq", "state")

    def __init__(self, seq: int, state: Any) -> None:
        self.seq, self.state = seq, state


def viewer(game: Game, seat: str | None) -> str | None:
    """Whose view a board of `game` shows by default: `seat` (--as, or $SPLENDOR_PLAYER: ignored
    when it names nobody of this game), else in a sealed game the seat the local key joined, else
    the one person of a game against bots; None (a spectator: every blind reserve face down) when
    nothing says.

    Raises:
        UsageError: `--as` names nobody who plays.
    """
    import os

    if seat is not None:
        if seat in game.players:
            return seat
        if seat != os.environ.get("SPLENDOR_PLAYER"):
            raise UsageError(f"{excerpt(seat)} does not play in this game (players: {', '.join(game.players)})")
    from .table_part import part

    return part(game).viewer(game)


def check_all(game: Game) -> None:
    """Refuse `--all` (every hidden card face up) unless `game` is over, or nobody but one
    person plays it (against bots): a board must not spoil a game under way by accident.

    Raises:
        UsageError: the game is under way between people.
    """
    if game.states and game.state.finished:
        return
    from .table_part import people_of

    if len(people_of(game)) <= 1:
        return
    raise UsageError(
        "--all shows every hidden card: only once the game is over, or in a game against bots alone"
        " (--as NAME: what NAME may see)"
    )


def seen(game: Game, seat: str | None, *, every: bool = False) -> Any:
    """`game` as `seat` may know it (a `Moment`): in a sealed game, what their key here opens;
    in any game, every other player's blind reserves face down (their placeholders, `hide_blind`);
    without a seat, a spectator's (every blind reserve face down). `every`: nothing hidden but what
    the file itself seals (`--all`, checked by `check_all`)."""
    if not game.states:
        return game
    if seat is not None and seat not in game.players:
        raise UsageError(f"{excerpt(seat)} does not play in this game (players: {', '.join(game.players)})")
    if every:
        return Moment(game.seq, game.state)
    state = game.state
    if seat is not None:
        from .table_part import part

        state = part(game).view(game, seat)
    return Moment(game.seq, hide_blind(state, seat))


def hide_blind(state: Any, seat: str | None) -> Any:
    """`state` with the blind reserves of every player but `seat` face down (their placeholders):
    `variants.common.display.hide_blind`."""
    from ...variants.common.display import hide_blind as hidden

    return hidden(state, seat)


def picture(loaded: Loaded, at: int | None, seat: str | None, *, every: bool = False) -> str:
    """The table after event `at` (default: the last) as SVG, what that event changed highlighted,
    as `seat` may see it (`seen`; `every`: everything the file shows)."""
    played = loaded.game.at(at) if at is not None else loaded.game
    if not played.states:
        raise IllegalMoveError("the cards are not dealt yet: there is no table to draw", rule="seed")
    if seat is not None and seat not in played.players:
        raise UsageError(f"{excerpt(seat)} does not play in this game (players: {', '.join(played.players)})")
    from ...presentation.svgtable import EVERY_SEAT

    return played.variant.board_svg(
        seen(played, seat, every=every), seat=EVERY_SEAT if every else seat, event=played.events[-1]
    )


def keys_owed(game: Game) -> tuple[str, ...]:
    """The players of a sealed game that is over who have not published their keys (`show`)."""
    return game.protocol.keys_owed(bool(game.states) and game.state.finished) or ()


def keys_owed_line(owed: tuple[str, ...]) -> str:
    """What `show` and `verify` say of a finished sealed game's unpublished keys (`keys_owed`)."""
    return (
        f"the game is over, but the keys of {', '.join(owed)} are not published: the audit cannot open"
        " the sealed cards nor re-make their shuffles (`splendor seal` publishes them)"
    )
