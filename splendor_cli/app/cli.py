"""The full `splendor` command line (typer), built from the declarations of params.py.

entry.py runs a plain command line itself; everything else comes here: `--help`, usage errors,
and anything the fast path does not take. Each typer command is made from a registered body
(commands.py): its parameters and their help come from the same `Param` declarations the fast
path reads, its defaults from the body's own, and it calls the body directly.
"""

from __future__ import annotations

import inspect
import sys
from typing import Annotated, Any, Optional

import typer

from .commands import COMMANDS, run
from .params import Command, Param

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


def _parameter(param: Param, defaults: dict[str, Any]) -> inspect.Parameter:
    """The typer parameter of a declaration: an Option or an Argument, with the body's default."""
    required = param.name not in defaults
    default = defaults.get(param.name)
    kind = _TYPES[param.kind]
    if not required and default is None:
        kind = Optional[kind]
    extra: dict[str, Any] = {"help": param.help}
    if param.metavar or param.positional:
        extra["metavar"] = param.metavar or param.name.upper()
    if param.low is not None:
        extra["min"] = param.low
    if param.high is not None:
        extra["max"] = param.high
    if param.envvar:
        extra["envvar"] = param.envvar
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
    parameters = [_parameter(param, defaults) for param in spec.params]

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
    (git_app if _group == "git" else app).command(_name)(_typer_command(_spec))


def main() -> None:
    """The full command line (entry.py calls it for everything its shortcut does not take).

    Usage errors (an unknown option, a missing argument) are reported like every other error:
    one line on stderr, exit 2; `splendor` alone prints the help.
    """
    try:
        code = app(standalone_mode=False)
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
