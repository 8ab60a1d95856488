"""How `splendor verify --git` scales with a long history: wall time, CPU time and peak memory.
Prints figures; asserts nothing.

    python bench/verify_git.py [--commits 6000] [--no-newline 1500] [--splendor PATH]

It builds, in a temporary folder (with `git fast-import`, so building is quick), two
repositories holding one 2-player game, one event per commit (random moves; once the game is
over, its last turn taken back and played again, and so on):

- an ordinary history of `--commits` commits, each version of the file ending with a newline;
- a history of `--no-newline` commits whose every version lacks its final newline (each commit
  appends "\\n[[events]]..." after the last line of the one before).

Then it runs `verify --git` on each as a new process of the installed command and prints its
wall time, its CPU time (user and system, its git children included) and its peak memory (the
largest resident set of the process and the children it waited for: `os.wait4`'s `ru_maxrss`).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from measuring import measured

from splendor_cli import store
from splendor_cli.events import actor
from splendor_cli.events.codec import Header
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants import find_variant

_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "SPLENDOR_NO_MEMORY": "1"}


def versions(events: int, folder: Path) -> Iterator[bytes]:
    """The file after each of `events` events (the setup first), played at random."""
    variant = find_variant("base")
    rng = random.Random(1)
    players = ("ann", "bob")
    header = Header(game="bench-verify", variant="base", players=players, created="2026-12-05T00:00:00Z")
    loaded = store.create(folder / "seed.toml", header, variant.deal(players, RandomChance(rng)))
    yield loaded.data
    for _ in range(events - 1):
        if loaded.game.table.finished:  # take the last turn back, play another
            last = loaded.game.events[loaded.game.after[-1] - 1]
            loaded = store.stage(loaded, loaded.game.decide_undo(by=actor(last)))
        else:
            moves = variant.legal_moves(loaded.game.state)
            loaded = store.stage(loaded, loaded.game.decide(moves[rng.randrange(len(moves))]))
        yield loaded.data


class Repo:
    """A repository being built by `git fast-import`: commit k writes the k-th file to games/g.toml."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0
        self.size = 0
        subprocess.run(["git", "init", "-q", "-b", "main", str(root)], env=_ENV, check=True)
        self.process = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=root, env=_ENV, stdin=subprocess.PIPE)
        assert self.process.stdin is not None
        self.stdin = self.process.stdin

    def commit(self, data: bytes) -> None:
        self.count += 1
        self.size = len(data)
        k, when, message = self.count, 1_700_000_000 + self.count, b"turn %d\n" % self.count
        self.stdin.write(
            b"commit refs/heads/main\nmark :%d\nauthor ann <ann@example.org> %d +0000\n"
            b"committer ann <ann@example.org> %d +0000\ndata %d\n%s" % (k, when, when, len(message), message)
        )
        if k > 1:
            self.stdin.write(b"from :%d\n" % (k - 1))
        self.stdin.write(b"M 100644 inline games/g.toml\ndata %d\n%s\n" % (len(data), data))

    def close(self) -> None:
        self.stdin.close()
        if self.process.wait():
            raise SystemExit("git fast-import failed")
        subprocess.run(["git", "checkout", "-q", "main"], cwd=self.root, env=_ENV, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commits", type=int, default=6000)
    parser.add_argument("--no-newline", type=int, default=1500)
    parser.add_argument("--splendor", default=str(Path(sys.executable).parent / "splendor"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="splendor-bench-verify-") as folder:
        root = Path(folder)
        started = time.perf_counter()
        plain, bare = Repo(root / "plain"), Repo(root / "no-newline")
        for k, data in enumerate(versions(max(args.commits, args.no_newline), root)):
            if k < args.commits:
                plain.commit(data)
            if k < args.no_newline:
                bare.commit(data.rstrip(b"\n"))
        plain.close()
        bare.close()
        print(f"built in {time.perf_counter() - started:.1f} s")
        for label, repo in (
            (f"{args.commits} commits, one event each", plain),
            (f"{args.no_newline} commits, no final newline", bare),
        ):
            wall, cpu, peak, code = measured([args.splendor, "verify", "--git", "-g", "games/g.toml"], repo.root, _ENV)
            print(
                f"  {label:<36} (file {repo.size / 1e6:.2f} MB): wall {wall:6.1f} s, cpu {cpu:6.1f} s,"
                f" peak {peak:6.0f} MB, exit {code}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
