"""The errors of the cryptography: a value that is malformed, a proof or signature that fails.

Both are a file's fault (a key file, or later a game file, that was tampered with or damaged):
they are `GameFileError`s (exit 4), with a one-line message that says what failed.
"""

from __future__ import annotations

from ..errors import GameFileError


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
