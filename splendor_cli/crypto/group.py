"""The group: ristretto255 (RFC 9496), through libsodium (sodium.py), as typed values.

`Point` and `Scalar` are frozen values of 32 bytes, checked when made: a point is the canonical
encoding of a group element (the identity, 32 zero bytes, included), a scalar an integer below
the group's order `ORDER`, little-endian. Both print and parse as 64 lowercase hex digits,
the form TOML files hold.

Hashing is domain-separated: `digest(tag, *parts)` is SHA-512 over the framed protocol tag
(`splendor-cli/crypto/v1/` + `tag`) and the framed parts, each frame an 8-byte big-endian
length then the bytes; `hash_to_scalar` reduces the 64 bytes modulo `ORDER`, `hash_to_point`
maps them with libsodium's `crypto_core_ristretto255_from_hash` (two Elligator maps, added).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

import attrs

from ..errors import MalformedError
from . import sodium

PROTOCOL = "splendor-cli/crypto/v1"
"""The prefix of every domain tag: a new protocol version hashes nothing like this one."""
ORDER = 2**252 + 27742317777372353535851937790883648493
"""The order of the ristretto255 group (the prime usually named L)."""
SIZE = 32
"""The size in bytes of an encoded point or scalar."""

Source = Callable[[int], bytes]
"""A source of random bytes: `source(n)` returns `n` bytes (`os.urandom` in production)."""

_HEX = frozenset("0123456789abcdef")


def framed(*parts: bytes) -> bytes:
    """The parts, each prefixed by its length (8 bytes, big-endian): no two lists of parts frame
    to the same bytes, so a hash of frames never confuses one statement with another."""
    return b"".join(len(part).to_bytes(8, "big") + part for part in parts)


def digest(tag: str, *parts: bytes) -> bytes:
    """SHA-512 of the framed domain tag (`PROTOCOL/tag`) and parts: 64 bytes."""
    return hashlib.sha512(framed(f"{PROTOCOL}/{tag}".encode(), *parts)).digest()


def parse_hex(text: object, size: int, what: str) -> bytes:
    """`size` bytes from exactly `2 * size` lowercase hex digits; MalformedError naming `what` otherwise."""
    if not isinstance(text, str) or len(text) != 2 * size or not _HEX.issuperset(text):
        shown = repr(text) if len(repr(text)) <= 24 else repr(text)[:21] + "..."
        raise MalformedError(f"{what}: expected {2 * size} lowercase hex digits, got {shown}")
    return bytes.fromhex(text)


def _point_bytes(instance: object, attribute: object, value: bytes) -> None:
    if not isinstance(value, bytes) or len(value) != SIZE:
        raise MalformedError(f"a point is {SIZE} bytes")
    if not sodium.is_valid_point(value):
        raise MalformedError(f"not a ristretto255 point: {value.hex()[:16]}...")


def _scalar_bytes(instance: object, attribute: object, value: bytes) -> None:
    if not isinstance(value, bytes) or len(value) != SIZE:
        raise MalformedError(f"a scalar is {SIZE} bytes")
    if int.from_bytes(value, "little") >= ORDER:
        raise MalformedError(f"a scalar out of range (not below the group's order): {value.hex()[:16]}...")


@attrs.frozen(repr=False)
class Scalar:
    """An integer modulo the group's order, as 32 little-endian bytes below `ORDER`."""

    data: bytes = attrs.field(validator=_scalar_bytes)

    @classmethod
    def of(cls, number: int) -> Scalar:
        """The scalar `number` modulo the order (negative numbers included)."""
        return cls((number % ORDER).to_bytes(SIZE, "little"))

    @classmethod
    def from_hex(cls, text: object, what: str = "scalar") -> Scalar:
        """The scalar of 64 hex digits; MalformedError naming `what` when they are not one."""
        data = parse_hex(text, SIZE, what)
        try:
            return cls(data)
        except MalformedError as exc:
            raise MalformedError(f"{what}: {exc}") from None

    @classmethod
    def reduce(cls, wide: bytes) -> Scalar:
        """64 bytes (a hash) reduced modulo the order: a uniform scalar from uniform bytes."""
        if len(wide) != 2 * SIZE:
            raise ValueError("a scalar is reduced from 64 bytes")
        return cls(bytes(sodium.scalar_reduce(wide)))

    @classmethod
    def random(cls, source: Source) -> Scalar:
        """A uniform non-zero scalar from 64 bytes of `source` (the bias of the reduction is 2^-259)."""
        while True:
            scalar = cls.reduce(source(2 * SIZE))
            if scalar:
                return scalar

    def to_hex(self) -> str:
        return self.data.hex()

    def __int__(self) -> int:
        return int.from_bytes(self.data, "little")

    def __bool__(self) -> bool:
        return self.data != _ZERO

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar(bytes(sodium.scalar_add(self.data, other.data)))

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar(bytes(sodium.scalar_sub(self.data, other.data)))

    def __mul__(self, other: Scalar) -> Scalar:
        return Scalar(bytes(sodium.scalar_mul(self.data, other.data)))

    def __neg__(self) -> Scalar:
        return Scalar(bytes(sodium.scalar_negate(self.data)))

    def __repr__(self) -> str:
        return "Scalar(<secret>)"  # a scalar is often a secret key: never print it by accident


@attrs.frozen(repr=False)
class Point:
    """An element of ristretto255, as its canonical 32-byte encoding."""

    data: bytes = attrs.field(validator=_point_bytes)

    @classmethod
    def from_hex(cls, text: object, what: str = "point") -> Point:
        """The point of 64 hex digits; MalformedError naming `what` when they are not one."""
        data = parse_hex(text, SIZE, what)
        try:
            return cls(data)
        except MalformedError as exc:
            raise MalformedError(f"{what}: {exc}") from None

    @classmethod
    def base_times(cls, scalar: Scalar) -> Point:
        """`scalar` times the generator `BASE` (the identity for zero)."""
        return cls(bytes(sodium.scalarmult_base(scalar.data)))

    def to_hex(self) -> str:
        return self.data.hex()

    def __bool__(self) -> bool:
        """False for the identity only."""
        return self.data != _ZERO

    def __add__(self, other: Point) -> Point:
        return Point(bytes(sodium.add(self.data, other.data)))

    def __sub__(self, other: Point) -> Point:
        return Point(bytes(sodium.sub(self.data, other.data)))

    def __neg__(self) -> Point:
        return IDENTITY - self

    def __mul__(self, scalar: Scalar) -> Point:
        """`scalar` times this point (the identity when either is zero or the identity)."""
        return Point(bytes(sodium.scalarmult(scalar.data, self.data)))

    def __repr__(self) -> str:
        return f"Point.from_hex({self.to_hex()!r})"


_ZERO = bytes(SIZE)
IDENTITY = Point(_ZERO)
"""The neutral element (encoded as 32 zero bytes)."""
BASE = Point.base_times(Scalar.of(1))
"""The generator of ristretto255 (RFC 9496)."""


def hash_to_scalar(tag: str, *parts: bytes) -> Scalar:
    """The scalar of `digest(tag, *parts)`: a random oracle onto the scalars."""
    return Scalar.reduce(digest(tag, *parts))


def hash_to_point(tag: str, *parts: bytes) -> Point:
    """The point of `digest(tag, *parts)`: a random oracle onto the group (nobody knows its
    logarithm to `BASE`, nor to any other such point)."""
    return Point(bytes(sodium.from_hash(digest(tag, *parts))))


def total(points: Iterable[Point]) -> Point:
    """The sum of `points` (the identity when there are none)."""
    result = IDENTITY
    for point in points:
        result = result + point
    return result
