"""The libsodium binding: the system's library, else the same functions made of rbcl's and
PyNaCl's public APIs (`sodium.Bundled`), both computing the same, bytes and return codes."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path

from splendor_cli.crypto import sodium
from splendor_cli.crypto.group import BASE, Point, Scalar


def _both(function: str, size: int, *args: bytes) -> tuple[tuple[object, bytes], tuple[object, bytes]]:
    """(return code, output) of `function` in the library in use and in the bundled one."""
    results = []
    for lib in (sodium._LIB, sodium._bundled()):
        out = ctypes.create_string_buffer(size)
        results.append((getattr(lib, function)(out, *args), out.raw))
    return results[0], results[1]


def test_the_bundled_functions_compute_what_libsodium_does() -> None:
    """Every function the binding calls gives the same bytes and the same return code through
    rbcl and PyNaCl as through the library in use: on points, on a byte string that is no point
    (-1), and on a zero scalar (-1: libsodium refuses the identity as a product)."""
    bundled = sodium._bundled()
    point, other = (Point.base_times(Scalar.of(n)).data for n in (7, 11))
    not_point = bytes([1]) * 32
    a, b = Scalar.of(123456789).data, Scalar.of(987654321).data
    wide = bytes(range(64))
    for function, size, args in (
        ("crypto_core_ristretto255_from_hash", 32, (wide,)),
        ("crypto_core_ristretto255_add", 32, (point, other)),
        ("crypto_core_ristretto255_add", 32, (point, not_point)),
        ("crypto_core_ristretto255_sub", 32, (point, point)),
        ("crypto_core_ristretto255_sub", 32, (not_point, point)),
        ("crypto_scalarmult_ristretto255_base", 32, (a,)),
        ("crypto_scalarmult_ristretto255_base", 32, (bytes(32),)),
        ("crypto_scalarmult_ristretto255", 32, (b, point)),
        ("crypto_scalarmult_ristretto255", 32, (bytes(32), point)),
        ("crypto_scalarmult_ristretto255", 32, (b, not_point)),
    ):
        assert _both(function, size, *args)[0] == _both(function, size, *args)[1], function
    for function, args in (
        ("crypto_core_ristretto255_scalar_reduce", (wide,)),
        ("crypto_core_ristretto255_scalar_add", (a, b)),
        ("crypto_core_ristretto255_scalar_sub", (a, b)),
        ("crypto_core_ristretto255_scalar_mul", (a, b)),
        ("crypto_core_ristretto255_scalar_negate", (a,)),
    ):
        (_, mine), (_, theirs) = _both(function, 32, *args)
        assert mine == theirs, function
    for p in (point, not_point, bytes(32)):
        assert bundled.crypto_core_ristretto255_is_valid_point(
            p
        ) == sodium._LIB.crypto_core_ristretto255_is_valid_point(p)


def test_the_bundled_functions_sign_and_verify_as_libsodium_does() -> None:
    """Ed25519 through PyNaCl: the same key pair and signature as the library in use, and the
    same verdicts on a good and a tampered signature."""
    bundled = sodium._bundled()
    seed, message = bytes(range(32)), b"the message"
    pairs = []
    for lib in (sodium._LIB, bundled):
        public, secret = ctypes.create_string_buffer(32), ctypes.create_string_buffer(64)
        assert lib.crypto_sign_seed_keypair(public, secret, seed) == 0
        signature = ctypes.create_string_buffer(64)
        assert lib.crypto_sign_detached(signature, None, message, ctypes.c_ulonglong(len(message)), secret.raw) == 0
        pairs.append((public.raw, secret.raw, signature.raw))
    assert pairs[0] == pairs[1]
    public, _, signature = pairs[0]
    tampered = signature[:-1] + bytes([signature[-1] ^ 1])
    for lib in (sodium._LIB, bundled):
        length = ctypes.c_ulonglong(len(message))
        assert lib.crypto_sign_verify_detached(signature, message, length, public) == 0
        assert lib.crypto_sign_verify_detached(tampered, message, length, public) == -1


def test_rbcl_leaves_no_file_behind(tmp_path: Path) -> None:
    """rbcl writes its libsodium to a temporary file at import; the binding has it written in a
    folder of its own, removed once the library is loaded: nothing is left in $TMPDIR (checked
    in a fresh process, where rbcl is imported for the first time)."""
    code = (
        "import json, os, sys, tempfile; from splendor_cli.crypto import sodium; lib = sodium._bundled();"
        "print(json.dumps(['rbcl' in sys.modules, os.listdir(tempfile.gettempdir())]))"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [True, []]


def test_zero_and_the_identity_are_allowed_where_libsodium_refuses_them() -> None:
    """libsodium refuses a product that is the identity; the binding returns the identity."""
    zero = Scalar.of(0)
    assert Point.base_times(zero).data == bytes(32)
    assert (BASE * zero).data == bytes(32)
    assert sodium.SOURCE in ("system", "bundled")
