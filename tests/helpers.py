"""Building games in tests through the core API (no files, no CLI)."""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import attrs
import pytest
from hypothesis import settings
from typer.testing import CliRunner

from splendor_cli.app.cli import app
from splendor_cli.bots import make_bot
from splendor_cli.events import Event
from splendor_cli.projection import Game
from splendor_cli.projection.seeding import RandomChance, SeededChance
from splendor_cli.variants import event_types
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base.cards import DECKS
from splendor_cli.variants.base.events import TURN_TYPES, GameStarted
from splendor_cli.variants.base.notation import parse_move
from splendor_cli.variants.base.rules import Move, choices
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel.events import STEP_TYPES, DuelStarted

EVENT_TYPES: dict[str, type[Any]] = {**event_types("base"), **event_types("duel")}
"""Every event type of every game, by tag."""
PLAY_TYPES = (*TURN_TYPES, *STEP_TYPES)


def examples(fraction: float) -> int:
    """A share of the hypothesis profile's `max_examples` (tests/conftest.py), at least 1: for a
    test whose examples cost more (fraction < 1) or much less (fraction > 1) than most."""
    return max(1, round(settings().max_examples * fraction))


def deal(players: tuple[str, ...], rng: random.Random) -> GameStarted:
    """A base game's setup, shuffled by `rng` (as `splendor new --seed` deals it)."""
    setup = BASE.deal(players, RandomChance(rng))
    assert isinstance(setup, GameStarted)
    return setup


def deal_duel(players: tuple[str, ...], rng: random.Random) -> DuelStarted:
    """A Duel's setup, shuffled by `rng`."""
    setup = DUEL.deal(players, RandomChance(rng))
    assert isinstance(setup, DuelStarted)
    return setup


def seeded_deal(players: tuple[str, ...], secrets: tuple[str, ...], variant: str = "base") -> Event:
    """The setup a commit-then-reveal deal makes of these secrets (in turn order)."""
    import hashlib

    game = BASE if variant == "base" else DUEL
    return game.deal(players, SeededChance(hashlib.sha256("|".join(secrets).encode()).digest()))


def base_bot(spec: str) -> Any:
    return make_bot(BASE, spec)


def duel_bot(spec: str) -> Any:
    return make_bot(DUEL, spec)


def state_json(game: Game) -> dict[str, Any]:
    return game.variant.state_json(game.seq, game.state)


def moves_json(game: Game) -> list[dict[str, Any]]:
    return [game.variant.move_json(game.state, m) for m in game.variant.legal_moves(game.state)]


def new_game(players: tuple[str, ...] = ("ann", "bob"), seed: int = 1) -> Game:
    """A freshly dealt game, shuffled by `seed`."""
    return Game(variant=BASE).apply(deal(players, random.Random(seed)))


def new_duel(players: tuple[str, ...] = ("ann", "bob"), seed: int = 1) -> Game:
    """A freshly dealt Duel, shuffled by `seed`."""
    return Game(variant=DUEL).apply(deal_duel(players, random.Random(seed)))


def started(
    players: tuple[str, ...], deck_1: Sequence[str], deck_2: Sequence[str], deck_3: Sequence[str], nobles: Sequence[str]
) -> Game:
    """A game whose decks begin with the given cards (the rest of each level follows in id order)."""
    decks = []
    for first, level in ((deck_1, 1), (deck_2, 2), (deck_3, 3)):
        decks.append(tuple(first) + tuple(c for c in DECKS[level] if c not in first))
    event = GameStarted.of(players, tuple(decks), tuple(nobles))
    return Game(variant=BASE).apply(event)


def step(game: Game, move: Move | str, player: str | None = None) -> Game:
    """Play one turn through `decide`, exactly as the CLI does, and fold it."""
    if isinstance(move, str):
        move = parse_move(move)
    event = game.decide(move, player=player)
    return game.apply(attrs.evolve(event, seq=game.seq + 1))


def undo(game: Game, to: int | None = None, *, by: str = "", forced: bool = False) -> Game:
    """Undo through `decide_undo` (default: the last move, asked by its player) and fold it."""
    return game.apply(attrs.evolve(game.decide_undo(to=to, by=by, forced=forced), seq=game.seq + 1))


def random_game(seed: int, players: int = 2, max_turns: int | None = None) -> Game:
    """A game of uniformly random legal turns, to the end (or `max_turns`)."""
    rng = random.Random(seed)
    game = new_game(tuple(f"p{i}" for i in range(1, players + 1)), seed)
    while not game.state.finished and (max_turns is None or game.state.turn < max_turns):
        options = choices(game.state)
        game = step(game, options.move(rng.randrange(len(options))))
    return game


def events_of(game: Game) -> tuple[Event, ...]:
    return game.events


# -- the command line -------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
"""The project's folder (README.md, games/)."""
_runner = CliRunner()


def cli(*args: object, env: dict[str, str] | None = None, input: str | None = None) -> tuple[int, str, str]:
    """Run `splendor ARGS` through the typer app: the exit code, stdout and stderr."""
    result = _runner.invoke(app, [str(a) for a in args], env=env, input=input)
    return result.exit_code, result.stdout, result.stderr


def run_in(cwd: Path, *args: object, input: str | None = None) -> tuple[int, str, str]:
    """`splendor ARGS` in folder `cwd` (through the typer app): exit code, stdout, stderr."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return cli(*args, input=input)
    finally:
        os.chdir(old)


def ok_in(cwd: Path, *args: object) -> str:
    """`run_in`, which must succeed: its stdout."""
    code, out, err = run_in(cwd, *args)
    assert code == 0, (args, out, err)
    return out


def state(path: Path, *extra: object) -> dict[str, Any]:
    """`splendor state --json` of the game at `path`."""
    code, out, err = cli("state", "-g", path, "--json", *extra)
    assert code == 0, err
    loaded: dict[str, Any] = json.loads(out)
    return loaded


def git(cwd: Path, *args: str, who: str = "alice", email: str = "") -> subprocess.CompletedProcess[str]:
    """`git ARGS` in `cwd` as author `who` (e-mail `email`, default who@example.org), no user config."""
    address = email or f"{who}@example.org"
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": who,
        "GIT_AUTHOR_EMAIL": address,
        "GIT_COMMITTER_NAME": who,
        "GIT_COMMITTER_EMAIL": address,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    result = subprocess.run(
        ["git", "-c", "commit.gpgsign=false", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def splendor_in(cwd: Path, *args: str, input: str | None = None) -> str:
    """`splendor ARGS` run in folder `cwd` (through the typer app); its stdout. It must succeed."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = _runner.invoke(app, list(args), input=input)
    finally:
        os.chdir(old)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


# -- the declared test dependencies ------------------------------------------------------------
#
# A test that needs one of them and does not find it fails, in one line that says how to get it:
# never a skip, which would let a run without them look green.

_DISTRIBUTIONS = {"nacl": "pynacl"}
"""Where a module's pip distribution (pyproject's [test] extra) has another name."""


def require(module: str) -> ModuleType:
    """The module, a declared test dependency (pyproject's [test] extra); failing the test in
    one line when it is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        pass  # failed below, outside the handler: one line, not the import's traceback too
    top = module.partition(".")[0]
    pytest.fail(
        f"{_DISTRIBUTIONS.get(top, top)} is a declared test dependency (pyproject [test]) and is not installed:"
        " pip install -e '.[test]'",
        pytrace=False,
    )


def require_program(name: str, path: str | None = None) -> str:
    """The program `name` (the executable at `path`, else the one on PATH), which the tests run
    for real (git, bash, Chromium); failing the test in one line when it is not there."""
    found = shutil.which(name) if path is None else path if os.access(path, os.X_OK) else None
    if found is None:
        where = "on PATH" if path is None else f"at {path}"
        pytest.fail(
            f"{name} is a test dependency (the tests run it for real) and is not {where}: apt-get install {name}",
            pytrace=False,
        )
    return found


# -- waiting for a process -------------------------------------------------------------------------
#
# A test never bets on how long something takes (a sleep before a signal, a limit of a minute): it
# waits for what it needs to see (a line, a file), and gives up only after PATIENCE seconds, far
# more than anything takes on a loaded machine, so that only a hang ever reaches it.

PATIENCE = 600.0
"""Seconds a test waits for a process before it fails: only a hang takes that long."""


class Output:
    """The lines a process writes to a pipe, read as they come (by a thread), so that a test can
    wait for a line rather than for a time."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._closed = False
        self._reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def wait_for(self, wanted: Callable[[str], bool], what: str) -> str:
        """The first line that is `wanted`, once the process has written it; failing the test if
        the process closes its output without it, or has not written it after PATIENCE seconds."""
        end = time.monotonic() + PATIENCE
        with self._changed:
            while True:
                found = next((line for line in self.lines if wanted(line)), None)
                if found is not None:
                    return found
                assert not self._closed, f"the process ended its output without {what}: {self.lines}"
                left = end - time.monotonic()
                assert left > 0, f"no {what} after {PATIENCE:.0f} s: {self.lines}"
                self._changed.wait(left)

    def all(self) -> list[str]:
        """Every line, once the process has closed its output (PATIENCE seconds at the most)."""
        self._reader.join(PATIENCE)
        assert not self._reader.is_alive(), f"the output is still open after {PATIENCE:.0f} s: {self.lines}"
        return self.lines
