"""The events of the sealed protocol (pure: no cryptography, no I/O): the table protocol's own
events, which any game that declares sealed cards may log (`SEALED_TYPES`, which
`splendor_cli.variants.event_types` adds to a game's and the shared ones).

Same envelope and rules as every event (`splendor_cli.events`): flat payloads, type tags and
field names never renamed. Every event here but `SealedAsked` is signed by its author.

**The decks of a shuffle.** `DeckShuffled.decks` holds one deck per sealed deck of the game (as
many as it declares: `projection.variant.SealedCards.decks`). A shuffle of three decks (Splendor's,
a Duel's) is written as it always was, `deck_1`, `deck_2` and `deck_3`, so that its bytes, its
digest and its signature stay what they were and the release before reads it; a shuffle of any
other number of decks is written `decks = [...]`. `DECKS_FORM` reads either form into `decks`
(the upcast of a table written with `deck_N` keys) and writes the form that fits: a table of
three decks written as `decks` is refused, as is a mix of the two.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..events import Envelope, Event, Signable, WrittenForm, numbered_form, numbered_keys


@attrs.frozen(kw_only=True)
class TableAsked(Envelope):
    """The first event of a game at a table of keys (sealed, signed): the game, its seats, and the
    header it is the game of."""

    variant: str
    players: tuple[str, ...]
    header: str = ""
    """The full SHA-256 of the game's header (format 4 on; "" in an older file, whose first event
    named the header by its 16-digit link alone): the game's root, the digest of this event, so
    binds every byte of the header, the game's id included, and every key, proof and signature of
    the game hangs off the root. Checked against the header on every read
    (`records.replay_record`): a copy of this event under another header is refused."""


@attrs.frozen(kw_only=True)
class SealedAsked(TableAsked):
    """A sealed game: the players join with their keys (`PlayerJoined`), each shuffles and
    encrypts the decks in turn (`DeckShuffled`), and a card is revealed only by every player's
    decryption share (`CardsShown`): nobody alone knows the order of a deck, and a card reserved
    blind is seen by its owner alone. Every event after this one is signed by its author."""

    TYPE: ClassVar[str] = "sealed_asked"
    TABLE: ClassVar[str] = "sealed"
    """The table protocol whose game this event opens: what the header of a file older than
    format 4 (`codec.TABLE_FORMAT`) is read to declare."""


@attrs.frozen(kw_only=True)
class KeyJoined(Signable):
    """A player's join of a table of keys: their public keys for this game, `signing` (Ed25519,
    their identity, whose fingerprint every seat shows) and `card` (a ristretto255 key made for
    this game alone, from randomness they keep: `signing.GameKey`), with `possession`, the proof
    that they hold both secrets, made for this game and this seat, and `nonce`, 32 fresh random
    bytes (64 hex digits; format 4 on, "" in an older file): the game's session id hashes every
    join's nonce (`signing.session_id`), so no two games share one, whatever their headers."""

    player: str
    signing: str
    card: str
    possession: str
    nonce: str = ""


@attrs.frozen(kw_only=True)
class PlayerJoined(KeyJoined):
    """A player joins a sealed game (`KeyJoined`)."""

    TYPE: ClassVar[str] = "player_joined"


THREE = 3
"""The number of decks whose shuffle is written with one key per deck (`deck_1` ...)."""
_KEYS = numbered_keys("deck", THREE)
"""The keys of a shuffle of three decks, as every file before the list of decks wrote them."""
_KEYED = numbered_form("decks", _KEYS, item=lambda value: type(value) is str)
"""A shuffle of three decks, written with one key per deck (each deck one string)."""


def deck_key(level: int, count: int) -> str:
    """How a file names the deck of `level` (1-based) of a shuffle of `count` decks: `deck_2` in
    a shuffle of three, else `decks[1]` (for messages)."""
    return _KEYS[level - 1] if count == THREE else f"decks[{level - 1}]"


def _upcast_decks(table: dict[str, Any]) -> dict[str, Any]:
    """A `deck_shuffled` table as written -> the table of `DeckShuffled`'s fields: `deck_1`,
    `deck_2` and `deck_3` become `decks` (in the place of `deck_1`: `_KEYED`); `decks` stays as it
    is, unless it holds three decks (those are written `deck_1` ...). ValueError for a table in
    neither form."""
    written = [key for key in _KEYS if key in table]
    if "decks" in table:
        if written:
            raise ValueError(f"a shuffle writes its decks as {', '.join(_KEYS)} or as 'decks', not both")
        decks = table["decks"]
        if type(decks) is list and len(decks) == THREE:
            raise ValueError(f"a shuffle of three decks writes them as {', '.join(_KEYS)}, not as 'decks'")
        return table
    if not written:
        return table  # no decks at all: the structuring names 'decks' missing
    return _KEYED.upcast(table)


def _written_decks(table: dict[str, Any]) -> dict[str, Any]:
    """The table of `DeckShuffled`'s fields -> as written: three decks as `deck_1` to `deck_3`,
    in the place of `decks`; any other number as `decks`."""
    return _KEYED.written(table)


DECKS_FORM = WrittenForm(upcast=_upcast_decks, written=_written_decks)
"""How a `deck_shuffled` table is written (see the module's docstring)."""


@attrs.frozen(kw_only=True)
class DeckShuffled(Signable):
    """A player's shuffle of the sealed decks: each deck re-encrypted under the joint key and put
    in a new order, which only a seed they publish at the end can explain (`KeysPublished`).
    `decks` holds each deck of the game (as many as it declares, by level from 1) in one string:
    the standard base64 (padded, no newline) of its ciphertexts from the top, 64 bytes each
    (crypto/elgamal.py `deck_text`); `proofs` holds one zero-knowledge proof of shuffle per deck
    (base64: crypto/shuffle_proof.py), which every reader checks: the deck is a permutation and
    re-encryption of the deck before it. Written `deck_1` to `deck_3` for three decks (`FORM`)."""

    TYPE: ClassVar[str] = "deck_shuffled"
    FORM: ClassVar[WrittenForm | None] = DECKS_FORM
    player: str
    decks: tuple[str, ...]
    proofs: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class CardsShown(Signable):
    """A player's decryption shares of sealed cards (`cards`: placeholders such as `2?07`), each
    with its proof (`shares`, in the same order: each the standard base64 of its 96 bytes, 128
    characters, crypto/elgamal.py `Share.to_text`). A card is revealed to all when every
    player's share is in; a card reserved blind gets every share but its owner's."""

    TYPE: ClassVar[str] = "cards_shown"
    player: str
    cards: tuple[str, ...]
    shares: tuple[str, ...]


@attrs.frozen(kw_only=True)
class KeysPublished(Signable):
    """After the last move, a player's secrets of this game: `card`, the secret of their share of
    the joint key, and `seeds`, the seeds of their shuffle of each deck (64 hex digits each), so
    that `splendor verify` re-checks every shuffle and every reveal."""

    TYPE: ClassVar[str] = "keys_published"
    player: str
    card: str
    seeds: tuple[str, ...]


@attrs.frozen(kw_only=True)
class RewindAgreed(Signable):
    """In a sealed game, a player's signed consent to a rewind to just after event `to` that takes
    back turns of theirs: a forced undo (`TurnUndone.forced`) needs one from each such player,
    made since the last move."""

    TYPE: ClassVar[str] = "rewind_agreed"
    player: str
    to: int


SEALED_TYPES: tuple[type[Event], ...] = (
    SealedAsked,
    PlayerJoined,
    DeckShuffled,
    CardsShown,
    KeysPublished,
    RewindAgreed,
)
"""The events of a sealed game's protocol, which any game's log may hold (a game that declares no
sealed cards refuses them where the first is folded: `table.Sealing.start`)."""


__all__ = [
    "DECKS_FORM",
    "SEALED_TYPES",
    "THREE",
    "CardsShown",
    "DeckShuffled",
    "KeyJoined",
    "KeysPublished",
    "PlayerJoined",
    "RewindAgreed",
    "SealedAsked",
    "TableAsked",
    "deck_key",
]
