"""A player's keys: signatures verify for their message and purpose only; a proof of possession
for its context and key only; key files round-trip, and anything else is refused in one line."""

from __future__ import annotations

import os

import pytest

from splendor_cli.crypto.group import Point, Scalar
from splendor_cli.crypto.keys import Possession, PublicKey, SecretKey, check_possession, context
from splendor_cli.errors import MalformedError, VerificationError

ANN = SecretKey.generate("ann", os.urandom)
BOB = SecretKey.generate("bob", os.urandom)


def test_a_signature_verifies_for_its_message_and_purpose_only() -> None:
    """Refused: an altered message, another purpose, another signer, an altered or forged
    signature, a signature of the wrong size."""
    signature = ANN.sign("move", b"#12 take white blue green")
    public = ANN.public
    assert public.verify("move", b"#12 take white blue green", signature)
    assert not public.verify("move", b"#12 take white blue red", signature)
    assert not public.verify("possession", b"#12 take white blue green", signature)
    assert not BOB.public.verify("move", b"#12 take white blue green", signature)
    altered = bytes([signature[0] ^ 1]) + signature[1:]
    assert not public.verify("move", b"#12 take white blue green", altered)
    assert not public.verify("move", b"#12 take white blue green", os.urandom(64))
    assert not public.verify("move", b"#12 take white blue green", signature[:63])


def test_a_possession_verifies_in_its_context_and_for_its_keys_only() -> None:
    """The bundle binds both public keys and the context: replayed in another game, claimed by
    another player, or glued to another player's card key, it is refused by name."""
    here = context("game-1", "ann")
    proof = ANN.possession(here, os.urandom)
    check_possession(ANN.public, proof, here)
    assert Possession.from_hex(proof.to_hex()) == proof
    with pytest.raises(VerificationError, match="signature of ann's proof of possession") as caught:
        check_possession(ANN.public, proof, context("game-2", "ann"))
    assert caught.value.what == "possession signature of ann"
    with pytest.raises(VerificationError):
        check_possession(BOB.public, proof, here)
    glued = PublicKey(name="ann", signing=ANN.public.signing, card=BOB.public.card)  # bob's card key, ann's name
    with pytest.raises(VerificationError):
        check_possession(glued, BOB.possession(here, os.urandom), here)
    resigned = Possession(signature=proof.signature, proof=BOB.possession(here, os.urandom).proof)
    with pytest.raises(VerificationError, match="holds their card key"):
        check_possession(ANN.public, resigned, here)


def test_contexts_are_framed() -> None:
    """("ab", "c") and ("a", "bc") are different contexts."""
    assert context("ab", "c") != context("a", "bc")


def test_the_secret_key_file_round_trips() -> None:
    """`from_toml(to_toml())` gives back the key; the file says format 1 and kind secret."""
    text = ANN.to_toml()
    assert SecretKey.from_toml(text) == ANN
    assert "format = 1\n" in text and 'kind = "secret"\n' in text
    assert SecretKey.from_toml(text).public == ANN.public


def test_the_public_key_file_round_trips_with_its_proof() -> None:
    """The public file carries a proof of possession in the context ("key", name): read back,
    it is checked; a file whose keys were swapped for another player's is refused."""
    text = ANN.public.to_toml(ANN.possession(context("key", "ann"), os.urandom))
    assert PublicKey.from_toml(text) == ANN.public
    assert ANN.public.fingerprint in text
    forged = text.replace(ANN.public.card.to_hex(), BOB.public.card.to_hex())
    with pytest.raises(VerificationError):
        PublicKey.from_toml(forged)
    with pytest.raises(MalformedError, match="not a public key file"):
        PublicKey.from_toml(ANN.to_toml())


def test_a_key_never_prints_its_secrets() -> None:
    assert ANN.signing.hex() not in repr(ANN) and ANN.card.to_hex() not in repr(ANN)


def test_the_fingerprint_is_short_and_stable() -> None:
    assert ANN.public.fingerprint == SecretKey.from_toml(ANN.to_toml()).public.fingerprint
    assert len(ANN.public.fingerprint.replace(" ", "")) == 20 and ANN.public.fingerprint != BOB.public.fingerprint


def test_a_shuffle_seed_is_derived_per_label() -> None:
    assert ANN.shuffle_seed("g/1") == ANN.shuffle_seed("g/1") != ANN.shuffle_seed("g/2") != BOB.shuffle_seed("g/2")
    assert len(ANN.shuffle_seed("g/1")) == 32


GOOD = ANN.to_toml()
SIGNING = f'signing = "{ANN.signing.hex()}"'
CARD = f'card = "{ANN.card.to_hex()}"'


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "no `format = 1`"),
        ("not toml at all", "not a key file"),
        ("format = 1\n" * 2, "not a key file"),
        (GOOD.replace("format = 1", "format = 2"), "newer format (2)"),
        (GOOD.replace("format = 1", "format = 0"), "unknown format (0)"),
        (GOOD.replace("format = 1", 'format = "1"'), "no `format = 1`"),
        (GOOD.replace("format = 1", "format = true"), "no `format = 1`"),
        (GOOD.replace('kind = "secret"', 'kind = "public"'), "not a secret key file"),
        (GOOD.replace(SIGNING + "\n", ""), "no signing"),
        (GOOD + 'extra = "x"\n', "unknown key 'extra'"),
        (GOOD.replace(SIGNING, SIGNING.upper().replace("SIGNING", "signing")), "signing: expected 64 lowercase hex"),
        (GOOD.replace(SIGNING, 'signing = "abc"'), "signing: expected 64"),
        (GOOD.replace(CARD, f'card = "{(2**253 - 1).to_bytes(32, "little").hex()}"'), "scalar out of range"),
        (GOOD.replace(CARD, f'card = "{"00" * 32}"'), "card secret may not be zero"),
        (GOOD.replace('name = "ann"', 'name = "a\\u001b[2Jb"'), "printable"),
        (GOOD.replace('name = "ann"', 'name = ""'), "1 to 64"),
        (GOOD.replace('name = "ann"', "name = 7"), "1 to 64"),
        (GOOD + "#" * 5000, "longer than 4096"),
    ],
)
def test_a_malformed_secret_key_file_is_refused_in_one_line(text: str, said: str) -> None:
    """Every departure from what `to_toml` writes is refused, with a one-line message saying what."""
    with pytest.raises(MalformedError) as caught:
        SecretKey.from_toml(text)
    assert said in str(caught.value) and "\n" not in str(caught.value), str(caught.value)
    assert caught.value.exit_code == 4


def test_a_key_is_never_zero_or_the_identity() -> None:
    with pytest.raises(MalformedError):
        SecretKey(name="ann", signing=bytes(32), card=Scalar.of(0))
    with pytest.raises(MalformedError):
        PublicKey(name="ann", signing=bytes(32), card=Point(bytes(32)))
