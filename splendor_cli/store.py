"""The only module that opens game files: read, lock, create and append (it takes a path, as a
string or any `os.PathLike`; `pathlib` is not loaded for it).

Writes are atomic (a temporary file beside the game, fsync, rename), so a crash leaves the old
file or the new one. A move is judged once, as it is staged (`stage`: the rules judge the event
on the game as read, and give the next state and the next file's bytes); writing it (`write`)
only checks, under the game's write lock, that the file still holds the bytes it was read with
(else ConflictError), and writes the staged bytes.

Importing it is light (the standard library): the fast path reads a file's bytes through it
for the cache; the codec and the rules load when a game is read.
"""

from __future__ import annotations

import contextlib
import os

from .errors import ConflictError, ForkError, GameFileError, UsageError

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from .crypto.keys import SecretKey
    from .events import Event
    from .events.codec import Header, Record
    from .projection import Game

    Trusted = Callable[[Record], int]
    """How many of a record's first events this reader verified before (`from_bytes`)."""

StrPath = str | os.PathLike[str]
"""A path, as a string or any path object."""


class Loaded:
    """A game file as read: its path and bytes, the parsed record and the folded game; or as it
    would be with events staged on it (`stage`), `read` keeping the bytes the file held when it
    was read (by default `data`: nothing staged)."""

    __slots__ = ("data", "game", "path", "read", "record")

    def __init__(self, *, path: str, data: bytes, record: Record, game: Game, read: bytes | None = None) -> None:
        self.path, self.data, self.record, self.game = path, data, record, game
        self.read = data if read is None else read

    def __repr__(self) -> str:
        return f"Loaded(path={self.path!r}, {len(self.data)} bytes, {self.game.seq} events)"


@contextlib.contextmanager
def writing(path: StrPath, locks: StrPath, trusted: Trusted | None = None) -> Iterator[Loaded]:
    """Hold the game's write lock, and read it: for read-validate-append as one step.

    The lock is an advisory `flock` on a file in the folder `locks` (the caller's: private to
    the user), named after the game's real path; none is left beside the game, in the
    repository. A second writer does not wait: it gets ConflictError (exit 5) at once, since
    the move it was about to make was decided on a table that is about to change.
    """
    with locked(path, locks):
        yield read(path, trusted)


@contextlib.contextmanager
def locked(path: StrPath, locks: StrPath) -> Iterator[None]:
    """Hold the write lock of the game at `path` (see `writing`), or raise ConflictError.

    `locks` is made if missing (mode 0700) and must be a folder of this user's that nobody
    else may write: another local user could otherwise plant a link where a lock file goes.
    The lock file is opened without following a link, never truncated, and removed as the lock
    is let go (a writer that locked the removed file sees it and stops).
    """
    import fcntl
    import stat
    from hashlib import sha256

    try:
        os.makedirs(locks, mode=0o700, exist_ok=True)
        info = os.lstat(locks)
    except OSError as exc:
        raise ConflictError(f"{locks}: cannot make the folder of write locks: {exc.strerror}") from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        raise ConflictError(
            f"{locks}: the folder of write locks is not a folder of yours that only you can write: refusing to lock"
        )
    key = sha256(os.path.realpath(path).encode()).hexdigest()[:24]
    lock = os.path.join(locks, f"{key}.lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise ConflictError(f"{path}: cannot open its write lock in {locks}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConflictError(f"{path}: another splendor is writing this game right now: try again") from None
        # The holder before us removes the lock file as it lets go: a lock taken on a file no
        # longer at that name locks nothing.
        held, named = os.fstat(fd), _stat_or_none(lock)
        if named is None or (named.st_dev, named.st_ino) != (held.st_dev, held.st_ino):
            raise ConflictError(f"{path}: another splendor was writing this game just now: try again")
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                os.unlink(lock)  # no lock file is left behind
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _stat_or_none(path: str) -> os.stat_result | None:
    try:
        return os.stat(path, follow_symlinks=False)
    except OSError:
        return None


MAX_BYTES = 32 << 20
"""The largest game file read (32 MiB): a game of 20,000 events is about 3 MiB."""


def read_bytes(path: StrPath, limit: int = MAX_BYTES, *, head: bool = False) -> bytes:
    """The bytes of a regular file (a game file, a mail, a version handed over by git), at most
    `limit` of them (`head`: its first `limit` bytes, however long it is); never blocks on a
    FIFO nor reads a device.

    Raises:
        GameFileError: not a regular file, or larger than `limit`.
        OSError: it cannot be opened or read.
    """
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GameFileError(f"{os.fspath(path)}: not a regular file")
        if head:
            return os.read(fd, limit)
        if info.st_size > limit:
            raise GameFileError(f"{os.fspath(path)}: {info.st_size} bytes, more than the {limit} read")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise GameFileError(f"{os.fspath(path)}: more than the {limit} bytes read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read(path: StrPath, trusted: Trusted | None = None) -> Loaded:
    """Read, parse, check the chain and replay every event through the rules (`trusted`: see
    `from_bytes`).

    Raises:
        GameFileError: the file is missing, unreadable, of a newer format, or breaks a rule.
    """
    path = os.fspath(path)
    try:
        data = read_bytes(path)
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such game file") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read: {exc.strerror}") from None
    return from_bytes(path, data, trusted)


def from_bytes(path: StrPath, data: bytes, trusted: Trusted | None = None) -> Loaded:
    """The game whose file at `path` holds `data`, read as `read` reads it (nothing is opened).
    `trusted(record)` says how many of its first events the reader verified before (a sealed
    game's signatures and proofs: not checked again; see `projection.game.replay`).

    Raises:
        GameFileError: the bytes are not UTF-8, of a newer format, or break a rule.
        ForkError: the file forked (two events with one parent).
    """
    from .records import parse_text, replay_record

    path = os.fspath(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        record = parse_text(text)  # a forked file raises ForkError (a ConflictError, exit 5): let it through
        game = replay_record(record, trusted(record) if trusted is not None else 0)
    except GameFileError as exc:
        raise GameFileError(f"{path}: {exc}") from None
    except ForkError as exc:
        from .forks import describe_fork, split_fork

        try:
            fork = split_fork(data)
        except GameFileError as broken:
            raise GameFileError(f"{path}: {broken}") from None
        raise ForkError(f"{path}: {describe_fork(fork) if fork else exc}", seq=exc.seq) from None
    except ConflictError as exc:  # git's conflict markers
        raise ConflictError(f"{path}: {exc}") from None
    return Loaded(path=path, data=data, record=record, game=game)


def write_atomic(path: StrPath, data: bytes, *, exclusive: bool, mode: int | None = None) -> None:
    """Write `data` to `path` through a temporary file beside it, fsync, rename (`exclusive`:
    never over an existing file), so that a crash leaves the old file or the new one.

    A symbolic link is followed: its target is written, the link stays. The file keeps its mode
    (a new one gets the usual mode, 0666 less the umask), unless `mode` says another (0600: a
    private view, app/output.py). A file that is read-only, or has other hard links (which a
    rename would silently cut off), is refused: nothing is written. The temporary file is removed
    on any exit, an interrupt included.

    Raises:
        UsageError: the file is read-only, or hard-linked elsewhere.
        OSError: the folder cannot be written (no permission, a full disk).
    """
    import stat

    path = os.path.realpath(path) if not exclusive else os.fspath(path)
    if exclusive:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask if mode is None else mode
    else:
        info = os.stat(path)
        if not os.access(path, os.W_OK):
            raise UsageError(f"{path}: the file is read-only: nothing written (make it writable to play)")
        if info.st_nlink > 1:
            raise UsageError(
                f"{path}: the file has {info.st_nlink} hard links, which an atomic write would cut off:"
                " nothing written (copy it to a file of its own)"
            )
        mode = stat.S_IMODE(info.st_mode) if mode is None else mode
    folder = os.path.dirname(path) or "."
    if not exclusive:
        _remove_stale(folder, os.path.basename(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:  # a folder that cannot be written (read-only, full)
        raise GameFileError(f"{path}: cannot write beside it: {exc.strerror}; nothing written") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if exclusive:
            os.link(tmp, path)  # fails if the file exists: never overwrite a game
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - some filesystems cannot open a folder
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _remove_stale(folder: str, name: str) -> None:
    """Remove the temporary files of earlier writes of `name` that a kill -9 left behind. The
    caller holds the game's write lock, so no other write of it is under way."""
    import re

    stale = re.compile(rf"\.{re.escape(name)}\.[0-9a-f]{{12}}\.tmp")
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for other in names:
        if stale.fullmatch(other):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, other))


BOT_SEATS_FORMAT = 3
"""The format of a game with bot seats, and the first whose bot seats' moves every reader computes
again (the gate: `gate.judge_events`, bots/check.py)."""


def writing_format(header: Header, started: Event) -> int:
    """The format a new game is written in: 4 for a game whose header declares a table protocol
    other than open (`codec.TABLE_FORMAT`); 3 for a game with bot seats (whose moves every reader
    computes again); 2 when it matters (a game that draws during play, whose draws format 2 fixes
    by the setup and their number); else 1, which the releases before format 2 read too."""
    from .events.codec import TABLE_FORMAT
    from .variants import find_variant

    if header.table != "open":
        return TABLE_FORMAT
    players = getattr(started, "players", ())
    if any(isinstance(p, str) and p.startswith("bot:") for p in players):
        return BOT_SEATS_FORMAT
    return 2 if find_variant(header.variant).drawing_types else 1


def create(path: StrPath, header: Header, started: Event) -> Loaded:
    """Write a new game file, in the oldest format that reads it the same (`writing_format`).
    Refuse to overwrite one (UsageError)."""
    import attrs

    from .events.codec import Record, chained, format_event, format_header
    from .records import bind_header, replay_record

    header = attrs.evolve(header, format=writing_format(header, started))
    started = bind_header(header, started)
    path = os.fspath(path)
    if os.path.lexists(path):
        raise UsageError(f"{path} exists already: choose another name, or remove it first")
    if not path.endswith(".toml"):
        raise UsageError(f"{path}: a game file name ends in .toml")
    started = chained(Record(header=header, events=()), started)
    text = format_header(header) + format_event(started)
    replay_record(Record(header=header, events=(started,)))  # valid before anything is written
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    try:
        write_atomic(path, text.encode("utf-8"), exclusive=True)
    except FileExistsError:
        raise UsageError(f"{path} exists already: choose another name, or remove it first") from None
    return read(path)


def append(loaded: Loaded, *events: Event, secret: SecretKey | None = None) -> Loaded:
    """Stage the events onto the game in order (`stage`), and write the result (`write`). Earlier
    bytes never change; nothing is written unless every event is legal.

    Raises:
        ConflictError: the file changed since `loaded` was read.
        CorruptLogError: an event cannot follow the ones before it (nothing written).
    """
    after = loaded
    for event in events:
        after = stage(after, event, secret=secret)
    return write(after)


def write(staged: Loaded) -> Loaded:
    """Write the file that `staged` holds (events staged on a file as read: `stage`), if the file
    still holds the bytes it was read with; the game as written. Nothing is judged again: `stage`
    judged each event. Called under the game's write lock (`writing`).

    Raises:
        ConflictError: the file changed since it was read (nothing written).
    """
    write_over(staged.path, staged.data, read=staged.read, doing="this move was being made")
    return Loaded(path=staged.path, data=staged.data, record=staged.record, game=staged.game)


def write_over(path: str, data: bytes, *, read: bytes, doing: str) -> None:
    """Write `data` over the file at `path` (atomically: `write_atomic`) if it still holds the
    bytes `read` it was read with; nothing when it holds `data` already. `doing` says, in the
    error, what the file changed during. The caller holds the game's write lock (or git does).

    Raises:
        ConflictError: the file changed since it was read (nothing written).
    """
    try:
        current = read_bytes(path)
    except OSError as exc:
        raise ConflictError(f"{path}: cannot re-read before writing: {exc.strerror}") from None
    if current != read:
        raise ConflictError(f"{path} changed while {doing}: run the command again")
    if current != data:
        write_atomic(path, data, exclusive=False)


def stage(loaded: Loaded, event: Event, *, secret: SecretKey | None = None, decided: bool = False) -> Loaded:
    """The game file as it would be with `event` appended: the event given its envelope
    (`chained`), judged by the rules on the game as it is (`decided`: the event is what
    `loaded.game.decide` made, judged there: not judged twice), and written after the bytes
    before it; nothing is written (`write` does). In a sealed game, an event that `secret` may
    sign (its author's, unsigned) is signed by it.

    Raises:
        CorruptLogError: the event cannot follow the ones before it.
    """
    from .events import signature
    from .events.codec import chained, format_event

    event = chained(loaded.record, event)
    if secret is not None and not signature(event) and loaded.record.events:
        event = loaded.game.protocol.sign(event, loaded.record.events[-1], secret)
    game = loaded.game.apply(event, check=not decided)
    data = loaded.data if loaded.data.endswith(b"\n") else loaded.data + b"\n"
    record = loaded.record.then(event)
    return Loaded(
        path=loaded.path, data=data + format_event(event).encode("utf-8"), record=record, game=game, read=loaded.read
    )
