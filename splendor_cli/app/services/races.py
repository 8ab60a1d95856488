"""Races the table settles by itself (issue 32, item 1): protocol events commute with moves.

Two players who act at once from the same copy fork the game. When this player's side of the
fork (their unpushed events: git's "ours" in the merge `sync` makes) holds only steps they owe
the table protocol, which are made again when left out (`TableProtocol.remade`: a join, a
shuffle, decryption shares, keys; not a consent to a rewind) and at most one move of
theirs, and the other side only protocol events, nothing needs a person to choose: their side is
left out (their own unpushed events: they consent, as `splendor resolve --keep theirs` does), the
next write makes their part again after the other's, and their move is played again on the new
position, judged by the gate like any move. The move goes back to its player, with one line
saying why and the command that plays it, only when it is no longer legal there, or when the
other side showed them a card they could not see when they chose it.

A fork with another player's move on the other side, or more than one move of ours, is a real
race between turns: it is left to the players (`splendor resolve`).

Over git the side pushed first stands. By mail nothing is pushed first: `sharing.mail_desk.
race_side` orders both sides by one rule, the same on every machine, and the user's own moves it
leaves out are played again here (`play_raced`, through `play_again` as above).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...errors import SplendorError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ...events import Event
    from ...forks import Fork
    from ...sharing.gitsync import Repo
    from ...sharing.mail_desk import Raced


def settle(repo: Repo, as_: str | None, say: Callable[[str], None]) -> bool:
    """Settle each fork of the merge under way in `repo` that is a race of protocol events (see
    the module), saying what was done; whether it settled any (then the caller syncs again)."""
    from ... import store
    from ...forks import split_fork
    from ...sharing import gitsync

    if gitsync.under_way(repo) != "merge":
        return False
    settled = False
    for rel in gitsync.unmerged(repo):
        path = str(repo.top / rel)
        try:
            fork = split_fork(store.read_bytes(path))
        except (OSError, SplendorError):
            continue
        if fork is None:
            continue
        me = _me(fork, as_, os.path.dirname(path))
        race = _race(fork, me) if me is not None else None
        if race is None or me is None:
            continue
        _settle_one(fork, path, me, race[0], say)
        settled = True
    return settled


def _me(fork: Fork, as_: str | None, folder: str) -> str | None:
    """Who is at the keyboard in the forked game: at a table of keys, the seat the local key
    joined (on this player's side, where their join may be), else as `players.who_am_i` says."""
    import attrs

    from ...records import replay_record
    from .players import who_am_i
    from .table_part import part

    header = fork.record.header
    if header.table:
        record = attrs.evolve(fork.record, events=(*fork.record.events, *fork.ours.events))
        try:
            game = replay_record(record)
        except SplendorError:
            return None
        found = part(game).me(game)
        if found and found[0]:
            return found[0]
    return who_am_i(header.players, header.emails, as_, folder)


def _race(fork: Fork, me: str) -> tuple[Event | None] | None:
    """What a fork is to `me`: None when it is not a race of protocol events they can settle;
    else the one move of theirs on their side to play again (`(None,)`: none, only their part)."""
    from ...events import PlayEvent, actor
    from ...projection.table_protocol import find_protocol, is_protocol_event

    ours, theirs = fork.ours.events, fork.theirs.events
    if not ours or not all(actor(event) == me for event in ours):
        return None
    remade = find_protocol(fork.record.header.table or "open").remade
    moves = [event for event in ours if isinstance(event, PlayEvent)]
    if len(moves) > 1 or not all(isinstance(e, PlayEvent) or remade(e) for e in ours):
        return None  # more than one move, or a choice of theirs (an undo, a consent): theirs to settle
    if moves and not all(is_protocol_event(event) for event in theirs):
        return None  # another move on their side: a real race between turns
    return (moves[0] if moves else None,)


def _settle_one(fork: Fork, path: str, me: str, move: Event | None, say: Callable[[str], None]) -> None:
    """Leave this player's side out, and play their move again on the new position (or say why not)."""
    from ...events import actor
    from ..commands.undo import resolve
    from .quiet import captured

    other = actor(fork.theirs.events[0]) or "another player"
    with captured(lambda line: None):
        resolve(keep="theirs", game=path)
    if move is None:
        say(f"{fork.record.header.game}: your part #{fork.seq + 1} raced {other}'s: withdrawn, written again after it")
        return
    play_again(path, fork, move, say)


def play_raced(raced: Sequence[Raced], as_: str | None, say: Callable[[str], None]) -> None:
    """The moves a mail's race of protocol steps left out here (`mail_desk.write_fork`), played
    again by their player when this user is that player (another player's is theirs to play)."""
    from ...events import actor

    for one in raced:  # the key went on in the copy the rule kept (`Desk.went_on`)
        if _me(one.fork, as_, os.path.dirname(one.path)) == actor(one.move):
            play_again(one.path, one.fork, one.move, say)


def play_again(path: str, fork: Fork, move: Event, say: Callable[[str], None]) -> None:
    """Play `move`, left out of this player's side of `fork` (the file at `path` now holds the
    other side), again on the new position through the gate; or say why it goes back to them:
    it is no longer legal, or the other side showed them a card they did not see when they chose."""
    from ... import store
    from ...events import actor

    game_id = fork.record.header.game
    other = actor(fork.theirs.events[0]) or "another player"
    me = actor(move)
    chosen = _view_at(fork, "ours", move)
    loaded = store.read(path)
    notation = _notation(loaded, move)
    again = f"`splendor play -g {path} {notation}`"
    if chosen is None or _view(loaded.game, me) != chosen:
        say(
            f"{game_id}: your move {notation!r} raced {other}'s part, which shows you a card you did not see"
            f" when you chose it: set aside; choose again (it was {again})"
        )
        return
    from ..commands.play import play
    from .quiet import captured

    try:
        with captured(lambda line: None):
            play(move=notation.split(), game=path, as_=me if not loaded.record.header.table else None)
    except SplendorError as exc:
        say(f"{game_id}: your move {notation!r} raced {other}'s part and is no longer legal ({exc}): set aside")
        return
    say(f"{game_id}: your move {notation!r} raced {other}'s part: played again after it")


def _notation(loaded: Any, move: Event) -> str:
    from ...projection.log import event_notation

    return event_notation(loaded.game.variant, move)


def _view_at(fork: Fork, side: str, move: Event) -> Any | None:
    """How `move`'s player saw the table when they chose it: the common events and their side's
    events before the move, as their key shows them (None: it does not replay)."""
    import attrs

    from ...events import actor
    from ...records import replay_record

    events = fork.branch(side).events
    before = events[: events.index(move)]
    record = attrs.evolve(fork.record, events=(*fork.record.events, *before))
    try:
        game = replay_record(record)
    except SplendorError:
        return None
    return _view(game, actor(move))


def _view(game: Any, seat: str) -> Any:
    """The table as `seat` sees it (with the cards their key opens, at a table of keys)."""
    from .table_part import part

    return part(game).view(game, seat)


__all__ = ["play_again", "play_raced", "settle"]
