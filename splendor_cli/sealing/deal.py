"""The setup of a sealed game, dealt from its sealed decks (pure).

The game deals as it declares (`SealedCards.deal`): from decks given, each card a placeholder
(`2?07`) but those every player's shares opened, and the rest of the deal (nobles, a Duel's
bag) from SHA-256 of every share of the face-up cards, which nobody could choose alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .placeholders import placeholder
from .reveal import unrevealed
from .table import refuse

if TYPE_CHECKING:
    from ..events import Event
    from ..projection.variant import AnyVariant
    from .table import Sealing


class _AsListed:
    """A chance that draws nothing: the items as listed (a sample: the first ones)."""

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        return tuple(items)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return tuple(items[:count])


def face_up_cards(variant: AnyVariant, sealing: Sealing) -> tuple[str, ...]:
    """The placeholders that the game's setup deals face up (in the order the state holds them)."""
    decks = {
        level: tuple(placeholder(level, k) for k in range(1, len(sealing.cards[level]) + 1)) for level in sealing.levels
    }
    setup = sealing.game.deal(sealing.players, decks, _AsListed())
    face_up, _ = unrevealed(sealing, variant.start(setup))
    return face_up


def deal(sealing: Sealing) -> Event:
    """The setup of a sealed game whose face-up cards are all revealed: those cards where the
    deal puts them, a placeholder for every other card, and the rest of the deal (nobles, a
    Duel's bag) from SHA-256 of the game's session id (its root before format 4) and every share
    of the face-up cards."""
    from ..projection.seeding import SeededChance

    late = [card for card in sealing.face_up if card not in sealing.revealed]
    if not sealing.shuffled or late:
        raise refuse(f"the cards cannot be dealt yet: {sealing.stage()}")
    decks = {
        level: tuple(
            sealing.revealed.get(placeholder(level, k), placeholder(level, k))
            for k in range(1, len(sealing.cards[level]) + 1)
        )
        for level in sealing.levels
    }
    seed = hashlib.sha256(sealing.session)
    for card in sealing.face_up:
        for player in sealing.players:
            seed.update(sealing.shares[card][player].data)
    return sealing.game.deal(sealing.players, decks, SeededChance(seed.digest()))


__all__ = ["deal", "face_up_cards"]
