"""A player's shuffle of an encrypted deck, re-checkable once its seed is published.

Each player in turn shuffles the deck: re-encrypts every card under the joint key and puts
them in a new order. The order and the randomizers come from a secret 32-byte `seed` and a
`label` (the game, the deck, the round: never twice the same for one seed), by a
deterministic generator (SHA-512 in counter mode under the tags `shuffle/permutation` and
`shuffle/randomizer`): so the shuffle proves nothing while the game goes on (no card can be
followed through it: that needs every seed), and when the seeds are published at the end,
anyone can re-make each shuffle from the deck before it (`check_shuffle`). A shuffle that
dropped, doubled or replaced a card, or that no seed explains, is then found; which player
made it is on record in the game, and naming them is the caller's job.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .elgamal import Ciphertext, reencrypt
from .group import Point, Scalar, digest, hash_to_scalar

SEED_BYTES = 32
"""The size of a shuffle's seed."""


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a shuffle's seed is {SEED_BYTES} bytes")


def _draws(seed: bytes, label: str) -> Iterator[int]:
    """Uniform 64-bit numbers: each block of SHA-512 (seed, label, counter) gives eight."""
    counter = 0
    while True:
        block = digest("shuffle/permutation", seed, label.encode("utf-8"), counter.to_bytes(8, "big"))
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


def permutation(size: int, seed: bytes, label: str) -> tuple[int, ...]:
    """The order of a shuffle of `size` cards: position `k` of the result takes card `order[k]`
    of the deck (Fisher-Yates, uniform)."""
    _check_seed(seed)
    order = list(range(size))
    draws = _draws(seed, label)
    for last in range(size - 1, 0, -1):
        other = _below(last + 1, draws)
        order[last], order[other] = order[other], order[last]
    return tuple(order)


def randomizer(seed: bytes, label: str, position: int) -> Scalar:
    """The re-encryption randomizer of position `position` of a shuffle."""
    _check_seed(seed)
    return hash_to_scalar("shuffle/randomizer", seed, label.encode("utf-8"), position.to_bytes(8, "big"))


def shuffle(deck: Sequence[Ciphertext], joint_key: Point, seed: bytes, label: str) -> tuple[Ciphertext, ...]:
    """`deck` re-encrypted under `joint_key` and reordered, both by `seed` and `label`."""
    order = permutation(len(deck), seed, label)
    return tuple(reencrypt(deck[card], joint_key, randomizer(seed, label, k)) for k, card in enumerate(order))


def check_shuffle(
    before: Sequence[Ciphertext], after: Sequence[Ciphertext], joint_key: Point, seed: bytes, label: str
) -> bool:
    """Whether `after` is the shuffle of `before` that `seed` and `label` make."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES or len(before) != len(after):
        return False
    return shuffle(before, joint_key, seed, label) == tuple(after)
