"""The gate: the only way events enter a game file or this user's memory of seen games.

Whatever the door (a file read by any command, `play` and `bot`, `apply` of a mail, a Maildir or
an mbox, `sync`'s pull, fast-forward and push, the merge driver, `resolve`, `forget`, `watch`), an
event is judged here, once, the same way, before anything is written or remembered:

1. the fold (`store.read`, `store.stage`): the game's rules judge every move again; a sealed game's
   signatures and proofs are checked (what this user verified before, by full digest, excepted);
2. the identity of the copy (`memory.Seen.check`): its events must extend what this user saw of
   the game (a rewritten turn: exit 4; a copy behind: exit 3, rule `behind`);
3. what the fold cannot judge alone (`judge_events`): each bot seat's move computed again;
4. where there is a history (git), the history audit (`Gate.audit`, what `verify --git` runs);

and only then the file is written (atomically, under the game's write lock) and the events are
remembered as seen (and, a sealed game, as verified). What `sync` audited of a remote, the
remote's commit, is remembered too (`Gate.remember_remote`, `remotes.Remotes`), once the audit
passed: a history later rewritten under it is refused at the next sync. A refusal raises the
error that names the event (its exit code is the error class's); nothing is written, nothing
remembered.

What is remembered was judged: so a later read judges again only what it has not seen
(`judge_events(after=...)`). `tests/gate/test_one_gate.py` lists every writer of game files and
of the memory and fails if one goes round the gate.

Standard library only at import (the fast path reads the memory through `memory.Seen`).
"""

from __future__ import annotations

import contextlib
import os

from .judge import judge_events
from .memory import Seen
from .remotes import Remotes

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any

    from ..crypto.keys import SecretKey
    from ..events import Event
    from ..events.codec import Header
    from ..forks import Fork
    from ..store import Loaded, StrPath, Trusted


class Gate:
    """The gate of one user: what they saw of each game (`seen`), what they verified of a sealed
    game (`trusted`, and `verified` to note a game verified whole), where the write locks are
    (`locks`), the commit `sync` audited last on each remote of each game (`remotes`). The
    command line makes one (`app/services/gamefile.py` `gate()`)."""

    __slots__ = ("locks", "remotes", "seen", "trusted", "verified")

    def __init__(
        self,
        *,
        seen: Seen,
        locks: str,
        trusted: Trusted | None = None,
        verified: Callable[[Loaded], None] | None = None,
        remotes: Remotes | None = None,
    ) -> None:
        self.seen, self.locks, self.trusted, self.verified = seen, locks, trusted, verified
        self.remotes = remotes if remotes is not None else Remotes(None)

    def __repr__(self) -> str:
        return f"Gate(seen={self.seen!r}, locks={self.locks!r})"

    # -- reading ---------------------------------------------------------------------------------

    def read(self, path: StrPath, *, behind_ok: bool = False, verify_all: bool = False) -> Loaded:
        """The game file at `path` read, judged (`judge`) and remembered as seen (`verify_all`: a
        sealed game's signatures and proofs are all checked again, whatever was verified before)."""
        from .. import store

        return self.admit(store.read(path, None if verify_all else self.trusted), behind_ok=behind_ok)

    def judge(self, loaded: Loaded, *, behind_ok: bool = False) -> int:
        """Judge a copy read from any door: it extends what this user saw (`Seen.check`), and the
        events they have not seen pass `judge_events`. How many they had seen. Nothing is written.

        Raises:
            GameFileError: the copy contradicts what was seen, or an event is refused (exit 4).
            IllegalMoveError: the copy is behind what was seen (rule `behind`, exit 3).
        """
        seen = self.seen.check(loaded.path, loaded.record, behind_ok=behind_ok)
        judge_events(loaded.record, loaded.game, after=seen)
        return seen

    def admit(self, loaded: Loaded, *, behind_ok: bool = False) -> Loaded:
        """`judge` the copy, then remember it as seen (and verified): `loaded`."""
        self.judge(loaded, behind_ok=behind_ok)
        self._remember(loaded)
        return loaded

    def _remember(self, loaded: Loaded, *, replace: bool = False) -> None:
        """Remember a judged copy (the gate's own step: every door reaches it through `admit`,
        `write`, `replace` or `forget`)."""
        self.seen.remember(loaded.record, replace=replace)
        if self.verified is not None:
            self.verified(loaded)

    @contextlib.contextmanager
    def writing(self, path: StrPath, *, behind_ok: bool = False) -> Iterator[Loaded]:
        """Hold the game's write lock, read it and judge it (`judge`: remembered once written)."""
        from .. import store

        with store.writing(path, self.locks, self.trusted) as loaded:
            self.judge(loaded, behind_ok=behind_ok)
            if self.verified is not None:
                self.verified(loaded)
            yield loaded

    # -- writing ---------------------------------------------------------------------------------

    def stage(self, loaded: Loaded, *events: Event, secret: SecretKey | None = None, decided: bool = False) -> Loaded:
        """The file as it would be with `events` appended (each judged by the rules as it is
        staged, `store.stage`, unless `decided`: made by `Game.decide` on the game it follows,
        which judged it); nothing is written (`write` does)."""
        from .. import store

        for event in events:
            loaded = store.stage(loaded, event, secret=secret, decided=decided)
        return loaded

    def write(self, staged: Loaded, *, since: Loaded) -> Loaded:
        """Write the events staged on `since` (the file as read, under its write lock), once the
        new ones pass `judge_events`; remember the file written. The game as written.

        Raises:
            CorruptLogError: a new event is refused (nothing written).
            ConflictError: the file changed since it was read (nothing written).
        """
        from .. import store

        judge_events(staged.record, staged.game, after=len(since.record.events))
        after = store.write(staged)
        self._remember(after)
        return after

    def append(self, loaded: Loaded, *events: Event, secret: SecretKey | None = None) -> Loaded:
        """`stage` the events on `loaded`, then `write` them."""
        return self.write(self.stage(loaded, *events, secret=secret), since=loaded)

    def create(self, path: StrPath, header: Header, started: Event) -> Loaded:
        """A new game file (`store.create`: never over another file), remembered as seen."""
        from .. import store

        created = store.create(path, header, started)
        self._remember(created)
        return created

    def replace(
        self, path: StrPath, data: bytes, *, read: bytes, agreed: bool = False, remember: bool = True
    ) -> Loaded:
        """Write the whole game file `data` over the file at `path` that held `read` (a merge, a
        settled fork; the caller holds its write lock, or git does), once it folds and passes the
        gate: it extends what was seen (`agreed`: an agreed choice between two branches, `resolve`,
        which replaces what was seen; every event not seen is judged then), and is remembered
        (`remember`: the merge driver's is not, since the merge may yet be given up). The game as
        written.

        Raises:
            GameFileError, ForkError: `data` does not fold, or an event is refused (exit 4).
            ConflictError: the file no longer holds `read` (nothing written).
        """
        from .. import store

        path = os.fspath(path)
        loaded = store.from_bytes(path, data, self.trusted)
        if agreed:
            judge_events(loaded.record, loaded.game, after=self.seen.common(loaded.record))
        else:
            self.judge(loaded)
        store.write_over(path, data, read=read, doing="it was being written")
        if remember:
            self._remember(loaded, replace=agreed)
        return loaded

    def write_fork(self, path: StrPath, data: bytes, *, read: bytes) -> Fork:
        """Write the forked file `data` (two branches after one event: a mail or a merge that
        raced) over the file at `path` that held `read`, once each branch, read as a game of its
        own, folds and passes `judge_events`: a fork is settled later (`resolve`), but a cheat on
        either side is caught now. Nothing is remembered (the file is no game until settled).

        Raises:
            GameFileError: `data` is no fork, or a side does not fold or is refused (exit 4).
            ConflictError: the file no longer holds `read` (nothing written).
        """
        from .. import store
        from ..errors import GameFileError
        from ..forks import split_fork

        path = os.fspath(path)
        fork = split_fork(data)
        if fork is None:
            raise GameFileError(f"{path}: the file to write is no fork of two branches")
        for side in ("ours", "theirs"):
            loaded = store.from_bytes(path, fork.prefix + fork.branch(side).data, self.trusted)
            # not held against what was seen: one side of a fork contradicts it (`resolve` chooses)
            judge_events(loaded.record, loaded.game, after=len(fork.record.events))
        store.write_over(path, data, read=read, doing="it was being written")
        return fork

    def forget(self, path: StrPath) -> Loaded:
        """Forget what was seen of the game at `path` and take this copy instead, once every
        event of it passes the gate (`judge_events` from the first): what all the players agree
        to (`splendor forget`). The copy.

        Raises:
            GameFileError: an event of the copy is refused (exit 4): nothing forgotten.
        """
        from .. import store

        loaded = store.read(path, self.trusted)
        judge_events(loaded.record, loaded.game, after=self.seen.common(loaded.record))
        self.seen.forget(loaded.record.header.game)
        self.remotes.forget(loaded.record.header.game)  # a remote's rewritten history, agreed to as well
        self._remember(loaded)
        return loaded

    # -- remotes -----------------------------------------------------------------------------------

    def remember_remote(self, game: str, key: str, commit: str) -> None:
        """Remember `commit` as the last one of the remote `key` (`remotes.remote_key`) whose
        history of game `game` passed the audit (`audit`): `sync` calls it once the audit passed
        (after the fetch, and after a push), never before. Nothing else writes it."""
        self.remotes.remember(game, key, commit)

    # -- history -----------------------------------------------------------------------------------

    def audit(
        self,
        path: StrPath,
        *,
        tip: str | None = None,
        mark: str | None = None,
        known: Sequence[Loaded] = (),
        trusted: Trusted | None = None,
    ) -> dict[str, Any]:
        """The history audit (`verify --git`) of the game file at `path` up to commit `tip`
        (default HEAD), from `mark` on (sharing/git_audit.py `audit`), trusting what this user
        verified before (`trusted`, default the gate's) and the versions `known` already read. Its
        report (`ok`, `bad`, `mark`). Each version's new events are judged as the gate judges
        them (`judge_events`, through the audit's checker)."""
        from ..sharing import git_audit as audit

        return audit.audit(path, mark, self.trusted if trusted is None else trusted, known, tip=tip)


__all__ = ["Gate", "Remotes", "Seen", "judge_events"]
