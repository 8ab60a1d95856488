"""A zero-knowledge proof that a deck was shuffled: the same cards, re-encrypted, in some order.

The proof of Terelius and Wikström ("Proofs of Restricted Shuffles", AFRICACRYPT 2010), in
the variant of Wikström's Verificatum mix-net, as Haenni, Locher, Koenig and Dubuis write it
out ("Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets", FC 2017 Voting workshop,
Algorithms 4.1-4.5: GenShuffleProof and CheckShuffleProof), here in additive notation over
ristretto255, non-interactive by Fiat-Shamir.

The statement: `after[i] = before[order[i]] + (r_i G, r_i Y)` for i = 1..N, for some permutation
`order` and scalars `r_i` (exactly what shuffle.shuffle makes), with G = BASE and Y the joint
key. The generators H, H_1..H_N are hashed onto the group (`hash_to_point`, tag
`shuffle-proof/generator`, N and i framed): nobody knows a logarithm between any two of them
or to G. Write (a_j, b_j) for `before[j]`, (a'_i, b'_i) for `after[i]`, π = order.

Prover (all the ω, s_j and r̂_i random; scalars modulo the group's order):

    c_π(i) = s_π(i) G + H_i                             (a commitment to the permutation)
    u_j = Hash(context, Y, before, after, c_1..c_N; j),  u'_i = u_π(i)
    ĉ_0 = H,  ĉ_i = r̂_i G + u'_i ĉ_{i-1}                (a commitment chain to Π u'_i)
    t_1 = ω_1 G               t_2 = ω_2 G               t_3 = ω_3 G + Σ ω'_i H_i
    t_4a = -ω_4 G + Σ ω'_i a'_i                         t_4b = -ω_4 Y + Σ ω'_i b'_i
    t̂_i = ω̂_i G + ω'_i ĉ_{i-1}
    c = Hash(context, Y, before, after, c_1..c_N, ĉ_1..ĉ_N, t_1, t_2, t_3, t_4a, t_4b, t̂_1..t̂_N)
    r̄ = Σ s_j     v_N = 1, v_{i-1} = u'_i v_i     r̂ = Σ r̂_i v_i     r̃ = Σ s_j u_j     r' = Σ r_i u'_i
    s_1 = ω_1 + c r̄    s_2 = ω_2 + c r̂    s_3 = ω_3 + c r̃    s_4 = ω_4 + c r'
    ŝ_i = ω̂_i + c r̂_i    s'_i = ω'_i + c u'_i

The proof is `(c, c_1..c_N, ĉ_1..ĉ_N, s_1..s_4, ŝ_1..ŝ_N, s'_1..s'_N)`: (4N + 5) 32-byte values.

Verifier: recompute the u_j, then

    C̄ = Σ c_j - Σ H_j      Ĉ = ĉ_N - (Π u_j) H      C̃ = Σ u_j c_j      A = Σ u_j a_j      B = Σ u_j b_j
    t_1 = -c C̄ + s_1 G      t_2 = -c Ĉ + s_2 G      t_3 = -c C̃ + s_3 G + Σ s'_i H_i
    t_4a = -c A - s_4 G + Σ s'_i a'_i                  t_4b = -c B - s_4 Y + Σ s'_i b'_i
    t̂_i = -c ĉ_i + ŝ_i G + s'_i ĉ_{i-1}

and accept iff the hash of these is c. (An honest proof's values match: C̄ = r̄ G, Ĉ = r̂ G,
C̃ = r̃ G + Σ u'_i H_i, Σ u'_i a'_i = A + r' G, Σ u'_i b'_i = B + r' Y.)

Every hash covers every public input: the caller's `context` (the game, the seat, the deck),
Y, both decks and every commitment (a "weak Fiat-Shamir" hash that leaves one out let proofs of
Helios's and SwissPost's mix-nets be forged). The tags are `shuffle-proof/...`. The prover's
randomness is hedged as in proofs.py: hashed from the witness, the statement and 32 fresh
bytes of the caller's source, so neither a weak source alone nor a repeated statement repeats it.

Speed: the hot loops work on raw 32-byte encodings through `sodium` (not Point and Scalar,
which re-check every result) and on scalars as Python ints; G is multiplied by the fixed-base
routine. Each point of a proof is checked once, when the proof is made (`ShuffleProof`).
"""

from __future__ import annotations

import base64
import binascii
import functools
from collections.abc import Callable, Iterable, Sequence

import attrs

from ..errors import MalformedError
from . import sodium
from .elgamal import Ciphertext
from .group import ORDER, SIZE, Point, Scalar, Source, digest, framed, hash_to_point
from .proofs import NONCE_BYTES
from .shuffle import shuffle, witness

# -- the proof's encoding ----------------------------------------------------------------------


def _byte_size(size: int) -> int:
    return (4 * size + 5) * SIZE


def text_size(size: int) -> int:
    """The length of `ShuffleProof.to_text` for a shuffle of `size` cards (base64, padded)."""
    return 4 * -(-_byte_size(size) // 3)


@attrs.frozen(repr=False)
class ShuffleProof:
    """A proof of a shuffle of `size` cards, as the encodings it is sent as; every point is a
    valid ristretto255 point and every scalar is below the order (checked when it is made)."""

    challenge: bytes
    """c"""
    commitments: tuple[bytes, ...]
    """c_1..c_N: the commitment to the permutation."""
    chain: tuple[bytes, ...]
    """ĉ_1..ĉ_N: the commitment chain."""
    responses: tuple[bytes, bytes, bytes, bytes]
    """s_1..s_4"""
    chain_responses: tuple[bytes, ...]
    """ŝ_1..ŝ_N"""
    permuted_responses: tuple[bytes, ...]
    """s'_1..s'_N"""

    def __attrs_post_init__(self) -> None:
        size = len(self.commitments)
        if size < 1:
            raise MalformedError("a shuffle proof is of one card or more")
        lists = (self.chain, self.chain_responses, self.permuted_responses)
        if len(self.responses) != 4 or any(len(values) != size for values in lists):
            raise MalformedError("a shuffle proof's parts are not all of one size")
        points = (("commitment", self.commitments), ("commitment chain", self.chain))
        for name, values in points:
            for number, value in enumerate(values, 1):
                if not isinstance(value, bytes) or len(value) != SIZE or not sodium.is_valid_point(value):
                    raise MalformedError(f"its {name} number {number} is not a ristretto255 point")
        scalars = (
            ("challenge", (self.challenge,)),
            ("response", self.responses),
            ("chain response", self.chain_responses),
            ("permuted response", self.permuted_responses),
        )
        for name, values in scalars:
            for number, value in enumerate(values, 1):
                if not isinstance(value, bytes) or len(value) != SIZE or int.from_bytes(value, "little") >= ORDER:
                    raise MalformedError(f"its {name} number {number} is not a scalar below the group's order")

    @property
    def size(self) -> int:
        """The number of cards of the shuffle this proof is of."""
        return len(self.commitments)

    def to_bytes(self) -> bytes:
        """The (4N + 5) * 32 bytes: c, the c_j, the ĉ_i, s_1..s_4, the ŝ_i, the s'_i."""
        return b"".join(
            (
                self.challenge,
                *self.commitments,
                *self.chain,
                *self.responses,
                *self.chain_responses,
                *self.permuted_responses,
            )
        )

    def to_text(self) -> str:
        """The bytes in standard base64 (padded, no newline): `text_size(size)` characters."""
        return base64.b64encode(self.to_bytes()).decode("ascii")

    @classmethod
    def from_bytes(cls, data: bytes, size: int) -> ShuffleProof:
        """The proof of `to_bytes`, of a shuffle of `size` cards; MalformedError otherwise."""
        if size < 1:
            raise MalformedError(f"no shuffle proof is of {size} cards")
        if len(data) != _byte_size(size):
            raise MalformedError(f"a shuffle proof of {size} cards is {_byte_size(size)} bytes, not {len(data)}")
        values = [data[k : k + SIZE] for k in range(0, len(data), SIZE)]
        n = size
        return cls(
            challenge=values[0],
            commitments=tuple(values[1 : 1 + n]),
            chain=tuple(values[1 + n : 1 + 2 * n]),
            responses=(values[1 + 2 * n], values[2 + 2 * n], values[3 + 2 * n], values[4 + 2 * n]),
            chain_responses=tuple(values[5 + 2 * n : 5 + 3 * n]),
            permuted_responses=tuple(values[5 + 3 * n :]),
        )

    @classmethod
    def from_text(cls, text: object, size: int, what: str = "shuffle proof") -> ShuffleProof:
        """The proof of `to_text`, of a shuffle of `size` cards; MalformedError naming `what` when
        `text` is not a string, not base64, of the wrong length for `size` cards, or holds a
        point or a scalar that is not canonical."""
        if not isinstance(text, str):
            raise MalformedError(f"{what}: expected base64 text, got {type(text).__name__}")
        if size < 1:
            raise MalformedError(f"{what}: no shuffle proof is of {size} cards")
        if len(text) != text_size(size):
            raise MalformedError(
                f"{what}: a proof of a shuffle of {size} cards is {text_size(size)} base64 characters, not {len(text)}"
            )
        try:
            data = base64.b64decode(text.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError, ValueError):
            raise MalformedError(f"{what}: not base64") from None
        if base64.b64encode(data).decode("ascii") != text:
            raise MalformedError(f"{what}: not base64 in its canonical form")
        try:
            return cls.from_bytes(data, size)
        except MalformedError as exc:
            raise MalformedError(f"{what}: {exc}") from None

    def __repr__(self) -> str:
        return f"ShuffleProof(<{self.size} cards>)"


# -- arithmetic on encodings -------------------------------------------------------------------

_ZERO = bytes(SIZE)


def _encode(scalar: int) -> bytes:
    return (scalar % ORDER).to_bytes(SIZE, "little")


def _decode(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


def _base(scalar: int) -> bytes:
    """`scalar G`."""
    return sodium.scalarmult_base(_encode(scalar))


def _times(scalar: int, point: bytes) -> bytes:
    """`scalar point`."""
    return sodium.scalarmult(_encode(scalar), point)


def _sum(points: Iterable[bytes]) -> bytes:
    """The sum of `points` (the identity when there are none)."""
    result = None
    for point in points:
        result = point if result is None else sodium.add(result, point)
    return _ZERO if result is None else result


def _combination(scalars: Iterable[int], points: Iterable[bytes]) -> bytes:
    """`Σ scalar_k point_k` (the identity's terms skipped: the first shuffle's input is a deck
    encrypted openly, whose `a` are all the identity)."""
    return _sum(_times(k, p) for k, p in zip(scalars, points) if p != _ZERO)


@functools.lru_cache(maxsize=32)
def generators(size: int) -> tuple[bytes, tuple[bytes, ...]]:
    """H and H_1..H_size, the independent generators of a proof of `size` cards (encodings)."""
    count = size.to_bytes(8, "big")

    def generator(i: int) -> bytes:
        return hash_to_point("shuffle-proof/generator", count, i.to_bytes(8, "big")).data

    return generator(0), tuple(generator(i) for i in range(1, size + 1))


@functools.lru_cache(maxsize=32)
def _generator_total(size: int) -> bytes:
    """Σ H_j."""
    return _sum(generators(size)[1])


# -- the Fiat-Shamir hashes --------------------------------------------------------------------


def _statement(context: bytes, key: bytes, before: Sequence[Ciphertext], after: Sequence[Ciphertext]) -> bytes:
    """The digest of the public statement: the context, the key, both decks (with their size)."""
    cards = (c.a.data + c.b.data for deck in (before, after) for c in deck)
    return digest("shuffle-proof/statement", context, key, len(before).to_bytes(8, "big"), *cards)


def _committed(statement: bytes, commitments: Sequence[bytes]) -> bytes:
    """The digest of the statement and the commitment to the permutation: what the u_j hash."""
    return digest("shuffle-proof/commitments", statement, *commitments)


def _challenges(committed: bytes, size: int) -> list[int]:
    """u_1..u_N."""
    return [_decode(digest("shuffle-proof/u", committed, j.to_bytes(8, "big"))) % ORDER for j in range(size)]


def _challenge(committed: bytes, chain: Sequence[bytes], t: Sequence[bytes], t_hat: Sequence[bytes]) -> int:
    """c: the hash of everything (the statement and the c_j through `committed`)."""
    return _decode(digest("shuffle-proof/challenge", committed, *chain, *t, *t_hat)) % ORDER


# -- prover and verifier -----------------------------------------------------------------------


def _check_sizes(before: Sequence[Ciphertext], after: Sequence[Ciphertext]) -> int:
    if len(before) != len(after):
        raise ValueError(f"a shuffle keeps its cards: {len(before)} before, {len(after)} after")
    if not before:
        raise ValueError("a shuffle proof is of one card or more")
    return len(before)


def _nonces(key: bytes) -> Callable[[], int]:
    """Scalars drawn in turn from the hedged `key` (SHA-512 in counter mode)."""
    counter = 0

    def draw() -> int:
        nonlocal counter
        counter += 1
        return _decode(digest("shuffle-proof/nonce-stream", key, counter.to_bytes(8, "big"))) % ORDER

    return draw


def prove_shuffle(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint_key: Point,
    order: Sequence[int],
    randomizers: Sequence[Scalar],
    context: bytes,
    source: Source,
) -> ShuffleProof:
    """A proof that `after[i] = before[order[i]] + (r_i G, r_i Y)` for `r_i = randomizers[i]` and
    `Y = joint_key`, in `context`, without revealing `order` nor the randomizers.

    The witness is not checked against the decks: a wrong one makes a proof that fails.

    Raises:
        ValueError: the decks differ in size or are empty, `order` is no permutation of their
            positions, or there is not one randomizer per card.
    """
    n = _check_sizes(before, after)
    if sorted(order) != list(range(n)):
        raise ValueError("a shuffle's order is a permutation of the deck's positions")
    if len(randomizers) != n:
        raise ValueError(f"a shuffle of {n} cards has {n} randomizers, not {len(randomizers)}")
    y = joint_key.data
    h, hs = generators(n)
    r = [_decode(x.data) for x in randomizers]
    statement = _statement(context, y, before, after)
    secrets = framed(b"".join(k.to_bytes(8, "big") for k in order), *(x.data for x in randomizers))
    draw = _nonces(digest("shuffle-proof/nonce", secrets, statement, source(NONCE_BYTES)))

    # the commitment to the permutation, and the challenges it fixes
    s = [draw() for _ in range(n)]
    commitments = [_ZERO] * n
    for i, j in enumerate(order):
        commitments[j] = sodium.add(_base(s[j]), hs[i])
    committed = _committed(statement, commitments)
    u = _challenges(committed, n)
    u_prime = [u[j] for j in order]

    # the commitment chain
    r_hat = [draw() for _ in range(n)]
    chain: list[bytes] = []
    previous = h
    for i in range(n):
        previous = sodium.add(_base(r_hat[i]), _times(u_prime[i], previous))
        chain.append(previous)

    # the commitments of the sigma protocol
    w1, w2, w3, w4 = draw(), draw(), draw(), draw()
    w_hat = [draw() for _ in range(n)]
    w_prime = [draw() for _ in range(n)]
    t1, t2 = _base(w1), _base(w2)
    t3 = sodium.add(_base(w3), _combination(w_prime, hs))
    t4a = sodium.add(_base(-w4), _combination(w_prime, (c.a.data for c in after)))
    t4b = sodium.add(_times(-w4, y), _combination(w_prime, (c.b.data for c in after)))
    t_hat = [sodium.add(_base(w_hat[i]), _times(w_prime[i], chain[i - 1] if i else h)) for i in range(n)]
    c = _challenge(committed, chain, (t1, t2, t3, t4a, t4b), t_hat)

    # the responses
    r_bar = sum(s) % ORDER
    v = [1] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_prime[i] * v[i] % ORDER
    r_hat_total = sum(x * y for x, y in zip(r_hat, v)) % ORDER
    r_tilde = sum(x * y for x, y in zip(s, u)) % ORDER
    r_prime = sum(x * y for x, y in zip(r, u_prime)) % ORDER
    return ShuffleProof(
        challenge=_encode(c),
        commitments=tuple(commitments),
        chain=tuple(chain),
        responses=(
            _encode(w1 + c * r_bar),
            _encode(w2 + c * r_hat_total),
            _encode(w3 + c * r_tilde),
            _encode(w4 + c * r_prime),
        ),
        chain_responses=tuple(_encode(w_hat[i] + c * r_hat[i]) for i in range(n)),
        permuted_responses=tuple(_encode(w_prime[i] + c * u_prime[i]) for i in range(n)),
    )


def verify_shuffle(
    before: Sequence[Ciphertext], after: Sequence[Ciphertext], joint_key: Point, proof: ShuffleProof, context: bytes
) -> bool:
    """Whether `proof` shows that `after` is `before` re-encrypted under `joint_key` and put in
    some order, in `context`. False as well when the decks and the proof differ in size."""
    n = len(before)
    if n < 1 or len(after) != n or proof.size != n:
        return False
    y = joint_key.data
    h, hs = generators(n)
    committed = _committed(_statement(context, y, before, after), proof.commitments)
    u = _challenges(committed, n)
    c = _decode(proof.challenge)
    minus_c = ORDER - c
    s1, s2, s3, s4 = (_decode(x) for x in proof.responses)
    s_hat = [_decode(x) for x in proof.chain_responses]
    s_prime = [_decode(x) for x in proof.permuted_responses]
    chain = proof.chain

    product = 1
    for x in u:
        product = product * x % ORDER
    c_bar = sodium.sub(_sum(proof.commitments), _generator_total(n))
    c_hat = sodium.sub(chain[-1], _times(product, h))
    t1 = sodium.add(_times(minus_c, c_bar), _base(s1))
    t2 = sodium.add(_times(minus_c, c_hat), _base(s2))
    # -c C̃ + Σ s'_i H_i = Σ (-c u_j) c_j + Σ s'_i H_i; likewise -c A and -c B
    minus_cu = [minus_c * x % ORDER for x in u]
    t3 = _sum((_base(s3), _combination(minus_cu, proof.commitments), _combination(s_prime, hs)))
    t4a = _sum(
        (
            _base(-s4),
            _combination(minus_cu, (e.a.data for e in before)),
            _combination(s_prime, (e.a.data for e in after)),
        )
    )
    t4b = _sum(
        (
            _times(-s4, y),
            _combination(minus_cu, (e.b.data for e in before)),
            _combination(s_prime, (e.b.data for e in after)),
        )
    )
    t_hat = [
        _sum((_times(minus_c, chain[i]), _base(s_hat[i]), _times(s_prime[i], chain[i - 1] if i else h)))
        for i in range(n)
    ]
    return _challenge(committed, chain, (t1, t2, t3, t4a, t4b), t_hat) == c


def shuffle_and_prove(
    deck: Sequence[Ciphertext], joint_key: Point, seed: bytes, label: str, context: bytes, source: Source
) -> tuple[tuple[Ciphertext, ...], ShuffleProof]:
    """`shuffle.shuffle(deck, joint_key, seed, label)` and the proof of it in `context` (made
    with that shuffle's own order and randomizers)."""
    after = shuffle(deck, joint_key, seed, label)
    order, randomizers = witness(deck, seed, label)
    return after, prove_shuffle(deck, after, joint_key, order, randomizers, context, source)
