"""The digests and signatures of a sealed game's events, a player's keys of one game, and the
contexts every proof is bound to (pure; the cryptography imported when used).

Every event after `SealedAsked` but the setup is signed by its author (`actor`): the Ed25519
signature covers the event without its `sig` and the SHA-256 of the whole event before it
(signature included), so a signed event fixes the whole history before it.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

import attrs

from ..events import Event, PlayEvent, actor

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..crypto.keys import PublicKey, SecretKey


def canonical(event: Event) -> bytes:
    """The event as the chain and the signatures read it: canonical JSON of its dict."""
    from ..events.codec import event_to_dict

    return _json(event_to_dict(event))


def _json(raw: dict[str, Any]) -> bytes:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


_DIGESTS: dict[int, tuple[Event, bytes]] = {}
"""The full digest of each event hashed before, by identity (the event held, so that its identity
stays its own): a fold hashes each event as the one before the next, once."""


def full_digest(event: Event) -> bytes:
    """SHA-256 of the whole event (the chain's `parent` keeps 16 hex digits of it)."""
    known = _DIGESTS.get(id(event))
    if known is not None and known[0] is event:
        return known[1]
    digest = hashlib.sha256(canonical(event)).digest()
    _remember_digest(event, digest)
    return digest


def _remember_digest(event: Event, digest: bytes) -> None:
    if len(_DIGESTS) > 20_000:
        _DIGESTS.clear()
    _DIGESTS[id(event)] = (event, digest)


def signed_message(event: Event, previous: Event) -> bytes:
    """What a signature covers: the event without its `sig` (a field at its default is not
    written), and the full digest of the event before it. The event's own full digest is kept
    on the way (the next event's signature covers it)."""
    from ..crypto.group import framed
    from ..events.codec import event_to_dict

    raw = event_to_dict(event)
    if "sig" in raw:
        known = _DIGESTS.get(id(event))
        if known is None or known[0] is not event:
            _remember_digest(event, hashlib.sha256(_json(raw)).digest())
        del raw["sig"]
    return framed(b"splendor-cli/event/v1", _json(raw), full_digest(previous))


def author(event: Event) -> str:
    """Whose key signs `event`: who played a turn for its player on purpose (a play event's `by`),
    else who made it (`events.actor`). A move claiming `by = "eve"` is eve's to sign: a claim of
    who played is checked like any other signature."""
    if isinstance(event, PlayEvent) and event.by:
        return event.by
    return actor(event)


def check_signature(keys: Mapping[str, PublicKey], event: Event, previous: Event, *, rule: str) -> None:
    """Refuse `event` (IllegalMoveError of `rule`) unless it is signed by its author's key in
    `keys` (`author`: a move played for its player by another, `by`, is that other's to sign)."""
    import binascii

    from ..errors import IllegalMoveError, excerpt
    from ..events import signature

    who = author(event)
    key = keys.get(who)
    if key is None:
        raise IllegalMoveError(f"{event.TYPE} by {excerpt(who) or 'nobody'}, who holds no key in this game", rule=rule)
    sig = signature(event)
    if not sig:
        raise IllegalMoveError(f"{event.TYPE} by {who} is not signed", rule=rule)
    try:
        raw = binascii.unhexlify(sig)
    except (binascii.Error, ValueError):
        raw = b""
    if not key.verify("event", signed_message(event, previous), raw):
        raise IllegalMoveError(f"{event.TYPE}: the signature is not {who}'s (a forged or altered event)", rule=rule)


def sign(event: Event, previous: Event, secret: SecretKey) -> Event:
    """`event` (chained onto the log: its envelope set) signed by `secret`, after `previous`."""
    sig = secret.sign("event", signed_message(event, previous)).hex()
    signed: Event = attrs.evolve(event, sig=sig)  # type: ignore[misc]
    return signed


# -- a player's keys of one game, and what each proof is bound to ---------------------------------


def game_key(secret: SecretKey, root: bytes) -> SecretKey:
    """A player's keys for the game of first-event digest `root`: their own signing key, and a
    card secret made for this game alone (published at the end without harm to other games)."""
    from ..crypto.group import hash_to_scalar
    from ..crypto.keys import SecretKey as Secret

    card = hash_to_scalar("game-card", secret.signing, secret.card.data, root)
    return Secret(name=secret.name, signing=secret.signing, card=card)


def seed_label(root: bytes, player: str, level: int) -> str:
    """The label of a player's shuffle of a deck (crypto/shuffle.py): the game, the seat, the deck."""
    return f"{root.hex()}:{player}:deck {level}"


def context(root: bytes, *parts: str) -> bytes:
    """What a proof (of possession, of a share) is bound to: the game, and `parts` (what it
    proves: `join` and the seat, `share` and the card)."""
    from ..crypto.group import framed

    return framed(root, *(part.encode("utf-8") for part in parts))


def shuffle_context(root: bytes, player: str, level: int) -> bytes:
    """What a proof of shuffle is bound to besides its decks and the joint key: the game (the
    digest of its first event), the seat and the deck. A proof moved to another game, seat or
    deck does not verify."""
    return context(root, "shuffle", player, f"deck {level}")


__all__ = [
    "author",
    "canonical",
    "check_signature",
    "context",
    "full_digest",
    "game_key",
    "seed_label",
    "shuffle_context",
    "sign",
    "signed_message",
]
