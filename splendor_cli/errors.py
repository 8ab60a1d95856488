"""The exception family. The CLI maps each class to a stable exit code (see CONTRACT.md).

Standard library only, and not even `typing`: the fast path of the CLI imports this module.
"""

from __future__ import annotations


def excerpt(value: object, limit: int = 40) -> str:
    """A value from a file, quoted for an error message: `repr` (so escaped), at most `limit`
    characters. A hostile file must not make an error line long."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class SplendorError(Exception):
    """Base class. The CLI prints the message as one line on stderr and exits with `exit_code`."""

    exit_code = 1
    code = "error"


class UsageError(SplendorError, ValueError):
    """Bad options or arguments that typer itself cannot catch (no game file found, ...)."""

    exit_code = 2
    code = "usage"


class InvalidMoveError(SplendorError, ValueError):
    """The move text cannot be parsed: `take xyz`."""

    exit_code = 2
    code = "invalid-move"


class AmbiguousMoveError(SplendorError, ValueError):
    """The move text matches several turns: a return or a noble must be named."""

    exit_code = 2
    code = "ambiguous-move"


class IllegalMoveError(SplendorError, ValueError):
    """The rules forbid the move now, or it is not that player's turn. Carries the rule broken."""

    exit_code = 3
    code = "illegal-move"

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class GameFileError(SplendorError):
    """The game file is unreadable, of a newer format, or inconsistent."""

    exit_code = 4
    code = "bad-game-file"


class CorruptLogError(GameFileError):
    """An event in the log cannot be applied: the file was edited by hand or merged badly."""

    def __init__(self, message: str, *, seq: int) -> None:
        super().__init__(f"event #{seq}: {message}")
        self.seq = seq


class ConflictError(SplendorError):
    """The game forked, a move is stale, or another writer changed the file meanwhile."""

    exit_code = 5
    code = "conflict"


class ForkError(ConflictError):
    """The log holds two events with one parent: two players appended from the same copy."""

    def __init__(self, message: str, *, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


class StaleBlockError(ConflictError):
    """The block does not follow this copy of the game: turns are missing here, or the copies forked.

    `missing` is the range of events this file lacks (empty when the copies forked); `seq` is
    the block's event that cannot follow this file's events (0 when turns are missing).
    """

    def __init__(self, message: str, *, missing: range = range(0), seq: int = 0) -> None:
        super().__init__(message)
        self.missing = missing
        self.seq = seq
