"""The libsodium binding: the system's library, else rbcl's copy, both computing the same."""

from __future__ import annotations

import ctypes
import os

from splendor_cli.crypto import sodium
from splendor_cli.crypto.group import BASE, Point, Scalar


def test_the_bundled_copy_computes_the_same_and_leaves_no_file_behind() -> None:
    """rbcl writes its libsodium to a temporary file at import: the binding removes it once
    loaded, and that copy gives the same points as the library in use."""
    import importlib

    lib = sodium._bundled()
    bundled = importlib.import_module("rbcl._sodium")
    assert not os.path.exists(bundled.lib_path)
    scalar = Scalar.of(123456789)
    out = ctypes.create_string_buffer(32)
    assert lib.crypto_scalarmult_ristretto255_base(out, scalar.data) == 0
    assert out.raw == Point.base_times(scalar).data == (BASE * scalar).data


def test_zero_and_the_identity_are_allowed_where_libsodium_refuses_them() -> None:
    """libsodium refuses a product that is the identity; the binding returns the identity."""
    zero = Scalar.of(0)
    assert Point.base_times(zero).data == bytes(32)
    assert (BASE * zero).data == bytes(32)
    assert sodium.SOURCE in ("system", "bundled")
