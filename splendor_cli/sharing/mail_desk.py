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


class MailForked(ConflictError):
    """A mail's move forked the game: the file now holds both sides, for `resolve` (exit 5)."""


def write_fork(desk: Desk, loaded: Loaded, blocks: Sequence[MoveBlock]) -> None:
    """When `blocks` fork the game (the copies forked: a stale block), write the fork into the
    file as git's merge driver writes one (`forked_file`), under the write lock the caller
    holds, and raise the MailForked (a ConflictError) that says so and how `resolve` settles it;
    return when they fork nothing that can be written (the caller raises its own error)."""
    from ..forks import describe_fork, split_fork

    forked = forked_file(loaded.data, loaded.record, loaded.game, blocks)
    fork = split_fork(forked) if forked is not None else None
    if forked is None or fork is None:
        return
    desk.gate.write_fork(loaded.path, forked, read=loaded.data)  # each side judged; ConflictError: the file changed
    raise MailForked(
        f"the mail's move forks the game (the copies forked after #{fork.seq}): {loaded.path} now holds"
        f" both sides; {describe_fork(fork)}"
    )
