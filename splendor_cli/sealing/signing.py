"""The digests and signatures of a sealed game's events, a player's keys of one game, and the
contexts every proof is bound to (pure; the cryptography imported when used).

Every event after `SealedAsked` but the setup is signed by its author (`actor`): the Ed25519
signature covers the event without its `sig` and the SHA-256 of the whole event before it
(signature included), so a signed event fixes the whole history before it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import TYPE_CHECKING, Any

import attrs

from ..events import Event, PlayEvent, actor

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..crypto.keys import PublicKey, SecretKey
    from .events import KeyJoined, TableAsked


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


NONCE_BYTES = 32
"""The bytes of a join's nonce (`KeyJoined.nonce`) and of the randomness a player keeps for a game."""


def session_id(header: bytes, root: bytes, nonces: Sequence[bytes]) -> bytes:
    """A game's session id (format 4 on): SHA-256 of the header's full digest, the game's root and
    every player's join nonce in turn order. Nobody can make two games share one: it follows the
    whole header and first event and a fresh nonce of each player's (a unique session identifier,
    as in Canetti 2001 and Barak, Lindell and Rabin 2004). The shuffles, the shares, the deal and
    the draws are bound to it; every signature after the joins covers it (each covers the full
    digest of the event before, and so the joins)."""
    from ..crypto.group import framed

    return hashlib.sha256(framed(b"splendor-cli/session/v1", header, root, *nonces)).digest()


def header_digest(event: TableAsked) -> bytes:
    """The full digest of the header that a table's first event names (b"": an older file's,
    which names none; the reader checks it against the header: records.py `_header_bound`)."""
    text = event.header
    if len(text) != 2 * hashlib.sha256().digest_size or text.strip("0123456789abcdef"):
        return b""
    return bytes.fromhex(text)


@attrs.frozen
class GameKey:
    """A player's keys of one game: their own signing key (`master`'s, their identity), and a card
    secret made for this game alone (`key`), which they publish at the end without harm to
    other games, with the seeds of their shuffles (`seed`).

    From format 4 on, both come from `kept`, 32 random bytes of the player's own made when they
    join and kept in their keys folder (app/services/keyfile.py `game_secret`): nothing anyone
    else chose (the game's root is the asker's) enters them. In an older game (`kept` None) they
    are derived from the player's secret key and the game's root, as that game was played."""

    master: SecretKey
    root: bytes
    kept: bytes | None = None

    @functools.cached_property
    def key(self) -> SecretKey:
        """The player's key of this game: their signing key, and this game's card secret."""
        from ..crypto.group import hash_to_scalar
        from ..crypto.keys import SecretKey as Secret

        master = self.master
        if self.kept is None:
            card = hash_to_scalar("game-card", master.signing, master.card.data, self.root)
        else:
            card = hash_to_scalar("game-card/v2", self.kept, self.root)
        return Secret(name=master.name, signing=master.signing, card=card)

    def seed(self, session: bytes, player: str, level: int) -> bytes:
        """The seed of `player`'s shuffle of the deck of `level` in the game of `session` (its
        root in an older game): crypto/shuffle.py."""
        label = seed_label(session, player, level)
        if self.kept is None:
            return self.master.shuffle_seed(label)
        from ..crypto.group import framed

        return hashlib.sha256(framed(b"splendor-cli/shuffle-seed/v2", self.kept, label.encode("utf-8"))).digest()


def joined_key(
    keys: Mapping[str, PublicKey], event: KeyJoined, root: bytes, *, keyed: bool, verify: bool, rule: str
) -> tuple[PublicKey, bytes]:
    """The public key `event` joins with, and its nonce (b"" in an older game), once checked
    against the keys joined before (`keys`): a seat joins once, with keys nobody else holds; in a
    game of format 4 (`keyed`) with a nonce of its own, in an older one with none; `verify`: its
    proof of possession, bound to the game and the seat. IllegalMoveError of `rule` (the
    caller's `refused_at` makes it the event's), GameFileError for a malformed key."""
    from ..crypto.group import Point, parse_hex
    from ..crypto.keys import Possession, PublicKey, check_possession
    from ..errors import IllegalMoveError

    if event.player in keys:
        raise IllegalMoveError(f"{event.player} has joined already", rule=rule)
    public = PublicKey(
        name=event.player, signing=parse_hex(event.signing, 32, "signing"), card=Point.from_hex(event.card, "card")
    )
    if any(public.signing == k.signing or public.card == k.card for k in keys.values()):
        raise IllegalMoveError(f"{event.player} joins with a key another player holds", rule=rule)
    if keyed and not event.nonce:
        raise IllegalMoveError(f"{event.player}'s join carries no nonce (a game of format 4 needs one)", rule=rule)
    if not keyed and event.nonce:
        raise IllegalMoveError(
            f"{event.player}'s join carries a nonce, which a game before format 4 has none of", rule=rule
        )
    nonce = parse_hex(event.nonce, NONCE_BYTES, "nonce") if keyed else b""
    possession = Possession.from_hex(event.possession)
    if verify:
        check_possession(public, possession, context(root, "join", event.player))
    return public, nonce


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
    "NONCE_BYTES",
    "GameKey",
    "author",
    "canonical",
    "check_signature",
    "context",
    "full_digest",
    "header_digest",
    "joined_key",
    "seed_label",
    "session_id",
    "shuffle_context",
    "sign",
    "signed_message",
]
