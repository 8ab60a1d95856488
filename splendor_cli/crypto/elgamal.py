"""Threshold ElGamal on cards (Barnett and Smart, "Mental Poker Revisited", 2003).

Each player `i` holds a secret scalar `x_i` and publishes `X_i = x_i BASE`; the joint key is
`Y = sum X_i`, whose secret nobody holds. A card is the point `card_point(id)` (a hash onto the
group: nobody knows a logarithm between two cards), and a ciphertext of the point `M` is
`(a, b) = (r BASE, M + r Y)`. Anyone can re-randomize it (`reencrypt`: add an encryption of the
identity); only all the players together can open it: each publishes a decryption share
`D_i = x_i a` with a Chaum-Pedersen proof that `log_BASE(X_i) == log_a(D_i)`, and
`M = b - sum D_i` (`reveal` checks every share first). `Deck` maps a known deck's points back
to card ids.

Encodings: a ciphertext is 64 bytes (`a`, then `b`), a share 96 (the point, then its proof); a
game file writes them in standard base64, padded, without newlines (`to_text`, `deck_text`: a
whole deck in one string), and reads only that canonical form back (`parse_base64`).

A card seen by one player alone: the others publish their shares, that player adds their own,
computed privately (`share_point`), and no one else learns the card.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping, Sequence

import attrs

from ..errors import MalformedError, VerificationError
from .group import BASE, IDENTITY, SIZE, Point, Scalar, Source, framed, hash_to_point, parse_hex, total
from .proofs import Proof, prove_equal_logs, verify_equal_logs


def card_point(card: str) -> Point:
    """The point of a card id (`hash_to_point` under the tag `card`)."""
    return hash_to_point("card", card.encode("utf-8"))


def joint_key(keys: Iterable[Point]) -> Point:
    """The key cards are encrypted to: the sum of the players' public keys.

    Each key must come with a proof of possession (keys.check_possession): otherwise a player
    could publish `X - sum(others)` and hold the joint secret alone.
    """
    keys = tuple(keys)
    if not keys:
        raise ValueError("a joint key needs at least one player's key")
    return total(keys)


@attrs.frozen(kw_only=True)
class Ciphertext:
    """An ElGamal ciphertext `(a, b) = (r BASE, M + r Y)`."""

    a: Point
    b: Point

    @classmethod
    def unmasked(cls, message: Point) -> Ciphertext:
        """The encryption of `message` with randomizer zero `(identity, M)`: anyone can check it
        (a deck starts so, each player's shuffle then hides it)."""
        return cls(a=IDENTITY, b=message)

    def to_hex(self) -> str:
        """128 hex digits: `a`, then `b`."""
        return self.a.to_hex() + self.b.to_hex()

    @classmethod
    def from_hex(cls, text: object, what: str = "ciphertext") -> Ciphertext:
        return cls.from_bytes(parse_hex(text, 2 * SIZE, what), what)

    def to_bytes(self) -> bytes:
        """64 bytes: `a`, then `b`."""
        return self.a.data + self.b.data

    @classmethod
    def from_bytes(cls, data: bytes, what: str = "ciphertext") -> Ciphertext:
        """The ciphertext of 64 bytes (two points, each checked); MalformedError naming `what`."""
        if len(data) != 2 * SIZE:
            raise MalformedError(f"{what}: a ciphertext is {2 * SIZE} bytes")
        try:
            return cls(a=Point(data[:SIZE]), b=Point(data[SIZE:]))
        except MalformedError as exc:
            raise MalformedError(f"{what}: {exc}") from None

    def to_text(self) -> str:
        """88 base64 characters (`to_bytes`)."""
        return base64.b64encode(self.to_bytes()).decode("ascii")

    @classmethod
    def from_text(cls, text: object, what: str = "ciphertext") -> Ciphertext:
        return cls.from_bytes(parse_base64(text, 2 * SIZE, what), what)


def encrypt(message: Point, key: Point, randomizer: Scalar) -> Ciphertext:
    """The encryption of `message` to `key` with `randomizer`."""
    return Ciphertext(a=Point.base_times(randomizer), b=message + key * randomizer)


def reencrypt(ciphertext: Ciphertext, key: Point, randomizer: Scalar) -> Ciphertext:
    """The same message under a fresh mask: `ciphertext` plus an encryption of the identity."""
    return Ciphertext(a=ciphertext.a + Point.base_times(randomizer), b=ciphertext.b + key * randomizer)


@attrs.frozen(kw_only=True)
class Share:
    """A player's decryption share `D = x a` of a ciphertext, with its proof."""

    point: Point
    proof: Proof

    def to_hex(self) -> str:
        """192 hex digits: the point, then the proof."""
        return self.point.to_hex() + self.proof.to_hex()

    @classmethod
    def from_hex(cls, text: object, what: str = "decryption share") -> Share:
        return cls.from_bytes(parse_hex(text, 3 * SIZE, what), what)

    def to_text(self) -> str:
        """128 base64 characters: the point, then the proof (96 bytes)."""
        return base64.b64encode(self.point.data + self.proof.challenge.data + self.proof.response.data).decode("ascii")

    @classmethod
    def from_text(cls, text: object, what: str = "decryption share") -> Share:
        return cls.from_bytes(parse_base64(text, 3 * SIZE, what), what)

    @classmethod
    def from_bytes(cls, data: bytes, what: str = "decryption share") -> Share:
        """The share of 96 bytes (a point, a challenge, a response: each checked)."""
        if len(data) != 3 * SIZE:
            raise MalformedError(f"{what}: a decryption share is {3 * SIZE} bytes")
        try:
            proof = Proof(challenge=Scalar(data[SIZE : 2 * SIZE]), response=Scalar(data[2 * SIZE :]))
            return cls(point=Point(data[:SIZE]), proof=proof)
        except MalformedError as exc:
            raise MalformedError(f"{what}: {exc}") from None


def parse_base64(text: object, size: int, what: str) -> bytes:
    """`size` bytes from their standard base64 (padded, no newline, nothing else: the one text
    `b64encode` gives); MalformedError naming `what` otherwise."""
    length = 4 * ((size + 2) // 3)
    if not isinstance(text, str) or len(text) != length:
        shown = repr(text) if len(repr(text)) <= 24 else repr(text)[:21] + "..."
        raise MalformedError(f"{what}: expected {length} base64 characters ({size} bytes), got {shown}")
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise MalformedError(f"{what}: not base64") from None
    if len(data) != size or base64.b64encode(data).decode("ascii") != text:
        raise MalformedError(f"{what}: not base64 in its canonical form")
    return data


def deck_text(deck: Sequence[Ciphertext]) -> str:
    """A whole deck in one string: the base64 of its ciphertexts' bytes, from the top."""
    return base64.b64encode(b"".join(c.to_bytes() for c in deck)).decode("ascii")


def deck_bytes(text: object, size: int, what: str = "deck") -> bytes:
    """The bytes of a deck of `size` ciphertexts written by `deck_text` (its points not checked:
    `Ciphertext.from_bytes` checks each as it is read); MalformedError naming `what`."""
    return parse_base64(text, 2 * SIZE * size, what)


def deck_from_text(text: object, what: str = "deck") -> tuple[Ciphertext, ...]:
    """The ciphertexts of a deck written by `deck_text`, every point checked; MalformedError."""
    size = (len(text) * 3 // 4) // (2 * SIZE) if isinstance(text, str) else 0
    data = deck_bytes(text, size, what)
    step = 2 * SIZE
    return tuple(
        Ciphertext.from_bytes(data[at : at + step], f"{what}: card {at // step + 1}")
        for at in range(0, len(data), step)
    )


def _share_context(ciphertext: Ciphertext, context: bytes) -> bytes:
    """A share's proof covers the whole ciphertext and the caller's context (game, event)."""
    return framed(b"decryption-share", context, ciphertext.a.data, ciphertext.b.data)


def share_point(ciphertext: Ciphertext, secret: Scalar) -> Point:
    """A player's share of `ciphertext`, without proof: to open a card for oneself alone."""
    return ciphertext.a * secret


def decryption_share(ciphertext: Ciphertext, secret: Scalar, context: bytes, source: Source) -> Share:
    """The share of the player of `secret` in opening `ciphertext`, proved, in `context`."""
    proof = prove_equal_logs(secret, BASE, ciphertext.a, _share_context(ciphertext, context), source)
    return Share(point=share_point(ciphertext, secret), proof=proof)


def verify_share(ciphertext: Ciphertext, share: Share, key: Point, context: bytes) -> bool:
    """Whether `share` is the share of the owner of public `key` in opening `ciphertext`, in `context`."""
    return verify_equal_logs(BASE, key, ciphertext.a, share.point, share.proof, _share_context(ciphertext, context))


def combine(ciphertext: Ciphertext, shares: Iterable[Point]) -> Point:
    """The message of `ciphertext`, given every player's share (unchecked: see `reveal`):
    `b` minus each share (no sum of the shares made first: one group operation fewer)."""
    message = ciphertext.b
    for share in shares:
        message = message - share
    return message


def reveal(ciphertext: Ciphertext, shares: Mapping[str, Share], keys: Mapping[str, Point], context: bytes) -> Point:
    """The message of `ciphertext`, once the share of every player of `keys` (by name) verifies.

    Raises:
        VerificationError: a player's share is missing, foreign, or does not verify (named).
    """
    for name in shares:
        if name not in keys:
            raise VerificationError(f"a decryption share from {name}, who holds no key here", what=f"share of {name}")
    for name, key in keys.items():
        share = shares.get(name)
        if share is None:
            raise VerificationError(f"the decryption share of {name} is missing", what=f"share of {name}")
        if not verify_share(ciphertext, share, key, context):
            raise VerificationError(
                f"the decryption share of {name} does not verify against {name}'s key", what=f"share of {name}"
            )
    return combine(ciphertext, (share.point for share in shares.values()))


@attrs.frozen
class Deck:
    """A known deck: its card ids in order, and their points (`card_point`)."""

    cards: tuple[str, ...]
    points: tuple[Point, ...] = attrs.field(init=False, eq=False, repr=False)
    _index: dict[bytes, str] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if len(set(self.cards)) != len(self.cards):
            raise ValueError("a deck holds each card once")
        object.__setattr__(self, "points", tuple(card_point(card) for card in self.cards))
        object.__setattr__(self, "_index", {point.data: card for card, point in zip(self.cards, self.points)})

    def unmasked(self) -> tuple[Ciphertext, ...]:
        """The deck in order, each card encrypted openly (`Ciphertext.unmasked`)."""
        return tuple(Ciphertext.unmasked(point) for point in self.points)

    def card_of(self, point: Point) -> str:
        """The id of the card `point` is.

        Raises:
            VerificationError: `point` is no card of this deck.
        """
        card = self._index.get(point.data)
        if card is None:
            raise VerificationError("the card revealed is none of this deck's", what="revealed card")
        return card
