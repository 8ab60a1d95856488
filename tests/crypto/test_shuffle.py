"""Shuffles: by 2 and by 4 players, the deck opens as the composed permutation; each honest
shuffle re-checks from its seed; a shuffle that doubles, replaces, drops or moves a card, or
that another seed or label made, fails the check."""

from __future__ import annotations

import os
from collections.abc import Sequence

import attrs
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.crypto.elgamal import Ciphertext, Deck, card_point, decryption_share, encrypt, joint_key, reveal
from splendor_cli.crypto.group import Point, Scalar
from splendor_cli.crypto.shuffle import check_shuffle, permutation, shuffle

NAMES = ("ann", "bob", "cy", "dee")
seeds = st.binary(min_size=32, max_size=32)


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
        order = [order[k] for k in permutation(size, seed, label)]
        current = after
    assert opened(deck, current, secret, keys) == order
    assert sorted(order) == sorted(deck.cards)


@given(st.integers(min_value=0, max_value=60), seeds, st.text(max_size=10))
def test_a_seeded_permutation_is_a_permutation(size: int, seed: bytes, label: str) -> None:
    """The order is a permutation of range(size), the same each time for one seed and label."""
    order = permutation(size, seed, label)
    assert sorted(order) == list(range(size)) and order == permutation(size, seed, label)


def test_another_seed_or_label_gives_another_order() -> None:
    base = permutation(40, bytes(32), "a")
    assert permutation(40, bytes(31) + b"\x01", "a") != base
    assert permutation(40, bytes(32), "b") != base


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
