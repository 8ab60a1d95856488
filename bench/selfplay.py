"""Self-play games for training an evaluation (issue 33, item 2), on every core of one machine or on a Ray cluster.

    python bench/selfplay.py --out DIR [--variant base|duel] [--players 2] [--games 100] [--seed 1]
                             [--bots expert,expert] [--jobs 0] [--shard-games 5] [--resume]
                             [--ray local|auto|HOST:PORT|ray://HOST:10001] [--ray-temp DIR]
                             [--runtime-env JSON]

Plays `--games` games of `--variant` at `--players` with the bots of `--bots` (specs as
`splendor simulate --bots` takes them and parsed by the same code: one spec for every seat, or
one per seat; the seats rotate from one game to the next). Game k is exactly game k of
`splendor simulate --seed S` with the same bots: its deal and every choice of its bots come from
`random.Random(f"{S}:{k}")` alone, so the files do not depend on `--jobs` or on which process
finishes first. `--jobs` processes (0, the default: one per core; spawned, not forked).

A spec written `SPEC@FILE` (base Splendor) is that bot searching by the evaluation file FILE
instead of the package's own (a generation's weights, written by `bench/train.py`): the seat is
named `SPEC@STEM`, and the file's text goes into `run.json` and to the workers (a cluster's
nodes need not have the file).

With `--ray ADDRESS` the games are Ray tasks instead, one task a game, gathered as they finish
(`pip install 'splendor-cli[cluster]'`: Ray is an optional extra, never needed by the game, and
imported only with `--ray`). The files are the same, byte for byte, as without it.
- `--ray local` starts a Ray cluster on this machine, inside this process, with `--jobs` CPUs (0:
  every core), and shuts it down at the end; `--ray-temp DIR` is where it keeps its session files
  and sockets (Ray's default: /tmp/ray; keep the path short, Unix sockets allow ~107 bytes).
- Any other ADDRESS is passed to `ray.init(address=...)`: `auto` (the cluster this machine is a
  node of, started by `ray start`), `HOST:6379` (the head's GCS port), or `ray://HOST:10001` (Ray
  Client). `--jobs N` then caps the games played at once (0: every CPU of the cluster). To set
  up a cluster: `ray start --head` on one machine, `ray start --address HOST:6379` on each of the
  others, then run this script on the head with `--ray auto`.
- The workers import `splendor_cli`, so every node needs the package: `pip install` this checkout
  (or the same version of splendor-cli) into the Python of every node, the same Python and Ray
  versions everywhere. Or let Ray ship it: `--runtime-env '{"working_dir": ".", "pip": [...]}'`
  from the checkout's root (the JSON is Ray's runtime_env, passed to `ray.init`; `working_dir`
  puts `splendor_cli/` on the workers' path, `pip` must then list the game's dependencies from
  pyproject.toml).
- Ray's token authentication: a token in `RAY_AUTH_TOKEN` needs `RAY_AUTH_MODE=token` beside it
  to be presented to a running cluster. At an address where no cluster answers, Ray retries
  until Ctrl-C. More in docs/performance.md ("On a Ray cluster").

Writes to `--out DIR`:

- `run.json`: the settings (variant, players, bots, seed, shard size) and the feature names.
- `games-NNNNNN.jsonl`, one shard a run of `--shard-games` games (shard i: games i*G to i*G+G-1),
  in game order. Each game gives one line per position in which a seat chose a move (in a Duel,
  a step), then one summary line:
  - `{"type": "position", "seed": "S:k", "game": k, "move": m, "player": p, "features": [...],
    "outcome": o}`: the game seed, the move number (0 for the first), the seat to move (its index
    in turn order), the features of every seat in turn order as the evaluation the `expert` bot
    searches by reads them (`splendor_cli/variants/<variant>/evaluation.features`, in its `NAMES`
    order, booleans as 0 and 1), and the final outcome for the seat to move: 1 for a sole winner,
    1/n for one of n sharing a victory (a Duel drawn: 1/2 each), 0 for a loser, null for a game
    stopped unfinished (`tournament.MAX_TURNS`).
  - `{"type": "game", "seed": "S:k", "game": k, "seating": [...], "winners": [...], "points":
    [...], "outcomes": [...], "turns": t, "moves": m, "finished": true}`: the bots' seat names in
    turn order (as `simulate` names them), the winners, every seat's points and outcome.

A shard is written whole (to a temporary file, then renamed) once all its games are played.
Without `--resume`, a DIR holding shards is refused; with it, the shards already complete (every
game of their range summarised) are kept and only the others are played: a run killed midway and
started again gives the same files as one run. The settings must match `run.json` (`--games` may
grow).

Prints a progress bar on stderr (games done, games/s, ETA), then one line on stdout: games played
and kept, positions written, wall time and games a minute, and each bot's wins. Asserts nothing;
exit 0, or 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

FORMAT = 1


def play_game(variant_name: str, bots: tuple[tuple[str, str], ...], seed: int, number: int) -> list[str]:
    """Game `number` of the run of `seed`: its JSON lines (the positions, then the summary)."""
    from splendor_cli.bots import make_bot
    from splendor_cli.bots.tournament import MAX_TURNS, Tournament
    from splendor_cli.projection.seeding import RandomChance
    from splendor_cli.variants import find_variant

    # the same game as tournament.play_game (splendor simulate): the same rng, seating and bots
    tournament = Tournament(seats=tuple((seat[0], seat[1]) for seat in bots), variant=variant_name)
    variant = find_variant(variant_name)
    evaluation = importlib.import_module(f"splendor_cli.variants.{variant_name}.evaluation")
    game_seed = f"{seed}:{number}"
    rng = random.Random(game_seed)
    seated = tournament.seating(number)
    specs = dict(tournament.seats)
    models = {seat[0]: seat[2] for seat in bots if len(seat) > 2}
    play = {
        name: make_bot(_weighted(variant, evaluation, models[name]) if name in models else variant, specs[name])
        for name in seated
    }
    state = variant.start(variant.deal(seated, RandomChance(rng)))
    limit = 4 * MAX_TURNS if variant.stepwise else MAX_TURNS
    seats = range(len(seated))
    positions: list[tuple[int, list[list[float]]]] = []
    steps = 0
    while not state.finished and steps < limit:
        positions.append((state.to_move, [_compact(evaluation.features(state, i)) for i in seats]))
        state = variant.play(state, play[state.player.name](state, rng))
        steps += 1
    winners = state.winners()
    outcomes: list[float | None]
    if not state.finished:
        outcomes = [None for _ in seats]
    elif not winners:  # a Duel drawn
        outcomes = [1 / len(seated) for _ in seats]
    else:
        outcomes = [1 / len(winners) if p.name in winners else 0.0 for p in state.players]
    lines = [
        _line(
            {
                "type": "position",
                "seed": game_seed,
                "game": number,
                "move": move,
                "player": player,
                "features": features,
                "outcome": outcomes[player],
            }
        )
        for move, (player, features) in enumerate(positions)
    ]
    summary = {
        "type": "game",
        "seed": game_seed,
        "game": number,
        "seating": list(seated),
        "winners": list(winners),
        "points": [p.points for p in state.players],
        "outcomes": outcomes,
        "turns": state.turn,
        "moves": steps,
        "finished": state.finished,
    }
    lines.append(_line(summary))
    return lines


class _Weighted:
    """A variant whose `chances` are those of another evaluation file's models (the bots'
    generations): everything else is the variant's own."""

    def __init__(self, variant: Any, chances: Any) -> None:
        self._variant = variant
        self.chances = chances

    def __getattr__(self, name: str) -> Any:
        return getattr(self._variant, name)


def _weighted(variant: Any, evaluation: Any, text: str) -> Any:
    """`variant` searching by the models of the evaluation file `text` (base Splendor only)."""
    return _Weighted(variant, evaluation.chances_of(evaluation.read_models(text)))


def seats_of(bots: str, players: int, variant: str) -> tuple[tuple[str, ...], ...]:
    """The seats of `--bots` as (name, spec) or, for a spec written `SPEC@FILE`, (name, spec,
    the text of the evaluation file FILE that bot searches by), named `SPEC@STEM` (FILE's stem).

    Raises:
        UsageError: a bad spec, a bad count, an evaluation file that is not one, or for Duel.
    """
    from splendor_cli.bots.tournament import Tournament
    from splendor_cli.errors import UsageError

    specs, files = [], []
    for part in bots.split(","):
        spec, _, file = part.strip().partition("@")
        specs.append(spec)
        files.append(file)
    tournament = Tournament.of(specs, players, variant)
    if not any(files):
        return tournament.seats
    if variant != "base":
        raise UsageError("an evaluation file (SPEC@FILE) is for base Splendor only")
    if len(files) == 1:
        files *= players
    evaluation = importlib.import_module("splendor_cli.variants.base.evaluation")
    full = [seat[1] for seat in tournament.seats]
    labels = [f"{spec}@{Path(file).stem}" if file else spec for spec, file in zip(full, files)]
    seats: list[tuple[str, ...]] = []
    for label, spec, file in zip(labels, full, files):
        name = label if labels.count(label) == 1 else f"{label}#{labels[: len(seats) + 1].count(label)}"
        if not file:
            seats.append((name, spec))
            continue
        try:
            text = Path(file).read_text(encoding="utf-8")
            evaluation.read_models(text)
        except (OSError, ValueError, KeyError) as error:
            raise UsageError(f"{file}: not an evaluation file ({error})") from None
        seats.append((name, spec, text))
    return tuple(seats)


def _compact(features: tuple[Any, ...]) -> list[float]:
    """Booleans and whole numbers as integers, other numbers to 4 decimals (short lines)."""
    out: list[float] = []
    for x in features:
        x = float(x)
        out.append(int(x) if x.is_integer() else round(x, 4))
    return out


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


def _task(task: tuple[str, tuple[tuple[str, str], ...], int, int]) -> tuple[int, list[str]]:
    variant, bots, seed, number = task
    return number, play_game(variant, bots, seed, number)


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def shard_path(out: Path, index: int) -> Path:
    return out / f"games-{index:06d}.jsonl"


def complete(path: Path, numbers: range) -> bool:
    """Whether the shard at `path` holds the summary of every game of `numbers`, and nothing else."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    found = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            return False
        if record.get("type") == "game":
            found.append(record.get("game"))
    return found == list(numbers)


class Bar:
    """A progress bar on stderr: plain text, rewritten in place with `\\r`."""

    def __init__(self, total: int, skipped: int) -> None:
        self.total, self.skipped = total, skipped
        self.began = time.monotonic()
        self.drawn = -1.0

    def __call__(self, done: int, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self.drawn < 0.2:
            return
        self.drawn = now
        elapsed = now - self.began
        played = done - self.skipped
        rate = played / elapsed if elapsed > 0 else 0.0
        left = self.total - done
        eta = _clock(left / rate) if rate > 0 else "--:--"
        filled = 30 * done // max(1, self.total)
        line = f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} games  {rate:.3g} games/s  ETA {eta}"
        sys.stderr.write("\r" + line)
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


@contextlib.contextmanager
def _ray_cluster(address: str, jobs: int, temp: Path | None, runtime_env: dict[str, Any] | None) -> Iterator[int]:
    """Ray started (`local`) or joined (an address), and shut down on the way out: its CPUs."""
    import logging

    import ray

    options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
    if runtime_env is not None:
        options["runtime_env"] = runtime_env
    if address == "local":
        options.update(num_cpus=jobs or os.cpu_count() or 1, include_dashboard=False)
        if temp is not None:
            options["_temp_dir"] = str(temp.resolve())
    try:
        ray.init(address=address, **options)
        yield int(ray.cluster_resources().get("CPU", 1))
    finally:
        ray.shutdown()


def _ray_games(
    tasks: list[tuple[str, tuple[tuple[str, str], ...], int, int]], window: int
) -> Iterator[tuple[int, list[str]]]:
    """The games of `tasks` as Ray tasks, one a game, at most `window` submitted at once (in game
    order, so a shard waits for few), yielded as they finish."""
    import ray

    remote = ray.remote(num_cpus=1, max_retries=3)(_task)
    queue = iter(tasks)
    running: list[Any] = []
    while True:
        for task in queue:
            running.append(remote.remote(task))
            if len(running) >= max(1, window):
                break
        if not running:
            return
        ready, running = ray.wait(running, num_returns=1)
        yield from ray.get(ready)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", required=True, type=Path, help="the folder of the shards")
    parser.add_argument("--variant", default="base", choices=("base", "duel"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="expert,expert", help="bot specs as `splendor simulate --bots` takes them")
    parser.add_argument("--jobs", type=int, default=0, help="processes (0: one per core)")
    parser.add_argument("--shard-games", type=int, default=5, help="games per shard")
    parser.add_argument("--resume", action="store_true", help="keep the complete shards of DIR, play the rest")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play on Ray: `local` (a cluster on this machine with --jobs CPUs), or a cluster address for ray.init",
    )
    parser.add_argument("--ray-temp", type=Path, help="with --ray local: the folder of Ray's session files")
    parser.add_argument("--runtime-env", metavar="JSON", help="with --ray: Ray's runtime_env, as JSON")
    args = parser.parse_args()

    from splendor_cli.errors import UsageError

    if args.games < 1 or args.shard_games < 1 or args.jobs < 0:
        parser.error("--games and --shard-games take a positive number, --jobs 0 or more")
    runtime_env = None
    if args.ray is None and (args.ray_temp or args.runtime_env):
        parser.error("--ray-temp and --runtime-env go with --ray")
    if args.ray_temp and args.ray != "local":
        parser.error("--ray-temp goes with --ray local (a cluster's nodes have their own)")
    if args.runtime_env:
        try:
            runtime_env = json.loads(args.runtime_env)
        except ValueError as error:
            parser.error(f"--runtime-env is not JSON: {error}")
        if not isinstance(runtime_env, dict):
            parser.error("--runtime-env takes a JSON object")
    if args.ray is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            sys.stderr.write("--ray needs Ray, an optional extra: pip install 'splendor-cli[cluster]'\n")
            raise SystemExit(2) from None
    try:
        seats = seats_of(args.bots, args.players, args.variant)
    except UsageError as error:
        parser.error(str(error))
    evaluation = importlib.import_module(f"splendor_cli.variants.{args.variant}.evaluation")
    settings = {
        "format": FORMAT,
        "variant": args.variant,
        "players": args.players,
        "bots": [list(seat) for seat in seats],
        "seed": args.seed,
        "shard_games": args.shard_games,
        "features": list(evaluation.NAMES),
    }
    out: Path = args.out
    manifest = out / "run.json"
    if any(out.glob("games-*.jsonl*")) or manifest.exists():
        if not args.resume:
            parser.error(f"{out} holds a run already: --resume to complete it, or another --out")
        try:
            before = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            parser.error(f"{out} holds shards but no readable run.json: not a run of this script")
        if before != settings:
            parser.error(f"{out}/run.json was written with other settings: {before}")
    out.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
    for stray in out.glob("games-*.jsonl.tmp"):
        stray.unlink()

    size = args.shard_games
    shards = {i: range(i * size, min((i + 1) * size, args.games)) for i in range((args.games + size - 1) // size)}
    todo = {i: numbers for i, numbers in shards.items() if not complete(shard_path(out, i), numbers)}
    numbers = [n for part in todo.values() for n in part]
    skipped = args.games - len(numbers)
    jobs = min(args.jobs or os.cpu_count() or 1, max(1, len(numbers)))
    workers = f"{jobs} jobs"
    pending: dict[int, list[str]] = {}
    wins = dict.fromkeys((seat[0] for seat in seats), 0.0)
    positions = 0
    began = time.perf_counter()

    def finished(number: int, lines: list[str]) -> None:
        nonlocal positions
        pending[number] = lines
        shard = number // size
        if all(n in pending for n in todo[shard]):
            path = shard_path(out, shard)
            temporary = path.with_name(path.name + ".tmp")
            with temporary.open("w", encoding="utf-8", newline="\n") as file:
                for n in todo[shard]:
                    file.writelines(pending[n])
            os.replace(temporary, path)
            for n in todo[shard]:
                game = json.loads(pending.pop(n)[-1])
                positions += game["moves"]
                for name, share in zip(game["seating"], game["outcomes"]):
                    wins[name] += share or 0.0

    tasks = [(args.variant, seats, args.seed, n) for n in numbers]
    done = skipped
    try:
        # every way gives the games through `finished`, in the order they end; the shards are the same
        with contextlib.ExitStack() as stack:
            games: Iterable[tuple[int, list[str]]]
            if args.ray is not None and tasks:
                started = time.perf_counter()
                cpus = stack.enter_context(_ray_cluster(args.ray, args.jobs, args.ray_temp, runtime_env))
                workers = f"Ray at {args.ray}: {cpus} CPUs, started in {time.perf_counter() - started:.1f} s"
                window = args.jobs if args.jobs and args.ray != "local" else 2 * cpus
                games = _ray_games(tasks, window)
            elif jobs <= 1 or not tasks:
                games = map(_task, tasks)
            else:
                import multiprocessing

                context = multiprocessing.get_context("spawn")
                pool = stack.enter_context(context.Pool(jobs, initializer=_ignore_interrupts))
                games = pool.imap_unordered(_task, tasks)
            bar = Bar(args.games, skipped)  # after Ray's start-up and its messages
            bar(skipped, final=not numbers)
            for number, lines in games:
                finished(number, lines)
                done += 1
                bar(done, final=done == args.games)
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted: the complete shards are kept; --resume plays the rest\n")
        raise SystemExit(130) from None
    seconds = time.perf_counter() - began
    played = len(numbers)
    rate = f"{played / seconds * 60:.1f} games/min" if played and seconds > 0 else "-"
    score = ", ".join(f"{name} {value:g}" for name, value in wins.items())
    print(
        f"{played} games played, {skipped} kept from before; {positions} positions written to {out};"
        f" {seconds:.1f} s with {workers} ({rate}); wins of the games played: {score}"
    )


if __name__ == "__main__":
    main()
