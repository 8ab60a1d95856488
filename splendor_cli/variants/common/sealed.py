"""Decks that may be sealed, in both games: checking a setup's deck when some of its cards are
placeholders (`projection/sealed.py`: `2?07`, the 7th card of the sealed level-2 deck).

In a sealed game the setup event records, for each card nobody has seen, its placeholder; the
face-up cards are real ids. A deck of level L is then a shuffle of that level's cards some of
which are sealed: as many entries as the level has cards, each a card of the level or a
placeholder of the level (its position within the deck's size), none twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...projection.sealed import PLACEHOLDER, is_placeholder, placeholder


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


def sealed(deck: Sequence[str]) -> bool:
    """Whether a deck holds placeholders (a sealed game's)."""
    return any(is_placeholder(card) for card in deck if isinstance(card, str))


def deck_problem(name: str, level: int, deck: Sequence[str], cards: Sequence[str], what: str) -> str:
    """What is wrong with the setup's deck `name` of level `level` ("" when nothing is): it must
    be a shuffle of `cards` (`what` names them in the message: `level-2 cards`), some perhaps
    sealed. The message of an open deck (no placeholder) is the one it always was."""
    if is_shuffle(deck, level, cards):
        return ""
    message = f"{name} is not a shuffle of the {len(cards)} {what}"
    if sealed(deck):
        first, last = placeholder(level, 1), placeholder(level, len(cards))
        message += f" (some sealed: each a card of level {level} or one of {first} to {last}, none twice)"
    return message
