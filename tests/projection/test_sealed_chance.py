"""Chance nobody can steer in a sealed Duel: the bag draw of a replenish follows the setup and the
number of draws before it, never a byte a signer chooses.

The issue's reproduction: an Ed25519 signature's nonce is the signer's to pick (the verifier
checks `S B = R + k A` whatever `r` made `R`), so bob could sign his privilege step hundreds of
ways and write the one whose digest gave the bag draw he liked. Here bob signs it 40 ways, every
signature valid, and every one leads to the same draw; and so does the replenish played without
the privilege step first (a detour cannot choose the draw either).
"""

from __future__ import annotations

import ctypes
import hashlib
import os

import attrs
from sealed_helpers import Table

from splendor_cli.crypto import sodium
from splendor_cli.crypto.group import ORDER
from splendor_cli.crypto.keys import SecretKey, _signed
from splendor_cli.events import Event
from splendor_cli.projection.game import Game
from splendor_cli.sealing.signing import signed_message
from splendor_cli.variants.duel.step import Step


def _signature_with_nonce(secret: SecretKey, purpose: str, message: bytes, nonce: int) -> bytes:
    """A valid Ed25519 signature of `message` by `secret`, made with the nonce `nonce` instead of
    the deterministic one (RFC 8032 derives it from the key and message; nothing checks that)."""
    digest = hashlib.sha512(secret.signing).digest()
    a = bytearray(digest[:32])
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    scalar = int.from_bytes(a, "little")
    r = nonce % ORDER
    big_r = ctypes.create_string_buffer(32)
    assert sodium._LIB.crypto_scalarmult_ed25519_base_noclamp(big_r, r.to_bytes(32, "little")) == 0
    public = secret.public.signing
    signed = _signed(purpose, message)
    k = int.from_bytes(hashlib.sha512(big_r.raw + public + signed).digest(), "little") % ORDER
    s = (r + k * scalar) % ORDER
    return big_r.raw + s.to_bytes(32, "little")


def _to_privilege_and_replenish(table: Table) -> tuple[Step, Step]:
    """Random steps until the player to move may use a privilege and may replenish."""
    for _ in range(400):
        table.duty_round()
        view = table.view()
        moves = table.variant.legal_moves(view)
        privileges = [m for m in moves if m.step == "privilege"]
        if privileges and any(m.step == "replenish" for m in moves):
            return privileges[0], Step(step="replenish")
        table.step()
    raise AssertionError("no position with a privilege step and a replenish")


def _draw(game: Game, event: Event, move: Step) -> tuple[str, ...]:
    after = game.apply(event)
    drawn = after.decide(move)
    return tuple(str(gem) for gem in drawn.tokens)  # type: ignore[attr-defined]


def test_grinding_the_signature_of_the_step_before_gives_one_draw() -> None:
    table = Table.new("duel", 2, 5).deal()
    privilege, replenish = _to_privilege_and_replenish(table)
    player = table.state.player.name
    unsigned = table.signed(table.game.decide(privilege), None)
    message = signed_message(unsigned, table.record.events[-1])
    draws = set()
    signatures = set()
    for _ in range(40):
        sig = _signature_with_nonce(table.keys[player], "event", message, int.from_bytes(os.urandom(64), "little"))
        assert table.keys[player].public.verify("event", message, sig)  # a valid signature, every one
        signatures.add(sig)
        event = attrs.evolve(unsigned, sig=sig.hex())  # type: ignore[misc]
        draws.add(_draw(table.game, event, replenish))
    assert len(signatures) == 40
    assert len(draws) == 1
    # Without the privilege step first, the replenish draws the same order of the same bag.
    direct = table.game.decide(replenish)
    assert (tuple(str(gem) for gem in direct.tokens),) == tuple(draws)  # type: ignore[attr-defined]
