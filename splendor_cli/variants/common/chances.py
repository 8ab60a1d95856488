"""Each seat's chance of winning, read off a game's heuristic value: the default of
`Variant.chances`, and how `mcts` scores the positions it searches.

1 for a win (shared: split), 0 for a loss, else a logistic of the seat's lead in the heuristic
value over its best opponent: `SCALE` points of lead make about 0.73. The numbers do not add up
to 1 over the seats (each is the seat's lead alone); a game with a fitted model of its own
(base Splendor: `variants/base/evaluation.py`) gives true shares.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

SCALE = 2.0
"""Points of heuristic lead that make a seat's score about 0.73 (logistic)."""


def from_lead(state: Any, value: Callable[[Any, int], float]) -> list[float]:
    """Every seat's score in `state` (see the module's docstring); `value(state, seat)` in points."""
    seats = range(len(state.players))
    if state.finished:
        winners = state.winners()
        return [1 / len(winners) if p.name in winners else 0.0 for p in state.players]
    return leads([value(state, i) for i in seats])


def leads(values: Sequence[float]) -> list[float]:
    """Each seat's logistic of its lead in `values` (two seats or more) over its best opponent."""
    best = max(range(len(values)), key=values.__getitem__)
    first = values[best]
    second = max(v for i, v in enumerate(values) if i != best)
    return [1 / (1 + math.exp(-(v - (second if i == best else first)) / SCALE)) for i, v in enumerate(values)]
