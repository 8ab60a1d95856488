"""The bodies of the `splendor` commands, free of typer, each registered with its parameters.

Each body is declared with `@command(NAME, *PARAMS)` (params.py): entry.py calls it directly
for a plain command line, and cli.py builds the typer app from the same declarations. Each
raises a SplendorError on failure; `run` turns it into one line on stderr (a JSON object under
`--json`) and the exit code of the contract. Heavy modules are imported in the bodies, and only
the game a file names is imported: the commands are written once against the game protocol.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import IllegalMoveError, InvalidMoveError, SplendorError, UsageError, safe
from .params import AS, AT, COLOR, COMMANDS, GAME, JSON, MOVE, NOTIFY, SEED, Param, command

if TYPE_CHECKING:
    from ..projection.game import Game
    from ..store import Loaded


__all__ = ["COMMANDS", "run"]


def run(body: Callable[..., None], kwargs: dict[str, Any]) -> int:
    """Call a command body; return its exit code, an error reported on stderr as one line (or,
    when the command was asked for `--json`, as one JSON object with the exit code and a stable
    error code)."""
    code, name, message, extra = 0, "", "", {}
    try:
        body(**kwargs)
    except SplendorError as exc:
        code, name, message = exc.exit_code, exc.code, " ".join(str(exc).split())
        if isinstance(exc, IllegalMoveError) and exc.rule:
            extra = {"rule": exc.rule}
    except KeyboardInterrupt:
        code, name, message = 130, "interrupted", "interrupted"
    except BrokenPipeError:  # `splendor moves | head`: the reader left; say nothing more
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - no flush error at exit
        return 141
    except OSError as exc:  # e.g. no permission to write beside the game file
        where = f"{exc.filename}: " if exc.filename else ""
        code, name, message = 1, "os-error", f"{where}{exc.strerror or exc}"
    except Exception as exc:  # a bug: one line, exit 1 (SPLENDOR_DEBUG=1 shows the traceback)
        if os.environ.get("SPLENDOR_DEBUG"):
            raise
        message = f"internal error: {type(exc).__name__}: {exc} (SPLENDOR_DEBUG=1 for details)"
        code, name = 1, "internal"
    if not code:
        return 0
    if not message.isprintable():  # it quotes a file (or git) that holds a control character
        message = safe(message)  # no terminal escape, line break or bidi override gets through
    if kwargs.get("json"):
        error = {"code": name, "exit": code, "message": message, **extra}
        sys.stderr.write(_json_text({"error": error}))
    else:
        rule = f" (rule: {extra['rule']})" if extra else ""
        sys.stderr.write(f"splendor: {message}{rule}\n")
    return code


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _json_text(value: Any) -> str:
    import json

    # ASCII: any other character from a file (a C1 control, a bidi override) is escaped
    return json.dumps(value, ensure_ascii=True) + "\n"


def _use_color(color: str) -> bool:
    if color not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {color!r}")
    if color != "auto":
        return color == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _width() -> int:
    """The terminal's width ($COLUMNS first, as shutil.get_terminal_size, without importing it), at
    most 160: the widest layout of a board (long names, every reserved card on one line) needs
    about 125 columns, and a line of text is hard to follow wider than that."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return min(int(columns), 160)
    try:
        return min(os.get_terminal_size(sys.__stdout__.fileno()).columns, 160)  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 100


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _path(game: str | None) -> str:
    """The game file a command means: `-g`, else the one `locate.find_game` finds."""
    from .locate import find_game

    return find_game(game)


def _locks() -> str:
    from .folders import lock_folder

    return lock_folder()


def _load(game: str | None) -> Loaded:
    """The game a command means, read, and checked against what this user saw of it (memory.py)."""
    from .. import store
    from . import cache

    return _seen_now(store.read(_path(game), cache.verified_prefix))


def _seen_now(loaded: Loaded) -> Loaded:
    """`loaded`, checked against what this user saw of its game, then remembered as seen (and, a
    sealed game, as verified): what every read of a command goes through (`_load`, sync's)."""
    from . import cache, memory

    memory.check(loaded)
    memory.remember(loaded)
    cache.remember_verified(loaded)
    return loaded


@contextlib.contextmanager
def _writing(game: str | None) -> Iterator[Loaded]:
    """The game a command means, read under its write lock, and checked as `_load` checks it."""
    from .. import store
    from . import cache, memory

    with store.writing(_path(game), _locks(), cache.verified_prefix) as loaded:
        memory.check(loaded)
        cache.remember_verified(loaded)
        yield loaded


def _append(loaded: Loaded, *events: Any) -> Loaded:
    """`store.append`, then the new events remembered as seen (memory.py)."""
    from .. import store
    from . import memory

    secret = None
    if loaded.game.sealing is not None:  # a sealed game: the local key signs its player's events
        from .sealed import secret_for

        secret = secret_for(loaded)
    after = store.append(loaded, *events, secret=secret)
    memory.remember(after)
    if after.game.sealing is not None:
        from . import cache
        from .sealed import note_written

        cache.remember_verified(after)
        note_written(loaded, after, secret)
    return after


def _views(loaded: Loaded, at: int | None = None, *, moves: bool = False) -> tuple[str, str]:
    """The texts of `state --json` and (for the last event) `moves --json`, remembered in the
    cache; the moves are worked out only when asked for or when there is a cache to keep them."""
    from . import cache

    caching = cache.enabled()
    played = loaded.game.at(at) if at is not None else loaded.game
    state_text = _json_text(_state_json(played))
    if caching:
        cache.put(loaded.data, cache.view_name("state", at), state_text)
    moves_text = ""
    if played.sealing is not None and not moves:
        return state_text, moves_text  # a sealed game's moves are the seat's own: never cached
    if at is None and (moves or caching):
        moves_text = _json_text(_moves_json(played))
        if caching:
            cache.put(loaded.data, "moves", moves_text)
    return state_text, moves_text


def _state_json(game: Game, state: Any = None) -> dict[str, Any]:
    """`state --json`: the game's state JSON (or `state`'s, a view of it), and after `turn` (the
    turns played) `current_turn`, the number of the turn under way as `show` and `log` number
    turns (null once finished)."""
    shown = game.variant.state_json(game.seq, game.state if state is None else state)
    out: dict[str, Any] = {}
    for key, value in shown.items():
        out[key] = value
        if key == "turn" and "current_turn" not in shown:
            out["current_turn"] = None if shown.get("finished") else value + 1
    return out


def _moves_json(game: Game) -> list[dict[str, Any]]:
    variant, state = game.variant, game.state
    return [variant.move_json(state, move) for move in variant.legal_moves(state)]


def _board(game: Any, color: str, variant: Any = None) -> str:
    text: str = (variant or game.variant).board_text(game, width=_width(), color=_use_color(color), ascii=False)
    return text


# -- starting a game --------------------------------------------------------------------------

_VARIANT = Param("variant", "--variant", help="base (Splendor, 2-4 players) or duel (Splendor Duel, 2 players).")


@command(
    "new",
    Param(
        "players",
        "--players",
        "-p",
        metavar="NAMES",
        help="Comma-separated names in turn order (ann,bob,cy); name=e-mail ties a player to a git author.",
    ),
    GAME,
    SEED,
    _VARIANT,
    Param(
        "commit_seed",
        "--commit-seed",
        kind="flag",
        help="Deal by commit-then-reveal of every player's secret (see `splendor seed`).",
    ),
    Param(
        "sealed",
        "--sealed",
        kind="flag",
        help="Signed moves, sealed decks: nobody knows a deck's order or another's blind reserve (`splendor seal`).",
    ),
    JSON,
)
def new(
    *,
    players: str,
    game: str | None = None,
    seed: int | None = None,
    variant: str = "base",
    commit_seed: bool = False,
    sealed: bool = False,
    json: bool = False,
) -> None:
    """Start a new game: shuffle, deal, and write the game file (never over an existing one).

    Example:

    splendor new -g games/friday.toml --players alice,bob,carol

    splendor new -g games/duel.toml --players ann,bob --variant duel

    splendor new -g games/secret.toml --players ann,bob --sealed   (then each runs `splendor seal`)
    """
    import random

    from .. import store
    from ..bots import parse_spec, seat_spec
    from ..events import SeedsAsked
    from ..events.codec import Header, game_id_problem
    from ..projection.seeding import RandomChance
    from ..variants import find_variant
    from .locate import GAMES_DIR
    from .players import parse_players

    variant = _variant_name(variant)
    game_of = find_variant(variant)
    names, emails = parse_players(players, game_of)
    for name in names:
        if (spec := seat_spec(name)) is not None:
            parse_spec(spec)  # a bot seat names a bot this version has
    if commit_seed and seed is not None:
        raise UsageError("--seed and --commit-seed exclude each other: the players' secrets make the shuffle")
    if sealed and (seed is not None or commit_seed):
        raise UsageError("--sealed deals by the players' own shuffles: it excludes --seed and --commit-seed")
    if sealed and any(seat_spec(name) is not None for name in names):
        raise UsageError("a sealed game has no bot seat: every player signs with a key of their own")
    created = _now()
    # The id names a game among all the games a player keeps (secrets and the memory of seen
    # games go by it): random even with --seed, which only fixes the shuffle.
    suffix = os.urandom(4).hex()
    # A file name anywhere (no colon or hash), and an id that GAME_ID_RULE accepts on every read.
    plain = ("".join(c if c.isascii() and (c.isalnum() or c in "_.@-") else "-" for c in name) for name in names)
    game_id = f"{created[:10]}-{'-'.join(plain)[:80]}-{suffix}"
    if game_id_problem(game_id):  # pragma: no cover - the names keep the rule of names
        game_id = f"{created[:10]}-game-{suffix}"
    path = game if game is not None else os.path.join(GAMES_DIR, f"{game_id}.toml")
    header = Header(game=game_id, variant=variant, players=names, created=created, emails=emails)
    if sealed:
        from ..events import SealedAsked

        store.create(path, header, SealedAsked(seq=1, parent="", variant=variant, players=names))
        after = (
            f"each player now runs `splendor seal -g {path} --as NAME` (with a key from `splendor key new`)"
            " and sends the file on, until the cards are dealt"
        )
    elif commit_seed:
        store.create(path, header, SeedsAsked(seq=1, parent="", variant=variant, players=names))
        after = f"each player now runs `splendor seed -g {path} --as NAME` twice: to commit, then to reveal"
    else:
        store.create(path, header, game_of.deal(names, RandomChance(random.Random(seed))))
        after = f"{names[0]} to move"
    if json:
        _out(_json_text({"game": game_id, "path": str(path), "players": list(names)}))
    else:
        _out(f"new game {game_id} in {path}: {', '.join(names)}; {after}")


@command(
    "seed",
    GAME,
    AS,
    Param(
        "restart",
        "--restart",
        kind="flag",
        help="Start the deal over when every player committed but some never reveal (asked by one who revealed).",
    ),
)
def seed(*, game: str | None = None, as_: str | None = None, restart: bool = False) -> None:
    """Take your next step of a commit-then-reveal deal (`new --commit-seed`): commit, then reveal.

    The first call commits to a fresh secret (kept on this machine); the second, once all have committed, reveals it.

    The last reveal deals the cards: nobody alone chooses the shuffle.

    When every player committed but some never reveal, one who revealed may --restart the deal:
    every player then commits a new secret, and the log names who did not reveal.

    Example:

    splendor seed -g games/friday.toml --as alice
    """
    import secrets

    from .. import store
    from ..events import SeedCommitted, SeedRevealed, SeedsRestarted
    from ..projection.seeding import commitment
    from .folders import secrets_folder

    if not as_:
        raise UsageError("say who you are: --as NAME (or $SPLENDOR_PLAYER)")
    with store.writing(_path(game), _locks()) as loaded:
        seeding = loaded.game.seeding
        if seeding is None or loaded.game.states:
            raise IllegalMoveError("the cards of this game are dealt already", rule="seed")
        if as_ not in seeding.players:
            raise IllegalMoveError(f"{as_!r} does not play in this game", rule="seed")
        if restart:
            late = seeding.stuck()
            if not late:
                raise UsageError(
                    "--restart is for a deal stuck on a player who does not reveal"
                    f" (every player committed, some revealed): {seeding.waiting()}"
                )
            asked = SeedsRestarted(seq=0, parent="", by=as_, without=late)
            seeding.restart(asked)  # IllegalMoveError when as_ may not ask for it
            loaded = store.append(loaded, asked)
            _out(f"#{loaded.game.seq} {as_} restarted the deal without {', '.join(late)}: all commit new seeds")
            return
        # A file per round: a restart needs a fresh secret. Round 1 also reads the name of earlier releases.
        folder, base = secrets_folder(), f"{loaded.record.header.game}.{as_}"
        keep = os.path.join(folder, f"{base}.{seeding.round}.secret")
        legacy = os.path.join(folder, f"{base}.secret") if seeding.round == 1 else ""
        step = seeding.next_step(as_)
        if step == "commit":
            secret = secrets.token_hex(32)
            os.makedirs(folder, exist_ok=True)
            # Kept before the commitment is written: a commitment without its secret could never be revealed.
            # Never over another copy's secret: that copy's commitment could then never be revealed.
            try:
                if legacy and os.path.lexists(legacy):
                    raise FileExistsError
                fd = os.open(keep, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            except FileExistsError:
                there = legacy if legacy and os.path.lexists(legacy) else keep
                raise IllegalMoveError(
                    f"a secret for this game and {as_} exists already ({there}): another copy of the game committed;"
                    " use that copy, or remove the file knowingly",
                    rule="seed",
                ) from None
            with os.fdopen(fd, "w") as handle:
                handle.write(secret + "\n")
            loaded = store.append(
                loaded, SeedCommitted(seq=0, parent="", player=as_, commitment=commitment(as_, secret))
            )
            done = f"{as_} committed to a secret seed (kept in {keep})"
        elif step == "reveal":
            if legacy and not os.path.lexists(keep) and os.path.lexists(legacy):
                keep = legacy  # committed by an earlier release
            try:
                with open(keep, encoding="utf-8") as handle:
                    secret = handle.read().strip()
            except OSError:
                raise UsageError(f"{as_}'s secret is not on this machine ({keep}): it cannot be revealed") from None
            loaded = store.append(loaded, SeedRevealed(seq=0, parent="", player=as_, secret=secret))
            done = f"{as_} revealed their seed"
            finished = loaded.game.seeding
            if finished is not None and finished.complete:
                loaded = store.append(loaded, loaded.game.deal())
                done += f"; the cards are dealt: {loaded.game.table.player.name} to move"
        else:
            raise IllegalMoveError(f"{as_} has nothing to do now: {seeding.waiting()}", rule="seed")
    after = loaded.game.seeding
    _out(f"#{loaded.game.seq} {done}" + ("" if loaded.game.states or after is None else f"; {after.waiting()}"))


# -- looking at a game ------------------------------------------------------------------------


SIDE = Param(
    "side", "--side", metavar="REF", help="A forked game: the side to look at (its digest, its player, ours or theirs)."
)


def _load_side(game: str | None, side: str) -> Loaded:
    """One side of a forked game file (`forks.Fork.choose` names it), read as a game of its own."""
    from .. import store
    from ..errors import GameFileError
    from ..forks import split_fork

    path = _path(game)
    try:
        data = store.read_bytes(path)
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read: {exc.strerror}") from None
    fork = split_fork(data)
    if fork is None:
        raise UsageError(f"{path} has not forked: --side is for a game with two sides (see `splendor resolve`)")
    return store.from_bytes(path, fork.prefix + fork.branch(fork.choose(side)).data)


SEAT = Param(
    "seat",
    "--as",
    envvar="SPLENDOR_PLAYER",
    metavar="NAME",
    help="Whose view it is: their blind reserves face up (a sealed game: only with their key here)"
    " ($SPLENDOR_PLAYER; default: a spectator's).",
)
OUTPUT = Param("output", "--output", "-o", kind="path", metavar="FILE", help="Write it to FILE (- : standard output).")


@command(
    "show",
    GAME,
    JSON,
    AT,
    COLOR,
    SIDE,
    Param("svg", "--svg", kind="flag", help="Draw the table as one self-contained SVG picture."),
    SEAT,
    OUTPUT,
)
def show(
    *,
    game: str | None = None,
    json: bool = False,
    at: int | None = None,
    color: str = "auto",
    side: str | None = None,
    svg: bool = False,
    seat: str | None = None,
    output: str | None = None,
) -> None:
    """Show the board: bank, cards, nobles, each player's holdings, whose turn or the result.

    A Duel shows its token board with coordinates, the pyramid, privileges and royal cards.

    It says too how far each player is from each victory.

    Example:

    splendor show -g games/friday.toml --at 12

    splendor show --side bob   (a forked game: the side whose first turn is bob's)

    splendor show --svg -o games/friday.svg   (a picture; --at 12 --as bob: as bob saw it then)
    """
    _use_color(color)
    if output and not svg:
        raise UsageError("-o goes with --svg (the board as text is written on standard output)")
    loaded = _load_side(game, side) if side else _load(game)
    if svg:
        if json:
            raise UsageError("--svg and --json exclude each other")
        _write_out(output, _picture(loaded, at, seat))
        return
    played = loaded.game.at(at) if at is not None else loaded.game
    sealed = played.sealing is not None
    if json:
        if sealed and played.states and seat is not None:  # what this seat may know, never cached
            _out(_json_text(_state_json(played, _seen(played, seat).state)))
        else:
            _out(_views(loaded, at)[0])
        return
    if played.seeding is not None and not played.states:  # a commit-then-reveal deal under way
        _out(_dealing(played))
        return
    if sealed:
        from .sealed import waiting_lines

        lines = waiting_lines(played)
        if not played.states:
            title = played.variant.title
            _out(f"{title}  the cards are not dealt yet: a sealed game  (event #{played.seq})\n{lines[0]}")
            return
        owed = _keys_owed(loaded.game) if played.state.finished else ()
        if owed:
            lines.append(_keys_owed_line(owed))
        _out(_board(_seen(played, seat), color, played.variant) + "".join(f"\n{line}" for line in lines))
        return
    _out(_board(played, color))


def _keys_owed(game: Game) -> tuple[str, ...]:
    """The players of a sealed game that is over who have not published their keys (`show`)."""
    sealing = game.sealing
    if sealing is None or not game.states or not game.state.finished:
        return ()
    return tuple(player for player in sealing.players if player not in sealing.published)


def _keys_owed_line(owed: tuple[str, ...]) -> str:
    """What `show` and `verify` say of a finished sealed game's unpublished keys (`_keys_owed`)."""
    return (
        f"the game is over, but the keys of {', '.join(owed)} are not published: the audit cannot open"
        " the sealed cards nor re-make their shuffles (`splendor seal` publishes them)"
    )


class _Moment:
    """A game as a board draws it (`Moment`): a sealed game's table as one seat may know it."""

    __slots__ = ("seq", "state")

    def __init__(self, seq: int, state: Any) -> None:
        self.seq, self.state = seq, state


def _seen(game: Game, seat: str | None) -> Any:
    """`game` as `seat` may know it (a `Moment`): in a sealed game, what their key here opens;
    without a seat, or in an open game, `game` itself."""
    if game.sealing is None or seat is None or not game.states:
        return game
    from .sealed import view

    if seat not in game.players:
        raise UsageError(f"{seat!r} does not play in this game (players: {', '.join(game.players)})")
    return _Moment(game.seq, view(game, seat))


def _picture(loaded: Loaded, at: int | None, seat: str | None) -> str:
    """The table after event `at` (default: the last) as SVG, what that event changed highlighted."""
    played = loaded.game.at(at) if at is not None else loaded.game
    if not played.states:
        raise IllegalMoveError("the cards are not dealt yet: there is no table to draw", rule="seed")
    if seat is not None and seat not in played.players:
        raise UsageError(f"{seat!r} does not play in this game (players: {', '.join(played.players)})")
    return played.variant.board_svg(_seen(played, seat), seat=seat, event=played.events[-1])


def _write_out(output: str | None, text: str) -> None:
    """`text` to standard output (no FILE, or -), else to FILE, replaced whole (through a temporary
    file beside it: a reader never sees half a picture) and said on stderr."""
    if output is None or output == "-":
        _out(text)
        return
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{output}: no such folder {folder!r}")
    if output.endswith(".toml"):
        raise UsageError(f"{output}: a picture is not written over a .toml file (a game?): name it .svg or .html")
    if os.path.islink(output):
        raise UsageError(f"{output} is a symbolic link: a picture replaces a file of its own, never a link's target")
    from .. import store

    store.write_atomic(output, text.encode("utf-8"), exclusive=not os.path.lexists(output))
    sys.stderr.write(f"splendor: wrote {output} ({len(text.encode('utf-8')):,} bytes)\n")


def _dealing(game: Game) -> str:
    """What `show` says of a game whose cards are not dealt yet: where each player stands in the
    commit-then-reveal deal, and who it waits for."""
    seeding = game.seeding
    assert seeding is not None
    committed, revealed = dict(seeding.commitments), dict(seeding.secrets)
    everyone = len(committed) == len(seeding.players)
    again = f", round {seeding.round} (restarted)" if seeding.round > 1 else ""
    head = f"the cards are not dealt yet: a commit-then-reveal deal{again}"
    lines = [f"{game.variant.title}  {head}  (event #{game.seq})"]
    width = max(len(name) for name in seeding.players)
    for name in seeding.players:
        if name in revealed:
            where = "committed, revealed"
        elif name in committed:
            where = "committed, to reveal" if everyone else "committed"
        else:
            where = "to commit"
        lines.append(f"  {name:<{width}}  {where}")
    lines.append(seeding.waiting())
    return "\n".join(lines)


@command("state", GAME, JSON, AT, COLOR, SEAT)
def state(
    *, game: str | None = None, json: bool = False, at: int | None = None, color: str = "auto", seat: str | None = None
) -> None:
    """Print the state after the last event (or after event SEQ with --at): JSON, or the board.

    Example:

    splendor state -g games/friday.toml --json --at 12

    splendor state --json --as bob   (a sealed game: what bob may know, his key here)
    """
    show(game=game, json=json, at=at, color=color, seat=seat)


@command(
    "moves",
    GAME,
    JSON,
    Param("as_", "--as", metavar="NAME", help="Check that NAME is to move (refused otherwise, exit 3)."),
)
def moves(*, game: str | None = None, json: bool = False, as_: str | None = None) -> None:
    """List every legal turn of the player to move (in a Duel: every legal next step), one notation a line.

    Each line is what `play` accepts. Once the game is over, none (--json: []), and stderr says who won.

    Example:

    splendor moves -g games/friday.toml --json

    splendor moves --as bob   (refused when bob is not to move)
    """
    from ..errors import excerpt

    mine = _seat_moves_key(game, json, as_)
    if mine is not None:
        from . import cache

        text = cache.get(*mine)
        if text is not None and _still_known(game, mine[0]):
            _out(text)
            return
    loaded = _load(game)
    now = loaded.game
    table = now.table
    if as_ is not None and as_ not in now.players:
        raise IllegalMoveError(f"{excerpt(as_)} does not play in this game ({', '.join(now.players)})", rule="turn")
    if as_ is not None and not table.finished and as_ != table.player.name:
        raise IllegalMoveError(f"it is {table.player.name}'s turn, not {as_}'s", rule="turn")
    variant = now.variant
    if now.sealing is not None and not table.finished:  # what the seat to move may do, seen by them
        from .sealed import local_key, seat_of, view

        secret = local_key(required=False)
        seat = as_ or (seat_of(now, secret) if secret is not None else None)
        seen = view(now, seat, secret) if seat == table.player.name else now.state
        options = variant.legal_moves(seen)
        if json:
            text = _json_text([variant.move_json(seen, move) for move in options])
        else:
            text = "\n".join(variant.format_move(move) for move in options)
        _out(text)
        if mine is not None:
            from . import cache

            cache.put(loaded.data, mine[1], text)
    elif json:
        _out(_views(loaded, moves=True)[1])
    elif not table.finished:
        _out("\n".join(variant.format_move(move) for move in variant.legal_moves(now.state)))
    if table.finished:
        sys.stderr.write(f"splendor: {now.variant.whose_turn(now.state)}; no moves left\n")


def _seat_moves_key(game: str | None, json: bool, as_: str | None) -> tuple[bytes, str] | None:
    """Where the user's cache keeps `moves` of a sealed game as this machine's key sees them (the
    seat to move lists their blind reserves opened): the file's bytes, and a view named by the
    format, `--as` and the local key (cache.seat_view_name); None when there is no cache, or the
    file is no sealed game (an open game's `moves --json` is entry.py's), or anything fails
    (the command then says what, reading the game)."""
    from . import cache

    if not cache.enabled():
        return None
    from .. import store

    try:
        data = store.read_bytes(_path(game))
        if b'"sealed_asked"' not in data:
            return None  # not a sealed game: nothing of it is one seat's
        key = _local_key_bytes()
    except (OSError, SplendorError):
        return None
    if key is None:
        return None
    return data, cache.seat_view_name("moves --json" if json else "moves", as_ or "", key)


def _local_key_bytes() -> bytes | None:
    """The bytes of this user's key file (b"" when there is none), read as safely as the key
    itself (keyring.key_bytes) but not parsed: what names the key in the cache, without loading
    the cryptography. None when it is not safe to read (the command then says why, reading it)."""
    from .keyring import key_bytes, keys_folder

    try:
        return key_bytes(keys_folder())
    except UsageError:
        return b""
    except (SplendorError, OSError):
        return None


def _still_known(game: str | None, data: bytes) -> bool:
    """Whether a cached answer for the game file `data` may be served: its events still extend
    what this user saw of the game (memory.py; the cache holds only what a full read of these
    bytes answered, but the memory may have grown since)."""
    from . import memory

    if memory.enabled():
        from ..records import parse_text

        try:
            memory.check_record(_path(game), parse_text(data.decode("utf-8")))
        except (SplendorError, UnicodeDecodeError):
            return False  # the command itself says why, reading the game
    return True


@command("log", GAME, JSON, COLOR, SIDE)
def log(*, game: str | None = None, json: bool = False, color: str = "auto", side: str | None = None) -> None:
    """List the events, one a line: turns in move notation, undone ones marked.

    A forked game (two turns after one event, left by a merge) lists the common events, then
    each side under its digest; --side lists one side as a game.

    Example:

    splendor log -g games/friday.toml
    """
    from ..errors import ForkError
    from ..presentation.log import log_text
    from ..projection.log import log_entries

    on = _use_color(color)
    try:
        entries = log_entries((_load_side(game, side) if side else _load(game)).game)
    except ForkError:
        _log_fork(game, json, on)
        return
    if json:
        _out(_json_text([e.to_json() for e in entries]))
        return
    _out(log_text(entries, color=on))


def _log_fork(game: str | None, json: bool, color: bool) -> None:
    """The log of a forked file: the common events, then each side's, marked with its side and
    digest (JSON: those entries have `side` and `ref` too). A note on stderr says how to settle it."""
    from .. import store
    from ..forks import SIDES, split_fork
    from ..presentation.log import log_text
    from ..projection.log import log_entries

    path = _path(game)
    data = store.read_bytes(path)
    fork = split_fork(data)
    assert fork is not None  # the reader found a fork in these bytes
    sides = {side: log_entries(store.from_bytes(path, fork.prefix + fork.branch(side).data).game) for side in SIDES}
    common = [e for e in sides["ours"] if e.seq <= fork.seq]
    if json:
        out = [e.to_json() for e in common]
        for side in SIDES:
            out += [{**e.to_json(), "side": side, "ref": fork.label(side)} for e in sides[side] if e.seq > fork.seq]
        _out(_json_text(out))
    else:
        parts = [log_text(common, color=color).rstrip("\n")]
        for side in SIDES:
            parts.append(f"-- {side} [{fork.label(side)}] --")
            parts.append(log_text([e for e in sides[side] if e.seq > fork.seq], color=color).rstrip("\n"))
        _out("\n".join(parts))
    sys.stderr.write(
        f"splendor: the game forked after event #{fork.seq}: keep one side with"
        f" `splendor resolve --keep {fork.label('ours')}` or `--keep {fork.label('theirs')}`\n"
    )


# -- playing ----------------------------------------------------------------------------------

_BOTS = Param("bots", "--bots", kind="flag", help="Then let the bot seats play, up to the next person.")


@command("play", MOVE, GAME, AS, JSON, _BOTS, NOTIFY)
def play(
    *,
    move: list[str],
    game: str | None = None,
    as_: str | None = None,
    json: bool = False,
    bots: bool = False,
    notify: bool = False,
) -> None:
    """Play a turn written in the move notation (see `splendor moves`) and append it to the file.

    In a Duel, play one step or several separated by ';': each is judged after the ones before it.

    If one is refused, none is written.

    Examples:

    splendor play take white blue green

    splendor play "buy 1-30 pay red gold"

    splendor play reserve deck 3 return black

    splendor play buy 2-14 noble N04

    splendor play "privilege c3; take b2 c2 d2"   (Duel)

    splendor play "buy 1-07 as red; royal R2"   (Duel)

    splendor play --bots take red green blue   (then the bots answer)

    splendor play --notify take red green blue   (then mail or post to the player to move)
    """
    from .. import store
    from ..bots import seat_spec

    text = " ".join(move)
    with _writing(game) as loaded:
        variant = loaded.game.variant
        parsed = variant.parse_moves(text)
        if not parsed:
            raise InvalidMoveError(f"empty move {text!r}: no step to play (see `splendor moves`)")
        after = loaded
        secret = None
        if loaded.game.sealing is not None:  # signed by the local key, for its seat
            from . import sealed

            secret = sealed.local_key()
            assert secret is not None
            as_ = sealed.my_seat(loaded.game, secret, as_)
            after = sealed.part(after, as_, secret)  # the shares owed before moving
        now = after.game.table
        if as_ is None and not now.finished and seat_spec(now.player.name):
            raise IllegalMoveError(
                f"it is {now.player.name}'s turn, a bot's: `splendor bot` plays it (or say --as {now.player.name})",
                rule="turn",
            )
        mover = as_ or (now.player.name if len(parsed) > 1 else None)
        for one in parsed:  # several steps: each judged after the ones before it, all one player's
            try:
                if secret is not None and as_ is not None:
                    after = _sealed_step(after, as_, secret, one)
                after = store.stage(after, after.game.decide(one, player=mover), secret=secret)
            except SplendorError as exc:
                if len(parsed) > 1:  # say which of the steps was refused
                    exc.args = (f"{variant.format_move(one)!r}: {exc}",)
                raise
        if secret is not None and as_ is not None:
            after = sealed.part(after, as_, secret)  # the shares owed after it, the keys at the end
        if bots:
            after = _bot_turns(after)
        after = _append(loaded, *after.record.events[loaded.game.seq :])
    _report(loaded, after, json)
    if notify:
        from .notices import notify_after

        for line in notify_after(after):
            sys.stderr.write(f"splendor: {safe(line)}\n")


def _sealed_step(loaded: Loaded, seat: str, secret: Any, move: Any) -> Loaded:
    """Before `seat` plays `move` in a sealed game: refuse it while it must wait for others'
    shares, and show to all the card reserved blind that it buys (decided on the seat's view)."""
    from . import sealed

    game = loaded.game
    if game.table.finished or game.table.player.name != seat:
        return loaded  # `decide` says why not
    sealed.check_turn(game, seat)
    seen = sealed.view(game, seat, secret)
    event = game.variant.decide(seen, game.variant.draw(seen, move, game.chance()))
    return sealed.reveal_for(loaded, seat, secret, event)


def _shortcut(action: str, words: list[str], game: str | None, as_: str | None, json: bool) -> None:
    play(move=[action, *words], game=game, as_=as_, json=json)


@command(
    "take",
    Param("colours", kind="words", help="The colours, e.g. white blue green, or red red; in a Duel, cells: b2 c3 d4."),
    GAME,
    AS,
    JSON,
)
def take(*, colours: list[str], game: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """Take 3 gems of different colours, or 2 of one colour (add 'return ...' past 10 tokens).

    In a Duel: take 1 to 3 tokens in a line of the board, named by their cells.

    Examples:

    splendor take white blue green

    splendor take b2 c3 d4   (Duel)
    """
    _shortcut("take", colours, game, as_, json)


@command(
    "reserve",
    Param(
        "card",
        kind="words",
        help="A face-up card id (2-14), or 'deck N' for a blind reserve; in a Duel, then the gold's cell.",
    ),
    GAME,
    AS,
    JSON,
)
def reserve(*, card: list[str], game: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """Reserve a face-up card or the top card of a deck, and take a gold if there is one.

    In a Duel, the gold is taken from the board: name its cell (unless only one gold is there).

    Examples:

    splendor reserve 2-14

    splendor reserve deck 3 return white

    splendor reserve 2-05 a1   (Duel)
    """
    _shortcut("reserve", card, game, as_, json)


@command(
    "buy",
    Param("card", kind="words", help="A card id, face up or reserved; optionally 'pay ...'; in a Duel, 'as COLOUR'."),
    GAME,
    AS,
    JSON,
)
def buy(*, card: list[str], game: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """Buy a face-up or reserved card (default payment: coloured tokens before gold).

    In a Duel, a card with a wild bonus says the colour it joins.

    Examples:

    splendor buy 2-14

    splendor buy 1-30 pay red gold

    splendor buy 1-27 as red   (Duel)
    """
    _shortcut("buy", card, game, as_, json)


@command("replenish", GAME, AS, JSON)
def replenish(*, game: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """Duel: replenish the board from the bag (your opponent takes a privilege).

    Example:

    splendor replenish -g games/duel.toml
    """
    _shortcut("replenish", [], game, as_, json)


@command("bot", GAME, JSON)
def bot(*, game: str | None = None, json: bool = False) -> None:
    """Let the bot seats play: every turn (Duel: step) of a seat named bot:SPEC, up to the next person.

    Seat bots with `splendor new --players alice,bot:mcts,bot:greedy`.

    Bots: random, greedy, mcts (300 playouts a move), mcts:N (N playouts), mcts:Ns (N seconds a move).

    Each bot draws from a source seeded by the game and the move number: the same file always gets the same moves.

    Example:

    splendor bot -g games/friday.toml
    """

    with _writing(game) as loaded:
        after = _bot_turns(loaded)
        if after is not loaded:
            after = _append(loaded, *after.record.events[loaded.game.seq :])
    if after is loaded and not json:
        now = loaded.game
        _out(now.variant.whose_turn(now.state) + ("" if now.table.finished else ": not a bot seat, nothing to play"))
        return
    _report(loaded, after, json)


def _bot_turns(loaded: Loaded) -> Loaded:
    """`loaded` with every consecutive move of a bot seat staged, until a person is to move or the
    game ends. Each bot draws from a source seeded by the game and the event before its move, so
    the same file always gets the same moves."""
    from .. import store
    from ..bots import seat_spec

    after = loaded
    while not after.game.table.finished and (spec := seat_spec(after.game.table.player.name)):
        after = store.stage(after, after.game.decide(_suggest(after, spec)))
    return after


def _suggest(loaded: Loaded, spec: str) -> Any:
    """The move the bot of `spec` makes for the player to move. What it leaves to chance (a Duel's
    replenish) is drawn again by the log when the move is played."""
    import random

    from ..bots import make_bot

    game = loaded.game
    rng = random.Random(f"{loaded.record.header.game}:{game.seq}")
    state = game.state
    if game.sealing is not None:  # a sealed game: the bot sees what the seat to move sees, no more
        from .sealed import view

        state = view(game, state.player.name)
    return make_bot(game.variant, spec)(state, rng)


@command(
    "hint",
    GAME,
    Param("bot", "--bot", help="The bot asked: random, greedy, mcts, mcts:N, mcts:Ns."),
    JSON,
)
def hint(*, game: str | None = None, bot: str = "mcts", json: bool = False) -> None:
    """Suggest a move to the player to move (what a bot would play), without playing it.

    Example:

    splendor hint -g games/friday.toml --bot greedy
    """
    from ..bots import parse_spec

    parse_spec(bot)
    loaded = _load(game)
    variant, state = loaded.game.variant, loaded.game.table
    if state.finished:
        raise IllegalMoveError("the game is over: no move to suggest", rule="game-over")
    move = _suggest(loaded, bot)
    text = variant.format_move(move)
    if json:
        _out(_json_text({"player": state.player.name, "bot": bot, **variant.move_json(loaded.game.state, move)}))
    else:
        _out(f'{state.player.name}: {text}   (suggested by {bot}; play it with: splendor play "{text}")')


def _report(loaded: Loaded, after: Loaded, json: bool) -> None:
    """What `play` and `bot` print: the events added (JSON: the last one too), then whose turn."""
    from ..events import actor
    from ..projection.log import event_notation

    _views(after)  # bots ask for these next: answer them from the cache
    added = after.record.events[loaded.game.seq :]
    variant, now = after.game.variant, after.game.state
    if json:
        from ..events.codec import event_to_dict

        last = added[-1] if added else None
        _out(
            _json_text(
                {
                    "seq": after.game.seq,
                    "notation": event_notation(variant, last) if last else None,
                    "event": event_to_dict(last) if last else None,
                    "events": [event_to_dict(e) for e in added],
                    "to_move": None if now.finished else now.player.name,
                    "finished": now.finished,
                    "winners": list(now.winners()),
                    **variant.status(now),
                }
            )
        )
        return
    lines = [f"#{e.seq} {actor(e)}: {event_notation(variant, e)}" for e in added]
    lines.append(variant.whose_turn(now))
    _out("\n".join(lines))


@command(
    "undo",
    GAME,
    Param("to", "--to", kind="int", low=1, metavar="SEQ", help="Go back to just after event SEQ."),
    Param(
        "turn",
        "--turn",
        kind="flag",
        help="Duel: take back the whole turn (the steps of the turn under way, or the last turn).",
    ),
    Param(
        "as_",
        "--as",
        envvar="SPLENDOR_PLAYER",
        metavar="NAME",
        help="Who asks for the undo ($SPLENDOR_PLAYER); default: your git e-mail in the header,"
        " else the player whose turn is taken back.",
    ),
    Param("force", "--force", kind="flag", help="An agreed rewind over other players' turns (recorded in the event)."),
    Param(
        "agree",
        "--agree",
        kind="flag",
        help="A sealed game: agree to another player's rewind to --to SEQ that takes back turns of yours.",
    ),
    JSON,
)
def undo(
    *,
    game: str | None = None,
    to: int | None = None,
    turn: bool = False,
    as_: str | None = None,
    force: bool = False,
    agree: bool = False,
    json: bool = False,
) -> None:
    """Take back the last turn (in a Duel, the last step) or every turn after event SEQ, by appending an undo event.

    The event records who asks: --as (or $SPLENDOR_PLAYER), else the player whose git e-mail
    (git config user.email) the header maps, else the player whose turns are taken back.

    A player may take back their own turns, and the bots' answers that followed them
    (a plain undo after `play --bots` takes back both).

    Taking back another player's turn needs --force, whoever asks: an agreed rewind, recorded in the event.

    Examples:

    splendor undo

    splendor undo --to 12

    splendor undo --turn

    splendor undo --to 12 --force --as bob

    In a sealed game, a rewind over other players' turns needs each one's consent first:

    splendor undo --to 12 --agree   (by each of them; then sync or mail it)
    """

    if turn and to is not None:
        raise UsageError("--turn and --to exclude each other")
    if agree and (to is None or force or turn):
        raise UsageError("--agree goes with --to SEQ alone: the rewind you agree to")
    with _writing(game) as loaded:
        if turn:
            to = loaded.game.turn_start()
        if loaded.game.sealing is not None:  # the asker is the seat of the key that signs
            from .sealed import local_key, my_seat

            secret = local_key()
            assert secret is not None
            as_ = my_seat(loaded.game, secret, as_)
        elif agree:
            raise UsageError("--agree is for sealed games, whose undos are signed (`splendor new --sealed`)")
        if agree:
            from ..events import RewindAgreed

            assert as_ is not None and to is not None
            agreed = RewindAgreed(seq=0, parent="", player=as_, to=to)
            after = _append(loaded, agreed)
            _out(f"#{after.game.seq} {as_} agrees to a rewind to just after #{to}: whoever asks runs `undo --force`")
            return
        asker = as_ or _mapped_player(loaded)
        event = loaded.game.decide_undo(to=to, by=asker, forced=force)
        after = _append(loaded, event)
    state_text, _ = _views(after)
    if json:
        _out(state_text)
    else:
        now = after.game
        _out(f"#{now.seq} undo: back to just after #{event.to}; {now.variant.whose_turn(now.state)}")


def _mapped_player(loaded: Loaded) -> str:
    """The player whose e-mail in the header is the user's git e-mail; "" when none is."""
    from .players import who_am_i

    header = loaded.record.header
    return who_am_i(header.players, header.emails, None, os.path.dirname(os.path.abspath(loaded.path))) or ""


# -- demos and tournaments --------------------------------------------------------------------


@command(
    "demo",
    GAME,
    Param("turns", "--turns", kind="int", low=0, help="How many random turns to play."),
    SEED,
    Param("variant", "--variant", help="base (ann, bob and cy) or duel (ann and bob)."),
    COLOR,
)
def demo(
    *, game: str | None = None, turns: int = 12, seed: int | None = None, variant: str = "base", color: str = "auto"
) -> None:
    """Start a demo game for ann, bob and cy, play some random turns, and show the board.

    The game is written like any other, by default to splendor-demo.toml in the current folder
    (splendor-demo-2.toml, -3, ... when that one exists): try every command on it.

    Examples:

    splendor demo --turns 20 --seed 7

    splendor demo --variant duel -g duel-demo.toml
    """
    import random
    import shlex

    from .. import store
    from ..events.codec import Header
    from ..projection.seeding import RandomChance
    from ..variants import find_variant

    _use_color(color)
    variant = _variant_name(variant)
    game_of = find_variant(variant)
    rng = random.Random(seed)
    names = game_of.demo_players
    header = Header(game=f"demo-{os.urandom(4).hex()}", variant=variant, players=names, created=_now())
    setup = game_of.deal(names, RandomChance(rng))
    if game is not None:
        loaded = store.create(game, header, setup)
    else:  # the first free name: never over an earlier demo (a game someone may be playing)
        for number in range(1, 1000):
            try:
                loaded = store.create(f"splendor-demo{f'-{number}' if number > 1 else ''}.toml", header, setup)
                break
            except UsageError:
                if number == 999:
                    raise
    while loaded.game.table.turn < turns and not loaded.game.table.finished:
        moves = game_of.legal_moves(loaded.game.state)  # a random outcome is drawn by the log (Game.decide)
        loaded = _append(loaded, loaded.game.decide(moves[rng.randrange(len(moves))]))
    _out(_board(loaded.game, color))
    path, program = shlex.quote(str(loaded.path)), _program()
    _out(f"\nThe demo game is {path}: try `{program} log -g {path}` or `{program} moves -g {path}`.")


def _program() -> str:
    """How to run this program again from the current folder, for advice: `splendor` when that name
    on PATH is this program; else the path it was started by (`.venv/bin/splendor`); else
    `python -m splendor_cli` with this Python."""
    import shlex
    import shutil

    started = sys.argv[0] if sys.argv else ""
    name = os.path.basename(started)
    if name and not name.endswith(".py"):  # the console script, not `python -m`
        on_path = shutil.which(name)
        if on_path and os.path.realpath(on_path) == os.path.realpath(shutil.which(started) or started):
            return name
        if os.sep in started and os.path.isfile(started):
            return shlex.quote(started)
    for python in ("python3", "python"):
        found = shutil.which(python)
        if found and os.path.abspath(found) == os.path.abspath(sys.executable):
            return f"{python} -m splendor_cli"
    return f"{shlex.quote(sys.executable)} -m splendor_cli"


def _variant_name(text: str) -> str:
    """A game's name as typed in --variant (`Duel`, ` duel `): as colours are, in any case."""
    return text.strip().lower()


@command(
    "simulate",
    Param("players", "--players", kind="int", low=2, high=4, help="Players per game."),
    Param("games", "--games", kind="int", low=1, help="How many games."),
    Param("seed", "--seed", kind="int", help="Seed of the tournament (default: random, reported)."),
    Param("variant", "--variant", help="base, or duel (2 players)."),
    Param("bots", "--bots", help="Bots, one per seat or one for all: random, greedy, mcts[:PLAYOUTS|:SECONDSs]."),
    Param("jobs", "--jobs", "-j", kind="int", help="Processes to play in; 0: one per core."),
    Param("quiet", "--quiet", "-q", kind="flag", help="No progress report on stderr."),
    JSON,
)
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
    """Play a tournament of bots in memory and report each bot's wins, win rate and points.

    The bots rotate through the seats from one game to the next; without --bots every seat (p1, p2, ...) plays random.

    Bots: random (uniform among the legal moves), greedy (the best move one turn ahead), mcts (tree search).

    mcts takes an optional think budget: mcts:400 (playouts a move; default 300) or mcts:0.5s (seconds a move).

    Each game is reproducible from the seed and its number alone: --jobs changes the time taken, never the results.

    The win rate comes with its 95% confidence interval (Wilson); a shared victory is a win for each sharer.

    Progress goes to stderr (--quiet: none).

    Examples:

    splendor simulate --players 2 --games 200 --bots mcts,greedy --seed 1 --jobs 0

    splendor simulate --players 3 --games 100 --seed 1 --json

    splendor simulate --variant duel --games 100
    """
    from ..bots.tournament import Progress, run, table

    names = [b.strip() for b in bots.split(",")] if bots else None
    progress = None if quiet else Progress(games, sys.stderr)
    try:
        variant = _variant_name(variant)
        report = run(players=players, games=games, seed=seed, bots=names, variant=variant, jobs=jobs, progress=progress)
    finally:
        if progress:
            progress.close()
    _out(_json_text(report) if json else table(report))


# -- sharing ----------------------------------------------------------------------------------


@command(
    "verify",
    Param("rev_range", help="With --git: the commits to check (main..feature, HEAD~5..HEAD)."),
    GAME,
    Param("git", "--git", kind="flag", help="Check the git history of the file instead."),
    Param("staged", "--staged", kind="flag", help="With --git: check the staged change (a pre-commit hook)."),
    JSON,
)
def verify(
    *,
    rev_range: str | None = None,
    game: str | None = None,
    git: bool = False,
    staged: bool = False,
    json: bool = False,
) -> None:
    """Replay and check everything, and print a short report; exit 0, or 4 when something is wrong.

    A sealed game that is over but whose keys are not all published is exit 6, naming who owes
    them (they run `splendor seal`): until then its cards cannot be audited.

    With --git: every commit that touched the file (side branches and merges included, across
    renames) only appended events, one person's turn or undo at most (with the bots' answers);
    a merge never drops another player's events.

    When the header maps players to e-mails, each turn's player must also be its commit's author.

    Examples:

    splendor verify -g games/friday.toml

    splendor verify --git -g games/friday.toml '@{upstream}..HEAD'
    """
    from ..errors import GameFileError
    from ..sharing import verify as checks

    if (rev_range or staged) and not git:
        raise UsageError("a revision range and --staged go with --git")
    if git:
        path = _path(game)
        report = checks.staged_report(path) if staged else checks.git_report(path, rev_range)
        text = checks.git_report_text(report)
    else:
        from .. import store
        from . import memory

        loaded = store.read(_path(game))  # every signature and proof checked again, whatever was seen before
        memory.check(loaded)
        memory.remember(loaded)
        report = checks.file_report(loaded)
        text = checks.report_text(report)
    _out(_json_text(report) if json else text)
    if not report["ok"]:
        raise GameFileError(f"verify found a problem: {report['bad']['reason'] if report.get('bad') else 'see above'}")
    if report.get("keys_owed"):
        from ..errors import KeysOwedError

        owed = tuple(report["keys_owed"])
        raise KeysOwedError(_keys_owed_line(owed), players=owed)


@command(
    "git install",
    Param("pattern", "--pattern", help="Which files are games (a .gitattributes pattern)."),
)
def git_install(*, pattern: str = "games/**/*.toml") -> None:
    """Set up this repository: a .gitattributes line and the `splendor` merge driver in .git/config.

    Every player runs it once in their clone (the driver lives in .git/config); commit .gitattributes.

    Example:

    splendor git install
    """
    import shlex

    from ..sharing.gitmerge import install

    # The driver runs this very installation: its Python, not whichever `splendor` is on PATH.
    for line in install(os.getcwd(), shlex.join([sys.executable, "-m", "splendor_cli"]), pattern=pattern):
        _out(line)


@command(
    "merge-driver",
    Param("base", kind="path", help="git's %O: the common ancestor."),
    Param("ours", kind="path", help="git's %A: our version, where the result goes."),
    Param("theirs", kind="path", help="git's %B: their version."),
)
def merge_driver(*, base: str, ours: str, theirs: str) -> None:
    """Merge two versions of a game file (git calls it; see `splendor git install`).

    Identical appends and fast-forwards merge cleanly; a side that breaks the rules is dropped.

    Two legal turns from one parent leave a forked file and exit 5 (see `splendor resolve`).

    Example:

    splendor merge-driver base.toml ours.toml theirs.toml
    """
    from ..errors import ConflictError
    from ..sharing.gitmerge import run_driver

    try:
        result = run_driver(base, ours, theirs)
    except FileNotFoundError as exc:
        raise UsageError(f"{exc.filename}: no such file (git gives the merge driver three files)") from None
    if result.conflict:
        raise ConflictError(result.message)
    if result.message:
        sys.stderr.write(f"splendor: {result.message}\n")


@command(
    "resolve",
    Param("keep", "--keep", metavar="REF", help="The side to keep: its digest, its player, or ours/theirs."),
    GAME,
)
def resolve(*, keep: str, game: str | None = None) -> None:
    """Settle a forked game (two turns after one event, left by a merge): keep one side.

    Name the side by the digest the conflict shows for its first event (the same in every
    clone, whether git merged or rebased), by the player who made it, or as git's ours/theirs.

    Examples:

    splendor resolve --keep 17a3f0

    splendor resolve -g games/friday.toml --keep bob
    """
    from .. import store
    from ..forks import split_fork
    from ..sharing import gitmerge

    path = _path(game)
    with store.locked(path, _locks()):
        try:
            data = store.read_bytes(path)
        except OSError as exc:
            raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
        side, kept = gitmerge.resolve(data, keep)
        fork = split_fork(data)
        store.write_atomic(path, kept, exclusive=False)
    loaded = store.read(path)
    from . import memory

    memory.remember(loaded, replace=True)  # an agreed choice between two branches
    lines = []
    if fork is not None and loaded.game.sealing is not None:  # what the sealed protocol loses with the other side
        from .sealed import dropped_lines

        lines = dropped_lines(fork, "theirs" if side == "ours" else "ours")
    if loaded.game.states:
        now = loaded.game.table
        where = "finished" if now.finished else now.player.name + " to move"
    else:
        where = loaded.game.sealing.stage() if loaded.game.sealing is not None else "the deal under way"
    _out(
        "\n".join(
            [
                f"kept {side} ({loaded.record.head[:6]}): {path} is a valid game again ({loaded.game.seq} events,"
                f" {where}); now `splendor sync` (or `git add {path}` and commit)",
                *lines,
            ]
        )
    )


@command("forget", GAME)
def forget(*, game: str | None = None) -> None:
    """Forget what you saw of a game, so that its next copy is taken as it is.

    splendor refuses a copy of a game whose earlier events are not those you saw (an earlier
    turn rewritten). When all the players agree to such a copy, forget the old one first.

    Example:

    splendor forget -g games/friday.toml
    """
    from .. import store
    from . import memory

    loaded = store.read(_path(game))
    memory.forget(loaded.record.header.game)
    memory.remember(loaded)
    _out(f"forgot what you saw of game {loaded.record.header.game}; {loaded.path} is what you know of it now")


@command("completion", Param("shell", metavar="SHELL", help="bash, zsh, fish or powershell."))
def completion(*, shell: str) -> None:
    """Print the shell completion script: commands, options, game files, players, and the next word of a move.

    A move completes from the game's legal moves: the card ids `buy` may take, a Duel's cells.

    Examples:

    eval "$(splendor completion bash)"   (in ~/.bashrc; zsh: in ~/.zshrc, after compinit)

    splendor completion fish > ~/.config/fish/completions/splendor.fish
    """
    from .shell import script

    _out(script(shell))
