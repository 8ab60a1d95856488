"""The group wrappers: values checked when made, hex that round-trips, the group's laws, and
hashing that keeps its domains apart."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor_cli.crypto.group import (
    BASE,
    IDENTITY,
    ORDER,
    Point,
    Scalar,
    digest,
    hash_to_point,
    hash_to_scalar,
    total,
)
from splendor_cli.errors import MalformedError

scalars = st.integers(min_value=0, max_value=ORDER - 1).map(Scalar.of)


def counter_source(start: int = 0) -> Callable[[int], bytes]:
    """A deterministic source of bytes (SHA-512 in counter mode), for reproducible draws."""
    state = [start]

    def source(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha512(state[0].to_bytes(8, "big")).digest()
            state[0] += 1
        return out[:n]

    return source


@given(scalars, scalars)
def test_the_group_laws_hold(a: Scalar, b: Scalar) -> None:
    """(a + b) G = a G + b G, a (b G) = (a b) G, and a G - a G is the identity."""
    assert Point.base_times(a + b) == Point.base_times(a) + Point.base_times(b)
    assert Point.base_times(b) * a == Point.base_times(a * b)
    assert Point.base_times(a) - Point.base_times(a) == IDENTITY
    assert Point.base_times(a - b) + Point.base_times(b) == Point.base_times(a)
    assert Point.base_times(-a) == -Point.base_times(a)


@given(scalars)
def test_points_and_scalars_round_trip_through_hex(a: Scalar) -> None:
    """`from_hex(to_hex())` is the identity on both kinds of values (64 lowercase hex digits)."""
    point = Point.base_times(a)
    assert Point.from_hex(point.to_hex()) == point
    assert Scalar.from_hex(a.to_hex()) == a
    assert len(point.to_hex()) == 64 and point.to_hex() == point.to_hex().lower()


def test_zero_and_the_identity_are_values() -> None:
    """The identity is 32 zero bytes, a valid point; zero times any point is the identity."""
    assert Point.from_hex("00" * 32) == IDENTITY and not IDENTITY
    assert BASE * Scalar.of(0) == IDENTITY and IDENTITY * Scalar.of(5) == IDENTITY
    assert Point.base_times(Scalar.of(1)) == BASE
    assert BASE.to_hex() == "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"  # RFC 9496
    assert total([]) == IDENTITY and total([BASE, BASE]) == Point.base_times(Scalar.of(2))


@pytest.mark.parametrize(
    "text",
    [
        "ff" * 32,  # no point encodes so (non-canonical)
        "01" + "00" * 31,  # odd: not canonical
        BASE.to_hex().upper(),  # hex is lowercase
        BASE.to_hex()[:-2],  # too short
        BASE.to_hex() + "00",  # too long
        "zz" * 32,
        "",
        42,
        None,
    ],
)
def test_a_malformed_point_is_refused(text: object) -> None:
    """Anything but the canonical encoding of a group element is refused, with a one-line error."""
    with pytest.raises(MalformedError) as caught:
        Point.from_hex(text, "card key")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("number", [ORDER, ORDER + 1, 2**256 - 1])
def test_a_scalar_out_of_range_is_refused(number: int) -> None:
    """A scalar is below the group's order: its other encodings are refused."""
    with pytest.raises(MalformedError):
        Scalar(number.to_bytes(32, "little"))
    with pytest.raises(MalformedError):
        Scalar.from_hex(number.to_bytes(32, "little").hex())


def test_hashes_keep_their_domains_and_frames_apart() -> None:
    """Another tag, or the same bytes split otherwise, hash to something else."""
    assert hash_to_point("card", b"1-01") != hash_to_point("token", b"1-01")
    assert hash_to_point("card", b"1-01") == hash_to_point("card", b"1-01")
    assert digest("t", b"ab", b"c") != digest("t", b"a", b"bc")
    assert digest("t", b"abc") != digest("t", b"abc", b"")
    assert hash_to_scalar("a", b"x") != hash_to_scalar("b", b"x")


def test_random_scalars_come_from_the_source() -> None:
    """`Scalar.random` draws from the source it is given (reproducible with a fixed source),
    and skips zero."""
    assert Scalar.random(counter_source()) == Scalar.random(counter_source())
    assert Scalar.random(counter_source(0)) != Scalar.random(counter_source(1))
    draws = iter([bytes(64), bytes(64), b"\x07" + bytes(63)])
    assert Scalar.random(lambda n: next(draws)) == Scalar.of(7)


def test_a_scalar_never_prints_its_value() -> None:
    """A scalar is often a secret: its repr hides it."""
    assert "07" not in repr(Scalar.of(7)) and repr(Scalar.of(7)) == "Scalar(<secret>)"
