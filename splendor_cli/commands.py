"""The bodies of the `splendor` commands, free of typer.

cli.py declares the commands and their options with typer; entry.py calls these functions
directly for the scripting commands when their arguments are plain (typer's start-up costs
more than their work). Each function raises a SplendorError on failure; `run` turns it into
one line on stderr and the exit code of CONTRACT.md. Heavy modules are imported in the bodies.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IllegalMoveError, SplendorError, UsageError

if TYPE_CHECKING:
    from .model import Move, Step
    from .projection.game import State
    from .store import Loaded


def run(command: Callable[..., None], kwargs: dict[str, Any]) -> int:
    """Call a command; return its exit code, an error reported as one line on stderr."""
    try:
        command(**kwargs)
    except SplendorError as exc:
        message = " ".join(str(exc).split())
        if isinstance(exc, IllegalMoveError) and exc.rule:
            message += f" (rule: {exc.rule})"
        sys.stderr.write(f"splendor: {message}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("splendor: interrupted\n")
        return 130
    except BrokenPipeError:  # `splendor moves | head`: the reader left; say nothing more
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - no flush error at exit
        return 141
    except OSError as exc:  # e.g. no permission to write beside the game file
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"splendor: {where}{exc.strerror or exc}\n")
        return 1
    except Exception as exc:  # a bug: one line, exit 1 (SPLENDOR_DEBUG=1 shows the traceback)
        if os.environ.get("SPLENDOR_DEBUG"):
            raise
        sys.stderr.write(f"splendor: internal error: {type(exc).__name__}: {exc} (SPLENDOR_DEBUG=1 for details)\n")
        return 1
    return 0


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _json_text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False) + "\n"


def _use_color(color: str) -> bool:
    if color not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {color!r}")
    if color != "auto":
        return color == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _width() -> int:
    import shutil

    return min(shutil.get_terminal_size((100, 24)).columns, 120)


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _load(game: Path | None) -> Loaded:
    from . import store

    return store.load(game)


def _views(loaded: Loaded, at: int | None = None) -> tuple[str, str]:
    """The texts of `state --json` and (for the last event) `moves --json`, remembered in the cache."""
    from . import cache
    from .views import moves_json, state_json

    played = loaded.game.at(at) if at is not None else loaded.game
    state_text = _json_text(state_json(played))
    cache.put(loaded.data, cache.view_name("state", at), state_text)
    moves_text = ""
    if at is None:
        moves_text = _json_text(moves_json(played.state))
        cache.put(loaded.data, "moves", moves_text)
    return state_text, moves_text


def new(
    *,
    players: str,
    game: Path | None = None,
    seed: int | None = None,
    variant: str = "base",
    commit_seed: bool = False,
    json: bool = False,
) -> None:
    import random

    from . import store
    from .bots import parse_spec, seat_spec
    from .events.codec import Header
    from .newgame import deal, deal_duel, parse_players

    if variant not in ("base", "duel"):
        raise UsageError(f"unknown variant {variant!r}: use 'base' or 'duel'")
    names, emails = parse_players(players)
    for name in names:
        if (spec := seat_spec(name)) is not None:
            parse_spec(spec)  # a bot seat names a bot this version has
    if variant == "duel" and len(names) != 2:
        raise UsageError(f"Splendor Duel is for 2 players, not {len(names)}")
    created = _now()
    suffix = f"{random.Random(seed).getrandbits(16) if seed is not None else random.getrandbits(16):04x}"
    plain = ("".join(c if c.isalnum() or c in "_.@-" else "-" for c in name) for name in names)
    game_id = f"{created[:10]}-{'-'.join(plain)}-{suffix}"  # a file name anywhere: no colon or hash
    path = game if game is not None else store.GAMES_DIR / f"{game_id}.toml"
    header = Header(game=game_id, variant=variant, players=names, created=created, emails=emails)
    if commit_seed:
        if seed is not None:
            raise UsageError("--seed and --commit-seed exclude each other: the players' secrets make the shuffle")
        from .events import SeedsAsked

        store.create(path, header, SeedsAsked(seq=1, parent="", variant=variant, players=names))
        after = f"each player now runs `splendor seed -g {path} --as NAME` twice: to commit, then to reveal"
    else:
        setup = deal_duel if variant == "duel" else deal
        store.create(path, header, setup(names, random.Random(seed)))
        after = f"{names[0]} to move"
    if json:
        _out(_json_text({"game": game_id, "path": str(path), "players": list(names)}))
    else:
        _out(f"new game {game_id} in {path}: {', '.join(names)}; {after}")


def state(*, game: Path | None = None, json: bool = False, at: int | None = None, color: str = "auto") -> None:
    loaded = _load(game)
    if json:
        _out(_views(loaded, at)[0])
        return
    from .render import board_text

    on = _use_color(color)
    _out(board_text(loaded.game.at(at) if at is not None else loaded.game, width=_width(), color=on))


show = state


def moves(*, game: Path | None = None, json: bool = False) -> None:
    loaded = _load(game)
    if json:
        _out(_views(loaded)[1])
        return
    from .notation import format_move, format_step
    from .projection import duel, legal_moves
    from .projection.duel import DuelState

    now = loaded.game.state
    if isinstance(now, DuelState):
        _out("\n".join(format_step(step) for step in duel.legal_steps(now)))
    else:
        _out("\n".join(format_move(move) for move in legal_moves(now)))


def play(
    *, move: list[str], game: Path | None = None, as_: str | None = None, json: bool = False, bots: bool = False
) -> None:
    from . import store
    from .bots import seat_spec
    from .model import Step
    from .notation import format_move, format_step, parse_move, parse_steps
    from .projection.duel import DuelState

    text = " ".join(move)
    with store.writing(game) as loaded:
        parsed: list[Move] | list[Step]
        parsed = parse_steps(text) if isinstance(loaded.game.state, DuelState) else [parse_move(text)]
        after = loaded
        now = loaded.game.state
        if as_ is None and not now.finished and seat_spec(now.player.name):
            raise IllegalMoveError(
                f"it is {now.player.name}'s turn, a bot's: `splendor bot` plays it (or say --as {now.player.name})",
                rule="turn",
            )
        mover = as_ or (now.player.name if len(parsed) > 1 else None)
        for one in parsed:  # several Duel steps: each judged after the ones before it, all one player's
            try:
                after = store.stage(after, after.game.decide(one, player=mover))
            except SplendorError as exc:
                said = format_step(one) if isinstance(one, Step) else format_move(one)
                exc.args = (f"{said!r}: {exc}",)
                raise
        if bots:
            after = _bot_turns(after)
        after = store.append(loaded, *after.record.events[loaded.game.seq :])
    _report(loaded, after, json)


def bot(*, game: Path | None = None, json: bool = False) -> None:
    from . import store

    with store.writing(game) as loaded:
        after = _bot_turns(loaded)
        if after is not loaded:
            after = store.append(loaded, *after.record.events[loaded.game.seq :])
    if after is loaded and not json:
        now = loaded.game.state
        _out(_whose_turn(now) + ("" if now.finished else ": not a bot seat, nothing to play"))
        return
    _report(loaded, after, json)


def _bot_turns(loaded: Loaded) -> Loaded:
    """`loaded` with every consecutive turn (Duel: step) of a bot seat staged, until a person is
    to move or the game ends. Each bot draws from a source seeded by the game and the event
    before its move, so the same file always gets the same moves."""
    from . import store
    from .bots import seat_spec

    after = loaded
    while not after.game.state.finished and (spec := seat_spec(after.game.state.player.name)):
        after = store.stage(after, after.game.decide(_suggest(after, spec)))
    return after


def _suggest(loaded: Loaded, spec: str) -> Move | Step:
    """The move the bot of `spec` makes for the player to move, as a person would say it (a
    replenish without its draw, which follows from the log)."""
    import random

    import attrs

    from .bots import base_bot, duel_bot
    from .projection.duel import DuelState

    rng = random.Random(f"{loaded.record.header.game}:{loaded.game.seq}")
    state = loaded.game.state
    if isinstance(state, DuelState):
        return attrs.evolve(duel_bot(spec)(state, rng), order=None)
    return base_bot(spec)(state, rng)


def hint(*, game: Path | None = None, bot: str = "mcts", json: bool = False) -> None:
    from .bots import parse_spec
    from .model import Step
    from .notation import format_move, format_step, move_json, step_json

    parse_spec(bot)
    loaded = _load(game)
    state = loaded.game.state
    if state.finished:
        raise IllegalMoveError("the game is over: no move to suggest", rule="game-over")
    move = _suggest(loaded, bot)
    if isinstance(move, Step):
        text, shape = format_step(move), step_json(move)
    else:
        text, shape = format_move(move), move_json(move)
    if json:
        _out(_json_text({"player": state.player.name, "bot": bot, **shape}))
    else:
        _out(f'{state.player.name}: {text}   (suggested by {bot}; play it with: splendor play "{text}")')


def _report(loaded: Loaded, after: Loaded, json: bool) -> None:
    """What `play` and `bot` print: the events added (JSON: the last one too), then whose turn."""
    from .projection.duel import DuelState
    from .views import event_notation

    _views(after)  # bots ask for these next: answer them from the cache
    added = after.record.events[loaded.game.seq :]
    now = after.game.state
    if json:
        from .events.codec import event_to_dict

        last = added[-1] if added else None
        _out(
            _json_text(
                {
                    "seq": after.game.seq,
                    "notation": event_notation(last) if last else None,
                    "event": event_to_dict(last) if last else None,
                    "events": [event_to_dict(e) for e in added],
                    "to_move": None if now.finished else now.player.name,
                    "finished": now.finished,
                    "winners": list(now.winners()),
                    **({"phase": now.phase} if isinstance(now, DuelState) else {}),
                }
            )
        )
        return
    from .events import actor

    lines = [f"#{e.seq} {actor(e)}: {event_notation(e)}" for e in added]
    lines.append(_whose_turn(now))
    _out("\n".join(lines))


def _whose_turn(state: State) -> str:
    """`bob to move`, or what the game's end was; for a Duel, the step owed when there is one."""
    from .projection.duel import DuelState

    if state.finished:
        winners = state.winners()
        if not winners:
            return "game over: a draw (both players passed in a row)"
        how = f" ({state.win_condition})" if isinstance(state, DuelState) else ""
        return f"game over: {' and '.join(winners)} won{'' if len(winners) == 1 else ' together'}{how}"
    if isinstance(state, DuelState) and state.phase != "main":
        return f"{state.player.name} to move: {state.phase}"
    return f"{state.player.name} to move"


def undo(
    *,
    game: Path | None = None,
    to: int | None = None,
    turn: bool = False,
    as_: str | None = None,
    force: bool = False,
    json: bool = False,
) -> None:
    from . import store

    if turn and to is not None:
        raise UsageError("--turn and --to exclude each other")
    with store.writing(game) as loaded:
        if turn:
            to = loaded.game.turn_start()
        event = loaded.game.decide_undo(to=to, by=as_ or "", forced=force)
        after = store.append(loaded, event)
    state_text, _ = _views(after)
    if json:
        _out(state_text)
    else:
        _out(f"#{after.game.seq} undo: back to just after #{event.to}; {_whose_turn(after.game.state)}")


def log(*, game: Path | None = None, json: bool = False, color: str = "auto") -> None:
    from .views import log_entries

    entries = log_entries(_load(game).game)
    if json:
        _out(_json_text([e.to_json() for e in entries]))
        return
    from .render import log_text

    _out(log_text(entries, color=_use_color(color)))


def demo(
    *, game: Path | None = None, turns: int = 12, seed: int | None = None, variant: str = "base", color: str = "auto"
) -> None:
    import random
    import tempfile

    from . import store
    from .events.codec import Header
    from .newgame import deal, deal_duel
    from .projection import duel
    from .projection.duel import DuelState
    from .projection.rules import choices
    from .render import board_text

    if variant not in ("base", "duel"):
        raise UsageError(f"unknown variant {variant!r}: use 'base' or 'duel'")
    rng = random.Random(seed)
    path = game if game is not None else Path(tempfile.mkdtemp(prefix="splendor-demo-")) / "demo.toml"
    names = ("ann", "bob") if variant == "duel" else ("ann", "bob", "cy")
    header = Header(game="demo", variant=variant, players=names, created=_now())
    loaded = store.create(path, header, (deal_duel if variant == "duel" else deal)(names, rng))
    while loaded.game.state.turn < turns and not loaded.game.state.finished:
        now = loaded.game.state
        if isinstance(now, DuelState):
            steps = duel.legal_steps(now)  # a replenish is drawn by the log (Game.decide)
            event = loaded.game.decide(steps[rng.randrange(len(steps))])
        else:
            options = choices(now)
            event = loaded.game.decide(options.move(rng.randrange(len(options))))
        loaded = store.append(loaded, event)
    _out(board_text(loaded.game, width=_width(), color=_use_color(color)))
    _out(f"\nThe demo game is {path}: try `splendor log -g {path}` or `splendor moves -g {path}`.")


def simulate(
    *,
    players: int = 2,
    games: int = 10,
    seed: int | None = None,
    variant: str = "base",
    bots: str | None = None,
    jobs: int = 1,
    quiet: bool = False,
    json: bool = False,
) -> None:
    from .simulate import Progress, run, table

    names = [b.strip() for b in bots.split(",")] if bots else None
    progress = None if quiet else Progress(games, sys.stderr)
    try:
        report = run(players=players, games=games, seed=seed, bots=names, variant=variant, jobs=jobs, progress=progress)
    finally:
        if progress:
            progress.close()
    _out(_json_text(report) if json else table(report))


def merge_driver(*, base: Path, ours: Path, theirs: Path) -> None:
    from .errors import ConflictError
    from .gitmerge import run_driver

    result = run_driver(base, ours, theirs)
    if result.conflict:
        raise ConflictError(result.message)
    if result.message:
        sys.stderr.write(f"splendor: {result.message}\n")


def git_install(*, pattern: str) -> None:
    import shlex

    from .gitmerge import install

    # The driver runs this very installation: its Python, not whichever `splendor` is on PATH.
    for line in install(Path.cwd(), shlex.join([sys.executable, "-m", "splendor_cli"]), pattern=pattern):
        _out(line)


def resolve(*, keep: str, game: Path | None = None) -> None:
    from . import gitmerge, store
    from .locate import find_game

    path = Path(find_game(str(game) if game is not None else None))
    with store.locked(path):
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
        kept = gitmerge.resolve(data, keep)
        store.write_atomic(path, kept, exclusive=False)
    loaded = store.read(path)
    _out(
        f"kept {keep}: {path} is a valid game again ({loaded.game.seq} events,"
        f" {loaded.game.state.player.name} to move); now `git add {path}` and commit"
    )


def export(*, game: Path | None = None, last: int = 1) -> None:
    from .mail import export_text

    _out(export_text(_load(game).record, last))


def apply(*, mail: str | None = None, game: Path | None = None) -> None:
    from . import store
    from .mail import apply_blocks, find_blocks

    try:
        data = sys.stdin.buffer.read() if mail is None or mail == "-" else Path(mail).read_bytes()
    except OSError as exc:
        raise UsageError(f"{mail}: cannot read: {exc.strerror}") from None
    blocks = find_blocks(data)
    with store.writing(game) as loaded:
        outcome = apply_blocks(loaded.record, loaded.game, blocks)
        for event in outcome.events:
            loaded = store.append(loaded, event)
    if outcome.events:
        _views(loaded)
    _out(outcome.message)


def verify(
    *,
    game: Path | None = None,
    git: bool = False,
    rev_range: str | None = None,
    staged: bool = False,
    json: bool = False,
) -> None:
    from . import verify as checks
    from .errors import GameFileError
    from .locate import find_game

    if (rev_range or staged) and not git:
        raise UsageError("a revision range and --staged go with --git")
    if git:
        path = Path(find_game(str(game) if game is not None else None))
        report = checks.staged_report(path) if staged else checks.git_report(path, rev_range)
        text = checks.git_report_text(report)
    else:
        report = checks.file_report(_load(game))
        text = checks.report_text(report)
    _out(_json_text(report) if json else text)
    if not report["ok"]:
        raise GameFileError(f"verify found a problem: {report['bad']['reason'] if report.get('bad') else 'see above'}")


def _secret_path(game_id: str, player: str) -> Path:
    base = os.environ.get("SPLENDOR_SECRETS") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share"),
        "splendor-cli",
        "secrets",
    )
    return Path(base) / f"{game_id}.{player}.secret"


def seed(*, game: Path | None = None, as_: str | None = None) -> None:
    import secrets

    from . import store
    from .errors import IllegalMoveError
    from .events import SeedCommitted, SeedRevealed
    from .projection.seeding import commitment

    if not as_:
        raise UsageError("say who you are: --as NAME (or $SPLENDOR_PLAYER)")
    with store.writing(game) as loaded:
        seeding = loaded.game.seeding
        if seeding is None or loaded.game.states:
            raise IllegalMoveError("the cards of this game are dealt already", rule="seed")
        if as_ not in seeding.players:
            raise IllegalMoveError(f"{as_!r} does not play in this game", rule="seed")
        keep = _secret_path(loaded.record.header.game, as_)
        step = seeding.next_step(as_)
        if step == "commit":
            secret = secrets.token_hex(32)
            keep.parent.mkdir(parents=True, exist_ok=True)
            # Kept before the commitment is written: a commitment without its secret could never be revealed.
            fd = os.open(keep, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(secret + "\n")
            loaded = store.append(
                loaded, SeedCommitted(seq=0, parent="", player=as_, commitment=commitment(as_, secret))
            )
            done = f"{as_} committed to a secret seed (kept in {keep})"
        elif step == "reveal":
            try:
                secret = keep.read_text().strip()
            except OSError:
                raise UsageError(f"{as_}'s secret is not on this machine ({keep}): it cannot be revealed") from None
            loaded = store.append(loaded, SeedRevealed(seq=0, parent="", player=as_, secret=secret))
            done = f"{as_} revealed their seed"
            finished = loaded.game.seeding
            if finished is not None and len(finished.secrets) == len(finished.players):
                loaded = store.append(loaded, finished.setup())
                done += f"; the cards are dealt: {loaded.game.state.player.name} to move"
        else:
            raise IllegalMoveError(f"{as_} has nothing to do now: {seeding.waiting()}", rule="seed")
    after = loaded.game.seeding
    _out(f"#{loaded.game.seq} {done}" + ("" if loaded.game.states or after is None else f"; {after.waiting()}"))
