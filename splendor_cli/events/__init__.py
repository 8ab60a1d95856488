"""The events of a game log: frozen, flat, each with a stable type tag written to the file.

Every event carries the envelope `seq` (its 1-based position in the log) and `parent` (the
digest of the event before it; for the first event, of the file header), which chains the
log as git chains commits. Payloads are flat: scalars and arrays of scalars, so that one
event is one `[[events]]` block of the file. Never rename a TYPE or a field: old files
must stay readable (change the schema by adding an upcaster keyed on the format number).
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

import attrs

from ..model import Gem
from .duel import STEP_TYPES, DuelStarted, StepEvent


@attrs.frozen(kw_only=True)
class GameStarted:
    """The setup, recorded as the outcome of the shuffle so that a file always replays the same.

    Each `deck_N` lists that level's cards from the top; its first four are dealt face up.
    `nobles` are the nobles revealed (players + 1); the others left the game unseen.
    """

    TYPE: ClassVar[str] = "game_started"
    seq: int
    parent: str
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
            parent="",
            variant="base",
            players=players,
            deck_1=deck_1,
            deck_2=deck_2,
            deck_3=deck_3,
            nobles=nobles,
        )


@attrs.frozen(kw_only=True)
class TokensTaken:
    """A player took 3 gems of different colours (fewer when fewer are left) or 2 of one colour.

    `returned` are the tokens given back to end the turn with 10; `noble` the noble that
    visited at the end of the turn ("" when none did).
    """

    TYPE: ClassVar[str] = "tokens_taken"
    seq: int
    parent: str
    player: str
    gems: tuple[Gem, ...]
    returned: tuple[Gem, ...]
    noble: str


@attrs.frozen(kw_only=True)
class CardReserved:
    """A player reserved a face-up card, or blind the top card of a deck (`blind`).

    `gold` tells whether a gold token came with it; `drawn` is the card dealt from the deck
    into the emptied slot ("" for a blind reserve, or when that deck was empty).
    """

    TYPE: ClassVar[str] = "card_reserved"
    seq: int
    parent: str
    player: str
    card: str
    blind: bool
    gold: bool
    drawn: str
    returned: tuple[Gem, ...]
    noble: str


@attrs.frozen(kw_only=True)
class CardPurchased:
    """A player bought a face-up card or one of their reserved cards, paying `payment`.

    `drawn` is the card dealt into the emptied slot ("" for a reserved card or an empty deck).
    """

    TYPE: ClassVar[str] = "card_purchased"
    seq: int
    parent: str
    player: str
    card: str
    payment: tuple[Gem, ...]
    drawn: str
    noble: str


@attrs.frozen(kw_only=True)
class TurnPassed:
    """A player had no legal action and passed (a noble may still visit)."""

    TYPE: ClassVar[str] = "turn_passed"
    seq: int
    parent: str
    player: str
    noble: str


@attrs.frozen(kw_only=True)
class TurnUndone:
    """The game goes back to how it was just after event `to`; the turns after it are undone.

    `by` names who asked for it ("" when not said); `forced` marks an agreed rewind over other
    players' turns (written only when true). Nothing is removed from the file.
    """

    TYPE: ClassVar[str] = "turn_undone"
    seq: int
    parent: str
    by: str
    to: int
    forced: bool = False


@attrs.frozen(kw_only=True)
class SeedsAsked:
    """The players deal by commit-then-reveal: each commits to a secret, then reveals it, and the
    shuffle follows from all the secrets together, so that nobody alone chooses it."""

    TYPE: ClassVar[str] = "seeds_asked"
    seq: int
    parent: str
    variant: str
    players: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SeedCommitted:
    """A player's commitment: the SHA-256 of their name and their secret, which stays hidden."""

    TYPE: ClassVar[str] = "seed_committed"
    seq: int
    parent: str
    player: str
    commitment: str


@attrs.frozen(kw_only=True)
class SeedRevealed:
    """A player's secret, revealed once every player has committed; it must match the commitment."""

    TYPE: ClassVar[str] = "seed_revealed"
    seq: int
    parent: str
    player: str
    secret: str


TurnEvent: TypeAlias = TokensTaken | CardReserved | CardPurchased | TurnPassed
SeedEvent: TypeAlias = SeedsAsked | SeedCommitted | SeedRevealed
Event: TypeAlias = (
    GameStarted
    | TokensTaken
    | CardReserved
    | CardPurchased
    | TurnPassed
    | TurnUndone
    | SeedsAsked
    | SeedCommitted
    | SeedRevealed
    | DuelStarted
    | StepEvent
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameStarted,
        TokensTaken,
        CardReserved,
        CardPurchased,
        TurnPassed,
        TurnUndone,
        SeedsAsked,
        SeedCommitted,
        SeedRevealed,
        DuelStarted,
        *STEP_TYPES,
    )
}
TURN_TYPES: tuple[type[TurnEvent], ...] = (TokensTaken, CardReserved, CardPurchased, TurnPassed)
"""The events of a base game's turns."""
PLAY_TYPES: tuple[type[TurnEvent | StepEvent], ...] = (*TURN_TYPES, *STEP_TYPES)
"""The events a player makes by playing: a base game's turns and a Duel's steps."""


def actor(event: Event) -> str:
    """Who made the event: the player of a turn or a seed step, who asked for an undo; "" for the
    setup and for an undo nobody signed."""
    if isinstance(event, TurnUndone):
        return event.by
    if isinstance(event, GameStarted | SeedsAsked | DuelStarted):
        return ""
    return event.player


__all__ = [
    "EVENT_TYPES",
    "PLAY_TYPES",
    "STEP_TYPES",
    "TURN_TYPES",
    "CardPurchased",
    "CardReserved",
    "DuelStarted",
    "Event",
    "GameStarted",
    "SeedCommitted",
    "SeedEvent",
    "SeedRevealed",
    "SeedsAsked",
    "StepEvent",
    "TokensTaken",
    "TurnEvent",
    "TurnPassed",
    "TurnUndone",
    "actor",
]
