"""The `splendor` command: a thin typer layer over the pure core.

Heavy modules (the rules, the codec, rich) are imported inside the command bodies, so that
every command starts fast; errors of the SplendorError family become one line on stderr and
the exit code of CONTRACT.md.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

if TYPE_CHECKING:
    from .store import Loaded

app = typer.Typer(
    name="splendor",
    help="Play Splendor asynchronously: one game is one TOML event log, shared over git or e-mail.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

GameOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--game",
        "-g",
        help="The game file. Default: $SPLENDOR_GAME, else the only game file in . or games/.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (the shapes of CONTRACT.md).")]
AsOpt = Annotated[
    Optional[str],
    typer.Option("--as", envvar="SPLENDOR_PLAYER", help="Act as this player ($SPLENDOR_PLAYER); refused if not to move."),
]
AtOpt = Annotated[Optional[int], typer.Option("--at", help="Show the game as it was just after event SEQ.", min=1)]
ColorOpt = Annotated[
    str, typer.Option("--color", help="auto (when a terminal and NO_COLOR unset), always or never.")
]


def _fail(message: str, code: int) -> NoReturn:
    typer.echo(f"splendor: {message}", err=True)
    raise typer.Exit(code)


@contextlib.contextmanager
def reporting() -> Iterator[None]:
    """Map the SplendorError family to one line on stderr and its exit code."""
    from .errors import IllegalMoveError, SplendorError

    try:
        yield
    except SplendorError as exc:
        message = " ".join(str(exc).split())
        if isinstance(exc, IllegalMoveError) and exc.rule:
            message += f" (rule: {exc.rule})"
        _fail(message, exc.exit_code)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except BrokenPipeError:  # `splendor moves | head`: the reader left; say nothing more
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - no flush error at exit
        raise typer.Exit(141) from None
    except OSError as exc:
        _fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "), 1)


def _load(game: Optional[Path]) -> Loaded:
    from . import store

    return store.load(game)


def _json_text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False) + "\n"


def _print_json(value: Any) -> None:
    typer.echo(_json_text(value), nl=False)


def _views(loaded: Loaded, at: Optional[int] = None) -> dict[str, str]:
    """The texts of `state --json` and `moves --json` for a loaded game, remembered in the cache."""
    from . import cache
    from .entry import view_name
    from .views import moves_json, state_json

    played = loaded.game.at(at) if at is not None else loaded.game
    texts = {view_name("state", at): _json_text(state_json(played))}
    if at is None:
        texts["moves"] = _json_text(moves_json(played.state))
    for view, text in texts.items():
        cache.put(loaded.data, view, text)
    return texts


def _use_color(color: str) -> bool:
    if color not in ("auto", "always", "never"):
        raise typer.BadParameter("use auto, always or never", param_hint="--color")
    if color != "auto":
        return color == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _width() -> int:
    import shutil

    return min(shutil.get_terminal_size((100, 24)).columns, 120)


@app.command()
def new(
    players: Annotated[str, typer.Option("--players", "-p", help="Comma-separated names, in turn order: ann,bob,cy.")],
    game: GameOpt = None,
    seed: Annotated[Optional[int], typer.Option(help="Seed of the shuffle (default: random).")] = None,
    variant: Annotated[str, typer.Option(help="base (Splendor, 2-4 players).")] = "base",
    json: JsonOpt = False,
) -> None:
    """Start a new game: shuffle, deal, and write the game file (never over an existing one).

    Example: splendor new -g games/friday.toml --players alice,bob,carol
    """
    import random

    from . import store
    from .errors import UsageError
    from .events.codec import Header
    from .newgame import check_players, deal

    with reporting():
        if variant != "base":
            raise UsageError(f"unknown variant {variant!r}: this version plays 'base'")
        names = check_players(players.split(","))
        created = _now()
        suffix = f"{random.Random(seed).getrandbits(16) if seed is not None else random.getrandbits(16):04x}"
        game_id = f"{created[:10]}-{'-'.join(names)}-{suffix}"
        path = game if game is not None else store.GAMES_DIR / f"{game_id}.toml"
        header = Header(game=game_id, variant=variant, players=names, created=created)
        loaded = store.create(path, header, deal(names, random.Random(seed)))
        if json:
            _print_json({"game": game_id, "path": str(path), "players": list(names)})
        else:
            typer.echo(f"new game {game_id} in {path}: {', '.join(names)}; {names[0]} to move")
        del loaded


@app.command()
def state(game: GameOpt = None, json: JsonOpt = False, at: AtOpt = None, color: ColorOpt = "auto") -> None:
    """Print the state after the last event (or after event SEQ with --at).

    Example: splendor state -g games/friday.toml --json --at 12
    """
    _show(game, json, at, color)


@app.command()
def show(game: GameOpt = None, json: JsonOpt = False, at: AtOpt = None, color: ColorOpt = "auto") -> None:
    """Show the board: bank, cards, nobles, each player's holdings, whose turn or the result.

    Example: splendor show -g games/friday.toml --at 12
    """
    _show(game, json, at, color)


def _show(game: Optional[Path], json: bool, at: Optional[int], color: str) -> None:
    from .entry import view_name

    with reporting():
        loaded = _load(game)
        if json:
            typer.echo(_views(loaded, at)[view_name("state", at)], nl=False)
        else:
            played = loaded.game.at(at) if at is not None else loaded.game
            from .render import board_text

            on = _use_color(color)
            typer.echo(board_text(played, width=_width(), color=on), color=on)


@app.command()
def moves(game: GameOpt = None, json: JsonOpt = False) -> None:
    """List every legal turn of the player to move, one notation a line (what `play` accepts).

    Example: splendor moves -g games/friday.toml --json
    """
    with reporting():
        loaded = _load(game)
        if json:
            typer.echo(_views(loaded)["moves"], nl=False)
        else:
            from .notation import format_move
            from .projection import legal_moves

            for move in legal_moves(loaded.game.state):
                typer.echo(format_move(move))


def _play(game: Optional[Path], words: list[str], as_: Optional[str], json: bool) -> None:
    from . import store
    from .notation import format_move, parse_move
    from .views import event_notation

    with reporting():
        loaded = _load(game)
        text = " ".join(words)
        move = parse_move(text)
        try:
            event = loaded.game.decide(move, player=as_)
        except Exception as exc:
            from .errors import SplendorError

            if isinstance(exc, SplendorError):
                exc.args = (f"{format_move(move)!r}: {exc}",)
            raise
        after = store.append(loaded, event)
        _views(after)  # bots ask for these next: answer them from the cache
        sealed = after.record.events[-1]
        state = after.game.state
        if json:
            from .events.codec import event_to_dict

            _print_json(
                {
                    "seq": sealed.seq,
                    "notation": event_notation(sealed),
                    "event": event_to_dict(sealed),
                    "to_move": None if state.finished else state.player.name,
                    "finished": state.finished,
                    "winners": list(state.winners()),
                }
            )
        else:
            typer.echo(f"#{sealed.seq} {event.player}: {event_notation(sealed)}")
            if state.finished:
                typer.echo(f"game over: {' and '.join(state.winners())} won{'' if len(state.winners()) == 1 else ' together'}")
            else:
                typer.echo(f"{state.player.name} to move")


MoveArg = Annotated[list[str], typer.Argument(help="The move, e.g. 'take white blue green' (quotes optional).")]


@app.command()
def play(move: MoveArg, game: GameOpt = None, as_: AsOpt = None, json: JsonOpt = False) -> None:
    """Play a turn written in the move notation (see `splendor moves`), and append it to the file.

    Examples: splendor play take white blue green; splendor play "buy 1-30 pay red gold";
    splendor play reserve deck 3 return black; splendor play buy 2-14 noble N04
    """
    _play(game, move, as_, json)


@app.command()
def take(
    colours: Annotated[list[str], typer.Argument(help="The colours, e.g. white blue green, or red red.")],
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Take 3 gems of different colours, or 2 of one colour (add 'return ...' past 10 tokens).

    Example: splendor take white blue green
    """
    _play(game, ["take", *colours], as_, json)


@app.command()
def reserve(
    card: Annotated[list[str], typer.Argument(help="A face-up card id (2-14), or 'deck N' for a blind reserve.")],
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Reserve a face-up card or the top card of a deck, and take a gold if there is one.

    Example: splendor reserve 2-14; splendor reserve deck 3 return white
    """
    _play(game, ["reserve", *card], as_, json)


@app.command()
def buy(
    card: Annotated[list[str], typer.Argument(help="A card id, face up or reserved; optionally 'pay ...'.")],
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Buy a face-up or reserved card (default payment: coloured tokens before gold).

    Example: splendor buy 2-14; splendor buy 1-30 pay red gold
    """
    _play(game, ["buy", *card], as_, json)


@app.command()
def undo(
    game: GameOpt = None,
    to: Annotated[Optional[int], typer.Option("--to", help="Go back to just after event SEQ.", min=1)] = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Take back the last turn (or every turn after event SEQ) by appending an undo event.

    Example: splendor undo; splendor undo --to 12
    """
    from . import store

    with reporting():
        loaded = _load(game)
        event = loaded.game.decide_undo(to=to, by=as_ or "")
        after = store.append(loaded, event)
        state = after.game.state
        views = _views(after)
        if json:
            typer.echo(views["state"], nl=False)
        else:
            typer.echo(f"#{after.game.seq} undo: back to just after #{event.to}; {state.player.name} to move")


@app.command()
def log(game: GameOpt = None, json: JsonOpt = False, color: ColorOpt = "auto") -> None:
    """List the events, one a line: turns in move notation, undone ones marked.

    Example: splendor log -g games/friday.toml
    """
    from .views import log_entries

    with reporting():
        loaded = _load(game)
        entries = log_entries(loaded.game)
        if json:
            _print_json([e.to_json() for e in entries])
        else:
            from .render import log_text

            on = _use_color(color)
            typer.echo(log_text(entries, color=on), color=on)


@app.command()
def demo(
    game: GameOpt = None,
    turns: Annotated[int, typer.Option(help="How many random turns to play.", min=0)] = 12,
    seed: Annotated[Optional[int], typer.Option(help="Seed of the shuffle and the turns (default: random).")] = None,
    color: ColorOpt = "auto",
) -> None:
    """Start a demo game for ann, bob and cy, play some random turns, and show the board.

    The game is written like any other (default: a new temporary folder), so every command
    can be tried on it afterwards. Example: splendor demo --turns 20 --seed 7
    """
    import random
    import tempfile

    from . import store
    from .events.codec import Header
    from .newgame import deal
    from .projection.rules import choices

    with reporting():
        rng = random.Random(seed)
        path = game if game is not None else Path(tempfile.mkdtemp(prefix="splendor-demo-")) / "demo.toml"
        names = ("ann", "bob", "cy")
        header = Header(game="demo", variant="base", players=names, created=_now())
        loaded = store.create(path, header, deal(names, rng))
        for _ in range(turns):
            state = loaded.game.state
            if state.finished:
                break
            options = choices(state)
            loaded = store.append(loaded, loaded.game.decide(options.move(rng.randrange(len(options)))))
        from .render import board_text

        on = _use_color(color)
        typer.echo(board_text(loaded.game, width=_width(), color=on), color=on)
        typer.echo(f"\nThe demo game is {path}: try `splendor log -g {path}` or `splendor moves -g {path}`.")


@app.command()
def simulate(
    players: Annotated[int, typer.Option(help="Players per game.", min=2, max=4)] = 2,
    games: Annotated[int, typer.Option(help="How many games.", min=1)] = 10,
    seed: Annotated[Optional[int], typer.Option(help="Seed (default: random).")] = None,
    variant: Annotated[str, typer.Option(help="base.")] = "base",
    json: JsonOpt = False,
) -> None:
    """Play random games (uniform among the legal moves) in memory and report the results.

    Example: splendor simulate --players 3 --games 100 --seed 1 --json
    """
    from .errors import UsageError
    from .simulate import run

    with reporting():
        if variant != "base":
            raise UsageError(f"unknown variant {variant!r}: this version plays 'base'")
        report = run(players=players, games=games, seed=seed)
        if json:
            _print_json(report)
        else:
            wins = ", ".join(f"{seat} {n}" for seat, n in report["wins"].items())
            typer.echo(
                f"{report['games']} games, {report['turns']} turns in {report['seconds']:.2f} s;"
                f" wins: {wins}; shared: {report['shared']}"
            )


def _bug(exc: Exception) -> NoReturn:
    """A bug: one line and exit 1 (SPLENDOR_DEBUG=1 shows the traceback)."""
    if os.environ.get("SPLENDOR_DEBUG"):
        raise exc
    typer.echo(f"splendor: internal error: {type(exc).__name__}: {exc} (SPLENDOR_DEBUG=1 for details)", err=True)
    sys.exit(1)


def run_direct(command: Any, kwargs: dict[str, Any]) -> int:
    """Call a command function without the typer app (entry.py's shortcut); return the exit code."""
    try:
        command(**kwargs)
    except typer.Exit as exc:
        return exc.exit_code
    except Exception as exc:
        _bug(exc)
    return 0


def main() -> None:
    """The full CLI: run the typer app, and turn a bug into exit 1 with one line."""
    try:
        app()
    except SystemExit:
        raise
    except Exception as exc:
        _bug(exc)
