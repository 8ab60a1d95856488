"""Shuffles: by 2 and by 4 players, the deck opens as the composed permutation; each honest
shuffle re-checks from its seed; a shuffle that doubles, replaces, drops or moves a card, or
that another seed or label made, fails the check; one seed and label on two different input
decks give unrelated shuffles (no subtraction matches the cards of the two)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import attrs
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.crypto.elgamal import (
    Ciphertext,
    Deck,
    card_point,
    decryption_share,
    encrypt,
    joint_key,
    reencrypt,
    reveal,
)
from splendor_cli.crypto.group import Point, Scalar
from splendor_cli.crypto.shuffle import check_shuffle, deck_digest, permutation, randomizer, shuffle, witness

NAMES = ("ann", "bob", "cy", "dee")
seeds = st.binary(min_size=32, max_size=32)
digests = st.binary(min_size=64, max_size=64)


def players(count: int) -> tuple[dict[str, Scalar], dict[str, Point]]:
    secret = {name: Scalar.random(os.urandom) for name in NAMES[:count]}
    return secret, {name: Point.base_times(x) for name, x in secret.items()}


def opened(deck: Deck, cards: Sequence[Ciphertext], secret: dict[str, Scalar], keys: dict[str, Point]) -> list[str]:
    """Every card of `cards`, opened by all the players together."""
    found = []
    for c in cards:
        shares = {name: decryption_share(c, x, b"ctx", os.urandom) for name, x in secret.items()}
        found.append(deck.card_of(reveal(c, shares, keys, b"ctx")))
    return found


@settings(max_examples=examples(0.5))
@given(st.sampled_from([2, 4]), st.integers(min_value=1, max_value=12), st.data())
def test_shuffled_by_every_player_the_deck_opens_as_the_composed_order(
    count: int, size: int, data: st.DataObject
) -> None:
    """Each player shuffles in turn: every shuffle re-checks from its seed, and the deck opens
    to the cards in the order the permutations compose to (a permutation of the deck)."""
    deck = Deck(tuple(f"2-{n:02d}" for n in range(1, size + 1)))
    secret, keys = players(count)
    y = joint_key(keys.values())
    current: tuple[Ciphertext, ...] = deck.unmasked()
    order = list(deck.cards)
    for name in secret:
        seed, label = data.draw(seeds), f"game-1/deck-2/{name}"
        after = shuffle(current, y, seed, label)
        assert check_shuffle(current, after, y, seed, label)
        order = [order[k] for k in permutation(size, seed, label, deck_digest(current))]
        current = after
    assert opened(deck, current, secret, keys) == order
    assert sorted(order) == sorted(deck.cards)


@given(st.integers(min_value=0, max_value=60), seeds, st.text(max_size=10), digests)
def test_a_seeded_permutation_is_a_permutation(size: int, seed: bytes, label: str, input_digest: bytes) -> None:
    """The order is a permutation of range(size), the same each time for one seed, label and input."""
    order = permutation(size, seed, label, input_digest)
    assert sorted(order) == list(range(size)) and order == permutation(size, seed, label, input_digest)


def test_another_seed_label_or_input_gives_another_order() -> None:
    base = permutation(40, bytes(32), "a", bytes(64))
    assert permutation(40, bytes(31) + b"\x01", "a", bytes(64)) != base
    assert permutation(40, bytes(32), "b", bytes(64)) != base
    assert permutation(40, bytes(32), "a", bytes(63) + b"\x01") != base


def test_a_digest_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError):
        permutation(5, bytes(32), "a", bytes(32))
    with pytest.raises(ValueError):
        randomizer(bytes(32), "a", 0, b"")


def test_the_digest_covers_every_card_in_order_and_the_count() -> None:
    deck = Deck(tuple(f"1-{n:02d}" for n in range(1, 6))).unmasked()
    digests = {deck_digest(deck), deck_digest(deck[::-1]), deck_digest(deck[:-1]), deck_digest(())}
    assert len(digests) == 4 and deck_digest(deck) == deck_digest(list(deck))


def random_deck(size: int) -> tuple[Ciphertext, ...]:
    """`size` cards encrypted under a random key, each with a fresh randomizer."""
    y = Point.base_times(Scalar.random(os.urandom))
    return tuple(encrypt(card_point(f"c-{n}"), y, Scalar.random(os.urandom)) for n in range(size))


@settings(max_examples=examples(0.5))
@given(st.integers(min_value=20, max_value=60), seeds, st.text(max_size=10))
def test_one_seed_on_two_input_decks_shares_no_permutation(size: int, seed: bytes, label: str) -> None:
    """A player who shuffles two different decks (a forked setup) with one seed and label
    applies two unrelated permutations and randomizers."""
    first, second = deck_digest(random_deck(size)), deck_digest(random_deck(size))
    assert permutation(size, seed, label, first) != permutation(size, seed, label, second)
    assert all(randomizer(seed, label, k, first) != randomizer(seed, label, k, second) for k in range(size))


def test_the_subtraction_attack_finds_nothing() -> None:
    """D2 is D1 re-encrypted in another order; one seed shuffles both. Were the permutation and
    the randomizers of each position the same, `a'_k - a_k` of the two outputs would hold the
    same `r_k BASE` and the cards could be matched: they are not the same."""
    size, seed, label = 24, os.urandom(32), "game-1/deck-1/ann"
    y = Point.base_times(Scalar.random(os.urandom))
    d1 = tuple(encrypt(card_point(f"1-{n:02d}"), y, Scalar.random(os.urandom)) for n in range(size))
    moved = list(range(size))
    moved.reverse()
    d2 = tuple(reencrypt(d1[j], y, Scalar.random(os.urandom)) for j in moved)
    (order_1, r_1), (order_2, r_2) = witness(d1, seed, label), witness(d2, seed, label)
    assert order_1 != order_2
    assert all(r_1[k] != r_2[k] for k in range(size))
    out_1, out_2 = shuffle(d1, y, seed, label), shuffle(d2, y, seed, label)
    # the masks the shuffle added at each position, as a subtraction would find them: none repeats
    masks_1 = {out_1[k].a - d1[order_1[k]].a for k in range(size)}
    masks_2 = {out_2[k].a - d2[order_2[k]].a for k in range(size)}
    assert not masks_1 & masks_2


@attrs.frozen
class Scene:
    """A deck of ten encrypted cards, before and after ann's honest shuffle."""

    keys: dict[str, Point]
    y: Point
    seed: bytes
    label: str
    before: tuple[Ciphertext, ...]
    after: tuple[Ciphertext, ...]


@pytest.fixture(scope="module")
def scene() -> Scene:
    deck = Deck(tuple(f"1-{n:02d}" for n in range(1, 11)))
    _, keys = players(2)
    y = joint_key(keys.values())
    seed, label = os.urandom(32), "game-1/deck-1/ann"
    before = tuple(encrypt(p, y, Scalar.random(os.urandom)) for p in deck.points)
    return Scene(keys=keys, y=y, seed=seed, label=label, before=before, after=shuffle(before, y, seed, label))


def test_the_honest_shuffle_passes(scene: Scene) -> None:
    assert check_shuffle(scene.before, scene.after, scene.y, scene.seed, scene.label)


def test_a_doubled_card_fails(scene: Scene) -> None:
    """One card re-encrypted twice (another card gone): the deck would open with a card twice."""
    cheat = list(scene.after)
    three = Scalar.of(3)
    cheat[3] = Ciphertext(a=cheat[5].a + Point.base_times(three), b=cheat[5].b + scene.y * three)
    assert not check_shuffle(scene.before, cheat, scene.y, scene.seed, scene.label)


def test_a_replaced_card_fails(scene: Scene) -> None:
    """A card swapped for one of the cheater's choice (a fresh encryption of 1-01)."""
    cheat = list(scene.after)
    cheat[0] = encrypt(card_point("1-01"), scene.y, Scalar.random(os.urandom))
    assert not check_shuffle(scene.before, cheat, scene.y, scene.seed, scene.label)


def test_a_dropped_or_added_card_fails(scene: Scene) -> None:
    assert not check_shuffle(scene.before, scene.after[:-1], scene.y, scene.seed, scene.label)
    assert not check_shuffle(scene.before, (*scene.after, scene.after[0]), scene.y, scene.seed, scene.label)


def test_two_cards_moved_fail(scene: Scene) -> None:
    """The right cards, freshly masked, in an order the seed does not make."""
    cheat = list(scene.after)
    cheat[1], cheat[2] = cheat[2], cheat[1]
    assert not check_shuffle(scene.before, cheat, scene.y, scene.seed, scene.label)


@pytest.mark.parametrize("which", ["seed", "label", "key"])
def test_another_seed_label_or_key_fails(scene: Scene, which: str) -> None:
    """The shuffle is re-made from this seed, this label and this joint key only."""
    seed = os.urandom(32) if which == "seed" else scene.seed
    label = "game-1/deck-1/bob" if which == "label" else scene.label
    key = scene.keys["ann"] if which == "key" else scene.y
    assert not check_shuffle(scene.before, scene.after, key, seed, label)


def test_a_seed_of_the_wrong_size_fails(scene: Scene) -> None:
    assert not check_shuffle(scene.before, scene.after, scene.y, scene.seed[:31], scene.label)
    with pytest.raises(ValueError):
        shuffle(scene.before, scene.y, b"short", scene.label)
