"""The log, whatever the game: the envelope every event carries, and the events all games share.

Every event carries the envelope `seq` (its 1-based position in the log) and `parent` (the
digest of the event before it; for the first event, of the file header), which chains the
log as git chains commits. In a sealed game (`SealedAsked`), the events players make carry a
third field, `sig`: their author's Ed25519 signature (splendor_cli/sealing/ says what it
covers); it is written only when there is one, so open games' files never show it.

The envelope is declared once: every event class derives from `Envelope` (`seq`, `parent`), or
from `Signable` (and `sig`), as eventsourcing's events derive from one base. An event is made
without it (`TurnUndone(by="ann", to=3)`: seq 0, parent "", not yet on a log) and gets it as it
is appended (`events.codec.chained`). In the file, `seq` and `parent` are always written and
`sig` comes last, after the payload: the bytes of every file stay as they were.

Payloads are flat: scalars and arrays of scalars, so that one
event is one `[[events]]` block of the file. Never rename a TYPE or a field: old files
must stay readable (change the schema by adding an upcaster keyed on the format number).

Each game declares its own events (its setup and its turns or steps) in its package
(`splendor_cli.variants.<game>.events`); the events here are the ones every game's log may
hold: an undo, and the commit-then-reveal deal.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, TypeVar

import attrs


class Event(Protocol):
    """What every event is, as the fold and the codec see it: a frozen attrs class with a stable
    `TYPE` tag and the envelope (the events of this program derive from `Envelope`)."""

    TYPE: ClassVar[str]

    @property
    def seq(self) -> int: ...

    @property
    def parent(self) -> str: ...


class PlayEvent(Event, Protocol):
    """An event a player makes by playing: a turn, or a step of a turn."""

    @property
    def player(self) -> str: ...


WRITTEN = "written"
"""The metadata key of an envelope's field that says where and when the file writes it (the codec
reads it): "first", before the payload and always, even at its default (`seq`, `parent`: the
chain, whose defaults only stand for an event not yet on a log, so a table without them is
refused); "last", after the payload and only when not at its default (`sig`), as a payload field
with a default is written only when it holds another value."""


# The two envelope classes are never made themselves (only their subclasses are, which generate
# their own __init__, __repr__ and __eq__): generating theirs would cost each command's start-up
# about 0.3 ms for nothing.


@attrs.frozen(kw_only=True, init=False, repr=False, eq=False)
class Envelope:
    """The envelope of every event: `seq` and `parent` (see the module's docstring). An event
    class derives from it and adds its `TYPE` and its payload."""

    TYPE: ClassVar[str]
    seq: int = attrs.field(default=0, metadata={WRITTEN: "first"})
    parent: str = attrs.field(default="", metadata={WRITTEN: "first"})


@attrs.frozen(kw_only=True, init=False, repr=False, eq=False)
class Signable(Envelope):
    """The envelope of an event a player makes, which a sealed game has signed: and `sig`, the
    author's signature ("" when unsigned: not written), written after the payload."""

    sig: str = attrs.field(default="", metadata={WRITTEN: "last"})


@attrs.frozen(kw_only=True)
class TurnUndone(Signable):
    """The game goes back to how it was just after event `to`; the turns after it are undone.

    `by` names who asked for it ("" when not said); `forced` marks an agreed rewind over other
    players' turns (written only when true). Nothing is removed from the file.
    """

    TYPE: ClassVar[str] = "turn_undone"
    by: str
    to: int
    forced: bool = False


@attrs.frozen(kw_only=True)
class SeedsAsked(Envelope):
    """The players deal by commit-then-reveal: each commits to a secret, then reveals it, and the
    shuffle follows from all the secrets together, so that nobody alone chooses it."""

    TYPE: ClassVar[str] = "seeds_asked"
    variant: str
    players: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SeedCommitted(Envelope):
    """A player's commitment: the SHA-256 of their name and their secret, which stays hidden."""

    TYPE: ClassVar[str] = "seed_committed"
    player: str
    commitment: str


@attrs.frozen(kw_only=True)
class SeedRevealed(Envelope):
    """A player's secret, revealed once every player has committed; it must match the commitment."""

    TYPE: ClassVar[str] = "seed_revealed"
    player: str
    secret: str


@attrs.frozen(kw_only=True)
class SeedsRestarted(Envelope):
    """The deal starts over: every player had committed, `by` had revealed, and the players in
    `without` (in turn order) had not. Every commitment and secret before it stops counting: each
    player commits a new secret (see `splendor_cli.projection.seeding`)."""

    TYPE: ClassVar[str] = "seeds_restarted"
    by: str
    without: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SealedAsked(Envelope):
    """A sealed game: the players join with their keys (`PlayerJoined`), each shuffles and
    encrypts the decks in turn (`DeckShuffled`), and a card is revealed only by every player's
    decryption share (`CardsShown`): nobody alone knows the order of a deck, and a card reserved
    blind is seen by its owner alone. Every event after this one is signed by its author."""

    TYPE: ClassVar[str] = "sealed_asked"
    variant: str
    players: tuple[str, ...]


@attrs.frozen(kw_only=True)
class PlayerJoined(Signable):
    """A player's public keys for this game: `signing` (Ed25519, their identity) and `card` (the
    ristretto255 key of their share of the joint key, made for this game only), with
    `possession`, the proof that they hold both secrets, made for this game and this seat."""

    TYPE: ClassVar[str] = "player_joined"
    player: str
    signing: str
    card: str
    possession: str


@attrs.frozen(kw_only=True)
class DeckShuffled(Signable):
    """A player's shuffle of the sealed decks: each deck re-encrypted under the joint key and put
    in a new order, which only a seed they publish at the end can explain (`KeysPublished`).
    `deck_N` is the whole level-N deck in one string: the standard base64 (padded, no newline) of
    its ciphertexts from the top, 64 bytes each (crypto/elgamal.py `deck_text`); `proofs` holds
    one zero-knowledge proof of shuffle per deck (base64: crypto/shuffle_proof.py), which every
    reader checks: the deck is a permutation and re-encryption of the deck before it."""

    TYPE: ClassVar[str] = "deck_shuffled"
    player: str
    deck_1: str
    deck_2: str
    deck_3: str
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
"""The events of a sealed game's protocol (splendor_cli/sealing/)."""


E = TypeVar("E", bound=Event)


def enveloped(event: E, *, seq: int, parent: str) -> E:
    """`event` with this envelope (every event is a frozen attrs class); its signature, if any,
    is dropped when the envelope changes: it covered the old one."""
    changes: dict[str, Any] = {"seq": seq, "parent": parent}
    if getattr(event, "sig", "") and (event.seq, event.parent) != (seq, parent):
        changes["sig"] = ""
    changed: E = attrs.evolve(_attrs(event), **changes)
    return changed


def signature(event: Event) -> str:
    """The event's `sig` ("" when unsigned, or for a class that has none)."""
    sig = getattr(event, "sig", "")
    return sig if isinstance(sig, str) else ""


def _attrs(event: Event) -> Any:
    return event


SHARED_TYPES: tuple[type[Event], ...] = (
    TurnUndone,
    SeedsAsked,
    SeedCommitted,
    SeedRevealed,
    SeedsRestarted,
    *SEALED_TYPES,
)
"""The events any game's log may hold, besides the game's own."""


def actor(event: Event) -> str:
    """Who made the event: the player of a turn or a seed step, who asked for an undo; "" for a
    setup and for an undo nobody signed; who asked for a restart of the deal."""
    if isinstance(event, TurnUndone | SeedsRestarted):
        return event.by
    player = getattr(event, "player", "")
    return player if isinstance(player, str) else ""


__all__ = [
    "SEALED_TYPES",
    "SHARED_TYPES",
    "WRITTEN",
    "CardsShown",
    "DeckShuffled",
    "Envelope",
    "Event",
    "KeysPublished",
    "PlayEvent",
    "PlayerJoined",
    "RewindAgreed",
    "SealedAsked",
    "SeedCommitted",
    "SeedRevealed",
    "SeedsAsked",
    "SeedsRestarted",
    "Signable",
    "TurnUndone",
    "actor",
    "enveloped",
    "signature",
]
