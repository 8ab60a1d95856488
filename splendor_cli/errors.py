"""The exception family (the CLI maps each class to a stable exit code, see docs/contract.md), and
how a text from a file is quoted in a message or printed: `excerpt` and `safe`.

Standard library only, and not even `typing`: the fast path of the CLI imports this module.
"""

from __future__ import annotations

UNSAFE = (
    *range(0x00, 0x20),  # C0: NUL, BEL, BS, TAB, LF, CR, ESC...
    *range(0x7F, 0xA0),  # DEL and C1 (U+009B is a CSI, U+009D an OSC)
    0x061C,  # the bidirectional controls: arabic letter mark,
    0x200E,  # left-to-right and right-to-left marks,
    0x200F,
    *range(0x202A, 0x202F),  # embeddings and overrides (U+202E: right-to-left override),
    *range(0x2066, 0x206A),  # isolates;
    0x2028,  # and the line and paragraph separators
    0x2029,
)
"""The code points a terminal may act on instead of showing: `safe` escapes them."""
_ESCAPES: dict[int, str] = {}
"""The escape of each code point of `UNSAFE` (made at the first `safe`: the command line's start
pays nothing for it)."""


def safe(text: str) -> str:
    """`text` from a file (or git), safe to print: each code point of `UNSAFE` (the C0 and C1
    controls, DEL, the Unicode bidirectional controls, the line and paragraph separators)
    becomes a visible escape: ESC is `\\x1b`, a line break `\\x0a`, a right-to-left override
    `\\u202e`.

    A game file may say anything: printed raw, a string could write the clipboard (OSC 52),
    clear the screen, reorder what follows it, or end a line and forge the next one. The rules
    of player names and game ids keep them plain already; this is the last guard, applied to
    every string of a file that reaches a terminal as text (boards, log, verify, error lines).
    """
    if not _ESCAPES:
        _ESCAPES.update({code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" for code in UNSAFE})
    return text.translate(_ESCAPES)


def one_line(exc: BaseException) -> str:
    """The message of a rule broken by an event read from a file, on one line: the rules quote
    the file's strings as they are (a card, a noble), and an edited file may put a line break in one."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(exc))


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


class KeysOwedError(SplendorError):
    """`verify`: a sealed game is over but some players have not published their keys, so its
    end-of-game audit cannot open the sealed cards nor re-make their shuffles. Names them."""

    exit_code = 6
    code = "keys-owed"

    def __init__(self, message: str, *, players: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.players = players


# -- the cryptography of sealed games (crypto/) ------------------------------------------------
# Both are a file's fault (a key file, or a game file, tampered with or damaged): GameFileErrors
# (exit 4), with a one-line message that says what failed.


class CryptoError(GameFileError, ValueError):
    """A value of the cryptography is refused."""


class MalformedError(CryptoError):
    """An encoding is refused: not hex, the wrong length, not a point of the group, a scalar out
    of range, a key file that is not what `keys` writes."""


class VerificationError(CryptoError):
    """A proof or a signature does not verify. `what` names it (`decryption share of bob`)."""

    def __init__(self, message: str, *, what: str) -> None:
        super().__init__(message)
        self.what = what
