"""`splendor_cli.digest`: SHA-256 and HMAC-SHA-256 without OpenSSL are hashlib's and hmac's, byte
for byte, and a command's start-up no longer loads OpenSSL for them."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from splendor_cli.digest import BLOCK, compare_digest, hmac_sha256, sha256


@given(st.binary(max_size=3 * BLOCK), st.binary(max_size=500))
def test_the_digests_are_hashlibs_and_hmacs(key: bytes, message: bytes) -> None:
    """Keys shorter than, as long as and longer than a block (hashed first), any message."""
    assert sha256(message).digest() == hashlib.sha256(message).digest()
    assert hmac_sha256(key, message) == hmac.digest(key, message, "sha256")


def test_rfc_4231_case_2() -> None:
    """HMAC-SHA-256 test case 2 of RFC 4231 (a key shorter than the block)."""
    mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?")
    assert mac.hex() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    assert compare_digest(mac, bytes(mac)) and not compare_digest(mac, bytes(32))


def test_a_turn_loads_no_openssl() -> None:
    """Reading and replaying a game (the codec, the cache, the memory) imports neither hashlib
    nor hmac: OpenSSL's libcrypto costs about 2 ms of every command's start-up."""
    code = (
        "import sys; from splendor_cli import store, records; from splendor_cli.app import cache, memory;"
        "store.read('games/sample-3p.toml');"
        "print(sorted(m for m in ('hashlib', 'hmac', '_hashlib') if m in sys.modules))"
    )
    root = Path(__file__).parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
