"""Versions of a game file read as `store.read` reads them, for the history audit (`verify`): a
whole version (`read_version`), or one whose bytes extend a version read before, by its new
events alone (`extend_version`, `extend_read`: walking a long history is not quadratic)."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ..errors import ConflictError, GameFileError
from ..events import Event
from ..events.codec import FORMAT, Record, load_toml, read_events
from ..forks import decode
from ..projection import Game
from ..records import parse_text, replay_record
from ..store import Loaded
from ..variants import event_types

# -- reading versions of the file ------------------------------------------------------------


@attrs.frozen
class Version:
    """One version of the file, read and replayed."""

    record: Record
    game: Game


Trusted = Callable[[Record], int]
"""How many of a sealed game's first events this reader verified before (`app.cache.verified_prefix`):
a version's events within it are folded without checking them again (see `extend_version`)."""


def read_version(data: bytes, trusted: Trusted | None = None) -> Version:
    """Read a whole version as `store.read` reads a file (without the path in messages); `trusted`:
    as `store.read`'s, the signatures and proofs of the events this reader verified before are
    not checked again."""
    record = parse_text(decode(data))
    return Version(record=record, game=replay_record(record, trusted(record) if trusted is not None else 0))


def extend_version(before: Version, old: bytes, data: bytes, trusted: Trusted | None = None) -> Version:
    """Read `data`, a version whose bytes extend `old` (read as `before`): only the new events are replayed.

    When the appended text is plain `[[events]]` blocks after a final newline, only it is parsed
    (so that walking a long history is not quadratic); anything else is parsed whole.

    `trusted`: the new events within the prefix of events this reader verified before (compared by
    their full digests: the same events after the same history) are folded without being judged
    again (`apply(check=False)`): what `store.read` or `store.stage` found of them when this reader
    remembered them (their signatures, proofs and rules) holds of the same events after the same
    history. The events after it are judged whole, as always.
    """
    full: list[str] = []
    events = None
    try:
        tail = data[len(old) :].decode("utf-8")  # `old` reads, so it ends where a character ends
    except UnicodeDecodeError:
        tail = None
    if tail is None:
        pass
    elif old.endswith(b"\n"):
        events = appended(before.record, tail, full)
    elif tail.startswith("\n") and old and not old.endswith(b"\r"):
        # `old` lacks its final newline and the tail begins with one: `old` and that newline
        # mean what `old` means (it reads, so it ends no line halfway through a value), and
        # the rest is appended to a text that ends with a newline, as above
        events = appended(before.record, tail[1:], full)
    if events is None:
        record = parse_text(decode(data))
        if record.header != before.record.header:
            raise GameFileError("the header changed")
        known = before.record.events
        for was, now in zip(known, record.events):
            if was != now:
                raise GameFileError(f"event #{was.seq} changed (the appended text continues its last line?)")
        if len(record.events) < len(known):
            raise GameFileError(f"event #{len(record.events) + 1} and after are gone")
        events = record.events[len(known) :]
        digests = record.digests
    else:
        digests = (*before.record.digests, *full)
    every = (*before.record.events, *events)
    record = Record(header=before.record.header, events=every, digested=(every, tuple(digests)))
    verified = trusted(record) if trusted is not None and events else 0
    game = before.game
    for event in events:
        game = game.apply(event, check=event.seq > verified)
    return Version(record=record, game=game)


def extend_read(before: Loaded, data: bytes, trusted: Trusted | None = None) -> tuple[Record, Game]:
    """The record and game of `data`, a file whose bytes extend `before.data` (a game read as
    `store.read` reads it), read as `store.read` would read it but parsing and replaying only
    what was appended (`extend_version`; `trusted` as there).

    Raises:
        SplendorError: `data` does not extend `before.data`, or does not read (`store.read` says
            why, naming the file).
    """
    if not data.startswith(before.data):
        raise GameFileError("the file does not extend the one read before")
    version = extend_version(Version(record=before.record, game=before.game), before.data, data, trusted)
    return version.record, version.game


def appended(before: Record, tail: str, full: list[str] | None = None) -> tuple[Event, ...] | None:
    """The events that `tail`, appended to the text of `before` (which ends with a newline), adds;
    None when `codec.parse` must judge the whole text (the tail does not read, or is not plain blocks).
    `full`, when given, gets the full digest of each event read.

    This only ever accepts: whatever it cannot vouch for goes to the full parse, whose word is final.
    Read on its own, the tail means what it means after the old text exactly when the first line
    that is not blank or a comment is `[[events]]` (before it, a key would land in the last old
    event) and the tail defines nothing but `events`.
    """
    if before.header.format > FORMAT:  # pragma: no cover - parse refuses a newer format
        return None
    for line in tail.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            if line.strip() != "[[events]]":
                return None
            break
    try:
        doc = load_toml(tail)
    except GameFileError:
        return None
    raws = doc.pop("events", [])
    if doc or not isinstance(raws, list):
        return None
    try:
        parents = [""] * len(before.events) + [before.head]
        return read_events(raws, parents, event_types(before.header.variant), full, fmt=before.header.format)
    except (GameFileError, ConflictError):
        if full is not None:
            del full[:]
        return None
