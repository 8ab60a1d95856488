"""The CPU time of folding a long game file: 20,000 events, read as every command reads it.

    python bench/fold_long.py [--events 20000] [--runs 5] [--compare REV ...]

The file is made once with the code under test: a 2-player game whose players take tokens and
undo, again and again (an undo loop is how a real file grows that long), written through the
store. What is measured: the CPU time (user + system, `time.process_time`) of `store.read` of
that file in a fresh process (parse, chain, the fold judging every move again), the median over
`--runs` runs, each in its own child process so no cache of a run helps the next. With
--compare REV (repeatable) the same file is read by the code at git revision REV (a temporary
`git worktree`, PYTHONPATH on it), in the same rounds, interleaved: before and after, side by
side, in one run. The machine is named (cores, CPU model), and the random games per CPU second of
`bench/bench.py` are not repeated here: run it beside this one to compare machines.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from startup import worktree  # noqa: E402 - a sibling script of this folder

READ = (
    "import sys, time\n"
    "from splendor_cli import store\n"
    "t = time.process_time()\n"
    "loaded = store.read(sys.argv[1])\n"
    "print(time.process_time() - t, loaded.game.seq)\n"
)


def make(path: Path, events: int) -> None:
    """A file of `events` events: a game of take-and-undo loops."""
    from splendor_cli import store
    from splendor_cli.events.codec import Header
    from splendor_cli.projection.seeding import RandomChance
    from splendor_cli.variants import find_variant

    game = find_variant("base")
    setup = game.deal(("ann", "bob"), RandomChance(random.Random(1)))
    header = Header(game="bench-long", variant="base", players=("ann", "bob"), created="2026-12-06T00:00:00Z")
    loaded = store.create(path, header, setup)
    staged = loaded
    while staged.game.seq < events:
        move = game.legal_moves(staged.game.state)[0]
        staged = store.stage(staged, staged.game.decide(move))
        if staged.game.seq < events:
            staged = store.stage(staged, staged.game.decide_undo(by="ann"))
    store.write(staged)


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cpu = model or platform.processor() or "unknown CPU"
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def read_cpu(path: Path, pythonpath: str | None) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run(
        [sys.executable, "-c", READ, str(path)], env=env, capture_output=True, text=True, check=True, timeout=600
    )
    seconds, _ = done.stdout.split()
    return float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", action="append", default=[], metavar="REV")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        path = folder / "long.toml"
        make(path, args.events)
        sides: dict[str, str | None] = {"this tree": None}
        for rev in args.compare:
            tree, commit = stack.enter_context(worktree(rev))
            sides[f"{rev} ({commit[:8]})"] = str(tree)
        times: dict[str, list[float]] = {name: [] for name in sides}
        for where in sides.values():  # warm-up: bytecode compiled
            read_cpu(path, where)
        for _ in range(args.runs):
            for name, where in sides.items():
                times[name].append(read_cpu(path, where))
        print(f"fold of a {args.events}-event file ({path.stat().st_size >> 10} KiB), {machine()}")
        print(f"{'code':<28} {'CPU s (median)':>15} {'min':>7} {'max':>7}")
        for name, runs in times.items():
            print(f"{name:<28} {statistics.median(runs):>15.3f} {min(runs):>7.3f} {max(runs):>7.3f}")


if __name__ == "__main__":
    main()
