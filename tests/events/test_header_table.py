"""A game's table protocol is declared once, in its header (`table`, format 4 on), and chosen
when the file is read: the log must follow it. An older file declares it by its first event and
reads as written; a header that says one thing and a log that says another is refused, exit 4,
in one line, whatever way the file was made.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs
import pytest
from helpers import cli, deal
from sealed_helpers import Table

from splendor_cli.errors import GameFileError
from splendor_cli.events.codec import FORMAT, TABLE_FORMAT, Header, Record, chained, format_record
from splendor_cli.records import parse_text, replay_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HEADER = Header(game="table-demo", variant="base", players=("ann", "bob"), created="2026-12-06T00:00:00Z")


def written(header: Header, *events: object) -> str:
    """A file of `header` and `events`, chained as a player's program would chain them: every
    link right, so that only what the header declares can be wrong."""
    record = Record(header=header, events=())
    for event in events:
        record = record.then(chained(record, event))  # type: ignore[arg-type]
    return format_record(record)


def refused(text: str, tmp_path: Path, said: str) -> None:
    """The file is refused by the reader and by `splendor verify` (exit 4, one line), unchanged."""
    with pytest.raises(GameFileError, match=said):
        replay_record(parse_text(text))
    path = tmp_path / "game.toml"
    path.write_text(text)
    code, out, err = cli("verify", "-g", path)
    assert code == 4, (out, err)
    assert re.search(said, err) and err.count("\n") == 1, err
    assert path.read_text() == text


def test_a_new_sealed_game_declares_its_table_once_in_its_header(tmp_path: Path) -> None:
    """`splendor new --sealed` writes format 4 with `table = "sealed"` under the variant; an open
    game's header has no `table` (and keeps the format it had)."""
    sealed, open_ = tmp_path / "sealed.toml", tmp_path / "open.toml"
    assert cli("new", "-g", sealed, "--players", "ann,bob", "--sealed")[0] == 0
    assert cli("new", "-g", open_, "--players", "ann,bob", "--seed", "1")[0] == 0
    text = sealed.read_text()
    assert f"format = {TABLE_FORMAT}\n" in text and 'variant = "base"\ntable = "sealed"\nplayers = ' in text
    assert text.count("table = ") == 1 and 'type = "sealed_asked"' in text
    assert "table" not in open_.read_text() and "format = 1\n" in open_.read_text()
    record = parse_text(text)
    assert record.header.table == "sealed" and replay_record(record).protocol.name == "sealed"
    assert format_record(record) == text


@pytest.mark.parametrize("name", ["base-3p", "duel"])
def test_an_older_sealed_file_declares_its_table_by_its_first_event_and_reads_as_written(name: str) -> None:
    """A sealed file of format 2 (no `table` key) reads as a sealed game, written back byte for byte."""
    text = (FIXTURES / "sealed-release" / f"{name}.toml").read_text()
    record = parse_text(text)
    assert record.header.format == 2 < TABLE_FORMAT and record.header.table == "sealed"
    assert format_record(record) == text


def test_a_sealed_header_over_an_open_log_is_refused(tmp_path: Path) -> None:
    """A header that declares a sealed table over a log dealt in the open: exit 4, naming the event."""
    header = attrs.evolve(HEADER, format=FORMAT, table="sealed")
    text = written(header, deal(("ann", "bob"), random.Random(1)))
    refused(text, tmp_path, r"event #1: the header declares a sealed table, but the log opens with game_started")


def test_an_open_header_over_a_sealed_log_is_refused(tmp_path: Path) -> None:
    """A format 4 header that declares no table over a sealed game's log: refused at its first event."""
    table = Table.new(seed=5)
    text = written(attrs.evolve(HEADER, format=FORMAT), *(attrs.evolve(e, seq=0, parent="") for e in table.game.events))
    refused(
        text, tmp_path, r"event #1: sealed_asked in a game that is not sealed \(its header declares the open table\)"
    )


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ("poker", r"header: unknown table protocol 'poker': this version has open, sealed, signed"),
        ("signed", r"event #1: the header declares a signed table, but the log opens with game_started"),
    ],
)
def test_a_table_this_release_does_not_play_is_refused(tmp_path: Path, table: str, said: str) -> None:
    """A protocol nobody has is refused before any event; a signed header over an open log, at its
    first event."""
    text = written(attrs.evolve(HEADER, format=FORMAT, table=table), deal(("ann", "bob"), random.Random(1)))
    refused(text, tmp_path, said)


def test_an_open_table_written_out_is_refused(tmp_path: Path) -> None:
    """`table = "open"` is never written (an open game's header stays as it was): an edit."""
    text = written(attrs.evolve(HEADER, format=FORMAT), deal(("ann", "bob"), random.Random(1)))
    edited = text.replace('variant = "base"\n', 'variant = "base"\ntable = "open"\n', 1)
    refused(edited, tmp_path, r"header: 'table' is written only from format 4 on, and only when it is not \"open\"")


def test_a_table_in_a_file_older_than_format_4_is_refused(tmp_path: Path) -> None:
    """A format 3 file that says `table`: no release wrote it so (its chain cannot say it either)."""
    text = written(attrs.evolve(HEADER, format=3), deal(("ann", "bob"), random.Random(1)))
    edited = text.replace('variant = "base"\n', 'variant = "base"\ntable = "sealed"\n', 1)
    refused(edited, tmp_path, r"header: 'table' is written only from format 4 on")


def test_from_format_4_every_link_is_a_whole_sha256(tmp_path: Path) -> None:
    """A game of keys (format 4) links each event to the whole SHA-256 of the one before it, the
    first to the header's: nobody can find two events, or two headers, with one link. A link cut
    to 16 digits, as older files write them, is refused there (exit 4, naming the event)."""
    sealed = tmp_path / "sealed.toml"
    assert cli("new", "-g", sealed, "--players", "ann,bob", "--sealed")[0] == 0
    text = sealed.read_text()
    record = parse_text(text)
    assert record.header.format == TABLE_FORMAT
    parent = record.events[0].parent
    assert len(parent) == 64 and record.head == record.digests[0]
    cut = text.replace(f'parent = "{parent}"', f'parent = "{parent[:16]}"')
    refused(cut, tmp_path, rf"event #1: parent is '{parent[:16]}', but the event before it hashes to '{parent}'")


def test_before_format_4_links_keep_16_digits() -> None:
    """An older sealed file reads as written: its links are 16 digits, and so is what it appends."""
    text = (FIXTURES / "sealed-release" / "base-3p.toml").read_text()
    record = parse_text(text)
    assert all(len(event.parent) == 16 for event in record.events)
    assert record.head == record.digests[-1][:16]
