"""Cards nobody has seen yet, in a sealed game: their placeholders (pure, no cryptography).

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
"""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"([1-3])\?([0-9]{2})")
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


__all__ = ["PLACEHOLDER", "is_placeholder", "level_of", "placeholder", "position_of"]
