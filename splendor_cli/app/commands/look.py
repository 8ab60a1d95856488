"""Looking at a game: `show`, `state`, `moves` and `log` (read-only: they never write the game file).

`state --json` and `moves --json` are answered from the cache (cache.py) when they can be: the
fast path (entry.py) before any body runs, and `views` (gamefile.py) keeps them there.
"""

from __future__ import annotations

import sys

from ...errors import IllegalMoveError, SplendorError, UsageError
from ..output import json_text, out, use_color, write_out
from ..params import AT, COLOR, GAME, JSON, SEAT, Param, command
from ..services.boards import board, check_all, picture, seen, viewer
from ..services.gamefile import game_path, load, load_side, state_json, views

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any

    from ...projection.game import Game
    from ...store import Loaded


SIDE = Param(
    "side", "--side", metavar="REF", help="A forked game: the side to look at (its digest, its player, ours or theirs)."
)
OUTPUT = Param("output", "--output", "-o", kind="path", metavar="FILE", help="Write it to FILE (- : standard output).")
EVERY = Param(
    "every",
    "--all",
    kind="flag",
    help="Every blind reserve face up: once the game is over, or in a game against bots alone.",
)


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
    EVERY,
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
    every: bool = False,
) -> None:
    """Show the board: bank, cards, nobles, each player's holdings, whose turn or the result.

    A Duel shows its token board with coordinates, the pyramid, privileges and royal cards.

    It says too how far each player is from each victory.

    Example:

    splendor show -g games/friday.toml --at 12

    splendor show --side bob   (a forked game: the side whose first turn is bob's)

    splendor show --svg -o games/friday.svg   (a picture; --at 12 --as bob: as bob saw it then)

    Other players' blind reserves are face down: the board is what the viewer may see (--as,
    $SPLENDOR_PLAYER; a sealed game: your key's seat; a game against bots: its one person; else a
    spectator). --all turns them all face up, once the game is over or against bots alone.
    """
    use_color(color)
    if output and not svg:
        raise UsageError("-o goes with --svg (the board as text is written on standard output)")
    if svg and json:
        raise UsageError("--svg and --json exclude each other")
    mine = _view_key(game, f"state --json\0at {at}", seat, sealed_only=False) if json and not (side or every) else None
    if mine is not None:
        text = _kept(mine)
        if text is not None:
            out(text)  # one viewer's table of these very bytes, as this user's cache kept it
            return
    loaded = load_side(game, side) if side else load(game)
    if every:
        check_all(loaded.game)
    played = loaded.game.at(at) if at is not None else loaded.game
    who = None if every else viewer(played, seat)
    if svg:
        # a sealed seat's view holds what only that seat may see: private (docs/security.md)
        write_out(output, picture(loaded, at, who, every=every), private=played.protocol.hidden and who is not None)
        return
    if json:
        from ..services.table_part import file_viewer

        if played.protocol.hidden or every or who != file_viewer(played):  # one viewer's, never cached
            if not played.states:
                out(views(loaded, at)[0])  # says there is no state yet
                return
            text = json_text(state_json(played, seen(played, who, every=every).state))
            if mine is not None:
                _keep(loaded, mine[1], text)
            out(text)
        else:
            out(views(loaded, at)[0])
        return
    if played.seeding is not None and not played.states:  # a commit-then-reveal deal under way
        out(_dealing(played))
        return
    from ..services.table_part import part

    text = part(played).show(loaded, played, who, every, color)  # what the protocol says beside the board
    if text is not None:
        out(text)
        return
    out(board(seen(played, who, every=every), color, played.variant) + _relayed(played))


def _relayed(game: Game) -> str:
    """What `show` says under an open game's board of the turns played for their player by
    another on purpose (`play --for`: the event's `by`), as `verify` says it; "" when none."""
    from ...errors import safe
    from ...projection.log import played_for_line, played_for_others

    line = played_for_line(played_for_others(game))
    return f"\n{safe(line)}" if line else ""


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


@command("state", GAME, JSON, AT, COLOR, SEAT, EVERY)
def state(
    *,
    game: str | None = None,
    json: bool = False,
    at: int | None = None,
    color: str = "auto",
    seat: str | None = None,
    every: bool = False,
) -> None:
    """Print the state after the last event (or after event SEQ with --at): JSON, or the board.

    Example:

    splendor state -g games/friday.toml --json --at 12

    splendor state --json --as bob   (what bob may know: his blind reserves; in a sealed game, his key here)
    """
    show(game=game, json=json, at=at, color=color, seat=seat, every=every)


@command(
    "moves",
    GAME,
    JSON,
    Param("as_", "--as", metavar="NAME", help="Check that NAME is to move (refused otherwise, exit 3)."),
)
def moves(*, game: str | None = None, json: bool = False, as_: str | None = None) -> None:
    """List every legal turn of the player to move (in a Duel: every legal next step), one notation a line.

    Each line is what `play` accepts. Purchases come first, then takes, reserves, and pass last:
    a script that plays the first one ends a game. Once the game is over, none (--json: []), and stderr says who won.

    Example:

    splendor moves -g games/friday.toml --json

    splendor moves --as bob   (refused when bob is not to move)
    """
    from ...errors import excerpt

    mine = _view_key(game, "moves --json" if json else "moves", as_, sealed_only=True)
    if mine is not None:
        text = _kept(mine)
        if text is not None:
            out(text)
            return
    loaded = load(game)
    now = loaded.game
    table = now.table
    if as_ is not None and as_ not in now.players:
        raise IllegalMoveError(f"{excerpt(as_)} does not play in this game ({', '.join(now.players)})", rule="turn")
    if as_ is not None and not table.finished and as_ != table.player.name:
        raise IllegalMoveError(f"it is {table.player.name}'s turn, not {as_}'s", rule="turn")
    from ..services.players import check_my_turn

    check_my_turn(loaded, as_, "moves")  # your key, your git e-mail: not your turn, not your moves
    variant = now.variant
    from ..services.table_part import part

    visible = None if table.finished else part(now).mover_view(now, as_)  # the seat to move's own moves
    from ..services.move_order import in_order

    if visible is not None:
        options = variant.legal_moves(visible)
        items = [variant.move_json(visible, move) for move in options]
        order = in_order(items)  # the moves that end a game first
        if json:
            text = json_text([items[i] for i in order])
        else:
            text = "\n".join(variant.format_move(options[i]) for i in order)
        out(text)
        if mine is not None:
            _keep(loaded, mine[1], text)
    elif json:
        out(views(loaded, moves=True)[1])
    elif not table.finished:
        options = variant.legal_moves(now.state)
        order = in_order([variant.move_json(now.state, move) for move in options])
        out("\n".join(variant.format_move(options[i]) for i in order))
    if table.finished:
        sys.stderr.write(f"splendor: {now.variant.whose_turn(now.state)}; no moves left\n")


def _view_key(game: str | None, command: str, seat: str | None, *, sealed_only: bool) -> tuple[bytes, str] | None:
    """Where the user's cache keeps one viewer's answer to `command` (`moves` of a sealed game as
    this machine's key sees them; `state --json` as `--as`/$SPLENDOR_PLAYER or a sealed game's key
    sees the table): the file's bytes, and a view named by the command, the seat asked for and,
    in a sealed game, the local key (cache.seat_view_name). None when there is no cache, when the
    answer is the file's own (an open game asked with no seat, or any open game when
    `sealed_only`: entry.py's), or when anything fails (the command then says what, reading the
    game)."""
    from ..services import cache

    if not cache.enabled():
        return None
    from ... import store

    try:
        data = store.read_bytes(game_path(game))
        sealed = b'"sealed_asked"' in data
        if not sealed and (sealed_only or not seat):
            return None  # the file's own answer: entry.py's
        key = _local_key_bytes() if sealed else b""
    except (OSError, SplendorError):
        return None
    if key is None:
        return None
    return data, cache.seat_view_name(command, seat or "", key)


def _local_key_bytes() -> bytes | None:
    """The bytes of this user's key file (b"" when there is none), read as safely as the key
    itself (keyfile.key_bytes) but not parsed: what names the key in the cache, without loading
    the cryptography. None when it is not safe to read (the command then says why, reading it)."""
    from ..services.keyfile import key_bytes, keys_folder

    try:
        return key_bytes(keys_folder())
    except UsageError:
        return b""
    except (SplendorError, OSError):
        return None


def _kept(mine: tuple[bytes, str]) -> str | None:
    """One viewer's answer for the game file's bytes `mine[0]` (`_view_key`), as this user's cache
    kept it, if the file still extends what this user saw of the game (`cache.still_seen`: the
    chain kept beside it, held against the memory; else the command reads the game and says why)."""
    from ..services import cache

    text = cache.get(*mine)
    return text if text is not None and cache.still_seen(mine[0]) else None


def _keep(loaded: Loaded, view: str, text: str) -> None:
    """Keep one viewer's answer for `loaded`'s bytes, and the file's chain that `_kept` checks."""
    from ..services import cache

    cache.put(loaded.data, view, text)
    cache.put_chain(loaded)


@command("log", GAME, JSON, COLOR, SIDE)
def log(*, game: str | None = None, json: bool = False, color: str = "auto", side: str | None = None) -> None:
    """List the events, one a line: turns in move notation, undone ones marked.

    A forked game (two turns after one event, left by a merge) lists the common events, then
    each side under its digest; --side lists one side as a game.

    Example:

    splendor log -g games/friday.toml
    """
    from ...errors import ForkError
    from ...presentation.log_text import log_text
    from ...presentation.text import use_theme
    from ...projection.log import log_entries
    from ..output import theme

    on = use_color(color)
    use_theme(theme())
    try:
        entries = log_entries((load_side(game, side) if side else load(game)).game)
    except ForkError:
        _log_fork(game, json, on)
        return
    if json:
        out(json_text(_rows(entries)))
        return
    out(log_text(entries, color=on))


def _rows(entries: list[Any]) -> list[dict[str, Any]]:
    """`log --json`'s entries, each with `bot` (the spec of the bot seat whose move it is) when a
    bot seat's bot played it (docs/contract.md)."""
    from ...bots import seat_spec

    rows = []
    for entry in entries:
        row = entry.to_json()
        spec = seat_spec(entry.player or "") if entry.turn is not None else None
        if spec:
            row["bot"] = spec
        rows.append(row)
    return rows


def _log_fork(game: str | None, json: bool, color: bool) -> None:
    """The log of a forked file: the common events, then each side's, marked with its side and
    digest (JSON: those entries have `side` and `ref` too). A note on stderr says how to settle it."""
    from ... import store
    from ...forks import SIDES, split_fork
    from ...presentation.log_text import log_text
    from ...projection.log import log_entries

    path = game_path(game)
    data = store.read_bytes(path)
    fork = split_fork(data)
    assert fork is not None  # the reader found a fork in these bytes
    sides = {side: log_entries(store.from_bytes(path, fork.prefix + fork.branch(side).data).game) for side in SIDES}
    common = [e for e in sides["ours"] if e.seq <= fork.seq]
    if json:
        rows = _rows(common)
        for side in SIDES:
            later = [e for e in sides[side] if e.seq > fork.seq]
            rows += [{**row, "side": side, "ref": fork.label(side)} for row in _rows(later)]
        out(json_text(rows))
    else:
        parts = [log_text(common, color=color).rstrip("\n")]
        for side in SIDES:
            parts.append(f"-- {side} [{fork.label(side)}] --")
            parts.append(log_text([e for e in sides[side] if e.seq > fork.seq], color=color).rstrip("\n"))
        out("\n".join(parts))
    sys.stderr.write(
        f"splendor: the game forked after event #{fork.seq}: keep one side with"
        f" `splendor resolve --keep {fork.label('ours')}` or `--keep {fork.label('theirs')}`\n"
    )
