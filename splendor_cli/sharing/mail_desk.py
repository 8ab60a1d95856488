"""What taking mail in (sharing/inbox.py, sharing/intake.py) asks of the user's machine (`Desk`)
and remembers of the mails it read (`Memo`, kept through `ReadBefore`), and the fork a mail's
block writes into a game file (`write_fork`, raising `MailForked`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import attrs

from ..errors import ConflictError
from ..events import Event
from .applying import forked_file
from .mail import MoveBlock

if TYPE_CHECKING:
    from ..forks import Fork
    from ..gate import Gate
    from ..store import Loaded


class ReadBefore(Protocol):
    """What is remembered of the mails read before (in the user's own cache): a `Memo`'s text."""

    def recall(self, data: bytes) -> str | None: ...

    def keep(self, data: bytes, memo: str) -> None: ...


@attrs.frozen(kw_only=True)
class Memo:
    """What is remembered of a mail: read to the end, or what of it was dealt with and what waits."""

    done: frozenset[str] = frozenset()
    """The keys of its blocks dealt with (`mail.FoundBlock.key`): never tried again."""
    games: frozenset[str] = frozenset()
    """The games not here that some of its blocks wait for."""
    again: bool = False
    """Some of its blocks wait for turns, or for a game that could not be taken in: read again."""

    READ = "read"

    @property
    def read(self) -> bool:
        """Whether the mail was read to the end (nothing of it waits)."""
        return not self.games and not self.again

    def text(self) -> str:
        import json

        if self.read:
            return self.READ
        return "wait " + json.dumps({"done": sorted(self.done), "games": sorted(self.games), "again": self.again})

    @classmethod
    def of(cls, text: str | None) -> Memo | None:
        """The memo a text says (None: nothing remembered, or a text this release cannot read)."""
        import json

        if text == cls.READ:
            return cls()
        if text is None or not text.startswith("wait "):
            return None
        try:
            found = json.loads(text.removeprefix("wait "))
            done, games, again = found["done"], found["games"], found["again"]
        except (ValueError, KeyError, TypeError):
            return None
        if not all(isinstance(item, str) for item in (*done, *games)) or not isinstance(again, bool):
            return None
        return cls(done=frozenset(done), games=frozenset(games), again=again)


@attrs.frozen(kw_only=True)
class Desk:
    """What taking mail in asks of the user's machine (the command line gives each)."""

    gate: Gate
    """The user's gate: every event of a mail enters through it."""
    add: Callable[[Loaded, Sequence[Event]], Loaded]
    """Append events to a game through the gate (signed, a sealed game's, by the local key), then
    write the local player's part of a sealed game (and commit them, `apply --commit`); the game
    after it."""
    changed: Callable[[Loaded], None]
    """Called with each game that the mail changed, as it is now (the cache's views, a notice)."""
    say: Callable[..., None]
    """Say lines that quote mails (made safe by the caller)."""
    note: Callable[..., None]
    """Say on the side (stderr) what was left out."""
    read_before: ReadBefore | None = None
    """What is remembered of the mails read before (None: every mail is read every time)."""
    commit: Callable[[Loaded], None] | None = None
    """Commit a game file created from a mail to git (`apply --commit`); None: not committed."""
    went_on: Callable[[Loaded], Loaded] | None = None
    """A race settled by its rule left out some of this copy's own events (`write_fork`): the
    local key goes on in the copy kept and writes its part again there; the game after it."""
    raced: list[Raced] = attrs.Factory(list)
    """The moves a race of protocol steps left out of a game here (`write_fork`), for the command
    line to play again when they are the user's (app/services/races.py `play_again`)."""


@attrs.frozen(kw_only=True)
class Raced:
    """A move left out of the game at `path` because the other side of its fork held only protocol
    steps (`race_side`): `fork` says where it was chosen; its player plays it again after them."""

    path: str
    fork: Fork
    move: Event


@attrs.frozen(kw_only=True)
class Settled:
    """A mail's fork settled by the race rule (`race_side`): what was said, and the game after it."""

    message: str
    loaded: Loaded


class MailForked(ConflictError):
    """A mail's move forked the game: the file now holds both sides, for `resolve` (exit 5)."""


def race_side(fork: Fork) -> str | None:
    """The side of a fork met by mail that gives way by the race rule ("ours": this copy's,
    "theirs": the mail's; None: neither, a fork for the players). Mail has no side sent first, so
    one rule, the same on every machine, orders the steps each player owes the table protocol
    that are made again when left out (`TableProtocol.remade`: joins, shuffles, shares) and the
    moves: where the sides part, a step goes before a move, and of two players' steps, the earlier
    seat's (in the header's order) goes first. The side whose first event goes second gives way,
    when its events can all be made again by their authors (such steps, and one move at most):
    its steps are made again after the other side's, its move played again by its player."""
    from ..events import PlayEvent, actor
    from ..projection.table_protocol import find_protocol

    remade = find_protocol(fork.record.header.table or "open").remade
    first = {side: fork.branch(side).events[0] for side in ("ours", "theirs")}
    step = {side: remade(event) for side, event in first.items()}
    gives: str | None = None
    if step["ours"] and step["theirs"]:
        seats = fork.record.header.players
        mine, yours = actor(first["ours"]), actor(first["theirs"])
        if mine != yours and mine in seats and yours in seats:
            gives = "ours" if seats.index(mine) > seats.index(yours) else "theirs"
    elif step["ours"] and isinstance(first["theirs"], PlayEvent):
        gives = "theirs"
    elif step["theirs"] and isinstance(first["ours"], PlayEvent):
        gives = "ours"
    if gives is None:
        return None
    left = fork.branch(gives).events
    moves = sum(isinstance(e, PlayEvent) for e in left)
    return gives if moves <= 1 and all(isinstance(e, PlayEvent) or remade(e) for e in left) else None


def write_fork(desk: Desk, loaded: Loaded, blocks: Sequence[MoveBlock]) -> Settled | None:
    """When `blocks` fork the game (the copies forked: a stale block): a race of protocol steps
    against one move settles by itself (`race_side`): the mail's move is left out (its player
    plays it again after this copy's steps), or this copy's move is (the file takes the mail's
    steps, through the gate; the move is noted in `desk.raced`): `Settled`. Any other fork is
    written into the file as git's merge driver writes one (`forked_file`), under the write lock
    the caller holds, raising the MailForked (a ConflictError) that says so and how `resolve`
    settles it. None when they fork nothing that can be written (the caller raises its own error)."""
    from ..events import PlayEvent, actor
    from ..forks import describe_fork, split_fork, turns
    from ..variants import find_variant

    forked = forked_file(loaded.data, loaded.record, loaded.game, blocks)
    fork = split_fork(forked) if forked is not None else None
    if forked is None or fork is None:
        return None
    gives = race_side(fork)
    if gives is not None:
        variant = find_variant(fork.record.header.variant)
        kept, left = ("theirs" if gives == "ours" else "ours"), fork.branch(gives).events
        move = next((e for e in left if isinstance(e, PlayEvent)), None)
        again = f"{actor(move)} plays it again" if move is not None else f"{actor(left[0])} shows it again"
        said = (
            f"{turns(variant, left)} raced {actor(fork.branch(kept).events[0])}'s part of the table: {again} after it"
        )
        if gives == "theirs":
            return Settled(message=said, loaded=loaded)
        after = desk.gate.replace(loaded.path, fork.prefix + fork.theirs.data, read=loaded.data, agreed=True)
        if desk.went_on is not None:
            after = desk.went_on(after)
        if move is not None:
            desk.raced.append(Raced(path=loaded.path, fork=fork, move=move))
        return Settled(message=said, loaded=after)
    desk.gate.write_fork(loaded.path, forked, read=loaded.data)  # each side judged; ConflictError: the file changed
    raise MailForked(
        f"the mail's move forks the game (the copies forked after #{fork.seq}): {loaded.path} now holds"
        f" both sides; {describe_fork(fork)}"
    )
