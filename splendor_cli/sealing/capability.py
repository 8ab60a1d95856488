"""What a game declares to be played sealed, and the first event of a sealed game (pure).

As OpenSpiel's `GameType` says up front what a game is, a game says whether it can be sealed:
its `Variant.sealed_cards` is a `SealedCards` (or None: the game cannot be sealed, and
`splendor new --sealed` refuses it, exit 2, where the first event is made: `ask`). The sealed
protocol reads the game through this declaration only; it never probes the game's deal nor
walks its states to find where cards are.

A game with decks of cards usually declares a `SealedDecks`: its decks (by level, 1, 2, ...: as
many as the game has, and so as many as each shuffle holds), its deal from given decks, and where
its states keep cards outside the decks; revealed cards replace placeholders
wherever they are in an attrs state or event (`substitution.substitute_anywhere`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from ..errors import UsageError
from ..events import Event
from .events import SealedAsked
from .substitution import substitute_anywhere

if TYPE_CHECKING:
    from ..projection.variant import AnyVariant, Chance, Decks, Places

    Dealer = Callable[[tuple[str, ...], Decks, Chance], Event]

S_contra = TypeVar("S_contra", contravariant=True)


@attrs.frozen(kw_only=True)
class SealedDecks(Generic[S_contra]):
    """A `SealedCards` made of what differs between games (their decks, their deal, where their
    states keep cards); revealed cards replace placeholders anywhere (`substitute_anywhere`)."""

    decks: Decks
    deal: Dealer
    places: Callable[[S_contra], Places]

    def card_places(self, state: S_contra) -> Places:
        return self.places(state)

    def substitute(self, value: Any, cards: Mapping[str, str]) -> Any:
        return substitute_anywhere(value, cards)


def cannot(variant: AnyVariant) -> str:
    """Why `variant` cannot be sealed ("" when it can)."""
    if variant.sealed_cards is not None:
        return ""
    return f"{variant.name} cannot be sealed: the game declares no sealed cards"


def ask(variant: AnyVariant, players: tuple[str, ...]) -> SealedAsked:
    """The first event of a sealed game of `variant` between `players`.

    Raises:
        UsageError: the game declares no sealed cards (exit 2: ask for an open game instead).
    """
    why = cannot(variant)
    if why:
        raise UsageError(f"{why} (play it open: without --sealed)")
    return SealedAsked(seq=1, variant=variant.name, players=players)


__all__ = ["SealedDecks", "ask", "cannot"]
