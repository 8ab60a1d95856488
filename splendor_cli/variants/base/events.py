"""The events of a game of Splendor: its setup and its four kinds of turn.

Same envelope and rules as every event (`seq`, `parent`, flat tables, type tags never renamed:
see `splendor_cli.events`). A turn derives from `PlayEvent`, which declares its `player` and `by`
(who played it for `player`, written only when set) once for every game.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

import attrs

from ...events import Envelope, PlayEvent, WrittenForm, numbered_form, numbered_keys, strings
from ...model import Gem

DECK_KEYS = numbered_keys("deck", 3)
"""How a file names the decks of a setup, level 1 first (`deck_1` ...): `GameStarted.FORM`."""


@attrs.frozen(kw_only=True)
class GameStarted(Envelope):
    """The setup, recorded as the outcome of the shuffle so that a file always replays the same.

    `decks` lists each level's cards from the top (level 1 first); the first four of each are
    dealt face up. `nobles` are the nobles revealed (players + 1); the others left the game unseen.
    The file writes the decks as it always did, one key a level (`DECK_KEYS`: `FORM`).
    """

    TYPE: ClassVar[str] = "game_started"
    FORM: ClassVar[WrittenForm | None] = numbered_form("decks", DECK_KEYS, item=strings)
    variant: str
    players: tuple[str, ...]
    decks: tuple[tuple[str, ...], ...]
    nobles: tuple[str, ...]

    @classmethod
    def of(cls, players: tuple[str, ...], decks: tuple[tuple[str, ...], ...], nobles: tuple[str, ...]) -> GameStarted:
        """The setup of a base game with these players, deck orders (levels 1 to 3) and nobles."""
        return cls(seq=1, variant="base", players=players, decks=decks, nobles=nobles)


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
