"""The events of a Splendor Duel log: one per step of a turn (see docs/contract.md, Splendor Duel).

Same envelope and rules as the base game's events (`seq`, `parent`, flat tables, type tags
never renamed); a step derives from `PlayEvent`, which declares its `player` and `by` once. Board
cells are written by name (`c3`), tokens by colour. Each event records what a reader would want to
see without replaying (the colour under a cell, the card drawn), and the fold checks it against
the rules.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

import attrs

from ...events import Envelope, PlayEvent, WrittenForm, numbered_form, numbered_keys, strings
from ...model import Gem

DECK_KEYS = numbered_keys("deck", 3)
"""How a file names the decks of a setup, level 1 first (`deck_1` ...): `DuelStarted.FORM`."""


@attrs.frozen(kw_only=True)
class DuelStarted(Envelope):
    """The setup of a Duel: the shuffled decks (`decks`, level 1 first, each from the top; the first
    5, 4 and 3 cards of levels 1, 2 and 3 make the pyramid) and the 25 tokens as they landed on the
    board, cell by cell from a1 to e5 (row 1 first). The first player named plays first; the second
    gets a privilege. The file writes the decks as it always did, one key a level (`DECK_KEYS`:
    `FORM`)."""

    TYPE: ClassVar[str] = "duel_started"
    FORM: ClassVar[WrittenForm | None] = numbered_form("decks", DECK_KEYS, item=strings)
    players: tuple[str, ...]
    decks: tuple[tuple[str, ...], ...]
    board: tuple[Gem, ...]


@attrs.frozen(kw_only=True)
class PrivilegeUsed(PlayEvent):
    """Optional action 1: a privilege spent on the token of `cell` (`gem`, never gold)."""

    TYPE: ClassVar[str] = "privilege_used"
    cell: str
    gem: Gem


@attrs.frozen(kw_only=True)
class BoardReplenished(PlayEvent):
    """Optional action 2 (or forced): the bag emptied onto the board. `cells` are the empty cells
    filled, in spiral order, and `tokens` what landed on each: the random outcome, recorded."""

    TYPE: ClassVar[str] = "board_replenished"
    cells: tuple[str, ...]
    tokens: tuple[Gem, ...]


@attrs.frozen(kw_only=True)
class LineTaken(PlayEvent):
    """Mandatory action (a): 1 to 3 tokens from a line of the board, `gems` in the order of `cells`."""

    TYPE: ClassVar[str] = "line_taken"
    cells: tuple[str, ...]
    gems: tuple[Gem, ...]


@attrs.frozen(kw_only=True)
class GoldReserved(PlayEvent):
    """Mandatory action (b): the gold of cell `gold`, and a card reserved: from the pyramid, or the
    top of a deck (`blind`). `drawn` is the card dealt into the emptied place ("" if none)."""

    TYPE: ClassVar[str] = "gold_reserved"
    gold: str
    card: str
    blind: bool
    drawn: str


@attrs.frozen(kw_only=True)
class DuelCardBought(PlayEvent):
    """Mandatory action (c): a card bought from the pyramid or the player's reserve, paying
    `payment` into the bag. `wild` is the colour a wild card joins ("" otherwise); `drawn` the
    card dealt into the emptied place."""

    TYPE: ClassVar[str] = "duel_card_bought"
    card: str
    payment: tuple[Gem, ...]
    wild: str
    drawn: str


@attrs.frozen(kw_only=True)
class BonusTokenTaken(PlayEvent):
    """The `token` ability: a token of the bought card's colour from `cell`."""

    TYPE: ClassVar[str] = "bonus_token_taken"
    cell: str
    gem: Gem


@attrs.frozen(kw_only=True)
class TokenStolen(PlayEvent):
    """The `steal` ability (of a card or a royal): one token of `gem` from the opponent."""

    TYPE: ClassVar[str] = "token_stolen"
    gem: Gem


@attrs.frozen(kw_only=True)
class RoyalTaken(PlayEvent):
    """3 or 6 crowns reached: a royal card chosen (its ability follows)."""

    TYPE: ClassVar[str] = "royal_taken"
    royal: str


@attrs.frozen(kw_only=True)
class TokenReturned(PlayEvent):
    """Over 10 tokens at the end of the turn: one token put back into the bag."""

    TYPE: ClassVar[str] = "token_returned"
    gem: Gem


@attrs.frozen(kw_only=True)
class DuelPassed(PlayEvent):
    """No mandatory action possible and the bag empty (rule 12): the turn goes on to its end."""

    TYPE: ClassVar[str] = "duel_passed"


StepEvent: TypeAlias = (
    PrivilegeUsed
    | BoardReplenished
    | LineTaken
    | GoldReserved
    | DuelCardBought
    | BonusTokenTaken
    | TokenStolen
    | RoyalTaken
    | TokenReturned
    | DuelPassed
)
STEP_TYPES: tuple[type[StepEvent], ...] = (
    PrivilegeUsed,
    BoardReplenished,
    LineTaken,
    GoldReserved,
    DuelCardBought,
    BonusTokenTaken,
    TokenStolen,
    RoyalTaken,
    TokenReturned,
    DuelPassed,
)
