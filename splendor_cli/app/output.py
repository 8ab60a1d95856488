"""What a command prints, and where: standard library only (the fast path imports it).

Every command writes its result through `out` (one text, one final line break) or, under
`--json`, `json_text` (ASCII JSON); a picture goes through `write_out` (standard output, a
file replaced whole, or a device or FIFO written through). `use_color`, `theme` and `width` say
how a board is drawn on this terminal.
"""

from __future__ import annotations

import os
import sys

from ..errors import UsageError

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any


def out(text: str) -> None:
    """Write `text` on standard output, with one line break at its end."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def json_text(value: Any) -> str:
    """`value` as one line of JSON, in ASCII: any other character from a file (a C1 control, a
    bidi override) is escaped."""
    import json

    return json.dumps(value, ensure_ascii=True) + "\n"


def use_color(color: str) -> bool:
    """Whether to colour the output for `--color WHEN` (auto: a terminal, and NO_COLOR unset).

    Raises:
        UsageError: WHEN is not auto, always or never.
    """
    if color not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {color!r}")
    if color != "auto":
        return color == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def theme() -> str:
    """The colours of the boards (`$SPLENDOR_THEME`): auto (the default: readable on a light and a
    dark background alike), light or dark.

    Raises:
        UsageError: $SPLENDOR_THEME is set to something else.
    """
    name = os.environ.get("SPLENDOR_THEME", "").strip().lower() or "auto"
    if name not in ("auto", "light", "dark"):
        from ..errors import excerpt

        raise UsageError(f"SPLENDOR_THEME takes auto, light or dark, not {excerpt(name)}")
    return name


def width() -> int:
    """The terminal's width ($COLUMNS first, as shutil.get_terminal_size, without importing it), at
    most 160: the widest layout of a board (long names, every reserved card on one line) needs
    about 125 columns, and a line of text is hard to follow wider than that."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return min(int(columns), 160)
    try:
        return min(os.get_terminal_size(sys.__stdout__.fileno()).columns, 160)  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 100


def write_out(output: str | None, text: str, *, private: bool = False) -> None:
    """`text` to standard output (no FILE, -, or /dev/stdout), else to FILE, only where the user
    meant (docs/security.md, "Against another local user").

    A regular file is replaced whole (through a temporary file beside it: a reader never sees half
    a picture), never through a symbolic link, and said on stderr. Anything else is written
    through, never replaced: a FIFO or a character device (/dev/null, a terminal) of the user's
    own (or the null device), opened without blocking (a FIFO nobody reads is refused at once,
    never waited on) and checked again once open; a socket, a block device, or a FIFO or device of
    another user is refused. `private` (a sealed seat's view): a new file is created 0600 (a file
    replaced gets 0600 too), and it never goes into a FIFO, through a link, or over another user's
    file. A refusal writes nothing (UsageError, exit 2).
    """
    if output is None or output in ("-", "/dev/stdout"):
        out(text)
        return
    import stat

    try:
        target = os.stat(output)  # through a link: what would be written
    except OSError:
        target = None
    if target is not None and stat.S_ISDIR(target.st_mode):
        raise UsageError(f"{output} is a folder: name a file")
    if target is not None and not stat.S_ISREG(target.st_mode):
        _write_through(output, text, target, private=private)
        return
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{output}: no such folder {folder!r}")
    if output.endswith(".toml"):
        raise UsageError(f"{output}: a picture is not written over a .toml file (a game?): name it .svg or .html")
    if os.path.islink(output):
        raise UsageError(f"{output} is a symbolic link: a picture replaces a file of its own, never a link's target")
    if private and target is not None and target.st_uid != os.geteuid():
        raise UsageError(f"{output} belongs to another user: a private view is written to a file of your own only")
    from .. import store

    store.write_atomic(
        output, text.encode("utf-8"), exclusive=not os.path.lexists(output), mode=0o600 if private else None
    )
    sys.stderr.write(f"splendor: wrote {output} ({len(text.encode('utf-8')):,} bytes)\n")


def _not_there(output: str, info: os.stat_result, private: bool) -> str | None:
    """Why `text` may not be written through `output`, which is `info` (not a regular file nor a
    folder); None when it may: a FIFO or a character device of the user's own, or the null device;
    never a FIFO for a private view."""
    import stat

    mode = info.st_mode
    if stat.S_ISFIFO(mode):
        if private:
            return f"{output} is a FIFO: a private view is never written into one (write it to a file, or -)"
        kind = "FIFO"
    elif stat.S_ISCHR(mode):
        try:
            null = os.stat(os.devnull)
        except OSError:  # pragma: no cover - every system has one
            null = None
        if null is not None and os.path.samestat(info, null):
            return None
        kind = "device"
    elif stat.S_ISSOCK(mode):
        return f"{output} is a socket: name a file"
    else:
        return f"{output} is a block device: name a file"
    if info.st_uid != os.geteuid():
        return f"{output} is a {kind} of another user: nothing written there (name a file of your own)"
    return None


def _write_through(output: str, text: str, seen: os.stat_result, *, private: bool) -> None:
    """Write `text` into `output`, a FIFO or a character device that `_not_there` allows (`seen`,
    as stat saw it): opened as it is (never created, truncated nor replaced), without blocking
    (a FIFO with no reader is refused, never waited on) and, for a private view, without following
    a link; checked again once open (the same file, still allowed)."""
    problem = _not_there(output, seen, private)
    if problem:
        raise UsageError(problem)
    data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    flags = os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | os.O_CLOEXEC | os.O_NONBLOCK
    try:
        fd = os.open(output, flags | (os.O_NOFOLLOW if private else 0))
    except OSError as error:
        import errno

        if error.errno == errno.ENXIO:
            raise UsageError(f"{output}: nobody reads this FIFO: nothing written (start its reader first)") from None
        if error.errno == errno.ELOOP:
            raise UsageError(f"{output} is a symbolic link: a private view is never written through one") from None
        raise UsageError(f"{output}: cannot write there ({error.strerror})") from None
    try:
        now = os.fstat(fd)
        if not os.path.samestat(now, seen) or _not_there(output, now, private):  # swapped since
            raise UsageError(f"{output} changed while it was opened: nothing written")
        os.set_blocking(fd, True)  # a reader of the user's own: written as a pipe is, at its pace
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as error:
        raise UsageError(f"{output}: cannot write there ({error.strerror})") from None
    finally:
        os.close(fd)
