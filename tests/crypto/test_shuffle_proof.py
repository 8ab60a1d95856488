"""Proofs of shuffle: an honest shuffle's proof verifies; a shuffle that swaps, replaces or
re-masks a card after the fact fails; a proof verifies for its own decks, key and context only
(no weak Fiat-Shamir), and for no altered part; a stacked deck gets no proof; the text form
refuses what is not a proof."""

from __future__ import annotations

import base64
import os
from typing import Any

import attrs
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.crypto import shuffle_proof
from splendor_cli.crypto.elgamal import Ciphertext, Deck, card_point, encrypt, joint_key, reencrypt
from splendor_cli.crypto.group import BASE, ORDER, Point, Scalar, digest
from splendor_cli.crypto.shuffle import shuffle, witness
from splendor_cli.crypto.shuffle_proof import (
    ShuffleProof,
    prove_shuffle,
    shuffle_and_prove,
    text_size,
    verify_shuffle,
)
from splendor_cli.errors import MalformedError

seeds = st.binary(min_size=32, max_size=32)


def key_of(players: int) -> Point:
    return joint_key(Point.base_times(Scalar.random(os.urandom)) for _ in range(players))


def encrypted(size: int, y: Point, prefix: str = "1") -> tuple[Ciphertext, ...]:
    """A deck of `size` cards, each encrypted under `y` with a fresh randomizer."""
    return tuple(encrypt(p, y, Scalar.random(os.urandom)) for p in cards(size, prefix).points)


def cards(size: int, prefix: str = "1") -> Deck:
    return Deck(tuple(f"{prefix}-{n:02d}" for n in range(1, size + 1)))


def context(game: str = "game-1", seat: str = "ann", deck: str = "deck-1") -> bytes:
    return f"{game}/{seat}/{deck}".encode()


@settings(max_examples=examples(1))
@given(st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=4), seeds)
def test_an_honest_shuffle_verifies(size: int, players: int, seed: bytes) -> None:
    """The proof of a shuffle verifies, round-trips through its text, and the shuffle is the one
    shuffle.shuffle makes of that seed and label."""
    y = key_of(players)
    before = encrypted(size, y)
    after, proof = shuffle_and_prove(before, y, seed, "label", context(), os.urandom)
    assert after == shuffle(before, y, seed, "label")
    assert verify_shuffle(before, after, y, proof, context())
    text = proof.to_text()
    assert len(text) == text_size(size) and "\n" not in text
    assert len(base64.b64decode(text)) == (4 * size + 5) * 32
    assert ShuffleProof.from_text(text, size) == proof


@settings(max_examples=examples(1))
@given(
    st.integers(min_value=2, max_value=12),
    st.sampled_from(["swap", "same card", "deck's card", "foreign card", "remask"]),
    st.data(),
)
def test_a_deck_changed_after_its_proof_fails(size: int, how: str, data: st.DataObject) -> None:
    """Two cards swapped; one replaced by a fresh encryption of the very card it holds, of
    another card of the deck or of a card from elsewhere; or one re-encrypted once more: the
    honest proof of the shuffle no longer verifies."""
    y, seed, deck = key_of(2), os.urandom(32), cards(size)
    before = tuple(encrypt(p, y, Scalar.random(os.urandom)) for p in deck.points)
    after, proof = shuffle_and_prove(before, y, seed, "label", context(), os.urandom)
    order, _ = witness(before, seed, "label")
    cheat = list(after)
    positions = st.integers(min_value=0, max_value=size - 1)
    k = data.draw(positions, label="position")
    if how == "swap":
        other = data.draw(positions.filter(lambda j: j != k), label="other position")
        cheat[k], cheat[other] = cheat[other], cheat[k]
    elif how == "remask":
        cheat[k] = reencrypt(cheat[k], y, Scalar.random(os.urandom))
    else:
        held = deck.cards[order[k]]
        others = st.sampled_from([c for c in deck.cards if c != held])
        card = {"same card": held, "foreign card": "3-99"}.get(how) or data.draw(others, label="card")
        cheat[k] = encrypt(card_point(card), y, Scalar.random(os.urandom))
    assert not verify_shuffle(before, cheat, y, proof, context())


@attrs.frozen
class Scene:
    """A deck of eight cards before and after ann's shuffle, with its proof."""

    y: Point
    before: tuple[Ciphertext, ...]
    after: tuple[Ciphertext, ...]
    proof: ShuffleProof


@pytest.fixture(scope="module")
def scene() -> Scene:
    y = key_of(2)
    before = encrypted(8, y)
    after, proof = shuffle_and_prove(before, y, os.urandom(32), "game-1/deck-1/ann", context(), os.urandom)
    return Scene(y=y, before=before, after=after, proof=proof)


def test_the_scene_verifies(scene: Scene) -> None:
    assert verify_shuffle(scene.before, scene.after, scene.y, scene.proof, context())


@pytest.mark.parametrize(
    "where", [context("game-2"), context(seat="bob"), context(deck="deck-2"), b"", context() + b"\x00"]
)
def test_another_context_fails(scene: Scene, where: bytes) -> None:
    """Another game, another seat, another deck: the proof is of its own context only."""
    assert not verify_shuffle(scene.before, scene.after, scene.y, scene.proof, where)


def test_another_input_deck_fails(scene: Scene) -> None:
    """The same cards encrypted afresh, or the input in another order, or other cards."""
    for other in (
        encrypted(8, scene.y),
        scene.before[::-1],
        tuple(reencrypt(c, scene.y, Scalar.random(os.urandom)) for c in scene.before),
        encrypted(8, scene.y, prefix="2"),
    ):
        assert not verify_shuffle(other, scene.after, scene.y, scene.proof, context())


def test_another_key_fails(scene: Scene) -> None:
    for key in (key_of(1), scene.y + BASE, BASE):
        assert not verify_shuffle(scene.before, scene.after, key, scene.proof, context())


def test_truncated_or_mismatched_decks_fail(scene: Scene) -> None:
    before, after, proof = scene.before, scene.after, scene.proof
    assert not verify_shuffle(before[:-1], after[:-1], scene.y, proof, context())
    assert not verify_shuffle(before, after[:-1], scene.y, proof, context())
    assert not verify_shuffle(before[:-1], after, scene.y, proof, context())
    assert not verify_shuffle((), (), scene.y, proof, context())
    assert not verify_shuffle((*before, before[0]), (*after, before[0]), scene.y, proof, context())


def _forged_input(
    before: tuple[Ciphertext, ...], after: tuple[Ciphertext, ...], y: Point, proof: ShuffleProof
) -> tuple[Ciphertext, ...]:
    """Another input deck with the same `A = Σ u_j a_j` for the challenges u of the proof as
    published: a_1 + u_2 D and a_2 - u_1 D (D random). Every equation of the verifier holds
    for it; only a hash that covers the input deck tells it from the real one."""
    statement = shuffle_proof._statement(b"", y.data, before, after)
    u = shuffle_proof._challenges(shuffle_proof._committed(statement, proof.commitments), len(before))
    d = Point.base_times(Scalar.random(os.urandom))
    first = Ciphertext(a=before[0].a + d * Scalar.of(u[1]), b=before[0].b)
    second = Ciphertext(a=before[1].a - d * Scalar.of(u[0]), b=before[1].b)
    return (first, second, *before[2:])


def test_a_weak_fiat_shamir_forgery_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the decks left out of the hashes (as in the broken verifiers of Helios and
    SwissPost), an input deck made after the proof would verify; here it does not."""
    y, seed = key_of(2), os.urandom(32)
    before = encrypted(6, y)
    after, proof = shuffle_and_prove(before, y, seed, "l", b"", os.urandom)
    forged = _forged_input(before, after, y, proof)
    assert forged != before and not verify_shuffle(forged, after, y, proof, b"")

    def weak(context: bytes, key: bytes, before: object, after: object) -> bytes:
        return digest("weak", context, key)

    monkeypatch.setattr(shuffle_proof, "_statement", weak)
    after, proof = shuffle_and_prove(before, y, seed, "l", b"", os.urandom)
    assert verify_shuffle(_forged_input(before, after, y, proof), after, y, proof, b"")  # the attack works there


def _point_changed(value: bytes) -> bytes:
    return (Point(value) + BASE).data


def _scalar_changed(value: bytes) -> bytes:
    return (Scalar(value) + Scalar.of(1)).data


def _altered(proof: ShuffleProof, field: str, index: int) -> ShuffleProof:
    value = getattr(proof, field)
    change = _point_changed if field in ("commitments", "chain") else _scalar_changed
    if field == "challenge":
        return attrs.evolve(proof, challenge=change(value))
    values = list(value)
    values[index] = change(values[index])
    changes: dict[str, Any] = {field: tuple(values)}
    return attrs.evolve(proof, **changes)


@pytest.mark.parametrize(
    ("field", "index"),
    [
        ("challenge", 0),
        ("commitments", 0),
        ("commitments", 7),
        ("chain", 0),
        ("chain", 3),
        ("chain", 7),
        *(("responses", k) for k in range(4)),
        ("chain_responses", 0),
        ("chain_responses", 7),
        ("permuted_responses", 0),
        ("permuted_responses", 5),
    ],
)
def test_any_altered_part_of_the_proof_fails(scene: Scene, field: str, index: int) -> None:
    assert not verify_shuffle(scene.before, scene.after, scene.y, _altered(scene.proof, field, index), context())


def test_two_commitments_swapped_fail(scene: Scene) -> None:
    commitments = list(scene.proof.commitments)
    commitments[0], commitments[1] = commitments[1], commitments[0]
    proof = attrs.evolve(scene.proof, commitments=tuple(commitments))
    assert not verify_shuffle(scene.before, scene.after, scene.y, proof, context())


def test_a_stacked_deck_gets_no_proof() -> None:
    """Fresh encryptions of the cards in an order the cheater chose are no re-encryption of the
    input: no order and randomizers exist for them, and any made up give a proof that fails."""
    y, size = key_of(2), 10
    before = encrypted(size, y)
    chosen = tuple(reversed(cards(size).cards))
    stacked = tuple(encrypt(card_point(card), y, Scalar.random(os.urandom)) for card in chosen)
    made_up = (
        (tuple(range(size)), tuple(Scalar.random(os.urandom) for _ in range(size))),
        (tuple(reversed(range(size))), tuple(Scalar.random(os.urandom) for _ in range(size))),
        (tuple(reversed(range(size))), tuple(Scalar.of(0) for _ in range(size))),
    )
    for order, randomizers in made_up:
        proof = prove_shuffle(before, stacked, y, order, randomizers, context(), os.urandom)
        assert not verify_shuffle(before, stacked, y, proof, context())


def test_a_wrong_randomizer_fails() -> None:
    """The right order with one randomizer off by one: the proof fails."""
    y, seed = key_of(2), os.urandom(32)
    before = encrypted(6, y)
    after = shuffle(before, y, seed, "label")
    order, randomizers = witness(before, seed, "label")
    assert verify_shuffle(before, after, y, prove_shuffle(before, after, y, order, randomizers, b"", os.urandom), b"")
    wrong = (randomizers[0] + Scalar.of(1), *randomizers[1:])
    assert not verify_shuffle(before, after, y, prove_shuffle(before, after, y, order, wrong, b"", os.urandom), b"")


def test_a_witness_of_the_wrong_shape_is_refused(scene: Scene) -> None:
    order, randomizers = tuple(range(8)), tuple(Scalar.of(1) for _ in range(8))
    for bad_order, bad_randomizers, after in (
        ((0, 0, 1, 2, 3, 4, 5, 6), randomizers, scene.after),
        (order[:-1], randomizers, scene.after),
        (order, randomizers[:-1], scene.after),
        (order, randomizers, scene.after[:-1]),
    ):
        with pytest.raises(ValueError):
            prove_shuffle(scene.before, after, scene.y, bad_order, bad_randomizers, b"", os.urandom)
    with pytest.raises(ValueError):
        prove_shuffle((), (), scene.y, (), (), b"", os.urandom)


def test_proofs_are_fresh_and_a_fixed_source_still_proves(scene: Scene) -> None:
    """Two proofs of one shuffle differ (hedged randomness); a source of zeros still makes a
    proof that verifies, and different ones for different statements."""
    seed = os.urandom(32)
    first = shuffle_and_prove(scene.before, scene.y, seed, "l", b"", os.urandom)
    second = shuffle_and_prove(scene.before, scene.y, seed, "l", b"", os.urandom)
    assert first[0] == second[0] and first[1] != second[1]
    after, zero_one = shuffle_and_prove(scene.before, scene.y, seed, "l", b"one", bytes)
    _, zero_two = shuffle_and_prove(scene.before, scene.y, seed, "l", b"two", bytes)
    assert verify_shuffle(scene.before, after, scene.y, zero_one, b"one")
    assert zero_one.commitments != zero_two.commitments


def test_the_repr_is_short(scene: Scene) -> None:
    assert repr(scene.proof) == "ShuffleProof(<8 cards>)"


# -- the text form -----------------------------------------------------------------------------


def _text(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.mark.parametrize(
    "text",
    [None, 42, b"abc", ["x"], "", "!" * text_size(8), "é" * text_size(8)],
)
def test_garbage_is_refused(text: object) -> None:
    with pytest.raises(MalformedError, match="deck-1 proof"):
        ShuffleProof.from_text(text, 8, what="deck-1 proof")


def test_wrong_lengths_are_refused(scene: Scene) -> None:
    text = scene.proof.to_text()
    data = base64.b64decode(text)
    for bad, size in ((text, 7), (text, 9), (text, 0), (text + "AAAA", 8), (text[:-4], 8), (_text(data[:-32]), 8)):
        with pytest.raises(MalformedError, match="shuffle proof"):
            ShuffleProof.from_text(bad, size)
    with pytest.raises(MalformedError):
        ShuffleProof.from_text(text[:100] + "\n" + text[101:], 8)


def test_non_canonical_values_are_refused(scene: Scene) -> None:
    data = base64.b64decode(scene.proof.to_text())
    not_a_point = b"\xff" * 32
    too_big = ORDER.to_bytes(32, "little")
    for offset, value in (
        (32, not_a_point),  # c_1
        (9 * 32, not_a_point),  # ĉ_1
        (0, too_big),  # c
        (17 * 32, too_big),  # s_1
        (len(data) - 32, too_big),  # s'_8
        (len(data) - 32, b"\xff" * 32),
    ):
        bad = data[:offset] + value + data[offset + 32 :]
        with pytest.raises(MalformedError, match="shuffle proof"):
            ShuffleProof.from_text(_text(bad), 8)


def test_base64_not_in_canonical_form_is_refused() -> None:
    """Padding bits that are not zero decode to the same bytes: refused all the same."""
    # 1 card: 9 * 32 = 288 bytes, a multiple of 3, no padding; 2 cards: 416 bytes, one "="
    assert text_size(1) == 384 and text_size(2) == 556
    y = key_of(1)
    before = encrypted(2, y)
    _, proof = shuffle_and_prove(before, y, os.urandom(32), "l", b"", os.urandom)
    text = proof.to_text()
    assert text.endswith("=") and not text.endswith("==")
    last = text[-2]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    changed = alphabet[alphabet.index(last) ^ 1]
    bad = text[:-2] + changed + "="
    assert base64.b64decode(bad) == base64.b64decode(text)
    with pytest.raises(MalformedError, match="canonical"):
        ShuffleProof.from_text(bad, 2)


def test_a_proof_made_directly_is_checked() -> None:
    with pytest.raises(MalformedError):
        ShuffleProof(bytes(32), (), (), (bytes(32),) * 4, (), ())
    with pytest.raises(MalformedError):
        ShuffleProof(bytes(32), (BASE.data,), (BASE.data, BASE.data), (bytes(32),) * 4, (bytes(32),), (bytes(32),))
    with pytest.raises(MalformedError):
        ShuffleProof(bytes(32), (b"\xff" * 32,), (BASE.data,), (bytes(32),) * 4, (bytes(32),), (bytes(32),))
