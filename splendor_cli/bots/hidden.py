"""What a player cannot see, sampled again from what they can: determinization.

At the table a player sees the face-up cards, every holding, and their own reserves; they do
not see the order of the decks, nor the cards an opponent reserved blind from a deck. The
game file is an open record and the engine's state holds all of it, so a bot first replaces the
hidden part by a sample: the unseen cards of each level (deck and opponents' blind reserves),
in id order, shuffled by the bot's own random source. The sample depends only on what the
player could know, so changing the real hidden order changes nothing a bot decides.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

import attrs

from ..cards import CARDS, DUEL_CARDS
from ..projection.duel import DuelState
from ..projection.state import GameState

S = TypeVar("S", GameState, DuelState)

_LEVEL = {card.id: card.level for card in CARDS.values()}
_DUEL_LEVEL = {card.id: card.level for card in DUEL_CARDS.values()}


def determinize(state: S, seat: int, rng: random.Random) -> S:
    """`state` with the decks and the other players' blind reserves drawn anew at random from the
    cards `seat` cannot see (sizes and levels kept)."""
    levels = _DUEL_LEVEL if isinstance(state, DuelState) else _LEVEL
    unseen: list[list[str]] = [list(deck) for deck in state.decks]
    for i, player in enumerate(state.players):
        if i != seat:
            for card in player.blind:
                unseen[levels[card] - 1].append(card)
    for pool in unseen:
        pool.sort()
        rng.shuffle(pool)
    players: list[Any] = []
    for i, player in enumerate(state.players):
        if i == seat or not player.blind:
            players.append(player)
            continue
        swap = {card: unseen[levels[card] - 1].pop() for card in player.blind}
        players.append(
            attrs.evolve(
                player,
                reserved=tuple(swap.get(card, card) for card in player.reserved),
                blind=tuple(swap[card] for card in player.blind),
            )
        )
    decks = tuple(tuple(pool) for pool in unseen)
    return attrs.evolve(state, players=tuple(players), decks=decks)
