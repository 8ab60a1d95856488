"""Benchmarks of splendor-cli on this machine. Prints figures; asserts nothing.

    python bench/bench.py [--games 200] [--runs 15]

1. random 2-player games per second: full rules, uniform choice among the legal moves, one
   process (the engine of `splendor simulate`);
2. loading the sample game: parse the TOML, check the hash chain, replay and re-judge every
   event through the rules;
3. the cold start of `splendor state --json` on the sample game, as a new process each time:
   with the cache off (the whole path: typer-free dispatch, imports, parse, replay) and with
   the cache on (the answer for these exact bytes was computed before).
Targets (issue #2): >= 100 games/s; fold of a 90-event game <= 5 ms; cold state --json <= 100 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "games" / "sample-3p.toml"


def games_per_second(games: int) -> str:
    from splendor_cli.simulate import run

    report = run(players=2, games=games, seed=1)
    rate = report["games"] / report["seconds"]
    return (
        f"random 2-player games: {rate:.1f} games/s ({report['games']} games, "
        f"{report['turns'] / report['games']:.1f} turns/game, {report['seconds']:.2f} s)"
    )


def fold(runs: int) -> str:
    from splendor_cli.events.codec import parse
    from splendor_cli.projection import replay

    text = SAMPLE.read_text(encoding="utf-8")
    record = parse(text)
    parse_times, fold_times = [], []
    for _ in range(runs):
        began = time.perf_counter()
        record = parse(text)
        parsed = time.perf_counter()
        replay(record.events)
        done = time.perf_counter()
        parse_times.append(parsed - began)
        fold_times.append(done - parsed)
    return (
        f"load {SAMPLE.name} ({len(record.events)} events): parse + chain {min(parse_times) * 1e3:.2f} ms,"
        f" fold + re-judge {min(fold_times) * 1e3:.2f} ms (best of {runs})"
    )


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(games_per_second(args.games))
    print(fold(args.runs))
    for line in cold_start(args.runs):
        print(line)


if __name__ == "__main__":
    main()
