"""Bots: players that are pure functions of what a player can see, and a seeded random source.

A bot is named by a spec: its kind (`random`, `greedy` or `mcts`), and for `mcts` an optional
think budget after a colon: `mcts:400` (playouts) or `mcts:0.5s` (seconds per move). A seat of
a game file is played by a bot when the player's name is `bot:SPEC`, optionally followed by
`#LABEL` to tell two alike bots apart (`bot:greedy#2`).

`base_bot(spec)` and `duel_bot(spec)` return the bot as a function of the state and a
`random.Random`: a whole legal turn (a `Move`) in the base game, the legal next step (a `Step`,
a replenish with its draw) in a Duel. The modules of each kind are imported when asked for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from ..model import Move, Step
    from ..projection.duel import DuelState
    from ..projection.state import GameState

BaseBot = Callable[["GameState", random.Random], "Move"]
DuelBot = Callable[["DuelState", random.Random], "Step"]

KINDS = ("random", "greedy", "mcts")
SEAT = "bot:"
"""The prefix of a player name that seats a bot."""


def parse_spec(spec: str) -> tuple[str, int | None, float | None]:
    """`mcts:400` -> ("mcts", 400, None); `mcts:0.5s` -> ("mcts", None, 0.5); `greedy` -> ("greedy", None, None).

    Raises:
        UsageError: an unknown kind, or a budget that is not a positive number of playouts or seconds.
    """
    kind, _, budget = spec.strip().partition(":")
    if kind not in KINDS:
        raise UsageError(f"unknown bot {kind!r}: this version has {', '.join(KINDS)}")
    if not budget:
        return kind, None, None
    if kind != "mcts":
        raise UsageError(f"bot {spec!r}: only mcts takes a think budget (mcts:400 playouts, mcts:0.5s seconds)")
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds <= 3600:
                raise ValueError
            return kind, None, seconds
        playouts = int(budget)
        if playouts < 1:
            raise ValueError
        return kind, playouts, None
    except ValueError:
        raise UsageError(
            f"bot {spec!r}: the budget is a number of playouts (mcts:400) or seconds (mcts:0.5s)"
        ) from None


def seat_spec(player: str) -> str | None:
    """The bot spec of a seat (`bot:mcts:400#2` -> `mcts:400`), or None for a person."""
    if not player.startswith(SEAT):
        return None
    return player[len(SEAT) :].partition("#")[0]


def base_bot(spec: str) -> BaseBot:
    """The base-game bot that `spec` names."""
    kind, playouts, seconds = parse_spec(spec)
    if kind == "random":
        from .simple import random_bot

        return random_bot
    if kind == "greedy":
        from .greedy import greedy_bot

        return greedy_bot
    from .mcts import base_mcts

    return base_mcts(playouts=playouts, seconds=seconds)


def duel_bot(spec: str) -> DuelBot:
    """The Splendor Duel bot that `spec` names."""
    kind, playouts, seconds = parse_spec(spec)
    if kind == "random":
        from .simple import random_duel_bot

        return random_duel_bot
    if kind == "greedy":
        from .greedy import greedy_duel_bot

        return greedy_duel_bot
    from .mcts import duel_mcts

    return duel_mcts(playouts=playouts, seconds=seconds)
