"""What a player cannot see, sampled again from what they can: determinization.

At the table a player sees the face-up cards, every holding, and their own reserves; they do
not see the order of the decks, nor the cards an opponent reserved blind from a deck. The
game file is an open record and the engine's state holds all of it, so a bot first replaces the
hidden part by a sample: the unseen cards of each level (deck and opponents' blind reserves),
in id order, shuffled by the bot's own random source. The sample depends only on what the
player could know, so changing the real hidden order changes nothing a bot decides.

In a sealed game (`sealing/placeholders.py`) the state itself does not know every card: a card
nobody has seen is a placeholder (`2?07`). The unseen cards of a level are then the real ids in
the hidden places plus every card of the level that appears nowhere in the state (neither in a
row, a deck, a reserve nor among the cards bought); the sample deals them to the hidden places,
and to whatever place still holds a placeholder (a face-up card being revealed, a reserve its
owner has not opened), so that the state a bot simulates holds real cards only, each once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from ...sealing.placeholders import is_placeholder

if TYPE_CHECKING:
    import random

S = TypeVar("S")


def _level(card: str) -> int:
    """A card's level: its id starts with it (`2-14`), in every game of the house (a
    placeholder's too: `2?07`)."""
    return int(card[0])


def determinize(
    state: S,
    seat: int,
    rng: random.Random,
    *,
    cards: Mapping[int, Sequence[str]] | None = None,
    face_up: str = "board",
) -> S:
    """`state` with the decks and the other players' blind reserves drawn anew at random from the
    cards `seat` cannot see (sizes and levels kept). `state` is an attrs class with `decks` (by
    level) and `players`, each with `cards`, `reserved` and `blind` card ids, and the face-up
    cards by level in its field `face_up` (`board`, a Duel's `pyramid`): both games' states are.

    `cards` (every card of the game, by level) is needed only for a sealed state: the cards that
    appear nowhere in it join the unseen ones, and every placeholder is replaced by one of them.
    An open state (no placeholder) draws exactly what it always did for the same `rng`."""
    table: Any = state
    unseen: list[list[str]] = [list(deck) for deck in table.decks]
    for i, player in enumerate(table.players):
        if i != seat:
            for card in player.blind:
                unseen[_level(card) - 1].append(card)
    sealed = cards is not None and _has_placeholder(table, face_up)
    if sealed:
        assert cards is not None
        for level, pool in enumerate(unseen, start=1):
            pool[:] = [card for card in pool if not is_placeholder(card)]
            pool += _nowhere(table, face_up, cards.get(level, ()))
    for pool in unseen:
        pool.sort()
        rng.shuffle(pool)
    players: list[Any] = []
    for i, player in enumerate(table.players):
        if i == seat or not player.blind:
            players.append(player)
            continue
        swap = {card: unseen[_level(card) - 1].pop() for card in player.blind}
        players.append(
            attrs.evolve(
                player,
                reserved=tuple(swap.get(card, card) for card in player.reserved),
                blind=tuple(swap[card] for card in player.blind),
            )
        )
    changes: dict[str, Any] = {}
    if sealed:  # the places seen but not known: a face-up card being revealed, an unopened reserve
        rows = tuple(
            tuple(unseen[_level(card) - 1].pop() if is_placeholder(card) else card for card in row)
            for row in getattr(table, face_up)
        )
        changes[face_up] = rows
        for i, player in enumerate(players):
            if any(is_placeholder(card) for card in player.reserved):
                swap = {card: unseen[_level(card) - 1].pop() for card in player.reserved if is_placeholder(card)}
                players[i] = attrs.evolve(
                    player,
                    reserved=tuple(swap.get(card, card) for card in player.reserved),
                    blind=tuple(swap.get(card, card) for card in player.blind),
                )
    decks = tuple(tuple(pool) for pool in unseen)
    hidden: S = attrs.evolve(table, players=tuple(players), decks=decks, **changes)
    return hidden


def _has_placeholder(table: Any, face_up: str) -> bool:
    """Whether any place of the state holds a placeholder (a sealed game's state). Quick (a bot
    asks at every search): no card id has a `?`, every placeholder has one."""
    if "?" in "".join(map("".join, table.decks)) or any("?" in "".join(p.reserved) for p in table.players):
        return True
    return any(is_placeholder(card) for row in getattr(table, face_up) for card in row)


def _nowhere(table: Any, face_up: str, cards: Sequence[str]) -> list[str]:
    """The cards of `cards` that appear nowhere in the state (placeholders stand for them)."""
    seen: set[str | None] = set()
    for place in (*table.decks, *getattr(table, face_up)):
        seen.update(place)
    for player in table.players:
        seen.update(player.cards)
        seen.update(player.reserved)
        seen.update(player.blind)
    return [card for card in cards if card not in seen]
