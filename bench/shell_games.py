"""Play whole random games through the installed `splendor` command, as a shell script would.

    python bench/shell_games.py [--games 300] [--players 2] [--seed 1] [--variant base|duel] [--in-process]

Each turn (each step, in a Duel): `moves --json`, then `play` of a uniformly chosen notation;
every few turns it also tries moves the rules forbid (the same move for the wrong player, a take
of gold; in a Duel, a step that `moves` did not list) and checks each is refused with exit 3 and
the file left byte for byte. At the end of each game `state --json` must say finished. Prints a
line per game and the totals. With `--in-process` the commands run through the typer app in this
process (the same code but for the start of a process each time, which dominates otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _in_process(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`splendor ARGV` as the installed command runs it (entry.main: the typer-free path and the
    cache first), in this process, with its output and exit code captured."""
    import contextlib
    import io
    from unittest import mock

    from splendor_cli.app import entry

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with (
        mock.patch.object(sys, "argv", ["splendor", *argv]),
        mock.patch.dict(os.environ, env),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            entry.main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=("base", "duel"), default="base")
    parser.add_argument("--in-process", action="store_true", help="run the commands in this process")
    args = parser.parse_args()
    duel = args.variant == "duel"
    if duel:
        args.players = 2
    exe = Path(sys.executable).parent / "splendor"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "splendor_cli"]
    rng = random.Random(args.seed)
    names = ["ann", "bob", "cy", "dee"][: args.players]
    problems = turns = refusals = 0
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SPLENDOR_CACHE": os.path.join(folder, "cache")}

        def run(*argv: str) -> subprocess.CompletedProcess[str]:
            if args.in_process:
                return _in_process(list(argv), env)
            return subprocess.run([*command, *argv], capture_output=True, text=True, env=env, check=False)

        def read(*argv: str) -> Any:
            result = run(*argv)
            if result.returncode != 0:
                raise SystemExit(f"problem: {' '.join(argv)} exited {result.returncode}: {result.stderr.strip()}")
            return json.loads(result.stdout)

        for number in range(1, args.games + 1):
            path = os.path.join(folder, f"g{number}.toml")
            seed = str(rng.randrange(1 << 30))
            run("new", "-g", path, "--players", ",".join(names), "--seed", seed, "--variant", args.variant)
            while True:
                state = read("state", "-g", path, "--json")
                if state["finished"]:
                    break
                listed = read("moves", "-g", path, "--json")
                move = rng.choice(listed)["notation"]
                if turns % 5 == 0:
                    before = Path(path).read_bytes()
                    other = next(n for n in names if n != state["to_move"])
                    wrong = ["take gold"]
                    if duel:  # a step nobody listed: a take of two cells that are not one listed line
                        listed_takes = {m["notation"] for m in listed if m["step"] == "take"}
                        cells = [f"{c}{r}" for r in "12345" for c in "abcde"]
                        pairs = (sorted(rng.sample(range(25), 2)) for _ in range(50))
                        candidates = (f"take {cells[a]} {cells[b]}" for a, b in pairs)  # in the listed order
                        unlisted = next((t for t in candidates if t not in listed_takes), None)
                        wrong = [unlisted] if unlisted else []
                    for bad in (["--as", other, move], *([w] for w in wrong)):
                        result = run("play", "-g", path, *bad)
                        refusals += 1
                        if result.returncode != 3 or Path(path).read_bytes() != before:
                            problems += 1
                            print(f"problem: {bad} exited {result.returncode}: {result.stderr.strip()}")
                result = run("play", "-g", path, move)
                turns += 1
                if result.returncode != 0:
                    problems += 1
                    print(f"problem: listed move {move!r} refused: {result.stderr.strip()}")
                    break
            how = f" ({state['win_condition']})" if duel and state["winners"] else ""
            print(f"game {number}: {state['turn']} turns, winners {state['winners']}{how}", flush=True)
    seconds = time.perf_counter() - began
    print(
        f"{args.games} {args.variant} games, {turns} {'steps' if duel else 'turns'} through the shell in"
        f" {seconds:.0f} s ({turns / seconds:.1f}/s); {refusals} illegal moves tried; {problems} problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
