"""Ed25519 through the ctypes binding (crypto/sodium.py) gives PyNaCl's keys and signatures byte
for byte (RFC 8032 signatures are deterministic), and signing or deriving a public key loads no
nacl module."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from helpers import require

from splendor_cli.crypto import sodium
from splendor_cli.crypto.keys import SecretKey, _signed


def _messages(rng: random.Random) -> list[bytes]:
    sizes = [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 1000, 70_000]
    return [rng.randbytes(size) for size in sizes] + [rng.randbytes(rng.randrange(300)) for _ in range(8)]


@pytest.mark.parametrize("seed", range(25))
def test_keys_and_signatures_are_pynacls(seed: int) -> None:
    """For a key of each seed: the public key, and the signature of messages of many sizes, are
    the bytes PyNaCl gives; every signature verifies through the binding (PyNaCl is a test
    dependency only: the program itself no longer needs it)."""
    nacl_signing = require("nacl.signing")
    rng = random.Random(seed)
    secret = SecretKey(name="ann", signing=rng.randbytes(32), card=SecretKey.generate("x", os.urandom).card)
    reference = nacl_signing.SigningKey(secret.signing)
    assert secret.public.signing == bytes(reference.verify_key)
    public, full = sodium.sign_keypair(secret.signing)
    assert public == bytes(reference.verify_key) and full == secret.signing + public
    for message in _messages(rng):
        signature = secret.sign("move", message)
        assert signature == reference.sign(_signed("move", message)).signature
        assert sodium.sign_detached(message, full) == reference.sign(message).signature
        assert secret.public.verify("move", message, signature)


def test_the_rfc_8032_vectors() -> None:
    """RFC 8032 section 7.1, tests 1 and 2: the seed's public key and the signature."""
    vectors = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
            "d25bf5f0595bbe24655141438e7a100b",
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c"
            "387b2eaeb4302aeeb00d291612bb0c00",
        ),
    ]
    for seed, public, message, signature in vectors:
        made_public, full = sodium.sign_keypair(bytes.fromhex(seed))
        assert made_public.hex() == public
        assert sodium.sign_detached(bytes.fromhex(message), full).hex() == signature


def test_the_public_key_is_made_once() -> None:
    """`SecretKey.public` is computed once per key (a sealed game's reader asks for it often),
    and the key still compares by its fields."""
    secret = SecretKey.generate("ann", os.urandom)
    assert secret.public is secret.public
    assert secret == SecretKey(name="ann", signing=secret.signing, card=secret.card)


def test_wrong_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        sodium.sign_keypair(bytes(31))
    with pytest.raises(ValueError, match="64 bytes"):
        sodium.sign_detached(b"", bytes(32))


def test_signing_loads_no_nacl() -> None:
    """A key made, its public key derived, a message signed and verified: nacl is never imported."""
    code = (
        "import os, sys\n"
        "from splendor_cli.crypto.keys import SecretKey\n"
        "key = SecretKey.generate('ann', os.urandom)\n"
        "assert key.public.verify('move', b'm', key.sign('move', b'm'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'nacl'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_bundled_copy_signs_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """rbcl's libsodium, when there is no system one, makes the same keys and signatures."""
    seed, message = bytes(range(32)), b"#12 take white blue green"
    public, full = sodium.sign_keypair(seed)
    signature = sodium.sign_detached(message, full)
    monkeypatch.setattr(sodium, "_LIB", sodium._bundled())
    assert sodium.sign_keypair(seed) == (public, full)
    assert sodium.sign_detached(message, full) == signature
