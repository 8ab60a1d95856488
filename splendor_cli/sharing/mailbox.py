"""Reading mail folders: a Maildir (`new/` and `cur/`) or an mbox file, as raw messages.

No parsing here: each message is handed over as its bytes, with a label that names it in
messages (`cur/1700000000.M1P2.host:2,S`, `mbox message 3`), for `mail.find_blocks` and
`mail.find_game_files` to read. Everything is bounded: the size of a message, of an mbox file,
and the number of messages (the newest are kept). Every file is read through `store.read_bytes`
(a regular file only: a FIFO or a device is never opened for reading).

A Maildir's entries that are symbolic links (a message, or `new/` and `cur/` themselves) are
never followed: a mail folder is written by a delivery agent, and a link in it is no mail of
this user's. Names starting with a dot are skipped, as the Maildir convention says; `tmp/` is
never read (deliveries under way).
"""

from __future__ import annotations

import os
import re
import stat

import attrs

from ..errors import GameFileError, UsageError, safe

MAX_MESSAGE = 32 << 20
"""The largest message read (32 MiB, as a game file): a larger one is skipped with a note."""
MAX_MBOX = 256 << 20
"""The largest mbox file read (256 MiB)."""
MAX_MESSAGES = 10_000
"""The most messages read from one folder: the newest."""


@attrs.frozen(kw_only=True)
class RawMessage:
    """One message as delivered: its bytes and what names it in messages."""

    label: str
    data: bytes


@attrs.frozen(kw_only=True)
class Folder:
    """The messages of a mail folder, oldest first, and a note for each entry left out."""

    messages: tuple[RawMessage, ...]
    notes: tuple[str, ...]


def read_maildir(path: str, *, most: int = MAX_MESSAGES, limit: int = MAX_MESSAGE) -> Folder:
    """The messages of the Maildir at `path` (`new/` and `cur/`), in order of delivery.

    Raises:
        UsageError: `path` is not a Maildir (no `new/` nor `cur/` folder in it).
    """
    from .. import store

    entries: list[tuple[tuple[int, str], str, str]] = []
    notes: list[str] = []
    folders = 0
    for sub in ("new", "cur"):
        folder = os.path.join(path, sub)
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise UsageError(f"{safe(folder)}: cannot read: {exc.strerror}") from None
        if stat.S_ISLNK(info.st_mode):
            notes.append(f"{safe(sub)}/: a symbolic link, not followed")
            continue
        if not stat.S_ISDIR(info.st_mode):
            continue
        folders += 1
        try:
            with os.scandir(folder) as listing:
                found = list(listing)
        except OSError as exc:
            raise UsageError(f"{safe(folder)}: cannot read: {exc.strerror}") from None
        for item in found:
            if item.name.startswith("."):
                continue
            label = f"{sub}/{item.name}"
            if item.is_symlink():
                notes.append(f"{safe(label)}: a symbolic link, not followed")
                continue
            if not item.is_file(follow_symlinks=False):
                continue
            entries.append((_delivered(item.name), label, item.path))
    if not folders:
        raise UsageError(f"{safe(path)}: not a Maildir (it has no new/ or cur/ folder)")
    entries.sort()
    if len(entries) > most:
        notes.append(f"{len(entries) - most} older messages not read (at most {most} are)")
        entries = entries[-most:]
    messages: list[RawMessage] = []
    for _, label, full in entries:
        try:
            before = os.lstat(full)
            if stat.S_ISLNK(before.st_mode):
                raise _Skip("a symbolic link, not followed")
            if before.st_size > limit:
                raise _Skip(f"{before.st_size} bytes, more than the {limit} read")
            data = store.read_bytes(full, limit)
            after = os.lstat(full)  # the entry read is the one looked at: no link swapped in meanwhile
            if stat.S_ISLNK(after.st_mode) or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
                raise _Skip("changed while it was read, not read")
        except _Skip as skip:
            notes.append(f"{safe(label)}: {skip}")
            continue
        except FileNotFoundError:
            continue  # moved from new/ to cur/ by a mail reader meanwhile: it is read under its other name, or later
        except (OSError, GameFileError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc).rpartition(": ")[2]
            notes.append(f"{safe(label)}: not read ({reason})")
            continue
        messages.append(RawMessage(label=label, data=data))
    return Folder(messages=tuple(messages), notes=tuple(notes))


class _Skip(Exception):
    """An entry of a Maildir that is not read, and why."""


_DELIVERED = re.compile(r"(\d{1,12})\.")


def _delivered(name: str) -> tuple[int, str]:
    """The order of a Maildir entry: its delivery time (a name begins with it), then its name."""
    found = _DELIVERED.match(name)
    return (int(found.group(1)) if found else 0, name)


def read_mbox(
    path: str, *, most: int = MAX_MESSAGES, limit: int = MAX_MBOX, message_limit: int = MAX_MESSAGE
) -> Folder:
    """The messages of the mbox file at `path`, in the order of the file.

    Messages begin at a line `From ...` (the file's first line, or one after a newline, as the
    standard library's `mailbox.mbox` reads them); the `From ` line is dropped, and the `>From`
    quoting of mboxrd is undone.

    Raises:
        UsageError: the file is missing, not a regular file, or larger than `limit`.
    """
    from .. import store

    try:
        data = store.read_bytes(path, limit)
    except FileNotFoundError:
        raise UsageError(f"{safe(path)}: no such mbox file") from None
    except OSError as exc:
        raise UsageError(f"{safe(path)}: cannot read: {exc.strerror}") from None
    except GameFileError as exc:
        raise UsageError(f"{safe(path)}: {str(exc).rpartition(': ')[2]} (an mbox file)") from None
    return split_mbox(data, most=most, limit=message_limit)


_FROM_LINE = re.compile(rb"(?m)^From ")
_QUOTED_FROM = re.compile(rb"(?m)^>(>*From )")


def split_mbox(data: bytes, *, most: int = MAX_MESSAGES, limit: int = MAX_MESSAGE) -> Folder:
    """The messages of an mbox file's bytes (see `read_mbox`)."""
    starts = [m.start() for m in _FROM_LINE.finditer(data)]
    if data and not data.startswith(b"From "):
        starts.insert(0, 0)  # not an mbox file after all: read it whole as one message
    notes: list[str] = []
    if len(starts) > most:
        notes.append(f"{len(starts) - most} older messages not read (at most {most} are)")
    first = max(len(starts) - most, 0)
    messages: list[RawMessage] = []
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(data)]), start=1):
        if number <= first:
            continue
        label = f"mbox message {number}"
        if end - start > limit:
            notes.append(f"{label}: {end - start} bytes, more than the {limit} read")
            continue
        chunk = data[start:end]
        if chunk.startswith(b"From "):
            newline = chunk.find(b"\n")
            chunk = chunk[newline + 1 :] if newline >= 0 else b""
        messages.append(RawMessage(label=label, data=_QUOTED_FROM.sub(rb"\1", chunk)))
    return Folder(messages=tuple(messages), notes=tuple(notes))
