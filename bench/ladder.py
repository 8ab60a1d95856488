"""The bots' strength ladder, measured by the tournament runner. Prints figures; asserts nothing.

    python bench/ladder.py [--games 200] [--seed 2026] [--jobs 0] [--match mcts-greedy-2p ...]

Each match is `splendor simulate` with seats rotated: its table gives every bot's wins, win rate
with a 95% Wilson interval, mean points, and mean and slowest seconds a move.
Targets (issue #5): greedy wins >= 95% of 2-player games against random; mcts at <= 1 s a move
wins >= 90% of at least 200 2-player games against greedy; 3- and 4-player results reported.
Targets (issue #23): expert wins >= 80% against greedy seats at 3 and 4 players (>= 100 games
each) and >= 95% of Duels against greedy. The match against AlphaZero: bench/versus_alphazero.py.
"""

from __future__ import annotations

import argparse

MATCHES = {
    "greedy-random-2p": (2, "base", ["greedy", "random"]),
    "mcts-greedy-2p": (2, "base", ["mcts", "greedy"]),
    "greedy-random-3p": (3, "base", ["greedy", "random", "random"]),
    "mcts-greedy-3p": (3, "base", ["mcts", "greedy", "greedy"]),
    "greedy-random-4p": (4, "base", ["greedy", "random", "random", "random"]),
    "mcts-greedy-4p": (4, "base", ["mcts", "greedy", "greedy", "greedy"]),
    "greedy-random-duel": (2, "duel", ["greedy", "random"]),
    "mcts-greedy-duel": (2, "duel", ["mcts", "greedy"]),
    "expert-random-2p": (2, "base", ["expert", "random"]),
    "expert-greedy-2p": (2, "base", ["expert", "greedy"]),
    "expert-mcts-2p": (2, "base", ["expert", "mcts"]),
    "expert-greedy-3p": (3, "base", ["expert", "greedy", "greedy"]),
    "expert-greedy-4p": (4, "base", ["expert", "greedy", "greedy", "greedy"]),
    "expert-greedy-duel": (2, "duel", ["expert", "greedy"]),
    "expert-mcts-duel": (2, "duel", ["expert", "mcts"]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=0, help="processes (0: one per core)")
    parser.add_argument("--match", action="append", choices=sorted(MATCHES), help="only these (repeatable)")
    args = parser.parse_args()

    from splendor_cli.bots.tournament import run, table

    for name in args.match or MATCHES:
        players, variant, bots = MATCHES[name]
        report = run(players=players, games=args.games, seed=args.seed, bots=bots, variant=variant, jobs=args.jobs)
        print(f"## {name}\n{table(report)}", flush=True)


if __name__ == "__main__":
    main()
