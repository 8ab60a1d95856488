"""The only module that opens game files: read, lock, create and append (it takes a path).

Writes are atomic (a temporary file beside the game, fsync, rename), so a crash leaves the old
file or the new one. Appending re-reads the file first and refuses (ConflictError) if it
changed since it was loaded, and re-parses the new text before it replaces the old.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import attrs

from .errors import ConflictError, ForkError, GameFileError, UsageError
from .events import Event
from .events.codec import Header, Record, format_event, format_header, seal
from .projection import Game
from .records import describe_fork, parse_text, replay_record, split_fork


@attrs.frozen
class Loaded:
    """A game file as read: its path and bytes, the parsed record and the folded game."""

    path: Path
    data: bytes
    record: Record
    game: Game


@contextlib.contextmanager
def writing(path: Path) -> Iterator[Loaded]:
    """Hold the game's write lock, and read it: for read-validate-append as one step.

    The lock is an advisory `flock` on a file in the temporary folder named after the game's
    real path (none is left beside the game, in the repository). A second writer does not wait:
    it gets ConflictError (exit 5) at once, since the move it was about to make was decided on
    a table that is about to change.
    """
    with locked(path):
        yield read(path)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the write lock of the game at `path` (see `writing`), or raise ConflictError."""
    import fcntl
    import hashlib
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"splendor-cli-locks-{os.getuid()}"  # one folder per user
    folder.mkdir(exist_ok=True)
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]
    with open(folder / f"{key}.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConflictError(f"{path}: another splendor is writing this game right now: try again") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def read(path: Path) -> Loaded:
    """Read, parse, check the chain and replay every event through the rules.

    Raises:
        GameFileError: the file is missing, unreadable, of a newer format, or breaks a rule.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such game file") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        record = parse_text(text)  # a forked file raises ForkError (a ConflictError, exit 5): let it through
        game = replay_record(record)
    except GameFileError as exc:
        raise GameFileError(f"{path}: {exc}") from None
    except ForkError as exc:
        try:
            fork = split_fork(data)
        except GameFileError as broken:
            raise GameFileError(f"{path}: {broken}") from None
        raise ForkError(f"{path}: {describe_fork(fork) if fork else exc}", seq=exc.seq) from None
    return Loaded(path=path, data=data, record=record, game=game)


def write_atomic(path: Path, data: bytes, *, exclusive: bool) -> None:
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
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


def create(path: Path, header: Header, started: Event) -> Loaded:
    """Write a new game file. Refuse to overwrite one (UsageError)."""
    if path.exists():
        raise UsageError(f"{path} exists already: choose another name, or remove it first")
    if path.suffix != ".toml":
        raise UsageError(f"{path}: a game file name ends in .toml")
    started = seal(Record(header=header, events=()), started)
    text = format_header(header) + format_event(started)
    replay_record(Record(header=header, events=(started,)))  # valid before anything is written
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_atomic(path, text.encode("utf-8"), exclusive=True)
    except FileExistsError:
        raise UsageError(f"{path} exists already: choose another name, or remove it first") from None
    return read(path)


def append(loaded: Loaded, *events: Event) -> Loaded:
    """Seal the events onto the game in order, check the result, and write it. Earlier bytes
    never change; nothing is written unless every event is legal.

    Raises:
        ConflictError: the file changed since `loaded` was read.
        CorruptLogError: an event cannot follow the ones before it (nothing written).
        GameFileError: the result would not read back as the same events (a bug; nothing written).
    """
    after = loaded
    for event in events:
        after = stage(after, event)
    reread = parse_text(after.data.decode("utf-8"))
    if reread.events != after.record.events:  # pragma: no cover - a codec bug
        raise GameFileError(f"{loaded.path}: the new events would not read back the same; nothing written")
    try:
        current = loaded.path.read_bytes()
    except OSError as exc:
        raise ConflictError(f"{loaded.path}: cannot re-read before writing: {exc.strerror}") from None
    if current != loaded.data:
        raise ConflictError(f"{loaded.path} changed while this move was being made: run the command again")
    write_atomic(loaded.path, after.data, exclusive=False)
    return Loaded(path=loaded.path, data=after.data, record=reread, game=after.game)


def stage(loaded: Loaded, event: Event) -> Loaded:
    """The game file as it would be with `event` sealed on and judged; nothing is written (see append)."""
    event = seal(loaded.record, event)
    game = loaded.game.apply(event, check=True)
    data = loaded.data if loaded.data.endswith(b"\n") else loaded.data + b"\n"
    record = Record(header=loaded.record.header, events=(*loaded.record.events, event))
    return Loaded(path=loaded.path, data=data + format_event(event).encode("utf-8"), record=record, game=game)
