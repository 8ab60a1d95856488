"""What `splendor sync` costs over git in mid-game, a 4-player sealed base game against an open
one: prints figures, asserts nothing.

    python bench/sync.py [--moves 40] [--runs 5] [--seed 3] [--splendor PATH] [--only sealed|open] [--compare REV]

In a temporary folder: a bare repository (the "server") and two clones of it, the table's (a
builder that plays every player but ann, in this process, and commits each turn as `sync` would:
`gitsync.commit_turns`, one person's move per commit, a sealed player's shares with their turn)
and ann's, who runs the installed command as a new process with a folder of her own (HOME, every
XDG folder, her key; her cache and memory as a player has them). The sealed game is played by
`tests/sealed_helpers.py`'s `Table` (every player's key at hand; ann's key is also put in her
folder, so that her `sync` writes her shares), the open one by random legal moves.

The games are played to about --moves moves with ann to move; ann plays her move and syncs
(her first audit, of the whole history), the others play a round, ann plays again and the state
is kept (A: "own turn"); her sync of it is kept too (B: "nothing new"); then the next player
plays his turn and pushes it (C: "one new turn"). Each case is timed from a copy of its state
(the remote, ann's clone and her folder, restored before every run), --runs times, median:

- own turn: her move is in her file, not committed: sync commits it (and, sealed, writes and
  commits her share of the card it drew), fetches (nothing), audits, pushes;
- nothing new: nothing to commit, fetch or push;
- one new turn: the next player's turn (and everyone's shares of the card ann drew) is on the
  remote: sync fetches, merges (a fast-forward), and in the sealed game writes her share of the
  card he drew, commits it, audits, pushes (the open game has nothing to push: no audit).

Each case runs twice: "incremental", as it is (the audit starts from the commit whose history
ann's cache remembers as audited); "full", with that mark taken out of her cache before each run
(the whole history audited, as `sync` did before the mark; the verified prefix of the game stays).
The columns are wall and CPU time (user + system of the process and the git it ran, `os.wait4`).

--compare REV: the same benchmark also run by the code at git revision REV (a temporary `git
worktree`, PYTHONPATH on it, the same interpreter, launched as the console script launches it),
side by side: each code builds games of its own (the builder runs in a process of its own with
that code and its tests' `sealed_helpers`, since two codes may write different file formats; the
same seeds), ann's syncs while building them are that code's, and each case is timed for every
code in the same rounds, one right after the other, each from its own restored state. The
installed code's builder and its mark's forgetting run in this interpreter with this process's
PYTHONPATH: with --splendor naming another install, run the script with that install's.
The script exits 0 whatever the figures; 2 when it cannot run (or REV names no commit).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

from splendor_cli import store
from splendor_cli.events.codec import Header, Record, chained, format_event, format_header
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.records import parse_text, replay_record
from splendor_cli.sharing import gitsync
from splendor_cli.variants import find_variant

# the tests folder whose `sealed_helpers` builds the sealed game (a compared revision's own: TESTS_VARIABLE)
sys.path.insert(0, os.environ.get("SPLENDOR_BENCH_TESTS") or str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sealed_helpers import Table  # the tests' sealed table, played in memory
from startup import LAUNCH, check_shadowing, resolve_rev, worktree  # a sibling script

TESTS_VARIABLE = "SPLENDOR_BENCH_TESTS"
"""The tests folder whose `sealed_helpers` builds the sealed game (a compared revision's own)."""
NAMES = ("ann", "bob", "cy", "dee")
GAME = "games/g.toml"
CASES = ("own turn", "nothing new", "one new turn")
MODES = ("full", "incremental")


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPLENDOR_", "PYTHON", "XDG_", "GIT_"))}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0")
    env.update(extra or {})
    return env


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=_env(), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"sync.py: git {' '.join(args)} failed in {cwd}: {done.stderr.strip()}")
    return done.stdout


def identity(clone: Path, name: str) -> None:
    for key, value in (("user.name", name), ("user.email", f"{name}@example.org"), ("commit.gpgsign", "false")):
        git(clone, "config", key, value)


# -- the games, played in this process ----------------------------------------------------------


class Sealed:
    """A sealed 4-player base game at the table (every key at hand)."""

    def __init__(self, seed: int) -> None:
        self.table = Table.new("base", 4, seed, game="bench-sync").deal()
        self.moves = 0
        self.text, self.written = format_header(self.table.record.header), 0
        """The file's text as read last (`reload`), and how many events it holds."""

    @property
    def keys(self) -> dict[str, Any]:
        keys: dict[str, Any] = self.table.keys
        return keys

    def to_move(self) -> str:
        return str(self.table.state.player.name)

    def loaded(self, path: Path) -> store.Loaded:
        record = self.table.record
        text = self.text + "".join(format_event(e) for e in record.events[self.written :])
        return store.Loaded(path=str(path), data=text.encode("utf-8"), record=record, game=self.table.game)

    def duties(self) -> None:
        self.table.duty_round()

    def move(self) -> None:
        """The player to move plays (their duties and everyone's before it: `Table.step`)."""
        assert not self.table.state.finished, "the game is over: fewer --moves"
        self.table.step(blind=0.1)
        self.moves += 1

    def move_drawing(self) -> None:
        """The player to move plays a move after which ann owes a share (a card drawn face up)."""
        for attempt in range(100):
            trial = self.table.fork()
            trial.rng.seed(f"draw:{attempt}")
            trial.step()
            if trial.duties("ann"):
                self.table = trial
                self.moves += 1
                return
        raise SystemExit("sync.py: no move of 100 drew a card")

    def reload(self, data: bytes) -> None:
        self.text = data.decode("utf-8")
        record = parse_text(self.text)
        self.table.record, self.table.game = record, replay_record(record)
        self.written = len(record.events)


class Open:
    """An open 4-player base game, random legal moves."""

    def __init__(self, seed: int, path: Path) -> None:
        self.variant = find_variant("base")
        self.rng = random.Random(seed)
        header = Header(game="bench-sync", variant="base", players=NAMES, created="2026-12-03T00:00:00Z")
        started = self.variant.deal(NAMES, RandomChance(self.rng))
        header = attrs.evolve(header, format=store.writing_format(header, started))
        event = chained(Record(header=header, events=()), started)
        data = (format_header(header) + format_event(event)).encode("utf-8")
        self.current = store.from_bytes(str(path), data)
        self.moves = 0
        self.keys: dict[str, Any] = {}

    def to_move(self) -> str:
        return str(self.current.game.table.player.name)

    def loaded(self, path: Path) -> store.Loaded:
        return self.current

    def duties(self) -> None:
        pass

    def move(self) -> None:
        state = self.current.game.state
        assert not self.current.game.table.finished, "the game is over: fewer --moves"
        moves = self.variant.legal_moves(state)
        self.current = store.stage(self.current, self.current.game.decide(moves[self.rng.randrange(len(moves))]))
        self.moves += 1

    def move_drawing(self) -> None:
        self.move()

    def reload(self, data: bytes) -> None:
        self.current = store.from_bytes(self.current.path, data)


Game = Sealed | Open


# -- the places ---------------------------------------------------------------------------------


@attrs.define
class Places:
    root: Path

    @property
    def remote(self) -> Path:
        return self.root / "remote.git"

    @property
    def builder(self) -> Path:
        return self.root / "table"

    @property
    def ann(self) -> Path:
        return self.root / "ann"

    @property
    def home(self) -> Path:
        return self.root / "ann-home"

    def ann_env(self) -> dict[str, str]:
        home = self.home
        return _env(
            {
                "HOME": str(home),
                "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_CACHE_HOME": str(home / ".cache"),
                "XDG_DATA_HOME": str(home / ".local" / "share"),
                "XDG_STATE_HOME": str(home / ".local" / "state"),
                "SPLENDOR_SECRETS": str(home / "secrets"),
                "SPLENDOR_PLAYER": "ann",
                "NO_COLOR": "1",
                "COLUMNS": "80",
            }
        )

    def live(self) -> tuple[Path, Path, Path]:
        return self.remote, self.ann, self.home

    def keep(self, name: str) -> None:
        """A copy of the remote, ann's clone and her folder, as they are now."""
        for where in self.live():
            kept = self.root / "kept" / name / where.name
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(where, kept, symlinks=True)

    def restore(self, name: str) -> None:
        for where in self.live():
            shutil.rmtree(where)
            shutil.copytree(self.root / "kept" / name / where.name, where, symlinks=True)


def put_key(home: Path, table: Any) -> None:
    """ann's keys in her folder, as her machine keeps them: her key (`splendor key new`) and, from
    format 4, the randomness kept for the game she joined (`Table.install_keys`, where the
    revision's tests have it)."""
    folder = home / ".local" / "share" / "splendor-cli" / "keys"
    folder.mkdir(parents=True, exist_ok=True)
    for part in (home / ".local" / "share" / "splendor-cli", folder):
        part.chmod(0o700)
    install = getattr(table, "install_keys", None)
    if install is not None:
        install("ann", folder)
        return
    path = folder / "secret.toml"
    path.write_text(table.keys["ann"].to_toml())
    path.chmod(0o600)


def commit(places: Places, game: Game) -> None:
    """The builder commits what its clone's HEAD lacks, one person's move per commit."""
    path = places.builder / GAME
    loaded = game.loaded(path)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(loaded.data)
    gitsync.commit_turns(gitsync.locate(path), loaded)


def pull_builder(places: Places, game: Game) -> None:
    git(places.builder, "pull", "-q", "--ff-only")
    game.reload((places.builder / GAME).read_bytes())


def ann_plays(places: Places, game: Game) -> None:
    """ann's move, written to her file (not committed): her `sync` commits it."""
    assert game.to_move() == "ann"
    game.move()
    (places.ann / GAME).write_bytes(game.loaded(places.ann / GAME).data)


def others_play(places: Places, game: Game) -> None:
    """Everyone's duties, then each other player's move, until ann is to move; pushed."""
    while True:
        game.duties()
        if game.to_move() == "ann":
            break
        game.move()
    game.duties()
    commit(places, game)
    git(places.builder, "push", "-q", "origin", "main")


@attrs.define
class Run:
    wall: list[float] = attrs.Factory(list)
    cpu: list[float] = attrs.Factory(list)


@attrs.frozen
class Side:
    """One code under test: how its `splendor` starts (argv prefix), the environment it adds, and
    the interpreter that runs a snippet of its code (`python`)."""

    label: str
    argv: tuple[str, ...]
    env: dict[str, str] = attrs.Factory(dict)
    python: tuple[str, ...] = (sys.executable,)
    python_env: dict[str, str] = attrs.Factory(dict)
    """What a snippet of this code (`forget_mark`) runs with: the installed code is what this
    process imports (its PYTHONPATH, if any, as the builder's)."""


def sync(places: Places, side: Side) -> tuple[float, float, str]:
    """ann's `splendor sync` by `side`'s code: wall ms, CPU ms (user + system, with the git it
    ran), its output."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [*side.argv, "sync", "-g", GAME, "--color", "never"],
            cwd=places.ann,
            env={**places.ann_env(), **side.env},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        print(f"sync.py: ann's sync ({side.label}) exited {proc.returncode}:\n{text}", file=sys.stderr)
        sys.exit(2)
    return wall * 1e3, (usage.ru_utime + usage.ru_stime) * 1e3, text


FORGET = """
import sys
from splendor_cli.app.commands import syncing
from splendor_cli.sharing import gitsync
forget = getattr(syncing, "forget_audited", None)
if forget is None:
    sys.exit(3)
forget(sys.argv[1], gitsync.Upstream(remote="origin", branch="main", tracking=True))
"""
"""Take the mark of the last good audit out of ann's cache, as the code under test keeps it."""


def forget_mark(places: Places, side: Side) -> bool:
    """Take out of ann's cache what `side`'s code remembers of the audit of her clone (whether
    that version of the program has such a mark)."""
    done = subprocess.run(
        [*side.python, "-c", FORGET, str(places.ann / GAME)],
        cwd=places.ann,
        env={**places.ann_env(), **side.env, **side.python_env},
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 3):
        print(f"sync.py: forgetting the audit mark ({side.label}) failed: {done.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return done.returncode == 0


def ann_syncs(places: Places, sides: list[Side]) -> None:
    """ann's `sync` by the installed code, then by each other code (nothing new for it then: it
    audits and remembers, in its own entries of her cache, what the installed code's sync did)."""
    for side in sides:
        sync(places, side)


def prepare(places: Places, kind: str, moves: int, seed: int, sides: list[Side]) -> dict[str, Any]:
    """Build the game and keep the states of the three cases; what they are."""
    places.root.mkdir(parents=True)
    git(places.root, "init", "-q", "--bare", "-b", "main", str(places.remote))
    git(places.root, "clone", "-q", str(places.remote), str(places.builder))
    identity(places.builder, "table")
    game: Game = Sealed(seed) if kind == "sealed" else Open(seed, places.builder / GAME)
    commit(places, game)
    while game.moves < moves or game.to_move() != "ann":
        game.move()
        commit(places, game)
    game.duties()
    commit(places, game)
    git(places.builder, "push", "-q", "-u", "origin", "main")
    git(places.root, "clone", "-q", str(places.remote), str(places.ann))
    identity(places.ann, "ann")
    for sub in (".config", ".cache", ".local/share", ".local/state"):
        (places.home / sub).mkdir(parents=True, exist_ok=True)
    places.home.chmod(0o700)
    if kind == "sealed":
        put_key(places.home, game.table)
    ann_plays(places, game)
    ann_syncs(places, sides)  # her first sync after her move: the whole history audited
    pull_builder(places, game)
    others_play(places, game)
    git(places.ann, "fetch", "-q")
    git(places.ann, "merge", "-q", "--ff-only", "origin/main")
    ann_plays(places, game)
    places.keep("own turn")
    ann_syncs(places, sides)
    places.keep("nothing new")
    pull_builder(places, game)
    game.duties()
    game.move_drawing()  # the next player's turn (everyone's shares of ann's card first): ann owes a share
    commit(places, game)
    git(places.builder, "push", "-q", "origin", "main")
    places.keep("one new turn")
    data = (places.builder / GAME).read_bytes()
    return {
        "moves": game.moves,
        "events": len(parse_text(data.decode("utf-8")).events),
        "commits": int(git(places.builder, "rev-list", "--count", "HEAD")),
        "bytes": len(data),
    }


def build(places: Places, kind: str, args: argparse.Namespace, side: Side, tree: Path | None) -> dict[str, Any]:
    """The game of `kind` built in `places` by `side`'s code, in a process of its own (`--build`);
    what it is."""
    env = dict(os.environ)  # the installed code: what this process imports
    if tree is not None:
        env = {k: v for k, v in env.items() if not k.startswith("PYTHON")}
        env.update(PYTHONPATH=str(tree), **{TESTS_VARIABLE: str(tree / "tests")})
    command = [*side.python, str(Path(__file__).resolve()), "--build", str(places.root), "--only", kind]
    command += ["--moves", str(args.moves), "--seed", str(args.seed)]
    command += ["--sync-argv", json.dumps(list(side.argv)), "--sync-env", json.dumps(side.env)]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"sync.py: building the {kind} game with {side.label} failed:\n{done.stderr}", file=sys.stderr)
        sys.exit(2)
    about: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return about


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", choices=("sealed", "open"))
    parser.add_argument("--splendor", default=str(Path(sys.executable).parent / "splendor"))
    parser.add_argument("--keep", metavar="DIR", help="build in DIR (new) and leave it there")
    parser.add_argument("--compare", metavar="REV", help="also run ann's sync with the code at git revision REV")
    parser.add_argument("--build", metavar="DIR", help=argparse.SUPPRESS)  # a child: build one game in DIR
    parser.add_argument("--sync-argv", help=argparse.SUPPRESS)  # the child's `splendor`, as JSON
    parser.add_argument("--sync-env", default="{}", help=argparse.SUPPRESS)  # and what it adds to ann's environment
    args = parser.parse_args()
    if args.build:  # the builder of one game, in this process's code (see --compare)
        child = Side("child", tuple(json.loads(args.sync_argv)), dict(json.loads(args.sync_env)))
        about = prepare(Places(Path(args.build)), args.only, args.moves, args.seed, [child])
        print(json.dumps(about))
        return 0
    if not Path(args.splendor).exists():
        print(f"sync.py: no splendor command at {args.splendor} (--splendor PATH)", file=sys.stderr)
        return 2
    kinds = [args.only] if args.only else ["sealed", "open"]
    results: dict[tuple[str, str, str, str], Run] = {}
    with contextlib.ExitStack() as stack:
        here = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
        sides = [Side("installed", (args.splendor,), python_env=here)]
        trees: list[Path | None] = [None]
        if args.compare:
            resolve_rev(args.compare)  # exits 2 naming it when it names no commit
            tree, commit = stack.enter_context(worktree(args.compare))
            python = [sys.executable]
            check_shadowing(python, tree)  # exits 2 when the worktree's code does not load
            label = args.compare if commit.startswith(args.compare) else f"{args.compare} ({commit})"
            env = {"PYTHONPATH": str(tree)}
            sides.append(Side(label, (*python, "-c", LAUNCH), env, tuple(python)))
            trees.append(tree)
        folder = args.keep or stack.enter_context(tempfile.TemporaryDirectory(prefix="splendor-bench-sync-"))
        for kind in kinds:
            where: list[Places] = []
            for number, (side, its_tree) in enumerate(zip(sides, trees)):
                places = Places(Path(folder) / f"{kind}-{number}")
                started = time.perf_counter()
                if len(sides) == 1:
                    about = prepare(places, kind, args.moves, args.seed, sides)
                else:
                    about = build(places, kind, args, side, its_tree)
                print(
                    f"{kind} ({side.label}): {about['moves']} moves, {about['events']} events, {about['commits']}"
                    f" commits, {about['bytes']} bytes; built in {time.perf_counter() - started:.1f} s"
                )
                where.append(places)
            marked = {side.label: True for side in sides}
            for _ in range(args.runs):
                for case in CASES:
                    for mode in MODES:
                        for side, places in zip(sides, where):
                            places.restore(case)
                            if mode == "full":
                                marked[side.label] = forget_mark(places, side)
                            wall, cpu, _ = sync(places, side)
                            run = results.setdefault((side.label, kind, case, mode), Run())
                            run.wall.append(wall)
                            run.cpu.append(cpu)
            for name, kept in marked.items():
                if not kept:
                    print(f"  ({kind}, {name}: this version keeps no audit mark: both modes audit the whole history)")
    for side in sides:
        name = args.splendor if side.label == "installed" else f"the code at {side.label}"
        print(f"\n{name} sync as new processes, median of {args.runs} (ms; wall / CPU incl. git)")
        print(f"  {'case':<14} {'game':<7} {'full audit':>17} {'incremental':>17}")
        for case in CASES:
            for kind in kinds:
                cells = []
                for mode in MODES:
                    run = results[(side.label, kind, case, mode)]
                    cells.append(f"{statistics.median(run.wall):7.0f} / {statistics.median(run.cpu):6.0f}")
                print(f"  {case:<14} {kind:<7} {cells[0]:>17} {cells[1]:>17}")
        if len(kinds) == 2:
            print("\n  sealed / open, incremental (wall / CPU):")
            for case in CASES:
                ratios = []
                for figure in ("wall", "cpu"):
                    s = statistics.median(getattr(results[(side.label, "sealed", case, "incremental")], figure))
                    o = statistics.median(getattr(results[(side.label, "open", case, "incremental")], figure))
                    ratios.append(f"{s / o:5.2f}x")
                print(f"  {case:<14} {' / '.join(ratios)}")
    if len(sides) > 1:
        labels = " | ".join(s.label for s in sides)
        print(f"\nSide by side (CPU ms incl. git, median of {args.runs}; same rounds): {labels}")
        print(f"  {'case':<14} {'game':<7} {'mode':<12} " + "  ".join(f"{s.label[:20]:>20}" for s in sides))
        for case in CASES:
            for kind in kinds:
                for mode in MODES:
                    cells = [f"{statistics.median(results[(s.label, kind, case, mode)].cpu):>20.0f}" for s in sides]
                    print(f"  {case:<14} {kind:<7} {mode:<12} " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
