"""A player's shuffle of an encrypted deck, re-checkable once its seed is published.

Each player in turn shuffles the deck: re-encrypts every card under the joint key and puts
them in a new order. The order and the randomizers come from a secret 32-byte `seed`, a
`label` (the game, the deck, the round: never twice the same for one seed) and the digest of
the deck shuffled (`deck_digest`), by a deterministic generator (SHA-512 in counter mode under
the tags `shuffle/permutation` and `shuffle/randomizer`): so the shuffle proves nothing while
the game goes on (no card can be followed through it: that needs every seed), and when the
seeds are published at the end, anyone can re-make each shuffle from the deck before it
(`check_shuffle`). A shuffle that dropped, doubled or replaced a card, or that no seed
explains, is then found; which player made it is on record in the game, and naming them is
the caller's job. (shuffle_proof.py proves a shuffle at once, without its seed.)

Why the input deck's digest: a player who shuffles twice with one seed and label (a setup
forked in git and played again) would otherwise apply one permutation and one set of
randomizers to two different decks; whoever sees both outputs could subtract them position
by position (`a'_k - a_k` is the same `r_k BASE` in both) and match the cards. With the
input's digest in the derivation, two different input decks give unrelated shuffles.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .elgamal import Ciphertext, reencrypt
from .group import Point, Scalar, digest, hash_to_scalar

SEED_BYTES = 32
"""The size of a shuffle's seed."""
DIGEST_BYTES = 64
"""The size of a deck's digest (`deck_digest`: SHA-512)."""


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a shuffle's seed is {SEED_BYTES} bytes")


def _check_digest(input_digest: bytes) -> None:
    if not isinstance(input_digest, bytes) or len(input_digest) != DIGEST_BYTES:
        raise ValueError(f"a deck's digest is {DIGEST_BYTES} bytes (deck_digest)")


def deck_digest(deck: Sequence[Ciphertext]) -> bytes:
    """The digest of an encrypted deck, in order (SHA-512 under the tag `shuffle/input`, over
    the count of cards and each ciphertext's 64 bytes): 64 bytes."""
    cards = (card.a.data + card.b.data for card in deck)
    return digest("shuffle/input", len(deck).to_bytes(8, "big"), *cards)


def _draws(seed: bytes, label: str, input_digest: bytes) -> Iterator[int]:
    """Uniform 64-bit numbers: each block of SHA-512 (seed, label, input, counter) gives eight."""
    counter = 0
    while True:
        block = digest("shuffle/permutation", seed, label.encode("utf-8"), input_digest, counter.to_bytes(8, "big"))
        for start in range(0, len(block), 8):
            yield int.from_bytes(block[start : start + 8], "big")
        counter += 1


def _below(bound: int, draws: Iterator[int]) -> int:
    """A uniform number in `range(bound)`: draws past the last multiple of `bound` are dropped."""
    limit = 2**64 - 2**64 % bound
    while True:
        draw = next(draws)
        if draw < limit:
            return draw % bound


def permutation(size: int, seed: bytes, label: str, input_digest: bytes) -> tuple[int, ...]:
    """The order of a shuffle of `size` cards whose digest is `input_digest` (`deck_digest`):
    position `k` of the result takes card `order[k]` of the deck (Fisher-Yates, uniform)."""
    _check_seed(seed)
    _check_digest(input_digest)
    order = list(range(size))
    draws = _draws(seed, label, input_digest)
    for last in range(size - 1, 0, -1):
        other = _below(last + 1, draws)
        order[last], order[other] = order[other], order[last]
    return tuple(order)


def randomizer(seed: bytes, label: str, position: int, input_digest: bytes) -> Scalar:
    """The re-encryption randomizer of position `position` of a shuffle of the deck whose
    digest is `input_digest` (`deck_digest`)."""
    _check_seed(seed)
    _check_digest(input_digest)
    where = position.to_bytes(8, "big")
    return hash_to_scalar("shuffle/randomizer", seed, label.encode("utf-8"), input_digest, where)


def witness(deck: Sequence[Ciphertext], seed: bytes, label: str) -> tuple[tuple[int, ...], tuple[Scalar, ...]]:
    """The order and the randomizers (one per position of the result) of the shuffle of `deck`
    by `seed` and `label`: what `shuffle` does, and what a proof of it (shuffle_proof) needs."""
    _check_seed(seed)
    input_digest = deck_digest(deck)
    order = permutation(len(deck), seed, label, input_digest)
    return order, tuple(randomizer(seed, label, k, input_digest) for k in range(len(deck)))


def shuffle(deck: Sequence[Ciphertext], joint_key: Point, seed: bytes, label: str) -> tuple[Ciphertext, ...]:
    """`deck` re-encrypted under `joint_key` and reordered, both by `seed`, `label` and the deck
    itself (`deck_digest`)."""
    order, randomizers = witness(deck, seed, label)
    return tuple(reencrypt(deck[card], joint_key, r) for card, r in zip(order, randomizers))


def check_shuffle(
    before: Sequence[Ciphertext], after: Sequence[Ciphertext], joint_key: Point, seed: bytes, label: str
) -> bool:
    """Whether `after` is the shuffle of `before` that `seed` and `label` make."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES or len(before) != len(after):
        return False
    return shuffle(before, joint_key, seed, label) == tuple(after)
