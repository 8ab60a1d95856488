"""The git side of a table: how long the audit and `sync` take as a game's history grows.
Prints figures; asserts nothing.

    python bench/history.py [--turns 300] [--runs 5] [--splendor PATH]

It builds, in a temporary folder, a bare repository and a clone holding one 2-player game
played by random moves (once it is over, its last turn taken back and played again, and so
on), one commit per turn or undo (as `splendor sync` commits them), with a side branch merged
back every 25 turns; then it times, as new processes of the installed command:
`verify --git` on the whole history, `verify` of the file, and `sync` with nothing to share
(fetch, audit, report) against the local bare remote.
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
from pathlib import Path

from splendor_cli import store
from splendor_cli.events import actor
from splendor_cli.events.codec import Header
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.sharing import gitsync
from splendor_cli.variants import find_variant


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def build(root: Path, turns: int) -> Path:
    """The clone, with `turns` turns committed one by one and a merged side branch every 25 turns."""
    _git(root, "init", "-q", "--bare", "-b", "main", "remote.git")
    _git(root, "clone", "-q", "remote.git", "clone")
    clone = root / "clone"
    for key, value in (("user.name", "ann"), ("user.email", "ann@example.org"), ("commit.gpgsign", "false")):
        _git(clone, "config", key, value)
    (clone / "games").mkdir()
    variant = find_variant("base")
    rng = random.Random(1)
    players = ("ann", "bob")
    header = Header(game="bench-history", variant="base", players=players, created="2026-12-03T00:00:00Z")
    path = clone / "games" / "g.toml"
    loaded = store.create(path, header, variant.deal(players, RandomChance(rng)))
    repo = gitsync.locate(path)
    gitsync.commit_turns(repo, loaded)
    for turn in range(1, turns + 1):
        if turn % 25 == 0:  # a side branch: the turn on it, merged back (as a merge of a stale clone's turn)
            _git(clone, "switch", "-q", "-c", f"side{turn}")
        if loaded.game.table.finished:  # a long history of one game: take the last turn back, play another
            last = loaded.game.events[loaded.game.after[-1] - 1]
            loaded = store.append(loaded, loaded.game.decide_undo(by=actor(last)))
        else:
            moves = variant.legal_moves(loaded.game.state)
            loaded = store.append(loaded, loaded.game.decide(moves[rng.randrange(len(moves))]))
        gitsync.commit_turns(repo, loaded)
        if turn % 25 == 0:
            _git(clone, "switch", "-q", "main")
            _git(clone, "merge", "-q", "--no-ff", "--no-edit", f"side{turn}")
    _git(clone, "push", "-q", "-u", "origin", "main")
    return clone


def timed(command: list[str], cwd: Path, runs: int) -> float:
    """The median wall time of `command` run `runs` times (it must succeed)."""
    times = []
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "SPLENDOR_NO_MEMORY": "1"}
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--splendor", default=str(Path(sys.executable).parent / "splendor"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="splendor-bench-history-") as folder:
        started = time.perf_counter()
        clone = build(Path(folder), args.turns)
        built = time.perf_counter() - started
        commits = int(_git(clone, "rev-list", "--count", "HEAD"))
        events = store.read(clone / "games" / "g.toml").game.seq
        print(f"a history of {commits} commits ({events} events, a merge every 25 turns), built in {built:.1f} s")
        exe = [args.splendor]
        for label, command in (
            ("verify --git (whole history)", [*exe, "verify", "--git", "-g", "games/g.toml"]),
            ("verify (the file)", [*exe, "verify", "-g", "games/g.toml"]),
            ("sync, nothing to share", [*exe, "sync", "-g", "games/g.toml", "--color", "never"]),
        ):
            print(f"  {label:<32} {timed(command, clone, args.runs) * 1000:8.0f} ms  (median of {args.runs}, wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
