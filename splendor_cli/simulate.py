"""Random games in memory, uniform among the legal moves: for `splendor simulate` and the bench."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from .newgame import deal
from .projection.rules import choices, decide, evolve
from .projection.state import start


def run(*, players: int, games: int, seed: int | None) -> dict[str, Any]:
    """Play `games` games between `players` random seats; count turns, wins and shared wins."""
    rng = random.Random(seed)
    seats = tuple(f"p{i}" for i in range(1, players + 1))
    wins: Counter[str] = Counter({seat: 0 for seat in seats})
    shared = turns = 0
    began = time.perf_counter()
    for _ in range(games):
        setup = deal(seats, rng)
        state = start(setup.players, (setup.deck_1, setup.deck_2, setup.deck_3), setup.nobles)
        while not state.finished:
            options = choices(state)
            state = evolve(state, decide(state, options.move(rng.randrange(len(options)))))
            turns += 1
        winners = state.winners()
        shared += len(winners) > 1
        wins.update(winners)
    return {
        "games": games,
        "turns": turns,
        "seconds": round(time.perf_counter() - began, 3),
        "wins": dict(wins),
        "shared": shared,
    }
