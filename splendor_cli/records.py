"""Game records: the text of a game file read into its events and folded into a game. No file
is opened here (store.py opens them); a record is read with the event classes of the game its
header names, and folded by that game's rules. Forked files are forks.py's.
"""

from __future__ import annotations

import attrs

from .errors import GameFileError, UsageError
from .events import Event
from .events.codec import PAYLOAD_DRAWS_FORMAT, TABLE_FORMAT, Header, Record, header_full_digest, parse
from .projection.game import Game, replay
from .projection.table_protocol import find_protocol
from .variants import event_types, find_variant


def parse_text(text: str) -> Record:
    """Read a game file's text (its events by the classes of the game it names). GameFileError."""
    return parse(text, event_types)


def bind_header(header: Header, started: Event) -> Event:
    """The first event of a new game of keys (a sealed or signed game: its event has a `header`
    field), naming the full digest of `header` when its format binds it (4 on), so that the
    game's root binds every byte of the header; any other event as it is."""
    if hasattr(started, "header") and header.format >= TABLE_FORMAT:
        bound: Event = attrs.evolve(started, header=header_full_digest(header))  # type: ignore[misc]
        return bound
    return started


def _header_bound(header: Header, started: Event) -> str:
    """What is wrong with the header a game of keys' first event names ("" when nothing is): from
    format 4 it must be this header's full digest (a copy of the log of a game under another
    header, its twin, is refused: the keys of the game hang off the root); before, nothing."""
    named = getattr(started, "header", None)
    if named is None:
        return ""
    if header.format < TABLE_FORMAT:
        return (
            "" if named == "" else f"event #1 ({started.TYPE}): 'header' is written only from format {TABLE_FORMAT} on"
        )
    if named != header_full_digest(header):
        return (
            f"event #1 ({started.TYPE}) names another header than this file's: the log of another game"
            " under this header (a twin of that game), or a header edited by hand"
        )
    return ""


def replay_record(record: Record, trusted: int = 0) -> Game:
    """Replay a parsed file through the rules and check its header against the setup: the players,
    one e-mail (or "") per player, the variant. Raise GameFileError naming the problem. `trusted`:
    see `replay`."""
    if not record.events:
        raise GameFileError("the file has no events: it does not start with its setup")
    variant = find_variant(record.header.variant)  # known: the record was parsed with its events
    header = record.header
    try:
        protocol = find_protocol(header.table)  # the header declares it (an older file: its first event)
    except UsageError as exc:
        raise GameFileError(f"header: {exc}") from None
    if header.format < protocol.first_format:
        raise GameFileError(
            f"a {protocol.name} game of format {header.format}, older than the proofs its protocol"
            f" needs (format {protocol.first_format}): this release cannot vouch for its decks"
            " (finish it with the release that started it)"
        )
    game = replay(
        variant,
        record.events,
        trusted=trusted,
        chained_draws=header.format < 2,
        payload_draws=header.format >= PAYLOAD_DRAWS_FORMAT,
        table=protocol.name,
    )
    if game.players != header.players:
        raise GameFileError("header: players do not match the setup event")
    if header.emails and len(header.emails) != len(header.players):
        raise GameFileError("header: 'emails' must give one address (or \"\") per player")
    started = record.events[0]
    problem = _header_bound(header, started)
    if problem:
        raise GameFileError(problem)
    said = getattr(started, "variant", header.variant)
    if said != header.variant:
        raise GameFileError(f"header: variant {header.variant!r} does not match the {started.TYPE} event's {said!r}")
    return game
