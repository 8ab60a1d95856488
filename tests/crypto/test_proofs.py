"""Schnorr and Chaum-Pedersen proofs: an honest proof verifies, and only for its own statement
in its own context; a proof of one protocol is no proof of the other."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor_cli.crypto.group import BASE, Point, Scalar, hash_to_point
from splendor_cli.crypto.proofs import (
    Proof,
    prove_equal_logs,
    prove_knowledge,
    verify_equal_logs,
    verify_knowledge,
)
from splendor_cli.errors import MalformedError

secrets = st.binary(min_size=64, max_size=64).map(Scalar.reduce).filter(bool)
contexts = st.binary(max_size=40)


@given(secrets, contexts)
def test_a_schnorr_proof_verifies_in_its_context_only(secret: Scalar, context: bytes) -> None:
    """The proof of knowledge of `x` for `X = x G` verifies for X in its context; not for
    another key, another context, nor once altered; it round-trips through hex."""
    public = Point.base_times(secret)
    proof = prove_knowledge(secret, context, os.urandom)
    assert verify_knowledge(public, proof, context)
    assert Proof.from_hex(proof.to_hex()) == proof
    assert not verify_knowledge(public + BASE, proof, context)
    assert not verify_knowledge(public, proof, context + b"!")
    assert not verify_knowledge(
        public, Proof(challenge=proof.challenge, response=proof.response + Scalar.of(1)), context
    )
    assert not verify_knowledge(
        public, Proof(challenge=proof.challenge + Scalar.of(1), response=proof.response), context
    )


def test_nonces_are_fresh_for_one_statement() -> None:
    """Two proofs of one statement differ (hedged nonces), and both verify."""
    secret = Scalar.of(12345)
    first, second = (prove_knowledge(secret, b"ctx", os.urandom) for _ in range(2))
    assert first != second
    assert all(verify_knowledge(Point.base_times(secret), p, b"ctx") for p in (first, second))


def test_a_fixed_source_still_gives_a_sound_proof() -> None:
    """A source of zeros (a broken random generator) still makes proofs that verify, and
    nonces that differ between statements (they hash the secret and the statement)."""
    zeros = bytes
    secret = Scalar.of(99)
    a, b = prove_knowledge(secret, b"one", zeros), prove_knowledge(secret, b"two", zeros)
    assert verify_knowledge(Point.base_times(secret), a, b"one")
    assert a.challenge != b.challenge


@given(secrets, contexts)
def test_a_dleq_proof_verifies_for_its_statement_only(secret: Scalar, context: bytes) -> None:
    """log_G(X) == log_C(D) is proved; another D, another X, another base, another context fail."""
    other_base = hash_to_point("test", context)
    public, other = Point.base_times(secret), other_base * secret
    proof = prove_equal_logs(secret, BASE, other_base, context, os.urandom)
    assert verify_equal_logs(BASE, public, other_base, other, proof, context)
    assert not verify_equal_logs(BASE, public, other_base, other + BASE, proof, context)
    assert not verify_equal_logs(BASE, public + BASE, other_base, other, proof, context)
    assert not verify_equal_logs(BASE, public, other_base + BASE, other, proof, context)
    assert not verify_equal_logs(BASE, public, other_base, other, proof, context + b"x")


def test_unequal_logs_cannot_be_proved() -> None:
    """With D = y C for y != x, an honest run of the prover (knowing x) does not verify for D."""
    x, y = Scalar.of(5), Scalar.of(6)
    other_base = hash_to_point("test", b"C")
    proof = prove_equal_logs(x, BASE, other_base, b"", os.urandom)
    assert not verify_equal_logs(BASE, Point.base_times(x), other_base, other_base * y, proof, b"")


def test_a_proof_of_one_protocol_is_no_proof_of_the_other() -> None:
    """A Schnorr proof does not pass as a Chaum-Pedersen proof of the degenerate statement with
    the same base twice, nor the other way round (separate domain tags)."""
    secret = Scalar.of(777)
    public = Point.base_times(secret)
    schnorr = prove_knowledge(secret, b"c", os.urandom)
    dleq = prove_equal_logs(secret, BASE, BASE, b"c", os.urandom)
    assert verify_equal_logs(BASE, public, BASE, public, dleq, b"c")
    assert not verify_equal_logs(BASE, public, BASE, public, schnorr, b"c")
    assert not verify_knowledge(public, dleq, b"c")


@pytest.mark.parametrize("text", ["00" * 63, "ff" * 64, "xx" * 64, 7])
def test_a_malformed_proof_is_refused(text: object) -> None:
    """A proof is 128 hex digits of two scalars below the order."""
    with pytest.raises(MalformedError):
        Proof.from_hex(text)
