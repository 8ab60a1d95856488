"""What this user has seen of each game: the chain of its events, remembered as SSH remembers
host keys, so that a copy whose log does not extend it is refused: one that contradicts it as
damaged (exit 4), one that is only behind it (a strict prefix: a clone not yet pulled, a backup)
as stale (exit 3, rule `behind`), saying to pull, sync or apply, or `forget` to go back to it.

Without signatures, whoever edits an earlier event and recomputes every `parent` after it gets
a file that reads and verifies on its own. What such a file cannot do is extend the chain this
user already saw: the full SHA-256 of every event seen (64 hex digits, `Record.digests`; not the
chain's 16-digit link, for which a player can find a collision between two of his own events)
is kept, one a line, per game id, in a folder of the user's (the command line says which:
`$XDG_DATA_HOME/splendor-cli/known/`, default `~/.local/share/...`), and a file whose first
events are not those is refused, naming the first event that differs. A game first met through
a rewritten file is not detected (there is nothing to compare with); a rewrite of events this
user never saw is not either.

Only the gate (`splendor_cli.gate`) writes this memory, after it judged every event it
remembers: what is remembered was judged, so a later read need not judge it again.

A memory written by an earlier release holds 16-digit digests: each such line still defends its
event, compared with the first 16 digits of its full digest, and the next `remember` of a copy
that extends it writes the whole memory again with full digests.

Standard library only (the fast path asks `extends`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from ..errors import GameFileError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..events.codec import Record
    from ..sharing.relays import Mark

MAX_BYTES = 16 << 20
"""The largest memory file read (16 MiB: a quarter of a million events of 64 hex digits)."""
SHORT, FULL = 16, 64
"""The lengths of a line: a digest as an earlier release kept it (the chain's link), and whole."""


def _same(was: str, is_: str) -> bool:
    """Whether `was`, a line of the memory, is the digest `is_` of the file's event: the whole
    of it, or its first 16 digits for a line an earlier release wrote."""
    return was == (is_ if len(was) == FULL else is_[:SHORT])


RELAYS = ".relays"
"""The suffix of the file beside a game's memory that keeps the relayed moves seen (their `Mark`)."""


GAVE_WAY: list[str] = []
"""What this process let give way of what the user saw (`Seen.check`), a line each, for the
command to say once (`sync`, `watch`) and clear: a relayed move replaced by its player's own."""


def _parting(seen: Sequence[str], now: Sequence[str]) -> int | None:
    """The index (0-based) of the first event seen that is not the copy's event there; None when
    the copy agrees with every event seen that it holds."""
    return next((i for i, (was, is_) in enumerate(zip(seen, now)) if not _same(was, is_)), None)


def _read_marks(text: str) -> dict[str, Mark]:
    """The relayed moves kept beside a memory, by digest (lines that do not read are skipped)."""
    from ..sharing.relays import Mark

    marks: dict[str, Mark] = {}
    for line in text.split("\n"):
        words = line.split()
        if len(words) != 4 or len(words[0]) != FULL:
            continue
        try:
            marks[words[0]] = Mark(
                seat=bytes.fromhex(words[2]).decode(), key=words[1], by=bytes.fromhex(words[3]).decode()
            )
        except (ValueError, UnicodeDecodeError):
            continue
    return marks


def game_file(folder: str | None, game: str) -> str | None:
    """The file of game `game` in `folder`, named by the SHA-256 of the id (None: no folder)."""
    if folder is None:
        return None
    from hashlib import sha256

    return os.path.join(folder, sha256(game.encode()).hexdigest()[:32])


def read_private(path: str | None, limit: int) -> str:
    """The text of a per-game file (`game_file`): "" when there is none or it cannot be read (it
    is only a defence). Never follows a link; bounded to `limit` bytes."""
    if path is None:
        return ""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        data = os.read(fd, limit)
    except OSError:
        return ""
    finally:
        os.close(fd)
    return data.decode("ascii", "replace")


def write_private(folder: str, path: str, text: str) -> None:
    """Write `text` (ASCII) as the per-game file `path` of `folder`: whole, through a temporary
    file (0600, never over a link, in `folder` made 0700) renamed over it. Never fails: a file
    that cannot be written is only a defence lost."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.urandom(6).hex()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            with os.fdopen(fd, "wb") as handle:  # bytes: no text codec to load
                handle.write(text.encode("ascii"))
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError:
        pass


def forget_private(path: str | None) -> None:
    """Remove the per-game file `path`, if there is one."""
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


class Seen:
    """The memory of seen games kept in `folder` (None: the memory is off, and nothing is seen)."""

    __slots__ = ("folder",)

    def __init__(self, folder: str | None) -> None:
        self.folder = folder

    def __repr__(self) -> str:
        return f"Seen({self.folder!r})"

    @property
    def enabled(self) -> bool:
        """Whether the memory is on."""
        return self.folder is not None

    def file(self, game: str) -> str | None:
        """The file that holds what was seen of game `game` (None: the memory is off)."""
        return game_file(self.folder, game)

    def digests(self, game: str) -> list[str]:
        """The digests seen of game `game`, in order (none when the memory is off or unreadable:
        it is only a defence). Never follows a link; bounded to MAX_BYTES."""
        text = read_private(self.file(game), MAX_BYTES)
        return [line for line in text.split("\n") if len(line) in (SHORT, FULL)]

    def check(self, path: str, record: Record, *, behind_ok: bool = False) -> int:
        """How many of the first events of `record` (the file at `path`) this user saw before (0
        without a memory), refusing a copy whose log does not extend them. `behind_ok`: a copy
        behind what was seen is let through (a command that brings it up to date: `apply`).

        Raises:
            GameFileError: an event this user saw is not the file's event of that number (the
                copy contradicts what was seen: exit 4).
            IllegalMoveError: the file is a strict prefix of what was seen (rule `behind`: an
                older copy, one not yet pulled or a backup; exit 3).
        """
        seen = self.digests(record.header.game)
        now = record.digests
        parting = _parting(seen, now)
        if parting is not None:
            why = self._gives_way(record, seen, parting)
            if why:  # a relayed move seen gave way to its seat's own, or to itself: said once
                GAVE_WAY.append(f"{path}: #{parting + 1} as you saw it gave way: {why}")
                return parting
            seq = parting + 1
            raise GameFileError(
                f"{path}: event #{seq} is not the event #{seq} you saw of game"
                f" {record.header.game!r}: an earlier turn was rewritten (if all the players"
                " agree to this copy, `splendor forget -g FILE` accepts it)"
            )
        if len(now) < len(seen) and behind_ok:
            return len(now)
        if len(now) < len(seen):  # a strict prefix of what was seen: an older copy, not a forgery
            from ..errors import IllegalMoveError

            raise IllegalMoveError(
                f"{path}: this copy is behind (#{len(now)}; you saw #{len(seen)} of game"
                f" {record.header.game!r}): pull, sync or apply first (to go back to this copy on"
                " purpose, as when restoring a backup, `splendor forget -g FILE` accepts it)",
                rule="behind",
            )
        return len(seen)

    def common(self, record: Record) -> int:
        """How many of the first events of `record` are the first events this user saw of its
        game (whatever follows: a copy that contradicts what was seen shares a prefix with it)."""
        count = 0
        for was, is_ in zip(self.digests(record.header.game), record.digests):
            if not _same(was, is_):
                break
            count += 1
        return count

    def extends(self, game: str, digests: list[str]) -> bool:
        """Whether a file of game `game` whose events have these full digests, in order, extends
        what this user saw of it: what `check` lets through (the cache's fast path asks)."""
        if self.folder is None:
            return True
        seen = self.digests(game)
        return len(digests) >= len(seen) and all(map(_same, seen, digests))

    def remember(self, record: Record, *, replace: bool = False) -> None:
        """Remember the events of `record` (they extend what was seen; `replace`: whatever was
        seen). The gate's alone to call, once it judged them. Never fails: a memory that cannot be
        written is only a defence lost."""
        path = self.file(record.header.game)
        if path is None or self.folder is None:
            return
        now = record.digests
        seen = self.digests(record.header.game)
        # An earlier release's memory of short lines that the file matches whole is written again, full.
        upgrade = len(seen) == len(now) and any(len(d) != FULL for d in seen) and all(map(_same, seen, now))
        parting = _parting(seen, now)
        gave_way = parting is not None and bool(self._gives_way(record, seen, parting))
        if not replace and len(seen) >= len(now) and not upgrade and not gave_way:
            return  # nothing new
        if not replace and parting is not None and not gave_way:
            return  # a copy that contradicts what was seen is never remembered over it (its next read is refused)
        write_private(self.folder, path, "\n".join(now) + "\n")
        self._remember_relays(record, path)

    def _gives_way(self, record: Record, seen: Sequence[str], parting: int) -> str:
        """Why the events seen from `parting` on (0-based), relayed moves, give way to the copy's
        events there (`sharing.relays.gives_way`: the seat's own move, or the same move); ""
        when they do not."""
        from ..sharing.relays import gives_way

        path = self.file(record.header.game)
        if path is None:
            return ""
        marks = _read_marks(read_private(path + RELAYS, MAX_BYTES))
        left = [marks.get(digest) for digest in seen[parting:]]
        return gives_way(left, record.events[parting:])

    def _remember_relays(self, record: Record, path: str) -> None:
        """Keep the `Mark` of each relayed move of `record` (`play --for`), by its digest: what a
        later copy's check needs to let it give way (`_gives_way`)."""
        if not any(getattr(event, "by", "") for event in record.events):
            forget_private(path + RELAYS)
            return
        from ..sharing.relays import mark

        lines = []
        for event, digest in zip(record.events, record.digests, strict=True):
            found = mark(event) if getattr(event, "by", "") else None
            if found is not None:
                lines.append(f"{digest} {found.key} {found.seat.encode().hex()} {found.by.encode().hex()}")
        assert self.folder is not None
        write_private(self.folder, path + RELAYS, "\n".join(lines) + "\n")

    def forget(self, game: str) -> None:
        """Forget what was seen of game `game` (the gate's alone to call)."""
        path = self.file(game)
        forget_private(path)
        forget_private(None if path is None else path + RELAYS)
