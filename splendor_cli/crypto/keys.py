"""A player's keys: Ed25519 to sign (libsodium through ctypes, sodium.py), a ristretto255 scalar to open cards.

`SecretKey` holds both secrets (the 32-byte Ed25519 seed and the scalar); `PublicKey` their
public halves. A signature covers a purpose and a message (`sign("move", data)` signs the
framed `splendor-cli/crypto/v1/sign/move` and `data`): a signature made for one purpose never
verifies for another. A proof of possession (`Possession`) ties the two halves together in a
context (the game id and the player's name): an Ed25519 signature over the context and both
public keys, and a Schnorr proof of the card secret over the same; it is what stops a player
from choosing their card key from the others' (a rogue key) or copying another player's.

Both keys read and write a small TOML text, versioned (`format = 1`); anything else is refused
with a one-line `MalformedError`.
"""

from __future__ import annotations

import functools
import json
import tomllib
from typing import Any

import attrs

from ..errors import MalformedError, VerificationError
from .group import PROTOCOL, SIZE, Point, Scalar, Source, digest, framed, parse_hex
from .proofs import Proof, prove_knowledge, verify_knowledge

FORMAT = 1
"""The version of the key files this code writes (and the newest it reads)."""
SIGNATURE_BYTES = 64
MAX_TEXT = 4096
"""The longest key file read (a key file is a few hundred characters)."""
MAX_NAME = 64


def context(*parts: str) -> bytes:
    """A context for a proof or a signature: the parts (game id, player name...), framed."""
    return framed(*(part.encode("utf-8") for part in parts))


def fingerprint(signing: bytes) -> str:
    """A short name of an Ed25519 public key (a player's identity: the key that signs their moves
    in every game, and proves they hold a game's card key when they join), to compare by eye or
    read aloud: 20 hex digits (80 bits of SHA-256) in groups of four."""
    text = digest("signing-fingerprint", signing)[:10].hex()
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def _check_name(instance: object, attribute: object, name: str) -> None:
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
        raise MalformedError(f"a key's name is 1 to {MAX_NAME} printable characters, not {_shown(name)}")


def _check_signing(instance: object, attribute: object, value: bytes) -> None:
    if not isinstance(value, bytes) or len(value) != SIZE:
        raise MalformedError(f"an Ed25519 key is {SIZE} bytes")


def _check_card_public(instance: object, attribute: object, value: Point) -> None:
    if not value:
        raise MalformedError("a card key may not be the identity")


def _check_card_secret(instance: object, attribute: object, value: Scalar) -> None:
    if not value:
        raise MalformedError("a card secret may not be zero")


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _signed(purpose: str, message: bytes) -> bytes:
    return framed(f"{PROTOCOL}/sign/{purpose}".encode(), message)


@attrs.frozen(kw_only=True)
class PublicKey:
    """The public half of a player's keys: what the others verify signatures and shares with."""

    name: str = attrs.field(validator=_check_name)
    signing: bytes = attrs.field(validator=_check_signing)
    """The Ed25519 public key."""
    card: Point = attrs.field(validator=_check_card_public)
    """The ristretto255 public key (`x BASE`), a share of the joint key of a game."""

    @property
    def fingerprint(self) -> str:
        """A short name of the signing key, to compare by eye or read aloud (`fingerprint`): the
        same in every game, whose seats `show`, `log` and `verify` print in this form."""
        return fingerprint(self.signing)

    def verify(self, purpose: str, message: bytes, signature: bytes) -> bool:
        """Whether `signature` is this key's over `message`, signed for `purpose`."""
        if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
            return False
        from . import sodium

        return sodium.verify_signature(signature, _signed(purpose, message), self.signing)

    def to_json(self) -> dict[str, str]:
        return {
            "name": self.name,
            "fingerprint": self.fingerprint,
            "signing": self.signing.hex(),
            "card": self.card.to_hex(),
        }

    def to_toml(self, possession: Possession) -> str:
        """The public key file: both keys and a proof of possession in the context `("key", name)`."""
        return (
            f"# The public keys of a splendor-cli player; fingerprint {self.fingerprint}\n"
            f"format = {FORMAT}\n"
            'kind = "public"\n'
            f"name = {json.dumps(self.name)}\n"
            f'signing = "{self.signing.hex()}"\n'
            f'card = "{self.card.to_hex()}"\n'
            f'possession = "{possession.to_hex()}"\n'
        )

    @classmethod
    def from_toml(cls, text: str) -> PublicKey:
        """The public key of a file `to_toml` wrote, its proof of possession checked.

        Raises:
            MalformedError: the text is not such a file.
            VerificationError: its proof of possession does not verify.
        """
        table = _table(text, "public", ("name", "signing", "card", "possession"))
        public = cls(
            name=table["name"],
            signing=parse_hex(table["signing"], SIZE, "signing"),
            card=Point.from_hex(table["card"], "card"),
        )
        check_possession(public, Possession.from_hex(table["possession"]), context("key", public.name))
        return public


@attrs.frozen(kw_only=True)
class Possession:
    """A proof that one player holds both secrets of a public key, in a context."""

    signature: bytes
    """Ed25519, over the context and both public keys."""
    proof: Proof
    """Schnorr, of the card secret, over the same."""

    def to_hex(self) -> str:
        """256 hex digits: the signature, then the proof."""
        return self.signature.hex() + self.proof.to_hex()

    @classmethod
    def from_hex(cls, text: object, what: str = "possession") -> Possession:
        data = parse_hex(text, SIGNATURE_BYTES + 2 * SIZE, what)
        try:
            proof = Proof.from_hex(data[SIGNATURE_BYTES:].hex(), what)
        except MalformedError as exc:
            raise MalformedError(f"{what}: {exc}") from None
        return cls(signature=data[:SIGNATURE_BYTES], proof=proof)


def _possessed(public: PublicKey, where: bytes) -> bytes:
    return framed(b"possession", where, public.signing, public.card.data)


def check_possession(public: PublicKey, possession: Possession, where: bytes) -> None:
    """Check that the owner of `public` proved holding both its secrets in context `where`.

    Raises:
        VerificationError: the signature, or the proof of the card secret, does not verify (named).
    """
    statement = _possessed(public, where)
    if not public.verify("possession", statement, possession.signature):
        raise VerificationError(
            f"the signature of {public.name}'s proof of possession does not verify (another context or key?)",
            what=f"possession signature of {public.name}",
        )
    if not verify_knowledge(public.card, possession.proof, statement):
        raise VerificationError(
            f"the proof that {public.name} holds their card key does not verify (another context or key?)",
            what=f"possession proof of {public.name}",
        )


@attrs.frozen(kw_only=True, repr=False)
class SecretKey:
    """A player's secrets: the Ed25519 seed and the card scalar. Never printed (no repr)."""

    name: str = attrs.field(validator=_check_name)
    signing: bytes = attrs.field(validator=_check_signing)
    """The Ed25519 seed (32 bytes)."""
    card: Scalar = attrs.field(validator=_check_card_secret)

    @classmethod
    def generate(cls, name: str, source: Source) -> SecretKey:
        """A new key pair for `name`, from `source` (`os.urandom`)."""
        return cls(name=name, signing=source(SIZE), card=Scalar.random(source))

    @functools.cached_property
    def _signing_pair(self) -> tuple[bytes, bytes]:
        """The Ed25519 public key and libsodium's 64-byte secret key of the seed (made once)."""
        from . import sodium

        return sodium.sign_keypair(self.signing)

    @functools.cached_property
    def public(self) -> PublicKey:
        """Both public keys (computed once per key: a sealed game's reader asks for it often)."""
        return PublicKey(name=self.name, signing=self._signing_pair[0], card=Point.base_times(self.card))

    def sign(self, purpose: str, message: bytes) -> bytes:
        """The Ed25519 signature (64 bytes, deterministic: RFC 8032) of `message` for `purpose`."""
        from . import sodium

        return sodium.sign_detached(_signed(purpose, message), self._signing_pair[1])

    def possession(self, where: bytes, source: Source) -> Possession:
        """A proof of possession of both secrets in context `where` (see `context`)."""
        statement = _possessed(self.public, where)
        return Possession(
            signature=self.sign("possession", statement), proof=prove_knowledge(self.card, statement, source)
        )

    def shuffle_seed(self, label: str) -> bytes:
        """A shuffle's seed for `label` (shuffle.py), derived from the secrets: nothing to keep,
        and publishing it after the game tells nothing of the key."""
        return digest("shuffle/seed", self.signing, self.card.data, label.encode("utf-8"))[:SIZE]

    def to_toml(self) -> str:
        """The secret key file."""
        return (
            "# The secret keys of a splendor-cli player: whoever reads them signs moves and opens cards\n"
            f"# as {self.name}. Keep this file private; `splendor key export --secret` makes a backup.\n"
            f"format = {FORMAT}\n"
            'kind = "secret"\n'
            f"name = {json.dumps(self.name)}\n"
            f'signing = "{self.signing.hex()}"\n'
            f'card = "{self.card.to_hex()}"\n'
        )

    @classmethod
    def from_toml(cls, text: str) -> SecretKey:
        """The secret key of a file `to_toml` wrote.

        Raises:
            MalformedError: the text is not such a file.
        """
        table = _table(text, "secret", ("name", "signing", "card"))
        return cls(
            name=table["name"],
            signing=parse_hex(table["signing"], SIZE, "signing"),
            card=Scalar.from_hex(table["card"], "card"),
        )


def _table(text: str, kind: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """The table of a key file of `kind` holding exactly `format`, `kind` and `fields`."""
    if len(text) > MAX_TEXT:
        raise MalformedError(f"not a key file: longer than {MAX_TEXT} characters")
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MalformedError(f"not a key file: {' '.join(str(exc).split())}") from None
    version = table.get("format")
    if type(version) is not int:
        raise MalformedError("not a key file: no `format = 1`")
    if version > FORMAT:
        raise MalformedError(f"a key file of a newer format ({version}): upgrade splendor-cli to read it")
    if version != FORMAT:
        raise MalformedError(f"a key file of an unknown format ({version})")
    if table.get("kind") != kind:
        raise MalformedError(f"not a {kind} key file (kind = {_shown(table.get('kind'))})")
    expected = {"format", "kind", *fields}
    extra, missing = sorted(set(table) - expected), [name for name in fields if name not in table]
    if extra:
        raise MalformedError(f"not a {kind} key file: unknown key {_shown(extra[0])}")
    if missing:
        raise MalformedError(f"not a {kind} key file: no {missing[0]}")
    return table
