"""Threshold ElGamal on cards: what all the players open together is the card encrypted; each
share verifies against its player's key, and a wrong, misplaced, foreign or replayed share is
refused by name."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor_cli.crypto.elgamal import (
    Ciphertext,
    Deck,
    Share,
    card_point,
    combine,
    deck_bytes,
    deck_from_text,
    deck_text,
    decryption_share,
    encrypt,
    joint_key,
    reencrypt,
    reveal,
    share_point,
    verify_share,
)
from splendor_cli.crypto.group import BASE, IDENTITY, Point, Scalar
from splendor_cli.crypto.proofs import Proof
from splendor_cli.errors import MalformedError, VerificationError

DECK = Deck(tuple(f"1-{n:02d}" for n in range(1, 41)))
NAMES = ("ann", "bob", "cy", "dee")
secrets = st.binary(min_size=64, max_size=64).map(Scalar.reduce).filter(bool)


def table(players: int) -> tuple[dict[str, Scalar], dict[str, Point]]:
    """Fresh secrets of `players` players, and their public keys, by name."""
    secret = {name: Scalar.random(os.urandom) for name in NAMES[:players]}
    return secret, {name: Point.base_times(x) for name, x in secret.items()}


def shares_of(c: Ciphertext, secret: dict[str, Scalar], context: bytes = b"game-1/#7") -> dict[str, Share]:
    return {name: decryption_share(c, x, context, os.urandom) for name, x in secret.items()}


@given(st.sampled_from(DECK.cards), st.sampled_from([1, 2, 4]), secrets, secrets)
def test_what_all_open_together_is_the_card(card: str, players: int, r: Scalar, s: Scalar) -> None:
    """Encrypt a card to the joint key, re-encrypt it: the shares of all the players open it,
    and the deck names it back."""
    secret, keys = table(players)
    y = joint_key(keys.values())
    c = reencrypt(encrypt(card_point(card), y, r), y, s)
    assert c.a != IDENTITY and c.b != card_point(card)
    assert DECK.card_of(reveal(c, shares_of(c, secret), keys, b"game-1/#7")) == card


def test_fewer_shares_open_nothing() -> None:
    """Without one player's share, the other shares combine to no card of the deck."""
    secret, keys = table(3)
    c = encrypt(card_point("1-05"), joint_key(keys.values()), Scalar.random(os.urandom))
    shares = shares_of(c, secret)
    partial = combine(c, (shares[name].point for name in ("ann", "bob")))
    with pytest.raises(VerificationError):
        DECK.card_of(partial)


def test_a_player_opens_a_card_for_themselves_alone() -> None:
    """The others publish their shares; the owner adds their own, computed privately."""
    secret, keys = table(2)
    c = encrypt(card_point("1-09"), joint_key(keys.values()), Scalar.random(os.urandom))
    public = decryption_share(c, secret["bob"], b"ctx", os.urandom)
    assert verify_share(c, public, keys["bob"], b"ctx")
    assert DECK.card_of(combine(c, [public.point, share_point(c, secret["ann"])])) == "1-09"


def test_every_honest_share_verifies_and_each_wrong_one_is_refused() -> None:
    """An honest share verifies. Refused: a share made with another secret, a share of another
    ciphertext, a share checked under another player's key, a share replayed in another context,
    a share whose point was swapped; `reveal` names the player whose share fails."""
    secret, keys = table(2)
    y = joint_key(keys.values())
    c = encrypt(card_point("1-01"), y, Scalar.random(os.urandom))
    other = encrypt(card_point("1-02"), y, Scalar.random(os.urandom))
    honest = shares_of(c, secret, b"ctx")
    assert all(verify_share(c, honest[name], keys[name], b"ctx") for name in keys)

    wrong = decryption_share(c, secret["ann"] + Scalar.of(1), b"ctx", os.urandom)
    assert not verify_share(c, wrong, keys["ann"], b"ctx")
    foreign = decryption_share(other, secret["ann"], b"ctx", os.urandom)
    assert not verify_share(c, foreign, keys["ann"], b"ctx")
    assert not verify_share(c, honest["ann"], keys["bob"], b"ctx")
    assert not verify_share(c, honest["ann"], keys["ann"], b"another game")
    swapped = Share(point=honest["ann"].point + BASE, proof=honest["ann"].proof)
    assert not verify_share(c, swapped, keys["ann"], b"ctx")

    for bad in (wrong, foreign, swapped):
        with pytest.raises(VerificationError, match="decryption share of ann does not verify") as caught:
            reveal(c, {**honest, "ann": bad}, keys, b"ctx")
        assert caught.value.what == "share of ann" and caught.value.exit_code == 4
    with pytest.raises(VerificationError, match="share of ann does not verify"):
        reveal(c, honest, keys, b"another game")  # every share replayed in another game: the first named
    with pytest.raises(VerificationError, match="decryption share of bob is missing"):
        reveal(c, {"ann": honest["ann"]}, keys, b"ctx")
    with pytest.raises(VerificationError, match="from eve, who holds no key"):
        reveal(c, {**honest, "eve": honest["ann"]}, keys, b"ctx")


def test_the_deck_maps_points_back_to_cards() -> None:
    """Each card's point names it; a point of no card is refused; a deck holds each card once."""
    assert [DECK.card_of(point) for point in DECK.points] == list(DECK.cards)
    assert [DECK.card_of(c.b) for c in DECK.unmasked()] == list(DECK.cards)
    with pytest.raises(VerificationError, match="none of this deck"):
        DECK.card_of(card_point("3-20"))
    with pytest.raises(ValueError):
        Deck(("1-01", "1-01"))


def test_ciphertexts_and_shares_round_trip_through_hex() -> None:
    """`from_hex(to_hex())` gives back ciphertexts and shares; malformed text is refused."""
    secret, keys = table(1)
    c = encrypt(card_point("1-01"), keys["ann"], Scalar.random(os.urandom))
    share = decryption_share(c, secret["ann"], b"", os.urandom)
    assert Ciphertext.from_hex(c.to_hex()) == c and len(c.to_hex()) == 128
    assert Share.from_hex(share.to_hex()) == share and len(share.to_hex()) == 192
    for text in ("ff" * 64, c.to_hex()[:-2], c.to_hex().upper()):
        with pytest.raises(MalformedError):
            Ciphertext.from_hex(text)
    with pytest.raises(MalformedError, match="share"):
        Share.from_hex(share.point.to_hex() + Proof(challenge=Scalar.of(1), response=Scalar.of(2)).to_hex()[:-2] + "zz")


def test_ciphertexts_shares_and_decks_round_trip_through_base64() -> None:
    """What a game file writes: standard base64, padded, one line; only that canonical text is
    read back (not another padding, not a newline, not the wrong length, not an invalid point)."""
    import base64

    secret, keys = table(1)
    deck = [encrypt(card_point(f"1-{k:02d}"), keys["ann"], Scalar.random(os.urandom)) for k in range(1, 6)]
    c = deck[0]
    share = decryption_share(c, secret["ann"], b"", os.urandom)
    assert Ciphertext.from_text(c.to_text()) == c and len(c.to_text()) == 88
    assert Share.from_text(share.to_text()) == share and len(share.to_text()) == 128
    text = deck_text(deck)
    assert len(text) == 4 * ((5 * 64 + 2) // 3) and "\n" not in text
    assert deck_from_text(text) == tuple(deck)
    assert deck_bytes(text, 5) == b"".join(c.to_bytes() for c in deck)
    assert text.endswith("=") and not text.endswith("==")  # 320 bytes: the last character before
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"  # the padding has 2 bits
    odd = text[:-2] + alphabet[alphabet.index(text[-2]) ^ 1] + "="  # that the bytes drop: the same bytes
    assert base64.b64decode(odd) == base64.b64decode(text)
    invalid = base64.b64encode(b"\xff" * 64).decode()
    for bad in (text[:-4], text + "AAAA", text[:50] + "\n" + text[50:], text.replace("+", "-"), odd):
        if bad != text:
            with pytest.raises(MalformedError, match="deck"):
                deck_bytes(bad, 5)
    for bad in (c.to_hex(), c.to_text()[:-1], invalid):
        with pytest.raises(MalformedError, match="ciphertext"):
            Ciphertext.from_text(bad)
    with pytest.raises(MalformedError, match="share"):
        Share.from_text(share.to_text()[:-4] + "////")


def test_a_joint_key_needs_a_key() -> None:
    with pytest.raises(ValueError):
        joint_key([])
