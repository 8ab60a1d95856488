"""The `random` bot: a uniform choice among the game's own list of legal moves."""

from __future__ import annotations

import random
from typing import Any

from ..projection.variant import AnyVariant
from .bot import Bot


def random_bot(variant: AnyVariant) -> Bot:
    """A uniform choice among every legal move (a random outcome drawn from the same source)."""

    def bot(state: Any, rng: random.Random) -> Any:
        return variant.random_move(state, rng)

    return bot
