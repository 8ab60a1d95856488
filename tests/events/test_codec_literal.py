"""Long base64 and hex values of a sealed game's events are written as TOML literal strings
('...'), which tomllib reads some 8 times faster than basic ones; every other string is written
as before, so an open game's file keeps its bytes. The quoting changes no value, and so no digest:
a file written before (basic strings only) reads the same, its chain whole."""

from __future__ import annotations

import base64
import random
import re

import attrs
from strategies import sealed

from splendor_cli.events import Event, SeedCommitted
from splendor_cli.events.codec import (
    LITERAL_FROM,
    Header,
    Record,
    event_to_dict,
    format_event,
    format_header,
    format_record,
)
from splendor_cli.records import parse_text
from splendor_cli.sealing.events import CardsShown, DeckShuffled, PlayerJoined, SealedAsked
from splendor_cli.sharing.versions import appended

RNG = random.Random(7)
HEADER = Header(
    game="literal-demo", variant="base", players=("ann", "bob"), created="2026-01-01T12:00:00Z", table="sealed"
)
"""A sealed game's header of format 2: the file declares its table by its first event (read so)."""


def b64(size: int) -> str:
    return base64.b64encode(RNG.randbytes(size)).decode()


def hexa(size: int) -> str:
    return RNG.randbytes(size).hex()


def sealed_events() -> tuple[Event, ...]:
    """The first events of a sealed game, with values of the sizes the protocol writes."""
    return (
        SealedAsked(seq=0, parent="", variant="base", players=("ann", "bob")),
        PlayerJoined(
            seq=0, parent="", player="ann", signing=hexa(32), card=hexa(32), possession=hexa(128), sig=hexa(64)
        ),
        DeckShuffled(
            seq=0,
            parent="",
            player="ann",
            decks=(b64(40 * 64), b64(30 * 64), b64(20 * 64)),
            proofs=(b64(5000), b64(4000), b64(2700)),
            sig=hexa(64),
        ),
        CardsShown(seq=0, parent="", player="bob", cards=("1?01", "1?02"), shares=(b64(96), b64(96)), sig=hexa(64)),
    )


def basic(record: Record) -> str:
    """The file as this program wrote it before literal strings: every string quoted "..."."""
    return re.sub(r"'([A-Za-z0-9+/=]+)'", r'"\1"', format_record(record))


def test_long_base64_and_hex_values_are_literal_strings() -> None:
    """Every string of an event of at least LITERAL_FROM base64 or hex characters is written
    '...', in arrays too; shorter ones, and the envelope, as before."""
    record = sealed(sealed_events(), HEADER)
    for event in record.events:
        block = format_event(event)
        for key, value in event_to_dict(event).items():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str):
                    quoted = f"'{item}'" if len(item) >= LITERAL_FROM else f'"{item}"'
                    assert quoted in block, (event.TYPE, key)
    joined, raw = format_event(record.events[1]), event_to_dict(record.events[1])
    assert f"possession = '{raw['possession']}'\n" in joined
    assert f'signing = "{raw["signing"]}"\n' in joined  # 64 hex digits: as before


def test_the_values_and_the_chain_are_the_same_either_way() -> None:
    """The file with literal strings and the file as written before read as the same events,
    with the same digests (the chain hashes values, not text); writing either gives literals."""
    record = sealed(sealed_events(), HEADER)
    text, before = format_record(record), basic(record)
    assert "'" in text and "'" not in before
    assert parse_text(text) == parse_text(before) == record
    assert parse_text(text).digests == parse_text(before).digests == record.digests
    assert format_record(parse_text(before)) == text


def test_other_strings_keep_their_quotes() -> None:
    """A commitment of a commit-then-reveal deal (64 hex digits, an open game's longest string),
    a long string with a character outside base64 (or a quote), and the header: as before."""
    commitment = hexa(32)
    block = format_event(SeedCommitted(seq=2, parent="0" * 16, player="ann", commitment=commitment))
    assert f'commitment = "{commitment}"' in block
    odd = "a" * 70 + "-"
    assert f'player = "{odd}"' in format_event(attrs.evolve(sealed_events()[2], player=odd))
    quoted = "a" * 70 + "'"
    assert f'player = "{quoted}"' in format_event(attrs.evolve(sealed_events()[2], player=quoted))
    header = attrs.evolve(HEADER, game="g" * 90)
    assert f'game = "{"g" * 90}"' in format_header(header)


def test_appended_literal_blocks_are_read_by_the_fast_path() -> None:
    """`verify`'s reading of text appended to a known file (`versions.appended`) takes blocks with
    literal strings as they are: the same events as the whole file gives."""
    record = sealed(sealed_events(), HEADER)
    known = Record(header=record.header, events=record.events[:2])
    tail = "".join(format_event(event) for event in record.events[2:])
    assert "'" in tail
    assert appended(known, tail) == record.events[2:]
