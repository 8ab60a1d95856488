"""SHA-256 and HMAC-SHA-256 from the interpreter's own builtin module, without loading OpenSSL.

`import hashlib` (and `import hmac`, which imports it) loads OpenSSL's libcrypto: about 2 ms of
every command's start-up, more than hashing all that a command hashes (a game file's events, a
cache entry). CPython builds SHA-256 in (`_sha256` up to 3.11, `_sha2` from 3.12): this module
takes it from there, and from hashlib where an interpreter lacks it. The digests are SHA-256's
and HMAC's (RFC 2104) exactly: tests/test_digest.py compares them with hashlib's and hmac's.
Pure: no I/O.
"""

from __future__ import annotations

import sys
from _operator import _compare_digest as compare_digest

TYPE_CHECKING = False  # not typing's: importing typing is not needed here
if TYPE_CHECKING:
    from hashlib import sha256  # the same type, as typeshed knows it
elif sys.version_info >= (3, 12):
    try:
        from _sha2 import sha256
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import sha256
else:
    try:
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import sha256

BLOCK = 64
"""SHA-256's block size in bytes, HMAC's key length."""
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA-256 of `message` under `key` (RFC 2104), as `hmac.digest(key, message, "sha256")`."""
    if len(key) > BLOCK:
        key = sha256(key).digest()
    key = key.ljust(BLOCK, b"\0")
    inner = sha256(key.translate(_INNER))
    inner.update(message)
    return sha256(key.translate(_OUTER) + inner.digest()).digest()


__all__ = ["compare_digest", "hmac_sha256", "sha256"]
