"""The words both games' notations share: colours (in full, by letter, by gem) and card ids."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import InvalidMoveError
from ...model import KINDS, Gem, Tokens
from ...patterns import LazyPattern

COLOUR_WORDS: dict[str, Gem] = {gem.value: gem for gem in KINDS} | {gem.letter: gem for gem in KINDS}
COLOUR_WORDS |= {
    "diamond": Gem.WHITE,
    "sapphire": Gem.BLUE,
    "emerald": Gem.GREEN,
    "ruby": Gem.RED,
    "onyx": Gem.BLACK,
    "o": Gem.GOLD,
    "joker": Gem.GOLD,
}
CARD = LazyPattern(r"^([123])-(\d{1,2})$")
DECK = LazyPattern(r"^d(?:eck)?([123])$")


def gems(words: list[str], what: str) -> Tokens:
    """The tokens a list of colour words names; `what` says where, for the error."""
    found = []
    for word in words:
        gem = COLOUR_WORDS.get(word)
        if gem is None:
            raise InvalidMoveError(f"{word!r} is not a colour (in {what})")
        found.append(gem)
    if not found:
        raise InvalidMoveError(f"{what} names no colour")
    return Tokens.from_gems(found)


def parse_card(word: str, table: Mapping[str, object]) -> str:
    """A card id from `2-14` or `2-4`. Raise InvalidMoveError when `table` has no such card.

    >>> parse_card("2-4", {"2-04": None})
    '2-04'
    """
    match = CARD.match(word)
    card = f"{match.group(1)}-{int(match.group(2)):02d}" if match else word
    if card not in table:
        raise InvalidMoveError(f"{word!r} is not a card id (like 1-07 or 3-20)")
    return card
