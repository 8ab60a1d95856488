"""The `greedy` bot: the legal move after which its own position looks best.

It looks one move ahead, never at the opponents' replies: for each legal move (in a game played
stepwise, each legal next step) it plays it on a determinized copy of the table (`Variant.hide`:
the hidden order and blind reserves drawn anew) and scores the result with `Variant.score` (the
game's heuristics.py). A move that wins outright is always taken (a win weighs more than any
position); ties are broken by the random source.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, TypeVar

from ..projection.seeding import RandomChance
from ..projection.variant import AnyVariant
from .bot import Bot

M = TypeVar("M", bound=Hashable)


def best(scored: list[tuple[float, M]], rng: random.Random) -> M:
    """The move with the top score; among equals, one chosen by `rng`."""
    top = max(score for score, _ in scored)
    tied = [move for score, move in scored if score >= top - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def score_moves(variant: AnyVariant, state: Any, rng: random.Random) -> list[tuple[float, Any]]:
    """Every legal move of the player to move (its random outcome drawn), with the score greedy gives it."""
    seat = state.to_move
    world = variant.hide(state, seat, rng)
    chance = RandomChance(rng)
    out = []
    for option in variant.legal_moves(world):
        move = variant.draw(world, option, chance)
        after = variant.play(world, move)
        out.append((variant.score(after, seat), move))
    return out


def greedy_bot(variant: AnyVariant) -> Bot:
    """The bot that plays the legal move with the best score (see the module's docstring)."""

    def bot(state: Any, rng: random.Random) -> Any:
        return best(score_moves(variant, state, rng), rng)

    return bot
