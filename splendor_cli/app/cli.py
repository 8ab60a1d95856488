"""The full `splendor` command line (typer), built from the declarations of params.py.

entry.py runs a plain command line itself; everything else comes here: `--help`, usage errors,
and anything the fast path does not take. Each typer command is made from a registered body
(registry.py): its parameters and their help come from the same `Param` declarations the fast
path reads, its defaults from the body's own, and it calls the body directly.
"""

from __future__ import annotations

import inspect
import os
import sys
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperCommand

from .params import Command, Param
from .registry import COMMANDS, run
from .services import shell

app = typer.Typer(
    name="splendor",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,  # plain help: rich costs more to load than the help takes to print
    context_settings={"help_option_names": ["-h", "--help"]},
)
git_app = typer.Typer(
    help="Git integration: a merge driver that understands game files.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(git_app, name="git")
key_app = typer.Typer(
    help="Your keys: to sign your moves and open sealed cards (made once, kept private).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(key_app, name="key")
_GROUPS = {"git": git_app, "key": key_app}
"""The groups of two-word commands (`git install`, `key new`), by their first word."""


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"splendor-cli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Play Splendor asynchronously: one game is one TOML event log, shared over git or e-mail.

    Start: splendor new --players ann,bob

    Look: splendor show

    Play: splendor take white blue green (every legal turn: splendor moves)

    Exit codes: 0 done, 2 usage, 3 illegal move, 4 bad game file, 5 conflict (see docs/contract.md).
    """


_TYPES: dict[str, Any] = {"str": str, "int": int, "flag": bool, "path": str, "words": list[str]}


def _metavar(param: Param) -> str:
    """How help names the value of a parameter: its declared metavar, else N for a number, else
    the option's long name in capitals (`--players PLAYERS`), or the argument's name."""
    if param.metavar:
        return param.metavar
    if param.kind == "int":
        return "N"
    long = next((flag for flag in param.flags if flag.startswith("--")), "")
    return (long[2:] if long else param.name).upper().replace("-", "_")


class _PlainCommand(TyperCommand):
    """A command whose help names values as users type them: `MOVE...`, `--as NAME`, never a
    Python type (`<list[str]>`, `<int range>`) nor typer's braces (`{MOVE}...`)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = (param.metavar or (param.name or "").upper()) + ("..." if param.nargs != 1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                name = (param.metavar or (param.name or "").upper()) + ("..." if param.nargs != 1 else "")
                arguments.append((name, record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _completer(spec: Command, param: Param) -> Any:
    """What the shell may offer for the value of `param` of command `spec` (None: the shell's
    own completion, file names)."""
    if param.name == "game" and spec.name not in ("new", "demo"):

        def games(incomplete: str) -> list[str]:
            return shell.game_files(incomplete)

        return games
    if param.name == "as_":

        def players(ctx: typer.Context, incomplete: str) -> list[str]:
            return shell.players(ctx.params, incomplete)

        return players
    if param.kind == "words" and spec.name in shell.MOVE_COMMANDS:

        def move(ctx: typer.Context, incomplete: str) -> list[str]:
            typed = ctx.params.get(param.name) or ()
            return shell.move_words(spec.name, ctx.params, list(typed), incomplete)

        return move
    if param.name in ("color", "variant", "shell"):

        def choose(incomplete: str) -> list[str]:
            from ..variants import names

            choices = {"color": ("auto", "always", "never"), "variant": names(), "shell": shell.SHELLS}
            return [c for c in choices[param.name] if c.startswith(incomplete.lower())]

        return choose
    return None


def _parameter(spec: Command, param: Param, defaults: dict[str, Any]) -> inspect.Parameter:
    """The typer parameter of a declaration: an Option or an Argument, with the body's default."""
    required = param.name not in defaults
    default = defaults.get(param.name)
    kind = _TYPES[param.kind]
    if not required and default is None:
        kind = Optional[kind]
    extra: dict[str, Any] = {"help": param.help}
    if param.kind != "flag":
        extra["metavar"] = _metavar(param)
    if param.low is not None:
        extra["min"] = param.low
    if param.high is not None:
        extra["max"] = param.high
    if param.envvar:
        extra["envvar"] = param.envvar
    completer = _completer(spec, param)
    if completer is not None:
        extra["autocompletion"] = completer
    if param.positional:
        info = typer.Argument(**extra)
    else:
        info = typer.Option(*param.flags, show_default=param.name != "game", **extra)
    return inspect.Parameter(
        param.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=inspect.Parameter.empty if required else default,
        annotation=Annotated[kind, info],
    )


def _typer_command(spec: Command) -> Any:
    """A function typer can declare: the body's parameters as declared, calling the body."""
    defaults = spec.body.__kwdefaults__ or {}
    parameters = [_parameter(spec, param, defaults) for param in spec.params]

    def command(**kwargs: Any) -> None:
        code = run(spec.body, kwargs)
        if code:
            raise typer.Exit(code)

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = spec.help
    command.__name__ = spec.body.__name__
    return command


for _spec in COMMANDS.values():
    _group, _, _name = _spec.name.rpartition(" ")
    (_GROUPS[_group] if _group else app).command(_name, cls=_PlainCommand)(_typer_command(_spec))


def main() -> None:
    """The full command line (entry.py calls it for everything its shortcut does not take).

    Usage errors (an unknown option, a missing argument) are reported like every other error:
    one line on stderr, exit 2; `splendor` alone prints the help.
    """
    if os.environ.get(shell.COMPLETE_VAR):  # the shell asks for completions: typer's classes answer
        from typer.completion import completion_init

        completion_init()
    try:
        code = app(standalone_mode=False, complete_var=shell.COMPLETE_VAR)
    except (KeyboardInterrupt, typer.Abort):
        sys.stderr.write("splendor: interrupted\n")
        sys.exit(130)
    except Exception as exc:
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):  # not click's usage error
            raise
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.stdout.write(exc.format_message() + "\n")
            sys.exit(0)
        hint = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
        message = f"{' '.join(exc.format_message().split())}{hint}"
        if "--json" in sys.argv[1:]:
            import json

            error = {"code": "usage", "exit": exc.exit_code, "message": message}
            sys.stderr.write(json.dumps({"error": error}, ensure_ascii=True) + "\n")
        else:
            sys.stderr.write(f"splendor: {message}\n")
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)
