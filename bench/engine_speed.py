"""Our engine against AlphaZero's Numba board: random games per CPU second, side by side.

    python bench/engine_speed.py [--games 200] [--rounds 5] [--seed 1] [--json]
    python bench/engine_speed.py --compare REV        # and our engine at git revision REV, same process
    python bench/engine_speed.py --ours-only          # no AlphaZero repository needed

Issue 33 item 3 ("an engine as fast as a Numba board"). In ONE process, random two-player games
of the full rules, each move drawn uniformly among the legal moves, played to the end:

- ours, as the bots and `simulate` drive it: `find_variant("base")`, `variant.start(variant.deal(
  ...))`, then until `state.finished` (or the tournament's 1,000-turn limit) either
  `variant.legal_moves(state)` and a uniform pick (as a search lists moves: the row the target is
  set on), or `variant.random_move(state, rng)` (what `simulate`'s random bot does: the one move
  drawn is built), then `variant.play(state, move)`;
- theirs: cestpasphoto's `Board` (splendor/SplendorLogicNumba.py, a numba jitclass) driven from
  a Python loop as their Game class drives it: `init_game`, then `valid_moves(player)`, a uniform
  pick among the valid indices, `make_move(action, player, 0)` and `check_end_game()` until it
  says the game is over (their own 62-round limit); the same through their `SplendorGame` methods
  (`getInitBoard`, `getValidMoves`, `getNextState`, `getGameEnded`: a copy of the board a move);
  and their whole random game inside one @njit function (the compiled ceiling).

Their rules differ from ours (a pass and giving back gems are turns of their own, always valid,
so their random games run longer, often to their 62-round limit): games AND moves per CPU second
are printed. Each engine plays `--games` new games a round (drawn from its own seed: no engine
replays games whose positions filled its caches before), the engines alternate round by round so
that whatever else the machine does falls on all; times are `time.process_time` (CPU of this
process), best and median round. Numba's compilation is excluded (every engine warms up first),
and so is our import. The cyclic garbage collector runs seldom during all engines' games, as in
`simulate`. Their repository is imported from `--repo` (default: $ALPHAZERO_REPO, else
../alpha-zero-general beside this project; docs/alphazero.md: it needs numpy and numba, and is
run in their own virtual environment). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPO = os.environ.get("ALPHAZERO_REPO") or str(ROOT.parent / "alpha-zero-general")
PLAYERS = ("ann", "bob")

Engine = Callable[[int, int], int]
"""Plays `games` random games from `seed`; returns the number of moves played."""


# -- ours ------------------------------------------------------------------------------------


def our_engines(package: str = "splendor_cli", label: str = "ours") -> dict[str, Engine]:
    """Our engine's two rows, from `package` (`splendor_cli`, or an older revision renamed)."""
    import importlib

    MAX_TURNS = importlib.import_module(f"{package}.bots.tournament").MAX_TURNS
    RandomChance = importlib.import_module(f"{package}.projection.seeding").RandomChance
    find_variant = importlib.import_module(f"{package}.variants").find_variant

    variant = find_variant("base")
    start, deal, legal_moves, play, random_move = (
        variant.start,
        variant.deal,
        variant.legal_moves,
        variant.play,
        variant.random_move,
    )

    def listed(games: int, seed: int) -> int:
        rng = random.Random(seed)
        moves = 0
        for _ in range(games):
            state = start(deal(PLAYERS, RandomChance(rng)))
            turns = 0
            while not state.finished and turns < MAX_TURNS:
                options = legal_moves(state)
                state = play(state, options[rng.randrange(len(options))])
                turns += 1
            moves += turns
        return moves

    def drawn(games: int, seed: int) -> int:
        rng = random.Random(seed)
        moves = 0
        for _ in range(games):
            state = start(deal(PLAYERS, RandomChance(rng)))
            turns = 0
            while not state.finished and turns < MAX_TURNS:
                state = play(state, random_move(state, rng))
                turns += 1
            moves += turns
        return moves

    return {f"{label}: legal_moves + pick": listed, f"{label}: random_move": drawn}


COMPARED = "splendor_cli_compared"


def compared_package(rev: str, folder: Path) -> str:
    """The package `splendor_cli` at git revision `rev` of this repository, exported into `folder`
    under another name (`COMPARED`, every mention of its name rewritten: its imports are relative
    but for the names of modules it imports by string), so that both revisions play in one process."""
    import io
    import subprocess
    import tarfile

    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "splendor_cli"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    source = folder / "splendor_cli"
    for path in source.rglob("*.py"):
        path.write_text(path.read_text(encoding="utf-8").replace("splendor_cli", COMPARED), encoding="utf-8")
    source.rename(folder / COMPARED)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return COMPARED


# -- theirs ----------------------------------------------------------------------------------


def their_engines(repo: str) -> tuple[dict[str, Engine], dict[str, str]]:
    path = Path(repo).resolve()
    if not (path / "splendor" / "SplendorLogicNumba.py").is_file():
        sys.exit(f"no AlphaZero repository at {path}: clone it (docs/alphazero.md), pass --repo PATH or --ours-only")
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
    import numba
    import numpy as np
    from splendor.SplendorGame import SplendorGame
    from splendor.SplendorLogicNumba import Board

    @numba.njit(cache=False)
    def seed_numba(seed: int) -> None:
        np.random.seed(seed)  # their deck draws use numba's own generator

    @numba.njit(cache=False)
    def whole_games(board: Any, games: int) -> int:
        moves = 0
        for _ in range(games):
            board.init_game()
            player = 0
            while True:
                valid = np.flatnonzero(board.valid_moves(player))
                action = valid[np.random.randint(0, len(valid))]
                player = board.make_move(action, player, 0)
                moves += 1
                if np.any(board.check_end_game() != 0):
                    break
        return moves

    board = Board(2)
    game = SplendorGame()
    flatnonzero = np.flatnonzero

    def python_loop(games: int, seed: int) -> int:
        seed_numba(seed)
        rng = random.Random(seed)
        valid_moves, make_move, check_end_game = board.valid_moves, board.make_move, board.check_end_game
        moves = 0
        for _ in range(games):
            board.init_game()
            player = 0
            while True:
                valid = flatnonzero(valid_moves(player))
                player = make_move(int(valid[rng.randrange(len(valid))]), player, 0)
                moves += 1
                if check_end_game().any():
                    break
        return moves

    def game_class(games: int, seed: int) -> int:
        seed_numba(seed)
        rng = random.Random(seed)
        moves = 0
        for _ in range(games):
            state = game.getInitBoard()
            player = 0
            while True:
                valid = flatnonzero(game.getValidMoves(state, player))
                state, player = game.getNextState(state, player, int(valid[rng.randrange(len(valid))]))
                moves += 1
                if game.getGameEnded(state, player).any():
                    break
        return moves

    def compiled(games: int, seed: int) -> int:
        seed_numba(seed)
        return int(whole_games(board, games))

    engines = {
        "theirs: Board, Python loop": python_loop,
        "theirs: SplendorGame, Python loop": game_class,
        "theirs: whole game in @njit": compiled,
    }
    commit = ""
    head = path / ".git" / "HEAD"
    if head.is_file():
        commit = head.read_text().strip()
        if commit.startswith("ref:"):
            ref = path / ".git" / commit.split()[1]
            commit = ref.read_text().strip() if ref.is_file() else commit
    return engines, {"numba": numba.__version__, "numpy": np.__version__, "commit": commit[:12]}


# -- measuring ---------------------------------------------------------------------------------


def measure(engines: dict[str, Engine], games: int, rounds: int, seed: int) -> dict[str, Any]:
    for engine in engines.values():  # warm up: numba compiles, caches fill, code is loaded
        engine(max(2, games // 20), seed * 10_000)
    runs: dict[str, list[tuple[float, int]]] = {name: [] for name in engines}
    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(100_000, *threshold[1:])  # as simulate plays random games (_few_collections)
    try:
        for round_ in range(rounds):
            names = list(engines)
            if round_ % 2:
                names.reverse()  # neither side always first after the other
            for name in names:
                # new games for every engine and round: ours would replay the very games of the
                # other row of ours (the same draws) with its caches warm
                number = 1 + round_ * len(engines) + list(engines).index(name)
                began = time.process_time()
                moves = engines[name](games, seed * 10_000 + number)
                runs[name].append((time.process_time() - began, moves))
                print(
                    f"round {round_ + 1}/{rounds}: {name}: {games / runs[name][-1][0]:.0f} games/CPU-s", file=sys.stderr
                )
    finally:
        gc.set_threshold(*threshold)
    out: dict[str, Any] = {}
    for name, timed in runs.items():
        per_game = [games / cpu for cpu, _ in timed]
        per_move = [moves / cpu for cpu, moves in timed]
        out[name] = {
            "games_per_cpu_s_best": max(per_game),
            "games_per_cpu_s_median": statistics.median(per_game),
            "moves_per_cpu_s_best": max(per_move),
            "moves_per_cpu_s_median": statistics.median(per_move),
            "moves_per_game": sum(moves for _, moves in timed) / (games * len(timed)),
            "cpu_seconds": [round(cpu, 4) for cpu, _ in timed],
        }
    return out


def print_table(report: dict[str, Any]) -> None:
    rows = report["engines"]
    print(
        f"random 2-player games, {report['games']} a round, {report['rounds']} rounds, seed {report['seed']};"
        f" Python {report['python']}, {report['machine']}, load {report['load']}; ours from {report['ours']}"
        + (f"; numba {report['numba']}, their commit {report['commit']}" if "numba" in report else "")
    )
    print(f"{'engine':36} {'games/CPU-s':>17} {'moves/CPU-s':>19} {'moves/game':>11}")
    print(f"{'':36} {'best':>8} {'median':>8} {'best':>9} {'median':>9}")
    for name, row in rows.items():
        print(
            f"{name:36} {row['games_per_cpu_s_best']:8.0f} {row['games_per_cpu_s_median']:8.0f}"
            f" {row['moves_per_cpu_s_best']:9.0f} {row['moves_per_cpu_s_median']:9.0f} {row['moves_per_game']:11.1f}"
        )
    for ours, theirs, ratio in report["ratios"]:
        print(f"{ours} / {theirs}: games {ratio['games']:.2f}x, moves {ratio['moves']:.2f}x (best rounds)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=DEFAULT_REPO, help="their repository (default: %(default)s)")
    parser.add_argument("--games", type=int, default=200, help="games per engine per round (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, the engines alternating (default: %(default)s)")
    parser.add_argument(
        "--seed", type=int, default=1, help="every engine's round plays new games drawn from it (default: %(default)s)"
    )
    parser.add_argument("--ours-only", action="store_true", help="our engine only (no numpy, numba or repository)")
    parser.add_argument(
        "--compare",
        metavar="REV",
        help="also our engine at git revision REV of this repository, in the same process (two more rows)",
    )
    parser.add_argument(
        "--ours",
        metavar="PATH",
        help="a folder holding the splendor_cli package to measure instead of the installed one"
        " (e.g. `git archive REV splendor_cli | tar -x -C PATH`: an older revision, side by side)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.ours:
        sys.path.insert(0, str(Path(args.ours).resolve()))

    engines = our_engines()
    if args.compare:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="engine-speed-"))
        engines.update(our_engines(compared_package(args.compare, folder), args.compare))
    info: dict[str, str] = {}
    if not args.ours_only:
        theirs, info = their_engines(args.repo)
        engines.update(theirs)
    results = measure(engines, args.games, args.rounds, args.seed)
    ratios = []
    for ours in (name for name in results if not name.startswith("theirs")):
        for theirs in (name for name in results if name.startswith("theirs")):
            a, b = results[ours], results[theirs]
            ratios.append(
                (
                    ours,
                    theirs,
                    {
                        "games": a["games_per_cpu_s_best"] / b["games_per_cpu_s_best"],
                        "moves": a["moves_per_cpu_s_best"] / b["moves_per_cpu_s_best"],
                    },
                )
            )
    import splendor_cli

    report = {
        "ours": str(Path(splendor_cli.__file__).parent),
        "compare": args.compare,
        "games": args.games,
        "rounds": args.rounds,
        "seed": args.seed,
        "python": platform.python_version(),
        "machine": f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}",
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        **info,
        "engines": results,
        "ratios": ratios,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
