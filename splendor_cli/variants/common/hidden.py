"""What a player cannot see, sampled again from what they can: determinization.

At the table a player sees the face-up cards, every holding, and their own reserves; they do
not see the order of the decks, nor the cards an opponent reserved blind from a deck. The
game file is an open record and the engine's state holds all of it, so a bot first replaces the
hidden part by a sample: the unseen cards of each level (deck and opponents' blind reserves),
in id order, shuffled by the bot's own random source. The sample depends only on what the
player could know, so changing the real hidden order changes nothing a bot decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import attrs

if TYPE_CHECKING:
    import random

S = TypeVar("S")


def _level(card: str) -> int:
    """A card's level: its id starts with it (`2-14`), in every game of the house."""
    return int(card[0])


def determinize(state: S, seat: int, rng: random.Random) -> S:
    """`state` with the decks and the other players' blind reserves drawn anew at random from the
    cards `seat` cannot see (sizes and levels kept). `state` is an attrs class with `decks` (by
    level) and `players`, each with `reserved` and `blind` card ids: both games' states are."""
    table: Any = state
    unseen: list[list[str]] = [list(deck) for deck in table.decks]
    for i, player in enumerate(table.players):
        if i != seat:
            for card in player.blind:
                unseen[_level(card) - 1].append(card)
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
    decks = tuple(tuple(pool) for pool in unseen)
    hidden: S = attrs.evolve(table, players=tuple(players), decks=decks)
    return hidden
