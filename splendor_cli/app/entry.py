"""The `splendor` console entry point: a plain command line is run without building typer.

Typer's start-up (its click and parameter machinery) costs more than the work of most commands,
so when a command line is plain (its command and options are all declared in params.py, with
values of the declared kinds, and no --help), this module parses it by those declarations and
calls the command body directly. `state --json` and `moves --json` are first looked up in the
cache (cache.py) with nothing but the standard library loaded.

Anything else (`--help`, a usage error, an option typer alone knows) goes to the full typer app
(cli.py), built from the same declarations, which gives the same results (a test checks it).
Only the module of the command's body is imported (routes.py names it), not every command's.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than this whole path
if TYPE_CHECKING:
    from typing import Any

    from .params import Command


def parse(argv: list[str]) -> tuple[Command, dict[str, Any]] | None:
    """The command and its keyword arguments, when `argv` is plain enough to skip typer; else None."""
    from .routes import ROUTES

    if not argv:
        return None
    name = argv[0]
    if name not in ROUTES and len(argv) > 1 and f"{name} {argv[1]}" in ROUTES:
        name, argv = f"{name} {argv[1]}", argv[1:]
    if name not in ROUTES:
        return None
    __import__(f"{__package__}.{ROUTES[name]}")  # the one module of bodies this command needs, registered
    from .params import COMMANDS

    spec = COMMANDS.get(name)
    if spec is None:  # pragma: no cover - a test checks that routes.py names each command's module
        return None
    flags = {flag: param for param in spec.params for flag in param.flags}
    positional = [param for param in spec.params if param.positional]
    kwargs: dict[str, Any] = {}
    words: list[str] = []
    args = iter(argv[1:])
    try:
        for arg in args:
            if arg == "--":
                words.extend(args)
                break
            if arg.startswith("-") and arg != "-":
                flag, equals, value = arg.partition("=")
                param = flags.get(flag)
                if param is None or param.name in kwargs:
                    return None
                if param.kind == "flag":
                    if equals:
                        return None
                    kwargs[param.name] = True
                    continue
                if not equals:
                    value = next(args, "")
                if not value or (value.startswith("-") and param.kind != "int"):
                    return None
                kwargs[param.name] = param.convert(value)
            else:
                words.append(arg)
    except ValueError:
        return None
    if positional and positional[0].kind == "words":
        if not words:
            return None
        kwargs[positional[0].name] = words
    else:
        if len(words) > len(positional):
            return None
        try:
            kwargs.update({param.name: param.convert(word) for param, word in zip(positional, words)})
        except ValueError:
            return None
    defaults = spec.body.__kwdefaults__ or {}
    for param in spec.params:
        if param.name not in kwargs:
            if param.envvar and os.environ.get(param.envvar):
                kwargs[param.name] = os.environ[param.envvar]
            elif param.name not in defaults:
                return None  # a required parameter is missing: typer says so
    return spec, kwargs


def _cached(name: str, kwargs: dict[str, Any]) -> str | None:
    """The cached output of `state --json` or `moves --json` for the game file's exact bytes."""
    if name not in ("state", "show", "moves") or not kwargs.get("json") or kwargs.get("as_") or kwargs.get("side"):
        return None  # `moves --as` checks whose turn it is; `show --side` reads a fork
    if kwargs.get("seat") or kwargs.get("every"):
        return None  # `state --as`, `--all`: one viewer's table is never cached
    if kwargs.get("color", "auto") not in ("auto", "always", "never"):
        return None  # the command refuses it
    from .. import store
    from .services import cache
    from .services.locate import find_game

    try:
        data = store.read_bytes(find_game(kwargs.get("game")))
    except Exception:  # the command itself reports it properly
        return None
    if name == "moves" and b"\nemails = " in data[:4096]:
        return None  # players with e-mails: `moves` asks git whose turn it is at this keyboard
    if name != "moves" and b'"sealed_asked"' in data:
        return None  # a sealed game's table is shown as the local key's seat sees it: never cached
    text = cache.get(data, cache.view_name("moves" if name == "moves" else "state", kwargs.get("at")))
    if name == "moves" and text == "[]\n":
        return None  # a finished game: the command says so on stderr too
    if text is not None and not cache.still_seen(data):
        return None  # behind what this user saw, or contradicting it: the command refuses it
    return text


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM or SIGHUP: stop as Ctrl-C does (exit 130), so that a write under way removes its
    temporary file and leaves the game file as it was."""
    raise KeyboardInterrupt


class _Terminating:
    """While the command runs, SIGTERM and SIGHUP stop it as Ctrl-C does (`_terminated`); on the
    way out, whatever handlers were there before are put back, so that a run in process (a test,
    a script calling `main`) leaves the process's signal handling as it found it."""

    def __enter__(self) -> None:
        import signal

        self.previous = {sig: signal.signal(sig, _terminated) for sig in (signal.SIGTERM, signal.SIGHUP)}

    def __exit__(self, *exc: object) -> None:
        import signal

        for sig, handler in self.previous.items():
            signal.signal(sig, handler)


def main() -> None:
    with _Terminating():
        _main()


def _main() -> None:
    completing = "_SPLENDOR_COMPLETE" in os.environ  # the shell asks for completions: typer answers (shell.py)
    parsed = None if completing else parse(sys.argv[1:])
    if parsed is not None:
        spec, kwargs = parsed
        text = _cached(spec.name, kwargs)
        if text is not None:
            sys.stdout.write(text)
            return
        from .exits import run

        sys.exit(run(spec.body, kwargs))
    from .cli import main as full

    full()
