"""The game file a command works on: found, read, written, and its JSON views kept in the cache.

Every command reads its game through `load` (or `writing`, under the file's write lock) and adds
events with `append`, all through this user's gate (`gate()`, splendor_cli/gate/): so that each
read is judged against what this user saw of the game and remembered, a sealed game's events are
signed by the local key, and the cache (cache.py) learns what it may answer without reading the
game again (`views`). Standard library only at import: the store and the game are imported when a
game is read.
"""

from __future__ import annotations

import contextlib

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from ...gate import Gate
    from ...projection.game import Game
    from ...store import Loaded


def game_path(game: str | None) -> str:
    """The game file a command means: `-g`, else the one `locate.find_game` finds."""
    from .locate import find_game

    return find_game(game)


def locks() -> str:
    """The folder of the write locks of game files (folders.py)."""
    from .folders import lock_folder

    return lock_folder()


def now() -> str:
    """The time, as a game file records it (UTC, to the second: 2026-01-31T12:00:00Z)."""
    import datetime

    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def gate() -> Gate:
    """This user's gate (splendor_cli/gate/): their memory of seen games, their cache of verified
    sealed games, their write locks. Every event a command takes in or writes passes it."""
    from ...gate import Gate, Remotes, Seen
    from . import cache
    from .folders import memory_folder, remotes_folder

    return Gate(
        seen=Seen(memory_folder()),
        locks=locks(),
        trusted=cache.verified_prefix,
        verified=cache.remember_verified,
        remotes=Remotes(remotes_folder()),
    )


def load(game: str | None) -> Loaded:
    """The game a command means, read through the gate (judged against what this user saw of it)."""
    return gate().read(game_path(game))


def load_side(game: str | None, side: str) -> Loaded:
    """One side of a forked game file (`forks.Fork.choose` names it), read as a game of its own."""
    from ... import store
    from ...errors import GameFileError, UsageError
    from ...forks import split_fork

    where = game_path(game)
    try:
        data = store.read_bytes(where)
    except OSError as exc:
        raise GameFileError(f"{where}: cannot read: {exc.strerror}") from None
    fork = split_fork(data)
    if fork is None:
        raise UsageError(f"{where} has not forked: --side is for a game with two sides (see `splendor resolve`)")
    from ...gate import judge_events

    side_of = store.from_bytes(where, fork.prefix + fork.branch(fork.choose(side)).data)
    judge_events(side_of.record, side_of.game)  # shown, not remembered: a fork is no game until settled
    return side_of


def seen_now(loaded: Loaded) -> Loaded:
    """`loaded`, a copy read elsewhere (sync's), taken in through the gate: judged against what this
    user saw of its game, then remembered as seen (and, a sealed game, as verified)."""
    return gate().admit(loaded)


@contextlib.contextmanager
def writing(game: str | None, *, behind_ok: bool = False) -> Iterator[Loaded]:
    """The game a command means, read under its write lock, and judged as `load` judges it
    (`behind_ok`: a copy behind what this user saw is let through, for a command that brings it
    up to date, such as `apply`)."""
    with gate().writing(game_path(game), behind_ok=behind_ok) as loaded:
        yield loaded


def append(loaded: Loaded, *events: Any, staged: Loaded | None = None) -> Loaded:
    """The events appended to `loaded` through the gate (judged, written, remembered as seen); in
    a sealed game, the local key signs its player's events. `staged`: the events a command staged
    on `loaded` already (`Gate.stage`, signed there), written as they are (judged once)."""
    from . import key_history
    from .table_part import part

    table = part(loaded.game)
    secret = table.secret(loaded)  # a game of keys: the local key signs its player's events
    if secret is not None:
        key_history.check(loaded, secret)  # a twin, or another branch than the key's: nothing revealed
    door = gate()
    after = door.write(staged if staged is not None else door.stage(loaded, *events, secret=secret), since=loaded)
    table.note_written(loaded, after, secret)
    if secret is not None:
        key_history.anchor(after, secret)
    return after


def views(loaded: Loaded, at: int | None = None, *, moves: bool = False) -> tuple[str, str]:
    """The texts of `state --json` and (for the last event) `moves --json`, remembered in the
    cache; the moves are worked out only when asked for or when there is a cache to keep them."""
    from ..output import json_text
    from . import cache

    caching = cache.enabled()
    played = loaded.game.at(at) if at is not None else loaded.game
    state_text = json_text(state_json(played, default_view(played)))
    if caching:
        cache.put(loaded.data, cache.view_name("state", at), state_text)
        cache.put_chain(loaded)  # what the fast path holds against the memory of seen games
    moves_text = ""
    if played.protocol.hidden and not moves:
        return state_text, moves_text  # a sealed game's moves are the seat's own: never cached
    if at is None and (moves or caching):
        moves_text = json_text(moves_json(played))
        if caching:
            cache.put(loaded.data, "moves", moves_text)
    return state_text, moves_text


def default_view(game: Game) -> Any:
    """The state `state --json` shows without --as: other players' blind reserves face down
    (table_part.file_viewer, boards.seen); None before the deal."""
    from .boards import seen
    from .table_part import file_viewer

    return seen(game, file_viewer(game)).state if game.states else None


def state_json(game: Game, state: Any = None) -> dict[str, Any]:
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


def moves_json(game: Game) -> list[dict[str, Any]]:
    """`moves --json`: every legal move of the player to move, as JSON, in the order `moves`
    lists them (move_order.py)."""
    from .move_order import in_order

    variant, state = game.variant, game.state
    items = [variant.move_json(state, move) for move in variant.legal_moves(state)]
    return [items[i] for i in in_order(items)]  # the moves that end a game first
