"""Benchmarks of splendor-cli on this machine. Prints figures; asserts nothing.

    python bench/bench.py [--games 200] [--runs 15]

1. random 2-player games per second: full rules, uniform choice among the legal moves, one
   process (the engine of `splendor simulate`); the same for Splendor Duel (uniform among the
   legal next steps);
2. loading the sample game: parse the TOML, check the hash chain, replay and re-judge every
   event through the rules;
3. the cold start of `splendor state --json` on the sample game, as a new process each time:
   with the cache off (the whole path: typer-free dispatch, imports, parse, replay) and with
   the cache on (the answer for these exact bytes was computed before).
Targets (issue #2): >= 100 games/s; fold of a 90-event game <= 5 ms; cold state --json <= 100 ms.
Target (issue #4): >= 100 random Duel games/s.
Target (issue #23): >= 300 base and >= 250 Duel random games per CPU second (the bots' moves
applied by the trusted `variant.play`, not judged again by `decide`).

    python bench/bench.py --compare REV [--games 200] [--rounds 3]

prints only the random games per CPU second of the package at git revision REV and of the
working tree, side by side: each in a fresh process (REV's `splendor_cli` exported to a
temporary folder with `git archive`) playing 5 runs, the two run alternately `--rounds` times so
that whatever else the machine does falls on both; the best run of each (caches warm, as above)
and its best first run (caches cold).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "games" / "sample-3p.toml"


def games_per_second(games: int, repeats: int = 5, variant: str = "base") -> str:
    """Games per second of wall time (median of the runs), and of CPU time (the best run: the
    least disturbed by whatever else this shared machine is doing)."""
    from splendor_cli.bots.tournament import run

    reports, cpu = [], []
    for _ in range(repeats):
        began = time.process_time()
        reports.append(run(players=2, games=games, seed=1, variant=variant))
        cpu.append(games / (time.process_time() - began))
    rates = sorted(r["games"] / r["seconds"] for r in reports)
    turns = reports[0]["turns"] / reports[0]["games"]
    steps = f", {reports[0]['steps'] / reports[0]['games']:.1f} steps/game" if variant == "duel" else ""
    label = "Duel" if variant == "duel" else "2-player"
    return (
        f"random {label} games: {statistics.median(rates):.1f} games/s median of {repeats} runs"
        f" (range {rates[0]:.1f}-{rates[-1]:.1f}), {max(cpu):.1f} games per CPU second at best;"
        f" {games} games a run, {turns:.1f} turns/game{steps}"
    )


def _best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times) * 1e3


def fold(runs: int) -> list[str]:
    from splendor_cli.events import enveloped
    from splendor_cli.projection import Game, replay
    from splendor_cli.projection.seeding import RandomChance
    from splendor_cli.records import parse_text
    from splendor_cli.variants import find_variant

    base = find_variant("base")
    text = SAMPLE.read_text(encoding="utf-8")
    record = parse_text(text)
    parsing, folding = _best(runs, lambda: parse_text(text)), _best(runs, lambda: replay(base, record.events))
    lines = [
        f"load {SAMPLE.name} ({len(record.events)} events): parse + hash chain {parsing:.2f} ms,"
        f" fold + re-judge every event {folding:.2f} ms (best of {runs})"
    ]
    rng = random.Random(90)
    game = Game(variant=base).apply(base.deal(("ann", "bob"), RandomChance(rng)))
    while game.seq < 90 and not game.table.finished:
        game = game.apply(enveloped(game.decide(base.random_move(game.state, rng)), seq=game.seq + 1, parent=""))
    played = _best(runs, lambda: replay(base, game.events))
    lines.append(f"fold + re-judge a random {game.seq}-event 2-player game: {played:.2f} ms (best of {runs})")
    return lines


def cold_start(runs: int) -> list[str]:
    exe = Path(sys.executable).parent / "splendor"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "splendor_cli"]
    lines = []
    with tempfile.TemporaryDirectory() as cache:
        for label, env in (
            ("cache off", {"SPLENDOR_NO_CACHE": "1"}),
            ("cache on ", {"SPLENDOR_CACHE": cache}),
        ):
            environ = {**os.environ, **env}
            subprocess.run(
                [*command, "state", "-g", str(SAMPLE), "--json"], env=environ, capture_output=True, check=True
            )
            times = []
            for _ in range(runs):
                began = time.perf_counter()
                subprocess.run(
                    [*command, "state", "-g", str(SAMPLE), "--json"], env=environ, capture_output=True, check=True
                )
                times.append(time.perf_counter() - began)
            lines.append(
                f"cold `splendor state --json` ({label}): median {statistics.median(times) * 1e3:.0f} ms,"
                f" best {min(times) * 1e3:.0f} ms ({runs} runs)"
            )
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    lines.append(f"(a bare `python -c pass` here: {(time.perf_counter() - began) * 1e3:.0f} ms)")
    return lines


_RATE = """
import sys, time
from splendor_cli.bots.tournament import run
games, repeats = int(sys.argv[2]), int(sys.argv[3])
for variant in ("base", "duel"):
    rates = []
    for _ in range(repeats):
        began = time.process_time()
        run(players=2, games=games, seed=1, variant=variant)
        rates.append(games / (time.process_time() - began))
    print(variant, rates[0], max(rates))
"""


def compare(revision: str, games: int, rounds: int, repeats: int = 5) -> list[str]:
    """Random 2-player games per CPU second, base and Duel, of `revision` and of the working tree:
    each round a fresh process per code, which plays `repeats` runs of `games` games; the best run
    of all (caches warm, as `games_per_second` measures) and the best first run (caches cold)."""
    import shutil

    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", revision], capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="splendor-compare-"))
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "splendor_cli"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        roots = {commit: folder, "working tree": ROOT}
        best: dict[str, dict[str, float]] = {label: {} for label in roots}
        cold: dict[str, dict[str, float]] = {label: {} for label in roots}
        for _ in range(rounds):
            for label, root in roots.items():
                environ = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
                out = subprocess.run(
                    [sys.executable, "-c", _RATE, str(root), str(games), str(repeats)],
                    env=environ,
                    cwd=root,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                for line in out.splitlines():
                    variant, first, top = line.split()
                    cold[label][variant] = max(cold[label].get(variant, 0.0), float(first))
                    best[label][variant] = max(best[label].get(variant, 0.0), float(top))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    lines = [
        f"random 2-player games per CPU second (seed 1, {games} games a run): {rounds} alternate processes"
        f" per code, {repeats} runs each; best run (caches warm) and best first run (caches cold)",
        f"{'':14}{'base':>8}{'Duel':>8}{'base cold':>11}{'Duel cold':>11}",
    ]
    for label in roots:
        warm, fresh = best[label], cold[label]
        lines.append(f"{label:14}{warm['base']:8.1f}{warm['duel']:8.1f}{fresh['base']:11.1f}{fresh['duel']:11.1f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--compare", metavar="REV", help="games per CPU second of REV and of the working tree")
    parser.add_argument("--rounds", type=int, default=3, help="with --compare: alternate runs of each")
    args = parser.parse_args()
    if args.compare:
        for line in compare(args.compare, args.games, args.rounds):
            print(line)
        return
    print(games_per_second(args.games))
    print(games_per_second(args.games, variant="duel"))
    for line in (*fold(4 * args.runs), *cold_start(args.runs)):
        print(line)


if __name__ == "__main__":
    main()
