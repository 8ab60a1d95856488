"""The parameters of the `splendor` commands, declared once (standard library only).

Each command body (start.py, look.py, play.py...) is registered with `@command(...)`, naming its
parameters here. Two readers use the same declarations: entry.py parses a plain command line by them
(the fast path, without typer), and cli.py builds the typer app from them (help, usage errors,
`--help`). A parameter's name is the keyword of the body; its default is the body's own
default (`__kwdefaults__`); the body's signature and its declaration are checked against each
other by a test.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class Param:
    """One option or argument of a command.

    `flags` are an option's names (`--game`, `-g`); none for a positional argument. `kind` is
    `str`, `int`, `flag` (a bool option without a value), `path` (a file, given to the body as a
    string: `pathlib` is not loaded on the fast path), or `words` (the rest of the command line,
    one or more words). `low` and `high` bound an int; `envvar` gives a default
    from the environment.
    """

    __slots__ = ("envvar", "flags", "help", "high", "kind", "low", "metavar", "name")

    def __init__(
        self,
        name: str,
        *flags: str,
        help: str,
        kind: str = "str",
        low: int | None = None,
        high: int | None = None,
        envvar: str = "",
        metavar: str = "",
    ) -> None:
        self.name, self.flags, self.help, self.kind = name, flags, help, kind
        self.low, self.high, self.envvar, self.metavar = low, high, envvar, metavar

    @property
    def positional(self) -> bool:
        return not self.flags

    def convert(self, value: str) -> Any:
        """The value of a word of the command line; ValueError when it is not one (typer then says why)."""
        if self.kind == "int":
            number = int(value, 10)
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                raise ValueError(value)
            return number
        return value


class Command:
    """A command: its name on the command line, its body, its parameters, and its help."""

    __slots__ = ("body", "help", "name", "params")

    def __init__(self, name: str, body: Callable[..., None], params: tuple[Param, ...], help: str) -> None:
        self.name, self.body, self.params, self.help = name, body, params, help


COMMANDS: dict[str, Command] = {}
"""Every command, by its name on the command line (`git install` is two words), in help order."""


def command(name: str, *params: Param, help: str = "") -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a command body under `name` with these parameters; `help` defaults to its docstring."""

    def register(body: Callable[..., None]) -> Callable[..., None]:
        COMMANDS[name] = Command(name, body, params, help or (body.__doc__ or ""))
        return body

    return register


# -- the parameters several commands share ---------------------------------------------------

GAME = Param(
    "game",
    "--game",
    "-g",
    kind="path",
    metavar="FILE",
    help="The game file. Default: $SPLENDOR_GAME, else the only game file in . or games/.",
)
JSON = Param("json", "--json", kind="flag", help="Print JSON (the shapes of docs/contract.md); errors too, on stderr.")
AS = Param(
    "as_",
    "--as",
    envvar="SPLENDOR_PLAYER",
    metavar="NAME",
    help="Act as this player ($SPLENDOR_PLAYER); refused if not to move.",
)
AT = Param("at", "--at", kind="int", low=1, metavar="SEQ", help="As it was just after event SEQ.")
COLOR = Param("color", "--color", metavar="WHEN", help="auto (a terminal and NO_COLOR unset), always or never.")
SEED = Param("seed", "--seed", kind="int", help="Seed of the shuffle (default: random).")
NOTIFY = Param("notify", "--notify", kind="flag", help="Then tell the player to move (see `splendor notify`).")
MOVE = Param("move", kind="words", help="The move, e.g. take white blue green (quotes optional).")
SEAT = Param(
    "seat",
    "--as",
    envvar="SPLENDOR_PLAYER",
    metavar="NAME",
    help="Whose view it is: their blind reserves face up (a sealed game: only with their key here)"
    " ($SPLENDOR_PLAYER; default: a spectator's).",
)


def variant_name(text: str) -> str:
    """A game's name as typed in --variant (`Duel`, ` duel `): as colours are, in any case."""
    return text.strip().lower()
