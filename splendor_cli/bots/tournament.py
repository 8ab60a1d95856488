"""Tournaments of bots played in memory, for `splendor simulate` and the bench.

The bots (see `bots/`) rotate through the seats from one game to the next. Each game is
reproducible on its own: game `g` of seed `S` draws its deal and every choice of its bots from
one `random.Random(f"{S}:{g}")` (a string seed is hashed the same way by every Python version)
and builds its bots afresh, so the results do not depend on which process plays which game:
`--jobs` changes only the time taken.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO, TypeVar

import attrs

from ..errors import UsageError

MAX_TURNS = 1000
"""A game still running after this many turns (in a game played stepwise: four times as many
steps) stops unfinished, with no winner: the rules have no end for players who only trade tokens back and
forth (every hand full, every reserve unaffordable), and bots may fall into it."""

DELAY = 1.0
"""Seconds before a progress report appears on a stream that is not a terminal."""


@attrs.frozen(kw_only=True)
class GameResult:
    """What one game of a tournament came to. Seats are in turn order: `points[i]` is `seating[i]`'s."""

    number: int
    seating: tuple[str, ...]
    winners: tuple[str, ...]
    points: tuple[int, ...]
    turns: int
    steps: int = 0
    """Moves made: one a turn, unless the game is played stepwise (a Duel's steps)."""
    finished: bool = True
    """False for a game stopped at `MAX_TURNS`."""
    moves: tuple[int, ...] = ()
    """The moves (Duel: steps) each seat chose."""
    thinking: tuple[float, ...] = attrs.field(default=(), eq=False)
    """The seconds each seat spent choosing them, in all (not compared: timings vary)."""
    slowest: tuple[float, ...] = attrs.field(default=(), eq=False)
    """The seconds of each seat's slowest choice (not compared)."""

    @property
    def is_shared(self) -> bool:
        return len(self.winners) > 1

    @property
    def is_draw(self) -> bool:
        return not self.winners


@attrs.frozen(kw_only=True)
class Tournament:
    """Who plays: the name and bot spec of each seat (in the order given), and the variant."""

    seats: tuple[tuple[str, str], ...]
    variant: str = "base"
    rotate: bool = True

    @classmethod
    def of(cls, bots: Sequence[str] | None, players: int, variant: str = "base") -> Tournament:
        """p1, p2, ... all `random` and never rotated without `bots`; else the bots named (one per
        seat, or one for all), each seat named after its bot, numbered when a bot plays twice.

        Raises:
            UsageError: an unknown variant or bot, a bad number of bots or players.
        """
        from ..projection.variant import check_players
        from ..variants import find_variant
        from . import parse_spec

        problem = check_players(find_variant(variant), [f"p{i}" for i in range(1, players + 1)])
        if problem:
            raise UsageError(problem)
        if not bots:
            return cls(seats=tuple((f"p{i}", "random") for i in range(1, players + 1)), variant=variant, rotate=False)
        specs = [b.strip() for b in bots]
        if len(specs) == 1:
            specs *= players
        if len(specs) != players:
            raise UsageError(f"--bots names {len(specs)} bots for {players} players: name one, or one per seat")
        for spec in dict.fromkeys(specs):
            parse_spec(spec)
        seen: dict[str, int] = {}
        seats = []
        for spec in specs:
            seen[spec] = seen.get(spec, 0) + 1
            seats.append((spec if specs.count(spec) == 1 else f"{spec}#{seen[spec]}", spec))
        return cls(seats=tuple(seats), variant=variant)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.seats)

    def seating(self, number: int) -> tuple[str, ...]:
        """The seats of game `number` in turn order: the names shifted by `number` mod players."""
        names = self.names
        shift = number % len(names) if self.rotate else 0
        return names[shift:] + names[:shift]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for z = 1.96); (0, 1) when nothing was played.

    >>> [round(bound, 3) for bound in wilson(5, 10)]
    [0.237, 0.763]
    """
    if games <= 0:
        return 0.0, 1.0
    rate, z2 = wins / games, z * z
    scale = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / scale
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def run(
    *,
    players: int,
    games: int,
    seed: int | None,
    bots: Sequence[str] | None = None,
    variant: str = "base",
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play a tournament of `games` games in `jobs` processes (0: one per core); report it.

    `progress`, if given, is called with the number of games done as they finish. The report
    holds the contract's keys (games, turns, seconds, wins per seat or bot, shared victories;
    a Duel's steps and draws) and per bot its wins, win rate, its 95% Wilson interval and mean
    points. Wins count a shared victory as a win for each sharer.

    Raises:
        UsageError: a bad bot, number of bots, variant or number of jobs; checked before any game.
    """
    tournament = Tournament.of(bots, players, variant)
    workers = _workers(jobs)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    began = time.perf_counter()
    results = play(tournament, games=games, seed=seed, jobs=workers, progress=progress)
    seconds = time.perf_counter() - began
    return report(tournament, results, seed=seed, seconds=seconds, jobs=workers)


def _workers(jobs: int) -> int:
    if jobs < 0:
        raise UsageError(f"--jobs takes a number of processes, or 0 for one per core, not {jobs}")
    return jobs or os.cpu_count() or 1


def play(
    tournament: Tournament, *, games: int, seed: int, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> list[GameResult]:
    """The result of each game, in game order, whatever the number of processes."""
    if jobs <= 1 or games <= 1:
        results = []
        with _few_collections():
            for number in range(games):
                results.append(play_game(tournament, number, seed))
                if progress:
                    progress(number + 1)
        return results
    import multiprocessing

    # chunks: few round trips for quick games, yet a progress report and a share of the work for each process
    size = max(1, games // (jobs * 20))
    tasks = [(tournament, range(start, min(start + size, games)), seed) for start in range(0, games, size)]
    found: list[GameResult] = []
    # leaving the block (an interrupt, a failure) terminates the workers; they ignore ^C, the parent handles it
    # spawned, not forked: a fork copies whatever locks other threads of this process hold
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(tasks)), initializer=_ignore_interrupts) as pool:
        for part in pool.imap_unordered(_play_chunk, tasks):
            found += part
            if progress:
                progress(len(found))
    return sorted(found, key=lambda result: result.number)


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(task: tuple[Tournament, range, int]) -> list[GameResult]:
    tournament, numbers, seed = task
    with _few_collections():
        return [play_game(tournament, number, seed) for number in numbers]


def play_game(tournament: Tournament, number: int, seed: int) -> GameResult:
    """Game `number` of the tournament of `seed`, played to the end (or to `MAX_TURNS`)."""
    from ..projection.seeding import RandomChance
    from ..variants import find_variant
    from . import make_bot

    variant = find_variant(tournament.variant)
    rng = random.Random(f"{seed}:{number}")
    seated = tournament.seating(number)
    specs = dict(tournament.seats)
    clock = _Clock(seated)
    play = {name: make_bot(variant, specs[name]) for name in seated}
    state = variant.start(variant.deal(seated, RandomChance(rng)))
    limit = 4 * MAX_TURNS if variant.stepwise else MAX_TURNS
    steps = 0
    while not state.finished and steps < limit:
        # a bot's move is one the rules listed (a random outcome drawn): played, not judged again
        state = variant.play(state, clock.time(play[state.player.name], state, rng))
        steps += 1
    return GameResult(
        number=number,
        seating=seated,
        winners=state.winners(),
        points=tuple(p.points for p in state.players),
        turns=state.turn,
        steps=steps if variant.stepwise else 0,
        finished=state.finished,
        moves=tuple(clock.moves.values()),
        thinking=tuple(clock.thinking.values()),
        slowest=tuple(clock.slowest.values()),
    )


T = TypeVar("T")
S = TypeVar("S")


class _Clock:
    """How many choices each seat made, and how long they took."""

    def __init__(self, seated: Sequence[str]) -> None:
        self.moves = dict.fromkeys(seated, 0)
        self.thinking = dict.fromkeys(seated, 0.0)
        self.slowest = dict.fromkeys(seated, 0.0)

    def time(self, bot: Callable[[S, random.Random], T], state: S, rng: random.Random) -> T:
        """`bot`'s choice in `state` (the player to move's), timed."""
        began = time.perf_counter()
        choice = bot(state, rng)
        spent = time.perf_counter() - began
        name = state.player.name  # type: ignore[attr-defined]
        self.moves[name] += 1
        self.thinking[name] += spent
        self.slowest[name] = max(self.slowest[name], spent)
        return choice


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """Random play allocates many small immutable states, none of them in a cycle: the cyclic
    garbage collector only slows it down (by about a tenth). Run it seldom meanwhile."""
    threshold = gc.get_threshold()
    gc.set_threshold(100_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def report(
    tournament: Tournament, results: Sequence[GameResult], *, seed: int, seconds: float, jobs: int = 1
) -> dict[str, Any]:
    """The report of a tournament: the contract's keys first, then the table per bot."""
    names = tournament.names
    games = len(results)
    wins = dict.fromkeys(names, 0)
    points = dict.fromkeys(names, 0)
    moves = dict.fromkeys(names, 0)
    thinking = dict.fromkeys(names, 0.0)
    slowest = dict.fromkeys(names, 0.0)
    for result in results:
        for winner in result.winners:
            wins[winner] += 1
        for name, scored in zip(result.seating, result.points):
            points[name] += scored
        for name, made, spent, slow in zip(result.seating, result.moves, result.thinking, result.slowest):
            moves[name] += made
            thinking[name] += spent
            slowest[name] = max(slowest[name], slow)
    turns = sum(r.turns for r in results)
    out: dict[str, Any] = {
        "games": games,
        "turns": turns,
        "seconds": round(seconds, 3),
        "wins": wins,
        "shared": sum(r.is_shared for r in results),
    }
    stepwise = _stepwise(tournament.variant)
    if stepwise:
        steps = sum(r.steps for r in results)
        out |= {"steps": steps, "draws": sum(r.is_draw for r in results)}
    out |= {
        "seed": seed,
        "players": len(names),
        "variant": tournament.variant,
        "jobs": jobs,
        "mean_turns": round(turns / games, 2) if games else 0.0,
        "unfinished": sum(not r.finished for r in results),
    }
    if stepwise:
        out["mean_steps"] = round(steps / games, 2) if games else 0.0
    out["bots"] = [
        {
            "name": name,
            "wins": wins[name],
            "win_rate": round(wins[name] / games, 3) if games else 0.0,
            "ci95": [round(bound, 3) for bound in wilson(wins[name], games)],
            "mean_points": round(points[name] / games, 2) if games else 0.0,
            "seconds_per_move": round(thinking[name] / moves[name], 4) if moves[name] else 0.0,
            "slowest_move": round(slowest[name], 4),
        }
        for name in names
    ]
    return out


def _stepwise(variant: str) -> bool:
    from ..variants import find_variant

    return find_variant(variant).stepwise


def table(report: dict[str, Any]) -> str:
    """The report as plain text: a header, one row per bot, the mean length of a game."""
    from ..variants import find_variant

    game = find_variant(report["variant"])
    games = report["games"]
    lines = [
        f"{games} game{'s' if games != 1 else ''} of {game.title},"
        f" {report['players']} players, seed {report['seed']}, {report['seconds']:.2f} s"
    ]
    width = max(4, *(len(row["name"]) for row in report["bots"]))
    lines.append(
        f"{'bot':<{width}}  {'wins':>5}  {'win rate':>8}  {'95% CI':<16}  {'mean points':>11}"
        f"  {'s/move':>6}  {'slowest':>7}"
    )
    for row in report["bots"]:
        low, high = row["ci95"]
        interval = f"[{low * 100:.1f}%, {high * 100:.1f}%]"
        lines.append(
            f"{row['name']:<{width}}  {row['wins']:>5}  {row['win_rate'] * 100:>7.1f}%  {interval:<16}"
            f"  {row['mean_points']:>11.2f}  {row['seconds_per_move']:>6.3f}  {row['slowest_move']:>7.3f}"
        )
    if game.stepwise:
        lines.append(
            f"mean length: {report['mean_turns']:.2f} turns, {report['mean_steps']:.2f} steps; draws: {report['draws']}"
        )
    else:
        lines.append(f"mean length: {report['mean_turns']:.2f} turns; shared victories: {report['shared']}")
    if report["unfinished"]:
        lines.append(f"unfinished (stopped at {MAX_TURNS} turns, no winner): {report['unfinished']}")
    return "\n".join(lines) + "\n"


class Progress:
    """Games done, on `stream` (stderr): on a terminal, one bar line rewritten in place and
    cleared at the end; elsewhere, once the run has lasted `delay` seconds, a plain line at each
    tenth of the games (each game when there are ten or fewer)."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        *,
        tty: bool | None = None,
        delay: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.delay = DELAY if delay is None else delay
        self.clock = clock
        self.began = clock()
        self.step = max(1, math.ceil(total / 10))
        self.shown = 0  # the last count written (plain lines)
        self.drawn = -math.inf  # when the bar was last drawn
        self.width = 0  # the width of the bar line on screen

    def __call__(self, done: int) -> None:
        now = self.clock()
        elapsed = now - self.began
        if self.tty:
            if now - self.drawn >= 0.1 or (done >= self.total and self.width):
                filled = 20 * done // max(1, self.total)
                line = f"[{'#' * filled}{'.' * (20 - filled)}] {done}/{self.total} games  {elapsed:.1f} s"
                self.stream.write("\r" + line.ljust(self.width))
                self.stream.flush()
                self.width, self.drawn = len(line), now
            return
        if elapsed >= self.delay and (done // self.step > self.shown // self.step or done >= self.total > self.shown):
            self.stream.write(f"simulate: {done}/{self.total} games, {elapsed:.1f} s\n")
            self.stream.flush()
            self.shown = done

    def close(self) -> None:
        """Clear the bar from the terminal."""
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
