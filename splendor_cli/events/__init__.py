"""The log, whatever the game: the envelope every event carries, and the events all games share.

Every event carries the envelope `seq` (its 1-based position in the log) and `parent` (the
digest of the event before it; for the first event, of the file header), which chains the
log as git chains commits. In a sealed game (`SealedAsked`), the events players make carry a
third field, `sig`: their author's Ed25519 signature (splendor_cli/sealing/ says what it
covers); it is written only when there is one, so open games' files never show it.

The envelope is declared once: every event class derives from `Envelope` (`seq`, `parent`), or
from `Signable` (and `sig`), or, for a game's play events, from `PlayEvent` (and `player`, `by`),
as eventsourcing's events derive from one base. An event is made
without it (`TurnUndone(by="ann", to=3)`: seq 0, parent "", not yet on a log) and gets it as it
is appended (`events.codec.chained`). In the file, `seq` and `parent` are always written and
`sig` comes last, after the payload (`WRITTEN` says where each envelope field goes): the bytes of
every file stay as they were.

Tables are flat: scalars and arrays of scalars, so that one event is one `[[events]]` block of
the file. A class may hold a field of arrays of strings only with a written form (`WrittenForm`,
`numbered_form`) that spreads it over flat keys, as a setup's `decks` is written `deck_1`,
`deck_2`, `deck_3`. Never rename a TYPE or a key of a table as written: old files must stay
readable (change the schema by adding an upcaster keyed on the format number, or a class's
written form).

Each game declares its own events (its setup and its turns or steps) in its package
(`splendor_cli.variants.<game>.events`); the events here are the ones every game's log may
hold: an undo, and the commit-then-reveal deal. A table protocol declares its own events in its
package (a sealed game's: `splendor_cli.sealing.events`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

import attrs


class Event(Protocol):
    """What every event is, as the fold and the codec see it: a frozen attrs class with a stable
    `TYPE` tag and the envelope (the events of this program derive from `Envelope`)."""

    TYPE: ClassVar[str]

    @property
    def seq(self) -> int: ...

    @property
    def parent(self) -> str: ...


WRITTEN = "written"
"""The metadata key of an envelope's field that says where and when the file writes it (the codec
reads it): "first", before the payload and always, even at its default (`seq`, `parent`: the
chain, whose defaults only stand for an event not yet on a log, so a table without them is
refused; a play event's `player`); "last", after the payload and only when not at its default
(`sig`; a play event's `by`), as a payload field with a default is written only when it holds
another value.

Each envelope wraps the one it derives from around the payload, as an envelope holds a letter:
the "first" fields are written in the order they are declared (the outermost envelope's first:
`seq`, `parent`, then `player`), the "last" fields in the reverse order (the innermost
envelope's first: `by`, then `sig`). So a table reads `type`, `seq`, `parent`, `player`, the
payload, `by`, `sig`: the layout of every file written before the envelopes were declared once."""


# The envelope classes are never made themselves (only their subclasses are, which generate
# their own __init__, __repr__ and __eq__): generating theirs would cost each command's start-up
# about 0.3 ms for nothing.


class WrittenForm(NamedTuple):
    """How an event class's table in the file differs from its fields, when it does (an event
    class's `FORM`; None for most): the codec passes every table of the class read from a file
    through `upcast` before it is structured, and every table it writes (and hashes, and signs)
    through `written`. So a class can change the shape of its fields while every table ever
    written keeps its bytes, its digest and its signature: `upcast` reads each form the class was
    ever written in forward, `written` writes the form a table of those values was always written
    in (`written(upcast(table)) == table` for every table in its canonical form; `upcast` refuses
    another with a ValueError, which the codec reports naming the event)."""

    upcast: Callable[[dict[str, Any]], dict[str, Any]]
    """A table as written (type, envelope and payload: a new dict, the one given left as it is)
    -> the table of the class's fields. ValueError: no form this class writes."""
    written: Callable[[dict[str, Any]], dict[str, Any]]
    """The table of the class's fields (as `upcast` gives it) -> the table as written."""


def numbered_keys(stem: str, count: int) -> tuple[str, ...]:
    """The keys `{stem}_1` to `{stem}_{count}`: how a file writes the items of a field that
    `numbered_form` spreads over one key each (`numbered_keys("deck", 3)`: the three decks)."""
    return tuple(f"{stem}_{number}" for number in range(1, count + 1))


def numbered_form(field: str, keys: tuple[str, ...], *, item: Callable[[Any], bool]) -> WrittenForm:
    """The written form of a field `field` that holds one item a key of `keys`, in order: the
    upcaster for "N keys `deck_1` ... `deck_N` <-> one field `decks`". A table as written holds
    the keys, in the place of `field` (`GameStarted.decks`, a tuple of three decks, is written
    `deck_1 = [...]`, `deck_2 = [...]`, `deck_3 = [...]`, as before it was one field), and every
    value of the table stays flat. `item`: whether a key's value, as read, is one item.

    `upcast` refuses a table with a key missing ("missing 'deck_2'"), then one that names `field`
    itself ("unknown 'decks'": the file never writes it so), then a key of the wrong type; a table
    of another form (`sealing.events.DECKS_FORM` reads a list of another number of decks too)
    is its caller's business. `written` writes a tuple of `len(keys)` items (of any other length:
    the table as it is)."""
    first, known = keys[0], frozenset(keys)

    def upcast(table: dict[str, Any]) -> dict[str, Any]:
        missing = [key for key in keys if key not in table]
        if missing:
            raise ValueError(f"missing {', '.join(repr(key) for key in missing)}")
        if field in table:
            raise ValueError(f"unknown {field!r}")
        wrong = [key for key in keys if not item(table[key])]
        if wrong:
            raise ValueError(f"wrong type for {', '.join(repr(key) for key in wrong)}")
        out: dict[str, Any] = {}
        for key, value in table.items():
            if key == first:
                out[field] = [table[k] for k in keys]
            elif key not in known:
                out[key] = value
        return out

    def written(table: dict[str, Any]) -> dict[str, Any]:
        items = table.get(field)
        if items is None or len(items) != len(keys):
            return table
        out: dict[str, Any] = {}
        for key, value in table.items():
            if key == field:
                out.update(zip(keys, items, strict=True))
            else:
                out[key] = value
        return out

    return WrittenForm(upcast=upcast, written=written)


def strings(value: Any) -> bool:
    """Whether a value read from a file is an array of strings (`numbered_form`'s `item` of a
    key that holds one, as each `deck_N` of a game's setup does)."""
    return type(value) is list and all(type(v) is str for v in value)


@attrs.frozen(kw_only=True, init=False, repr=False, eq=False)
class Envelope:
    """The envelope of every event: `seq` and `parent` (see the module's docstring). An event
    class derives from it and adds its `TYPE` and its payload."""

    TYPE: ClassVar[str]
    FORM: ClassVar[WrittenForm | None] = None
    """How the class's tables are written, when not as its fields are (`WrittenForm`)."""
    seq: int = attrs.field(default=0, metadata={WRITTEN: "first"})
    parent: str = attrs.field(default="", metadata={WRITTEN: "first"})


@attrs.frozen(kw_only=True, init=False, repr=False, eq=False)
class Signable(Envelope):
    """The envelope of an event a player makes, which a sealed game has signed: and `sig`, the
    author's signature ("" when unsigned: not written), written after the payload."""

    sig: str = attrs.field(default="", metadata={WRITTEN: "last"})


# mypy compares the `__attrs_init__` attrs gives a class made with init=False with its base's, and
# `player` is a field without a default: no override that matters (nobody calls it).
@attrs.frozen(kw_only=True, init=False, repr=False, eq=False)
class PlayEvent(Signable):  # type: ignore[override]
    """The envelope of an event a player makes by playing (a turn, or a step of a turn), in every
    game: `player`, who plays it (written first, after `seq` and `parent`), and `by`, who played
    it for `player` on purpose (hot-seat, a relayed turn, `play --for`): "" when the player did,
    written only when set, after the payload and before `sig`. `by` is no part of what the rules
    make of the move (the fold checks that it names another player of the game). A game's play
    events derive from it and add their `TYPE` and payload."""

    player: str = attrs.field(metadata={WRITTEN: "first"})
    by: str = attrs.field(default="", metadata={WRITTEN: "last"})


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
)
"""The events any game's log may hold, besides the game's own and its table protocol's (a sealed
game's: `splendor_cli.sealing.events.SEALED_TYPES`): `splendor_cli.variants.event_types` gathers
them."""


def actor(event: Event) -> str:
    """Who made the event: the player of a turn or a seed step, who asked for an undo; "" for a
    setup and for an undo nobody signed; who asked for a restart of the deal."""
    if isinstance(event, TurnUndone | SeedsRestarted):
        return event.by
    player = getattr(event, "player", "")
    return player if isinstance(player, str) else ""


__all__ = [
    "SHARED_TYPES",
    "WRITTEN",
    "Envelope",
    "Event",
    "PlayEvent",
    "SeedCommitted",
    "SeedRevealed",
    "SeedsAsked",
    "SeedsRestarted",
    "Signable",
    "TurnUndone",
    "WrittenForm",
    "actor",
    "enveloped",
    "numbered_form",
    "numbered_keys",
    "signature",
    "strings",
]
