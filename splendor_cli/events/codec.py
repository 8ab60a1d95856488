"""The game file: TOML text <-> header and events, and the hash chain that links the events.

Strings in, strings out; the filesystem is `store.py`'s business. The reader is strict: an
unknown key, a missing field, a value of the wrong type, a broken chain or a format newer
than this program is refused with one line naming the event and the problem.

Events are written one `[[events]]` block each, appended after the bytes already written, and
never re-serialised as a whole document: that keeps the file append-only and a turn's git diff
one block. An event's table holds `type`, then its envelope's fields written first (`seq`,
`parent`, a play event's `player`), then its payload in the order its class declares it, then the
envelope's fields written last when they are set (a play event's `by`, then `sig`): each envelope
wraps the one it derives from (`events.WRITTEN`).

Old files are read forward by upcasters, as eventsourcing reads old events. The header's `format`
says which schema a file's event tables follow; `UPCASTERS[N]`, when a change of schema from
format N to N+1 needs one, takes a raw event table of format N to what format N+1 writes (a new
dict: it must not change the one it is given). On read, every event table of a file of format N
passes through the upcasters of N, N+1, ... up to `FORMAT`, in turn, before it is structured into
its class. The hash chain links the tables as they were written: each link is checked, and each
digest taken, before the upcasting. Formats 1 and 2 write the same tables (what differs is how a
game draws and seals: `FORMAT`), so no upcaster is registered yet; the first change of schema
registers one with `@upcaster(2)`.

An event class may also declare how its tables are written when that is not as its fields are
(`events.WrittenForm`, the class's `FORM`): an upcaster of the class's own, applied to every table
of that type whatever the format (after the format's upcasters), and the form it writes, applied
to every table this program writes, hashes and signs. That is how `deck_shuffled` holds a list of
decks while a shuffle of three decks is still written `deck_1`, `deck_2`, `deck_3`, its bytes,
digest and signature unchanged (splendor_cli/sealing/events.py), and how a game's setup
(`game_started`, `duel_started`) holds `decks`, a tuple of the decks of cards, written one key
a deck as it always was (`events.numbered_form`). The table as written stays flat: only a class
with a written form may hold a field of arrays of strings (`_SPREAD`), which its form spreads over
one key each.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from hashlib import sha256
from typing import Any

import attrs

from ..errors import ConflictError, ForkError, GameFileError, excerpt
from ..patterns import LazyPattern
from . import WRITTEN, Event, enveloped
from .conversion import layout, plain, structure, written_form

EventTypes = Callable[[str], Mapping[str, type[Any]]]
"""The event classes of a game, by type tag, for the header's `variant` (GameFileError if unknown):
`splendor_cli.variants.event_types`. The codec takes it as an argument: it knows no game."""

FORMAT = 4
"""The version of the file format this program writes, and the newest it reads. Format 2 draws a
game's chance from its setup and the number of draws before (an undo cannot re-roll it) and seals
games with proofs of shuffle; a format 1 file reads as it was written (its draws follow the
digest of the event before them), but a sealed game of format 1 is refused. Format 3 writes the
same tables as format 2 and adds a rule: a bot seat's move is the one its bot makes, which every
reader computes again (bots/check.py, through the gate); files of formats 1 and 2 are read
without it. Format 4 (this release) declares a game's table protocol in its header (`table`,
`TABLE_FORMAT`) and draws from no envelope (`PAYLOAD_DRAWS_FORMAT`). `splendor new` writes the
oldest format that reads the game the same (`store.writing_format`)."""

PAYLOAD_DRAWS_FORMAT = 4
"""The first format whose draws during play follow the game's first event and the setup's payload,
never an envelope (`projection.game`'s chance): in a sealed game the setup's `parent` is the link
of the last `cards_shown`, whose proofs carry fresh nonces, so whoever showed last could re-make
it until a draw suited him. Files of formats 2 and 3 draw as they were written."""

TABLE_FORMAT = 4
"""The first format whose header declares the game's table protocol (`Header.table`, written
when it is not "open"). In an older file the protocol is the one whose event opens the log (its
class's `TABLE`: `sealed_asked` opens a sealed game), and the header is read so (`parse`), its
bytes and digest as written."""

GAME_ID_RULE = (
    "a game id is 1 to 100 ASCII letters, digits and _ . @ : # + -, starting with a letter or a digit, without '..'"
)
"""The rule for the header's `game`, as the message that refuses one quotes it."""
GAME_ID = LazyPattern(r"[A-Za-z0-9][A-Za-z0-9_.@:#+-]{0,99}")
"""What a game id may be (with no `..` in it): see `game_id_problem`."""


def game_id_problem(game: str) -> str:
    """What is wrong with `game` as a game id ("" when nothing is): `GAME_ID_RULE`.

    The id is printed, and names files (the secrets of a commit-then-reveal deal are kept in
    `GAME.PLAYER.secret`): so no whitespace, control character, non-ASCII, `/`, `\\` or `..`.
    Checked on every read of a header (`parse`); `splendor new` makes ids that keep it.
    """
    if GAME_ID.fullmatch(game) and ".." not in game:
        return ""
    return f"header: bad game id {excerpt(game)}: {GAME_ID_RULE}"


@attrs.frozen(kw_only=True)
class Header:
    """The top of a game file. Its digest is the `parent` of the first event."""

    format: int = 2
    """The file's format: 2 for a header made in code (the newest that reads a game without bot
    seats); `splendor new` writes the oldest that reads the game the same (`store.writing_format`)."""
    game: str
    """The game's id (`GAME_ID_RULE`, checked on read)."""
    variant: str
    table: str = "open"
    """The table protocol that keeps the game's cards and proves its moves (`projection/
    table_protocol.py`): chosen by it when the file is read, and the log must follow it. Written
    only when it is not "open", from format 4 on (`TABLE_FORMAT`); an older file's is its first
    event's (`parse`)."""
    players: tuple[str, ...]
    """The setup's players, checked against it on replay (and so by the rule of player names)."""
    created: str
    emails: tuple[str, ...] = ()
    """Each player's e-mail address ("" for none), in the order of `players`; written only when
    one is given, so that `splendor verify --git` can match a turn to the author of its commit."""


@attrs.frozen(kw_only=True)
class Record:
    """A parsed game file: the header and the events, in order."""

    header: Header
    events: tuple[Event, ...]
    digested: tuple[tuple[Event, ...], tuple[str, ...]] | None = attrs.field(default=None, eq=False, repr=False)
    """The events `parse` read and the full digest of each, as it computed them while checking the
    chain (None: not read so). Used by `digests` only while `events` is that very tuple: a record
    made from another by `attrs.evolve(record, events=...)` has its digests computed anew."""

    def _read_digests(self) -> tuple[str, ...] | None:
        digested = self.digested
        return digested[1] if digested is not None and digested[0] is self.events else None

    @property
    def digests(self) -> tuple[str, ...]:
        """The full SHA-256 (`FULL` hex digits) of each event, in order: what vouches for an event
        where trust depends on it (the memory of seen games, the cache of verified sealed events).
        The chain's `parent` keeps `LINK` digits only: a link, not an identity (a player can find
        two of his own events with the same 64 bits). Computed once, as `parse` reads the file."""
        read = self._read_digests()
        return read if read is not None else tuple(full_digest(event_to_dict(event)) for event in self.events)

    def then(self, event: Event) -> Record:
        """The record with `event` appended (its envelope set: `chained`), the digests that `parse`
        computed carried on (the new event's computed once)."""
        events = (*self.events, event)
        read = self._read_digests()
        digested = None if read is None else (events, (*read, full_digest(event_to_dict(event))))
        return Record(header=self.header, events=events, digested=digested)

    @property
    def head(self) -> str:
        """The link to the last event (to the header when there is none): the chain's head, which
        the next event names as its `parent` (`link_length` digits of its SHA-256)."""
        return self.link_before(len(self.events) + 1)

    def link_before(self, seq: int) -> str:
        """The link that event `seq` must name as its `parent`: to the header for the first event,
        else to event `seq - 1` (`link_length` digits of its SHA-256)."""
        size = link_length(self.header.format)
        if seq <= 1:
            return full_digest(header_to_dict(self.header))[:size]
        read = self._read_digests()
        whole = read[seq - 2] if read is not None else full_digest(event_to_dict(self.events[seq - 2]))
        return whole[:size]


LINK = 16
"""The hex digits of SHA-256 that an event's `parent` keeps in a file older than format 4 (`digest`)."""
FULL = 64
"""The hex digits of a whole SHA-256 (`full_digest`): an event's `parent` from format 4 on."""
FULL_LINKS_FORMAT = 4
"""The first format whose chain links each event to the whole SHA-256 of the one before it (64
hex digits in `parent`): nobody can find two events, or two headers, with one link. Older files
keep 16 digits (`LINK`), read as written: a birthday search of some 2^32 hashes finds two of a
player's own events, or two headers, with one 16-digit link."""


def link_length(fmt: int) -> int:
    """The hex digits of SHA-256 that a `parent` keeps in a file of format `fmt`."""
    return FULL if fmt >= FULL_LINKS_FORMAT else LINK


def full_digest(raw: dict[str, Any]) -> str:
    """SHA-256 over canonical JSON, all 64 hex digits: an event's identity (`Record.digests`)."""
    text = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return sha256(text.encode("utf-8")).hexdigest()


def digest(raw: dict[str, Any]) -> str:
    """16 hex digits of SHA-256 over canonical JSON (`full_digest`): the link of the hash chain."""
    return full_digest(raw)[:LINK]


def header_to_dict(header: Header) -> dict[str, Any]:
    raw = plain(header)
    if not header.emails:
        del raw["emails"]  # absent, not empty: the header of a game without e-mails stays as it was
    if header.table == "open" or header.format < TABLE_FORMAT:
        del raw["table"]  # an open game's header, and an older file's, stay as they were
    return raw


def header_digest(header: Header) -> str:
    return digest(header_to_dict(header))


def header_full_digest(header: Header) -> str:
    """The full SHA-256 of the header (`full_digest`), which the first event of a game of keys
    names from format 4 on (`SealedAsked.header`): its root then binds the whole header."""
    return full_digest(header_to_dict(header))


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as written to the file: `type` first, then the envelope's first fields, the
    payload in declaration order, and the envelope's last fields (`events.WRITTEN`); in the
    class's written form, if it declares one (`events.WrittenForm`).

    A field added to an event after files were written has a default, and is left out while it
    holds it: old events keep their bytes, and so their digests.
    """
    cls = type(event)
    values = plain(event)
    raw: dict[str, Any] = {"type": event.TYPE}
    for name in layout(cls)[3]:
        raw[name] = values[name]
    for field in _defaulted(cls):
        if getattr(event, field.name) == field.default:
            del raw[field.name]
    form = written_form(cls)
    return raw if form is None else form.written(raw)


def event_digest(event: Event) -> str:
    return digest(event_to_dict(event))


def chained(record: Record, event: Event) -> Event:
    """A new event with the envelope that appends it to `record`: the next seq, the head digest."""
    return enveloped(event, seq=len(record.events) + 1, parent=record.head)


# -- upcasting -------------------------------------------------------------------------------

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""A step of a file's way forward: a raw event table of format N -> the table of format N+1."""

UPCASTERS: dict[int, Upcaster] = {}
"""The upcaster from each format N whose schema format N+1 changed, by N (see the module's
docstring): none yet, formats 1 and 2 write the same tables."""


def upcaster(fmt: int) -> Callable[[Upcaster], Upcaster]:
    """Register the decorated function as the upcaster of event tables from format `fmt` to `fmt + 1`."""

    def register(step: Upcaster) -> Upcaster:
        if fmt in UPCASTERS:  # pragma: no cover - a second schema change from one format
            raise ValueError(f"format {fmt} has an upcaster already")
        UPCASTERS[fmt] = step
        return step

    return register


def upcasters(fmt: int) -> tuple[Upcaster, ...]:
    """The upcasters that take an event table of format `fmt` to `FORMAT`, in order."""
    return tuple(UPCASTERS[n] for n in range(fmt, FORMAT) if n in UPCASTERS)


# -- writing ---------------------------------------------------------------------------------


LITERAL_FROM = 65
"""The length from which a string of an event is written as a TOML literal string ('...') when
it can be one (`_LITERAL`): tomllib reads a literal string some 8 times faster than a basic one
("..."), which it reads character by character, and a sealed game's events hold long base64 and
hex values (decks, proofs of shuffle, decryption shares, signatures). Longer than a SHA-256 in
hex (a commit-then-reveal deal's commitment and secret, 64 digits): no string of an open game's
events is so long, and their bytes stay as they were. The value read is the same either way, and
so is its digest (the chain hashes the values, not the text)."""
_LITERAL = LazyPattern(r"[A-Za-z0-9+/=]+")
"""What a literal string is written for: the base64 and hex alphabets, which need no escape."""


def _value(value: Any, *, literal: bool = False) -> str:
    """A TOML value on one line (arrays included, unlike tomli-w's multi-line arrays); with
    `literal`, a long base64 or hex string as a literal string (`LITERAL_FROM`)."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v, literal=literal) for v in value) + "]"
    if literal and type(value) is str and len(value) >= LITERAL_FROM and _LITERAL.fullmatch(value):
        return f"'{value}'"
    import tomli_w  # only to write

    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def _lines(raw: dict[str, Any], *, literal: bool = False) -> str:
    return "".join(f"{key} = {_value(value, literal=literal)}\n" for key, value in raw.items())


def format_header(header: Header) -> str:
    """The first lines of a new game file."""
    return "# A game of Splendor, kept by splendor-cli. Append-only: add turns with `splendor play`.\n" + _lines(
        header_to_dict(header)
    )


def format_event(event: Event) -> str:
    """One event as the block to append to the file."""
    return "\n[[events]]\n" + _lines(event_to_dict(event), literal=True)


def format_record(record: Record) -> str:
    return format_header(record.header) + "".join(format_event(e) for e in record.events)


# -- reading ---------------------------------------------------------------------------------

_DEFAULTED: dict[type, list[Any]] = {}


def _defaulted(cls: type) -> list[Any]:
    """The fields of an event class that are written only when not at their default: a payload
    field added after files were written, and `sig` (not the chain's `seq` and `parent`)."""
    if cls not in _DEFAULTED:
        _DEFAULTED[cls] = [
            f for f in attrs.fields(cls) if f.default is not attrs.NOTHING and f.metadata.get(WRITTEN) != "first"
        ]
    return _DEFAULTED[cls]


_TOML_ERROR_LINE = LazyPattern(r"\(at line (\d+), column \d+\)")


def _event_at_line(text: str, line: int, where: str = "file") -> str:
    """Where line `line` of a game file is: `event #N`, or `header` (another text: `where`)."""
    if where != "file":
        return where
    blocks = sum(1 for row in text.splitlines()[: line - 1] if row.strip() == "[[events]]")
    return f"event #{blocks}" if blocks else "header"


def load_toml(text: str, where: str = "file") -> dict[str, Any]:
    """The TOML document of a game file, a mail block or a commit's tail.

    Raises:
        GameFileError: it is not valid TOML (naming the event at the line, for a game file), or
            holds what tomllib lets through as another error: an integer of more than 4300
            digits, arrays nested some hundred deep.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_ERROR_LINE.search(message)
        if match:
            where = _event_at_line(text, int(match.group(1)), where)
        elif "at end of document" in message:  # a truncated file: the last event is cut short
            where = _event_at_line(text, len(text.splitlines()) + 1, where)
        raise GameFileError(f"{where}: not valid TOML: {message}") from None
    except ValueError:  # tomllib lets int()'s limit through: an integer of more than 4300 digits
        raise GameFileError(f"{where}: not valid TOML: an integer of too many digits") from None
    except RecursionError:  # arrays or inline tables nested some hundred deep
        raise GameFileError(f"{where}: not valid TOML: arrays or tables nested too deep") from None


_CONFLICT_MARKER = LazyPattern(r"^<<<<<<<(?: |\r?$)", re.MULTILINE)
"""The first line of a conflict that git's own text merge left (`<<<<<<< HEAD`): TOML has no
line that starts so (a key cannot start with `<`), so it is never part of a valid file."""


def parse(text: str, types: EventTypes) -> Record:
    """Read a whole game file, its events by the classes `types` gives for its variant.
    Raise GameFileError naming the first problem; ConflictError for git's conflict markers."""
    marker = _CONFLICT_MARKER.search(text)
    if marker is not None:
        line = text.count("\n", 0, marker.start()) + 1
        raise ConflictError(
            f"line {line}: git's conflict markers: the file was merged by git as plain text, without"
            " splendor's merge driver: run `splendor git install`, then `git checkout --merge` on the file"
            " to merge it again by events (or `git merge --abort`), then `splendor sync`"
        )
    doc = load_toml(text)
    fmt = doc.get("format")
    if fmt is None:
        raise GameFileError("not a splendor-cli game file: no 'format' key")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise GameFileError(f"header: bad format {excerpt(fmt)}")
    if fmt > FORMAT:
        raise GameFileError(
            f"the file has format {fmt}, newer than this splendor-cli reads ({FORMAT}): upgrade splendor-cli"
        )
    raw_events = doc.pop("events", [])
    if not isinstance(raw_events, list):
        raise GameFileError("'events' must be an array of [[events]] tables")
    header: Header = structure({k: v for k, v in doc.items()}, Header, "header")
    problem = game_id_problem(header.game)
    if problem:
        raise GameFileError(problem)
    if "table" in doc and (fmt < TABLE_FORMAT or header.table == "open"):
        raise GameFileError(
            f"header: 'table' is written only from format {TABLE_FORMAT} on, and only when it is not"
            ' "open" (the file was edited by hand)'
        )
    full: list[str] = []
    first = full_digest(header_to_dict(header))[: link_length(fmt)]
    events = read_events(raw_events, [first], types(header.variant), full, fmt=fmt)
    if fmt < TABLE_FORMAT and events:  # an older file: its first event declares the protocol
        header = attrs.evolve(header, table=getattr(type(events[0]), "TABLE", "open"))
    return Record(header=header, events=events, digested=(events, tuple(full)))


def read_events(
    raw_events: list[Any],
    parents: list[str],
    types: Mapping[str, type[Any]],
    full: list[str] | None = None,
    *,
    fmt: int = FORMAT,
) -> tuple[Event, ...]:
    """Build the events of raw `[[events]]` tables that continue a chain, checking every link.

    `parents[i]` is the digest that event #i+1 must name as its parent: the header's digest
    alone for a whole file, or, for events appended to a known log, its head at the end (the
    digests before it may be left "" when unknown: they only serve to tell a fork from a gap).
    The list grows as events are read. `types` are the event classes of the game, by tag. `full`,
    when given, gets the full digest of each event read (`full_digest`: the same hash, whole).
    `fmt`: the format of the file the tables come from, which the upcasters read forward (the
    chain's digests are the tables' as written). The links go on as the last of `parents` is
    written: 64 hex digits (format 4 on, `link_length`), else 16.

    Raises:
        ForkError: two different events with one parent (two players moved from the same copy).
        GameFileError: anything else that breaks the format or the chain, naming the event.
    """
    events: list[Event] = []
    steps = upcasters(fmt)
    size = FULL if len(parents[-1]) == FULL else LINK
    for index, written in enumerate(raw_events, start=len(parents)):
        where = f"event #{index}"
        if not isinstance(written, dict):
            raise GameFileError(f"{where}: not a table")
        raw = written
        for step in steps:
            raw = step(raw)
        kind = raw.get("type")
        cls = types.get(kind) if isinstance(kind, str) else None  # `type = []` is not hashable
        if cls is None:
            raise GameFileError(f"{where}: unknown event type {excerpt(raw.get('type'))}")
        form = written_form(cls)
        if form is not None:  # the class's own upcaster: a table of an older form read forward
            try:
                raw = form.upcast(raw)
            except ValueError as exc:
                raise GameFileError(f"{where} ({cls.TYPE}): {exc}") from None
        event: Event = structure(raw, cls, f"{where} ({cls.TYPE})")
        for field in _defaulted(cls):
            if field.name in raw and raw[field.name] == field.default:
                # event_to_dict leaves it out, so the chain would hash this event two ways.
                raise GameFileError(f"{where} ({cls.TYPE}): {field.name!r} is written only when it is not the default")
        whole = full_digest(written)
        if 1 <= event.seq < index and event.parent == parents[event.seq - 1]:
            if whole[:size] == parents[event.seq]:
                raise GameFileError(f"{where}: a copy of event #{event.seq} (the file was edited or merged by hand)")
            # Two different events with one parent: two players appended from the same copy.
            raise ForkError(
                f"the game forked: two events #{event.seq} follow event #{event.seq - 1}"
                " (two players moved from the same copy): keep one with `splendor resolve --keep REF`",
                seq=event.seq,
            )
        if event.seq != index:
            raise GameFileError(f"{where}: seq is {event.seq}, expected {index} (events removed or reordered?)")
        if event.parent != parents[-1]:
            raise GameFileError(
                f"{where}: parent is {excerpt(event.parent)}, but the event before it hashes to {parents[-1]!r}"
                " (the file was edited or merged by hand)"
            )
        parents.append(whole[:size])
        if full is not None:
            full.append(whole)
        events.append(event)
    return tuple(events)
