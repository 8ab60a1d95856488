"""The events of a game of Splendor: its setup and its four kinds of turn.

Same envelope and rules as every event (`seq`, `parent`, flat payloads, type tags never renamed:
see `splendor_cli.events`). A turn derives from `PlayEvent`, which declares its `player` and `by`
(who played it for `player`, written only when set) once for every game.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

import attrs

from ...events import Envelope, PlayEvent
from ...model import Gem


@attrs.frozen(kw_only=True)
class GameStarted(Envelope):
    """The setup, recorded as the outcome of the shuffle so that a file always replays the same.

    Each `deck_N` lists that level's cards from the top; its first four are dealt face up.
    `nobles` are the nobles revealed (players + 1); the others left the game unseen.
    """

    TYPE: ClassVar[str] = "game_started"
    variant: str
    players: tuple[str, ...]
    deck_1: tuple[str, ...]
    deck_2: tuple[str, ...]
    deck_3: tuple[str, ...]
    nobles: tuple[str, ...]

    @classmethod
    def of(cls, players: tuple[str, ...], decks: tuple[tuple[str, ...], ...], nobles: tuple[str, ...]) -> GameStarted:
        """The setup of a base game with these players, deck orders (levels 1 to 3) and nobles."""
        deck_1, deck_2, deck_3 = decks
        return cls(
            seq=1,
            variant="base",
            players=players,
            deck_1=deck_1,
            deck_2=deck_2,
            deck_3=deck_3,
            nobles=nobles,
        )


@attrs.frozen(kw_only=True)
class TokensTaken(PlayEvent):
    """A player took 3 gems of different colours (fewer when fewer are left) or 2 of one colour.

    `returned` are the tokens given back to end the turn with 10; `noble` the noble that
    visited at the end of the turn ("" when none did).
    """

    TYPE: ClassVar[str] = "tokens_taken"
    gems: tuple[Gem, ...]
    returned: tuple[Gem, ...]
    noble: str


@attrs.frozen(kw_only=True)
class CardReserved(PlayEvent):
    """A player reserved a face-up card, or blind the top card of a deck (`blind`).

    `gold` tells whether a gold token came with it; `drawn` is the card dealt from the deck
    into the emptied slot ("" for a blind reserve, or when that deck was empty).
    """

    TYPE: ClassVar[str] = "card_reserved"
    card: str
    blind: bool
    gold: bool
    drawn: str
    returned: tuple[Gem, ...]
    noble: str


@attrs.frozen(kw_only=True)
class CardPurchased(PlayEvent):
    """A player bought a face-up card or one of their reserved cards, paying `payment`.

    `drawn` is the card dealt into the emptied slot ("" for a reserved card or an empty deck).
    """

    TYPE: ClassVar[str] = "card_purchased"
    card: str
    payment: tuple[Gem, ...]
    drawn: str
    noble: str


@attrs.frozen(kw_only=True)
class TurnPassed(PlayEvent):
    """A player had no legal action and passed (a noble may still visit)."""

    TYPE: ClassVar[str] = "turn_passed"
    noble: str


TurnEvent: TypeAlias = TokensTaken | CardReserved | CardPurchased | TurnPassed
TURN_TYPES: tuple[type[TurnEvent], ...] = (TokensTaken, CardReserved, CardPurchased, TurnPassed)
"""The events of a turn."""
