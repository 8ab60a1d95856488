"""A step of a Splendor Duel turn, as a player says it (what `decide` judges)."""

from __future__ import annotations

from typing import Literal

import attrs

from ...model import Gem, Tokens

StepKind = Literal["privilege", "replenish", "take", "reserve", "buy", "token", "steal", "royal", "return", "pass"]
STEP_KINDS: tuple[StepKind, ...] = (
    "privilege",
    "replenish",
    "take",
    "reserve",
    "buy",
    "token",
    "steal",
    "royal",
    "return",
    "pass",
)
"""The steps of a turn (see docs/contract.md): optional, mandatory, then what follows."""


@attrs.frozen(kw_only=True, cache_hash=True)
class Step:
    """One step of a Splendor Duel turn, as a player says it.

    `cells` are board cells as flat indexes (0 = a1, 12 = c3, 24 = e5): the one cell of a
    privilege or token step, the line of a take, the gold of a reserve. `card` or `deck` name
    what is reserved or bought; `payment` None means the default payment; `wild` is the colour
    a wild card joins; `colour` the token stolen or returned. `order` is the outcome of a
    replenish (the bag's tokens in the order they land); None until it is drawn.
    """

    step: StepKind
    cells: tuple[int, ...] = ()
    card: str = ""
    deck: int = 0
    payment: Tokens | None = None
    wild: Gem | None = None
    colour: Gem | None = None
    order: tuple[Gem, ...] | None = None
