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


def write_out(output: str | None, text: str) -> None:
    """`text` to standard output (no FILE, -, or /dev/stdout), else to FILE. A FILE that is
    something else than a regular file (a device such as /dev/null, a FIFO, a terminal; or a
    symbolic link to one) is opened and written through, never replaced; a regular file is
    replaced whole (through a temporary file beside it: a reader never sees half a picture), and
    said on stderr."""
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
        _write_through(output, text)
        return
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{output}: no such folder {folder!r}")
    if output.endswith(".toml"):
        raise UsageError(f"{output}: a picture is not written over a .toml file (a game?): name it .svg or .html")
    if os.path.islink(output):
        raise UsageError(f"{output} is a symbolic link: a picture replaces a file of its own, never a link's target")
    from .. import store

    store.write_atomic(output, text.encode("utf-8"), exclusive=not os.path.lexists(output))
    sys.stderr.write(f"splendor: wrote {output} ({len(text.encode('utf-8')):,} bytes)\n")


def _write_through(output: str, text: str) -> None:
    """Write `text` into `output`, a device, a FIFO or a terminal: opened for writing as it is
    (never created, truncated nor replaced), checked again once open (no regular file, no folder)."""
    import stat

    data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    try:
        fd = os.open(output, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise UsageError(f"{output}: cannot write there ({error.strerror})") from None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a regular file since: never written in place
            raise UsageError(f"{output} changed while it was opened: try again")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as error:
        raise UsageError(f"{output}: cannot write there ({error.strerror})") from None
    finally:
        os.close(fd)
