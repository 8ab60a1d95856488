"""The cards on the table, in both games: the face-up rows of each level (the base game's board,
Duel's pyramid), the decks they are dealt from, and a player's reserve (and how another player
sees it: `hide_blind`).

A card id starts with its level (`2-14`) in both games' tables, so these need no table.
"""

from __future__ import annotations

from typing import Any

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


# -- a reserve as another player sees it -----------------------------------------------------------


def hide_blind(state: Any, seat: str | None) -> Any:
    """`state` with the blind reserves of every player but `seat` face down: each replaced by a
    placeholder of its level, as a sealed game's (`L?NN`, numbered from 99 down, which no deck's
    position is), wherever it is in the state; the very `state` when there is nothing to hide
    (`seat` None: a spectator, who sees no blind reserve; a game whose players reserve nothing blind)."""
    from ...sealing.placeholders import is_placeholder, level_of, placeholder

    hidden: dict[str, str] = {}
    for player in getattr(state, "players", ()):
        if player.name == seat:
            continue
        for card in getattr(player, "blind", ()):
            if not is_placeholder(card):
                hidden[card] = placeholder(level_of(card), 99 - len(hidden))
    if not hidden:
        return state
    from ...sealing.substitution import substitute_anywhere

    return substitute_anywhere(state, hidden)


class Seen:
    """A game's table as one viewer may know it (a `Moment`: what a board draws): `seq`, the last
    event, and `state`, as `hide_blind` left it."""

    __slots__ = ("seq", "state")

    def __init__(self, seq: int, state: Any) -> None:
        self.seq, self.state = seq, state
