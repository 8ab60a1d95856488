"""Zero-knowledge proofs about discrete logarithms, made non-interactive by Fiat-Shamir.

- `prove_knowledge`: a Schnorr proof that the prover knows `x` with `X = x BASE` (a proof of
  possession of a secret key, bound to a context such as the game id and the player's name);
- `prove_equal_logs`: a Chaum-Pedersen proof that `log_G(X) == log_C(D)` (a decryption share
  `D = x C` was made with the secret of the public key `X = x G`).

A proof is its short form, `(challenge, response)`, 64 bytes (`Proof.to_hex`: 128 hex digits).
The challenge hashes the whole statement and the caller's `context` under the protocol's own
tag (`schnorr/challenge`, `dleq/challenge`): a proof verifies for that statement in that
context only, never for another context, another key or the other protocol. The nonces are
hedged: hashed from the secret, the statement and 32 fresh bytes of the caller's source, so a
weak source alone does not leak the secret, and a repeated statement never repeats a nonce.
The verifiers return a bool; the callers (elgamal, keys) name what failed.
"""

from __future__ import annotations

import attrs

from .group import BASE, SIZE, Point, Scalar, Source, hash_to_scalar, parse_hex

NONCE_BYTES = 32
"""The fresh bytes drawn from the source for each nonce."""


@attrs.frozen(kw_only=True, repr=False)
class Proof:
    """A Fiat-Shamir proof in short form: the challenge and the response."""

    challenge: Scalar
    response: Scalar

    def to_hex(self) -> str:
        """128 hex digits: the challenge, then the response."""
        return self.challenge.to_hex() + self.response.to_hex()

    @classmethod
    def from_hex(cls, text: object, what: str = "proof") -> Proof:
        """The proof of `to_hex`; MalformedError naming `what` otherwise."""
        data = parse_hex(text, 2 * SIZE, what)
        return cls(challenge=Scalar(data[:SIZE]), response=Scalar(data[SIZE:]))

    def __repr__(self) -> str:
        return f"Proof.from_hex({self.to_hex()!r})"


def _times(point: Point, scalar: Scalar) -> Point:
    """`scalar point`, by the faster fixed-base multiplication when `point` is the generator."""
    return Point.base_times(scalar) if point == BASE else point * scalar


# -- Schnorr: knowledge of x with X = x BASE ---------------------------------------------------


def _schnorr_challenge(public: Point, commitment: Point, context: bytes) -> Scalar:
    return hash_to_scalar("schnorr/challenge", context, public.data, commitment.data)


def prove_knowledge(secret: Scalar, context: bytes, source: Source) -> Proof:
    """A proof that the prover knows `secret`, the logarithm of `secret BASE`, in `context`."""
    public = Point.base_times(secret)
    nonce = hash_to_scalar("schnorr/nonce", secret.data, context, public.data, source(NONCE_BYTES))
    challenge = _schnorr_challenge(public, Point.base_times(nonce), context)
    return Proof(challenge=challenge, response=nonce + challenge * secret)


def verify_knowledge(public: Point, proof: Proof, context: bytes) -> bool:
    """Whether `proof` shows knowledge of the logarithm of `public` in `context`."""
    commitment = Point.base_times(proof.response) - public * proof.challenge
    return _schnorr_challenge(public, commitment, context) == proof.challenge


# -- Chaum-Pedersen: log_G(X) == log_C(D) ------------------------------------------------------


def _dleq_challenge(
    base: Point, public: Point, other_base: Point, other: Point, t1: Point, t2: Point, context: bytes
) -> Scalar:
    points = (base, public, other_base, other, t1, t2)
    return hash_to_scalar("dleq/challenge", context, *(p.data for p in points))


def prove_equal_logs(secret: Scalar, base: Point, other_base: Point, context: bytes, source: Source) -> Proof:
    """A proof that `secret base` and `secret other_base` have one logarithm (`secret`) to their
    bases, in `context`."""
    public, other = _times(base, secret), other_base * secret
    statement = (base.data, public.data, other_base.data, other.data)
    nonce = hash_to_scalar("dleq/nonce", secret.data, context, *statement, source(NONCE_BYTES))
    challenge = _dleq_challenge(base, public, other_base, other, _times(base, nonce), other_base * nonce, context)
    return Proof(challenge=challenge, response=nonce + challenge * secret)


def verify_equal_logs(
    base: Point, public: Point, other_base: Point, other: Point, proof: Proof, context: bytes
) -> bool:
    """Whether `proof` shows `log_base(public) == log_other_base(other)` in `context`."""
    c, s = proof.challenge, proof.response
    t1 = _times(base, s) - public * c
    t2 = other_base * s - other * c
    return _dleq_challenge(base, public, other_base, other, t1, t2, context) == c
