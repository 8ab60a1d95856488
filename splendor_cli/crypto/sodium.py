"""libsodium's ristretto255 and Ed25519 functions, called through ctypes: the few group.py and keys.py need.

The library is the system's libsodium when there is one (Debian's `libsodium23`, Homebrew's
`libsodium`: loading it costs about a millisecond). Else the same C functions are made of public
Python APIs (`Bundled`): the ristretto255 ones of the `rbcl` package (which bundles libsodium),
the Ed25519 ones of PyNaCl's `nacl.bindings` (rbcl has none; PyNaCl is then needed). `rbcl`
writes its library to a new temporary file each time it is imported and leaves it there (2.7 MB
a run): it is imported with `tempfile.tempdir` pointing at a folder of ours, removed once the
library is loaded (a loaded library needs no file).

Every function takes and returns `bytes` of the sizes libsodium asks for; group.py checks the
sizes and the points before calling, so a failure here is an invalid point (ValueError).
"""

from __future__ import annotations

import ctypes
import importlib
import sys
from typing import Any

_NAMES = {
    "darwin": ("libsodium.26.dylib", "libsodium.23.dylib", "libsodium.dylib"),
    "win32": ("libsodium.dll",),
}.get(sys.platform, ("libsodium.so.26", "libsodium.so.23", "libsodium.so"))


def _system() -> Any:
    """The system's libsodium, if it has ristretto255 (1.0.18 and later); else None."""
    for name in _NAMES:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        if hasattr(lib, "crypto_core_ristretto255_from_hash") and lib.sodium_init() >= 0:
            return lib
    return None


def _write(out: Any, data: bytes) -> None:
    """Copy `data` into the ctypes buffer `out`, as a C function fills its output."""
    ctypes.memmove(out, data, len(data))


class Bundled:
    """libsodium's C functions that this module calls, with their C signatures (output buffers
    first, libsodium's return codes), made of public Python APIs for a system without libsodium:
    ristretto255 from `rbcl`, Ed25519 from PyNaCl (imported when first asked for)."""

    def __init__(self) -> None:
        import tempfile  # not on the system's path: tempfile imports random and shutil

        with tempfile.TemporaryDirectory(prefix="splendor-rbcl-", ignore_cleanup_errors=True) as folder:
            saved, tempfile.tempdir = tempfile.tempdir, folder  # where rbcl writes its library
            try:
                self.rbcl: Any = importlib.import_module("rbcl")  # untyped: no stubs
            finally:
                tempfile.tempdir = saved

    def sodium_init(self) -> int:
        """rbcl started libsodium when it was imported: 0, as libsodium says when it started."""
        return 0

    def crypto_core_ristretto255_is_valid_point(self, p: bytes) -> int:
        """1 if `p` encodes a point, else 0."""
        return int(self.rbcl.crypto_core_ristretto255_is_valid_point(p))

    def crypto_core_ristretto255_from_hash(self, out: Any, h: bytes) -> int:
        """The point of a 64-byte hash."""
        _write(out, self.rbcl.crypto_core_ristretto255_from_hash(h))
        return 0

    def crypto_core_ristretto255_add(self, out: Any, p: bytes, q: bytes) -> int:
        """p + q; -1 when either is no point (rbcl would return zeros)."""
        if not (self.crypto_core_ristretto255_is_valid_point(p) and self.crypto_core_ristretto255_is_valid_point(q)):
            return -1
        _write(out, self.rbcl.crypto_core_ristretto255_add(p, q))
        return 0

    def crypto_core_ristretto255_sub(self, out: Any, p: bytes, q: bytes) -> int:
        """p - q; -1 when either is no point (rbcl would return zeros)."""
        if not (self.crypto_core_ristretto255_is_valid_point(p) and self.crypto_core_ristretto255_is_valid_point(q)):
            return -1
        _write(out, self.rbcl.crypto_core_ristretto255_sub(p, q))
        return 0

    def crypto_core_ristretto255_scalar_reduce(self, out: Any, s: bytes) -> None:
        """A 64-byte number modulo the group's order."""
        _write(out, self.rbcl.crypto_core_ristretto255_scalar_reduce(s))

    def crypto_core_ristretto255_scalar_add(self, out: Any, x: bytes, y: bytes) -> None:
        """x + y modulo the order."""
        _write(out, self.rbcl.crypto_core_ristretto255_scalar_add(x, y))

    def crypto_core_ristretto255_scalar_sub(self, out: Any, x: bytes, y: bytes) -> None:
        """x - y modulo the order."""
        _write(out, self.rbcl.crypto_core_ristretto255_scalar_sub(x, y))

    def crypto_core_ristretto255_scalar_mul(self, out: Any, x: bytes, y: bytes) -> None:
        """x y modulo the order."""
        _write(out, self.rbcl.crypto_core_ristretto255_scalar_mul(x, y))

    def crypto_core_ristretto255_scalar_negate(self, out: Any, s: bytes) -> None:
        """-s modulo the order."""
        _write(out, self.rbcl.crypto_core_ristretto255_scalar_negate(s))

    def crypto_scalarmult_ristretto255_base(self, out: Any, n: bytes) -> int:
        """n times the generator; -1 when that is the identity (rbcl raises RuntimeError)."""
        try:
            _write(out, self.rbcl.crypto_scalarmult_ristretto255_base(n))
        except RuntimeError:
            return -1
        return 0

    def crypto_scalarmult_ristretto255(self, out: Any, n: bytes, p: bytes) -> int:
        """n times p; -1 when p is no point or the product is the identity (rbcl raises RuntimeError)."""
        try:
            _write(out, self.rbcl.crypto_scalarmult_ristretto255(n, p))
        except RuntimeError:
            return -1
        return 0

    def crypto_sign_seed_keypair(self, pk: Any, sk: Any, seed: bytes) -> int:
        """The Ed25519 key pair of a seed, from PyNaCl."""
        public, secret = _nacl().crypto_sign_seed_keypair(seed)
        _write(pk, public)
        _write(sk, secret)
        return 0

    def crypto_sign_detached(self, sig: Any, siglen: None, m: bytes, mlen: Any, sk: bytes) -> int:
        """The Ed25519 signature of `m`, from PyNaCl (its signed message begins with it)."""
        _write(sig, _nacl().crypto_sign(m, sk)[:64])
        return 0

    def crypto_sign_verify_detached(self, sig: bytes, m: bytes, mlen: Any, pk: bytes) -> int:
        """0 if `sig` is `pk`'s Ed25519 signature of `m`, else -1: PyNaCl's `crypto_sign_open`,
        which is libsodium's verification (its signed message is the signature, then `m`)."""
        from nacl.exceptions import BadSignatureError

        try:
            _nacl().crypto_sign_open(sig + m, pk)
        except BadSignatureError:
            return -1
        return 0


def _nacl() -> Any:
    """PyNaCl's libsodium bindings: Ed25519 on a system without libsodium."""
    try:
        import nacl.bindings
    except ImportError as exc:
        raise ImportError(
            "Ed25519 signatures need libsodium: install the system's (Debian: libsodium23,"
            " Homebrew: libsodium) or PyNaCl (pip install pynacl)"
        ) from exc
    return nacl.bindings


def _bundled() -> Any:
    """libsodium's functions made of rbcl's and PyNaCl's public APIs (`Bundled`)."""
    return Bundled()


_FOUND = _system()
_LIB = _FOUND if _FOUND is not None else _bundled()
SOURCE = "system" if _FOUND is not None else "bundled"
"""Which libsodium is in use: `system` or `bundled` (rbcl's)."""


def _call(function: str, size: int, *args: bytes) -> bytes:
    out = ctypes.create_string_buffer(size)
    if getattr(_LIB, function)(out, *args) != 0:
        raise ValueError(f"{function}: an invalid point")
    return out.raw


def is_valid_point(point: bytes) -> bool:
    return bool(_LIB.crypto_core_ristretto255_is_valid_point(point) == 1)


def from_hash(wide: bytes) -> bytes:
    out = ctypes.create_string_buffer(32)
    _LIB.crypto_core_ristretto255_from_hash(out, wide)
    return out.raw


def add(p: bytes, q: bytes) -> bytes:
    return _call("crypto_core_ristretto255_add", 32, p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return _call("crypto_core_ristretto255_sub", 32, p, q)


def _scalar(function: str, *args: bytes) -> bytes:
    out = ctypes.create_string_buffer(32)
    getattr(_LIB, function)(out, *args)
    return out.raw


def scalar_reduce(wide: bytes) -> bytes:
    return _scalar("crypto_core_ristretto255_scalar_reduce", wide)


def scalar_add(a: bytes, b: bytes) -> bytes:
    return _scalar("crypto_core_ristretto255_scalar_add", a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    return _scalar("crypto_core_ristretto255_scalar_sub", a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return _scalar("crypto_core_ristretto255_scalar_mul", a, b)


def scalar_negate(a: bytes) -> bytes:
    return _scalar("crypto_core_ristretto255_scalar_negate", a)


_IDENTITY = bytes(32)


def scalarmult_base(scalar: bytes) -> bytes:
    """`scalar` times the generator; the identity for a zero scalar (libsodium refuses it)."""
    out = ctypes.create_string_buffer(32)
    return out.raw if _LIB.crypto_scalarmult_ristretto255_base(out, scalar) == 0 else _IDENTITY


def scalarmult(scalar: bytes, point: bytes) -> bytes:
    """`scalar` times `point` (a valid point); the identity when the product is."""
    out = ctypes.create_string_buffer(32)
    return out.raw if _LIB.crypto_scalarmult_ristretto255(out, scalar, point) == 0 else _IDENTITY


def verify_signature(signature: bytes, message: bytes, public: bytes) -> bool:
    """Whether `signature` (64 bytes) is the Ed25519 signature of `message` by `public` (32 bytes)."""
    if len(signature) != 64 or len(public) != 32:
        return False
    return bool(_LIB.crypto_sign_verify_detached(signature, message, ctypes.c_ulonglong(len(message)), public) == 0)


def sign_keypair(seed: bytes) -> tuple[bytes, bytes]:
    """The Ed25519 key pair of a 32-byte `seed`: the public key (32 bytes) and libsodium's secret
    key (64 bytes: the seed, then the public key), as PyNaCl's `SigningKey(seed)` makes them."""
    if len(seed) != 32:
        raise ValueError("an Ed25519 seed is 32 bytes")
    public, secret = ctypes.create_string_buffer(32), ctypes.create_string_buffer(64)
    if _LIB.crypto_sign_seed_keypair(public, secret, seed) != 0:  # pragma: no cover - never fails
        raise ValueError("crypto_sign_seed_keypair failed")
    return public.raw, secret.raw


def sign_detached(message: bytes, secret: bytes) -> bytes:
    """The Ed25519 signature (64 bytes, deterministic: RFC 8032) of `message` by the 64-byte
    `secret` of `sign_keypair`."""
    if len(secret) != 64:
        raise ValueError("an Ed25519 secret key is 64 bytes")
    out = ctypes.create_string_buffer(64)
    if _LIB.crypto_sign_detached(out, None, message, ctypes.c_ulonglong(len(message)), secret) != 0:
        raise ValueError("crypto_sign_detached failed")  # pragma: no cover - never fails
    return out.raw
