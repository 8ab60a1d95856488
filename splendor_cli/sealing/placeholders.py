"""Cards nobody has seen yet, in a sealed game: their placeholders, and a setup's deck holding
some (pure, no cryptography).

In a sealed game (`splendor new --sealed`) the decks are shuffled and encrypted by every player
in turn, so that nobody knows their order. The game's state then holds, for each card not yet
revealed, a placeholder naming where it lies in the sealed deck: `2?07` is the 7th card of the
level-2 deck as the last shuffle left it. A placeholder starts with its level, as a card id does
(`2-14`), so whatever sorts cards by level sorts it too.

Where a placeholder may be in a game's state:
- in a deck (`decks`): nobody knows it, as at the table;
- in a player's `reserved` (and `blind`): a card reserved blind from a deck, which only its
  owner may see (the others publish their decryption shares of it, the owner never, until the
  card is bought);
- anywhere else (a market slot, the Duel's pyramid): a face-up card being revealed, waiting for
  the decryption shares of some players. Nobody may move while a face-up card is unrevealed.

The rules never read a placeholder's card: a card is bought, reserved from the market or shown
only once revealed. Boards draw a placeholder face down (`is_placeholder`), with its level.

The setup event of a sealed game records, for each card nobody has seen, its placeholder; the
face-up cards are real ids. A deck of level L is then a shuffle of that level's cards some of
which are sealed (`deck_problem`): as many entries as the level has cards, each a card of the
level or a placeholder of the level (its position within the deck's size), none twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..patterns import LazyPattern

LEVELS = (1, 2, 3)
"""The levels of Splendor's and a Duel's sealed decks (what their tests and tools may name). The
protocol reads a game's own from what it declares (`table.Sealing.levels`: 1, 2, ... as many
decks as `SealedCards.decks` holds)."""
MOST_DECKS = 9
"""The most sealed decks a game may declare: a placeholder names its deck's level with one digit."""
MOST_CARDS = 99
"""The most cards of a sealed deck: a placeholder names a card's place with two digits."""
PLACEHOLDER = LazyPattern(r"([1-9])\?([0-9]{2})")
"""A placeholder: the level, `?`, the 1-based position in the sealed deck on two digits."""


def placeholder(level: int, position: int) -> str:
    """The placeholder of the card at `position` (1-based) of the sealed deck of `level`."""
    return f"{level}?{position:02d}"


def is_placeholder(card: str | None) -> bool:
    """Whether `card` (an id from a state: a card, a placeholder, or None) is a placeholder."""
    return card is not None and len(card) == 4 and card[1] == "?"


def level_of(card: str) -> int:
    """The level of a card id or a placeholder (both start with it)."""
    return int(card[0])


def position_of(card: str) -> int:
    """The 1-based position in its sealed deck of a placeholder (ValueError for anything else)."""
    match = PLACEHOLDER.fullmatch(card)
    if match is None:
        raise ValueError(f"{card!r} is not a sealed card's placeholder")
    return int(match.group(2))


# -- a setup's deck, some of it sealed ----------------------------------------------------------


def is_shuffle(deck: Sequence[str], level: int, cards: Sequence[str]) -> bool:
    """Whether `deck` is a shuffle of `cards` (all of level `level`), some perhaps sealed.

    For a deck without placeholders this is exactly `sorted(deck) == sorted(cards)`.

    >>> is_shuffle(("1-02", "1?02", "1?03"), 1, ("1-01", "1-02", "1-03"))
    True
    >>> is_shuffle(("1-02", "1?02", "1?02"), 1, ("1-01", "1-02", "1-03"))
    False
    """
    if len(deck) != len(cards) or len(set(deck)) != len(deck):
        return False
    known = set(cards)
    for card in deck:
        if card in known:
            continue
        match = PLACEHOLDER.fullmatch(card) if isinstance(card, str) else None
        if match is None or int(match.group(1)) != level or not 1 <= int(match.group(2)) <= len(cards):
            return False
    return True


def holds_placeholders(deck: Sequence[str]) -> bool:
    """Whether a deck holds placeholders (a sealed game's)."""
    return any(is_placeholder(card) for card in deck if isinstance(card, str))


def deck_problem(name: str, level: int, deck: Sequence[str], cards: Sequence[str], what: str) -> str:
    """What is wrong with the setup's deck `name` of level `level` ("" when nothing is): it must
    be a shuffle of `cards` (`what` names them in the message: `level-2 cards`), some perhaps
    sealed. The message of an open deck (no placeholder) is the one it always was."""
    if is_shuffle(deck, level, cards):
        return ""
    message = f"{name} is not a shuffle of the {len(cards)} {what}"
    if holds_placeholders(deck):
        first, last = placeholder(level, 1), placeholder(level, len(cards))
        message += f" (some sealed: each a card of level {level} or one of {first} to {last}, none twice)"
    return message


__all__ = [
    "LEVELS",
    "MOST_CARDS",
    "MOST_DECKS",
    "PLACEHOLDER",
    "deck_problem",
    "holds_placeholders",
    "is_placeholder",
    "is_shuffle",
    "level_of",
    "placeholder",
    "position_of",
]
