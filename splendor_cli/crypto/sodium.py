"""libsodium's ristretto255 and Ed25519 functions, called through ctypes: the few group.py and keys.py need.

The library is the system's libsodium when there is one (Debian's `libsodium23`, Homebrew's
`libsodium`: loading it costs about a millisecond), else the copy the `rbcl` package bundles.
`rbcl` writes that copy to a new temporary file each time it is imported and leaves it there
(2.7 MB a run); it is removed here as soon as it is loaded (a loaded library needs no file).

Every function takes and returns `bytes` of the sizes libsodium asks for; group.py checks the
sizes and the points before calling, so a failure here is an invalid point (ValueError).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
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


def _bundled() -> Any:
    """rbcl's copy of libsodium, its temporary file removed once loaded."""
    import importlib

    bundled = importlib.import_module("rbcl._sodium")  # writes the library to a temporary file
    with contextlib.suppress(OSError, AttributeError):
        os.unlink(bundled.lib_path)
    lib = bundled._sodium
    if lib.sodium_init() < 0:  # pragma: no cover - libsodium cannot start (no entropy source)
        raise OSError("libsodium cannot be initialised")
    return lib


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
