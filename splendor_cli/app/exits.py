"""A command body run, its failure turned into the exit code of the contract (docs/contract.md).

Standard library only: the fast path (entry.py) and the typer app (cli.py) both run a body
through `run`.
"""

from __future__ import annotations

import os
import sys

from ..errors import IllegalMoveError, SplendorError, safe
from .output import json_text

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def run(body: Callable[..., None], kwargs: dict[str, Any]) -> int:
    """Call a command body; return its exit code, an error reported on stderr as one line (or,
    when the command was asked for `--json`, as one JSON object with the exit code and a stable
    error code)."""
    code, name, message, extra = 0, "", "", {}
    try:
        body(**kwargs)
    except SplendorError as exc:
        code, name, message = exc.exit_code, exc.code, " ".join(str(exc).split())
        if isinstance(exc, IllegalMoveError) and exc.rule:
            extra = {"rule": exc.rule}
    except KeyboardInterrupt:
        code, name, message = 130, "interrupted", "interrupted"
    except BrokenPipeError:  # `splendor moves | head`: the reader left; say nothing more
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - no flush error at exit
        return 141
    except OSError as exc:  # e.g. no permission to write beside the game file
        where = f"{exc.filename}: " if exc.filename else ""
        code, name, message = 1, "os-error", f"{where}{exc.strerror or exc}"
    except Exception as exc:  # a bug: one line, exit 1 (SPLENDOR_DEBUG=1 shows the traceback)
        if os.environ.get("SPLENDOR_DEBUG"):
            raise
        message = f"internal error: {type(exc).__name__}: {exc} (SPLENDOR_DEBUG=1 for details)"
        code, name = 1, "internal"
    if not code:
        return 0
    if not message.isprintable():  # it quotes a file (or git) that holds a control character
        message = safe(message)  # no terminal escape, line break or bidi override gets through
    if kwargs.get("json"):
        error = {"code": name, "exit": code, "message": message, **extra}
        sys.stderr.write(json_text({"error": error}))
    else:
        rule = f" (rule: {extra['rule']})" if extra else ""
        sys.stderr.write(f"splendor: {message}{rule}\n")
    return code
