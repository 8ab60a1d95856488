"""`splendor simulate`: a tournament of bots in memory (bots/tournament.py plays it)."""

from __future__ import annotations

import sys

from ..output import json_text, out
from ..params import JSON, Param, command, variant_name


@command(
    "simulate",
    Param("players", "--players", kind="int", low=2, high=4, help="Players per game."),
    Param("games", "--games", kind="int", low=1, help="How many games."),
    Param("seed", "--seed", kind="int", help="Seed of the tournament (default: random, reported)."),
    Param("variant", "--variant", help="base, or duel (2 players)."),
    Param(
        "bots",
        "--bots",
        help="Bots, one per seat or one for all: random, greedy, mcts[:PLAYOUTS|:SECONDSs], expert[:N|:SECONDSs].",
    ),
    Param("jobs", "--jobs", "-j", kind="int", help="Processes to play in; 0: one per core."),
    Param("quiet", "--quiet", "-q", kind="flag", help="No progress report on stderr."),
    JSON,
)
def simulate(
    *,
    players: int = 2,
    games: int = 10,
    seed: int | None = None,
    variant: str = "base",
    bots: str | None = None,
    jobs: int = 1,
    quiet: bool = False,
    json: bool = False,
) -> None:
    """Play a tournament of bots in memory and report each bot's wins, win rate and points.

    The bots rotate through the seats from one game to the next; without --bots every seat (p1, p2, ...) plays random.

    Bots: random (uniform among the legal moves), greedy (the best move one turn ahead), mcts (tree search),
    expert (the strongest: a tree search steered by each seat's chance of winning).

    mcts takes an optional think budget: mcts:400 (playouts a move; default 300) or mcts:0.5s (seconds a move);
    expert too: expert:800 (iterations a move; default 400, 800 at two players of base Splendor) or expert:1s.

    Each game is reproducible from the seed and its number alone: --jobs changes the time taken, never the results.

    The win rate comes with its 95% confidence interval (Wilson); a shared victory is a win for each sharer.

    Progress goes to stderr (--quiet: none).

    Examples:

    splendor simulate --players 2 --games 200 --bots mcts,greedy --seed 1 --jobs 0

    splendor simulate --players 3 --games 100 --seed 1 --json

    splendor simulate --variant duel --games 100
    """
    from ...bots.tournament import Progress, run, table

    names = [b.strip() for b in bots.split(",")] if bots else None
    progress = None if quiet else Progress(games, sys.stderr)
    try:
        variant = variant_name(variant)
        report = run(players=players, games=games, seed=seed, bots=names, variant=variant, jobs=jobs, progress=progress)
    finally:
        if progress:
            progress.close()
    out(json_text(report) if json else table(report))
