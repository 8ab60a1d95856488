"""Bots: players that are pure functions of what a player can see, and a seeded random source.

A bot is named by a spec: its kind (`random`, `greedy` or `mcts`), and for `mcts` an optional
think budget after a colon: `mcts:400` (playouts) or `mcts:0.5s` (seconds per move). A seat of
a game file is played by a bot when the player's name is `bot:SPEC`, optionally followed by
`#LABEL` to tell two alike bots apart (`bot:greedy#2`).

`make_bot(variant, spec)` returns the bot as a function of the state and a `random.Random`:
the game's next legal move (a whole turn; in a game played stepwise, the next step, its random
outcome drawn). The bots are written once against the game protocol
(`splendor_cli.projection.variant.Variant`): each game gives its legal moves and its heuristic
evaluation. The modules of each kind are imported when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UsageError
from .bot import Bot

if TYPE_CHECKING:
    from ..projection.variant import AnyVariant


KINDS = ("random", "greedy", "mcts", "expert")
SEARCHING = ("mcts", "expert")
"""The kinds that take a think budget."""
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
    if kind not in SEARCHING:
        raise UsageError(
            f"bot {spec!r}: only mcts and expert take a think budget (mcts:400 playouts, mcts:0.5s seconds)"
        )
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


def make_bot(variant: AnyVariant, spec: str) -> Bot:
    """The bot that `spec` names, for games of `variant`."""
    kind, playouts, seconds = parse_spec(spec)
    if kind == "random":
        from .simple import random_bot

        return random_bot(variant)
    if kind == "greedy":
        from .greedy import greedy_bot

        return greedy_bot(variant)
    if kind == "expert":
        from .expert import expert_bot

        return expert_bot(variant, iterations=playouts, seconds=seconds)
    from .mcts import mcts_bot

    return mcts_bot(variant, playouts=playouts, seconds=seconds)
