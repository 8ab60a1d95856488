"""The `splendor` console entry point, with two shortcuts for the commands scripts call most.

Bots call `state --json` and `moves --json` between turns and `play` for each turn, and people
call `show` and `log` all the time. Typer's start-up (its pydantic-based parameter handling)
costs more than the work of these commands, so when their arguments are plain (known options
only, no --help), this module reads them itself:

1. `state --json` / `moves --json` are answered from the cache (cache.py) when the exact bytes
   of the game file were seen before, with nothing but the standard library loaded;
2. otherwise `state`, `show`, `log`, `moves`, `play` and `undo` call their command functions
   in commands.py directly, without importing typer.

Anything else goes to the full typer app, which gives the same results (a test checks it).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than this whole path
if TYPE_CHECKING:
    from typing import Any

# option -> (parameter name, takes a value); per command
_OPTIONS: dict[str, dict[str, tuple[str, bool]]] = {
    "state": {"--json": ("json", False), "--at": ("at", True), "--color": ("color", True)},
    "show": {"--json": ("json", False), "--at": ("at", True), "--color": ("color", True)},
    "log": {"--json": ("json", False), "--color": ("color", True)},
    "moves": {"--json": ("json", False)},
    "play": {"--json": ("json", False), "--as": ("as_", True)},
    "undo": {
        "--json": ("json", False),
        "--as": ("as_", True),
        "--to": ("to", True),
        "--turn": ("turn", False),
        "--force": ("force", False),
    },
}
_GAME = {"-g": ("game", True), "--game": ("game", True)}
_INTS = {"at", "to"}


def parse(argv: list[str]) -> tuple[str, dict[str, Any]] | None:
    """The command and its arguments, when `argv` is plain enough to skip typer; else None."""
    if not argv or argv[0] not in _OPTIONS:
        return None
    command, options = argv[0], {**_OPTIONS[argv[0]], **_GAME}
    kwargs: dict[str, Any] = {}
    words: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        if arg == "--":
            words.extend(args)
            break
        if arg.startswith("-"):
            name, _, value = arg.partition("=")
            if name not in options:
                return None
            key, takes_value = options[name]
            if not takes_value:
                if value:
                    return None
                kwargs[key] = True
                continue
            if not value:
                value = next(args, "")
            if not value or key in kwargs:
                return None
            if key in _INTS:
                if not value.isdigit() or int(value) < 1:
                    return None
                kwargs[key] = int(value)
            else:
                kwargs[key] = value
        else:
            words.append(arg)
    if command == "play":
        if not words:
            return None
        kwargs["move"] = words
    elif words:
        return None
    if command in ("play", "undo") and "as_" not in kwargs and os.environ.get("SPLENDOR_PLAYER"):
        kwargs["as_"] = os.environ["SPLENDOR_PLAYER"]
    return command, kwargs


def _cached(command: str, kwargs: dict[str, Any]) -> str | None:
    if command not in ("state", "show", "moves") or not kwargs.get("json"):
        return None
    from . import cache
    from .locate import find_game

    try:
        with open(find_game(kwargs.get("game")), "rb") as fh:
            data = fh.read()
    except Exception:  # the command itself reports it properly
        return None
    return cache.get(data, cache.view_name("moves" if command == "moves" else "state", kwargs.get("at")))


def main() -> None:
    parsed = parse(sys.argv[1:])
    if parsed is not None:
        command, kwargs = parsed
        text = _cached(command, kwargs)
        if text is not None:
            sys.stdout.write(text)
            return
        from pathlib import Path

        from . import commands

        if "game" in kwargs:
            kwargs["game"] = Path(kwargs["game"])
        sys.exit(commands.run(getattr(commands, command), kwargs))
    from .cli import main as full

    full()
