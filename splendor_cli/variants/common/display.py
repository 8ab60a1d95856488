"""The cards on the table, in both games: the face-up rows of each level (the base game's board,
Duel's pyramid), the decks they are dealt from, and a player's reserve.

A card id starts with its level (`2-14`) in both games' tables, so these need no table.
"""

from __future__ import annotations

Rows = tuple[tuple[str | None, ...], ...]
"""Face-up cards by level (index 0 is level 1); None where the deck ran out."""
Decks = tuple[tuple[str, ...], ...]


def _level(card: str) -> int:
    return int(card[0]) - 1


def draw_card(decks: Decks, card: str) -> Decks:
    """Take the card an event says was drawn out of its deck.

    The event names the card; `decide` (and re-judging on load) checks that it was the top one,
    as the deck order is known in an open record. Applying it needs no more than the name, so a
    future dealer mode, where nobody knows the order and a dealer tells the draws, needs no
    change here. Raise ValueError when the card is not in its deck.
    """
    level = _level(card)
    deck = decks[level]
    if card not in deck:
        raise ValueError(f"{card} is not in deck {level + 1}")
    slot = deck.index(card)
    return (*decks[:level], deck[:slot] + deck[slot + 1 :], *decks[level + 1 :])


def take_face_up(rows: Rows, decks: Decks, card: str, drawn: str) -> tuple[Rows, Decks]:
    """Take face-up `card` off its row; `drawn` (drawn from its deck, "" if none) takes its place."""
    level = _level(card)
    row = rows[level]
    slot = row.index(card)
    rows = (*rows[:level], (*row[:slot], drawn or None, *row[slot + 1 :]), *rows[level + 1 :])
    return rows, draw_card(decks, drawn) if drawn else decks


def unreserve(reserved: tuple[str, ...], blind: tuple[str, ...], card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The reserve (and its blind part) without `card`, bought from it."""
    return tuple(c for c in reserved if c != card), tuple(c for c in blind if c != card)
