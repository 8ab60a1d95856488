"""A sealed shuffle holds a list of decks (`DeckShuffled.decks`), as many as the game declares,
and a shuffle of three decks is written as it always was (`deck_1`, `deck_2`, `deck_3`): the
class's written form (`events.WrittenForm`, `sealing.events.DECKS_FORM`), an upcaster of its own
on read and the old layout on write. So an old file's bytes, digests and signatures stay what
they were; a shuffle of two or four decks is written `decks = [...]`; a table in neither form, or
three decks written as a list, is refused naming the event.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from splendor_cli.errors import GameFileError
from splendor_cli.events.codec import FORMAT, event_to_dict, format_event, full_digest, read_events
from splendor_cli.sealing.events import DECKS_FORM, DeckShuffled
from splendor_cli.sealing.signing import canonical
from splendor_cli.variants import event_types

PARENT = "0123456789abcdef"


def _shuffle(*decks: str) -> DeckShuffled:
    """ann's shuffle of these decks (a proof named for each), chained after `PARENT`."""
    return DeckShuffled(
        seq=1, parent=PARENT, player="ann", decks=decks, proofs=tuple(f"p{k}" for k in range(len(decks)))
    )


def _read(table: dict[str, Any], fmt: int = FORMAT) -> DeckShuffled:
    """The shuffle a file of format `fmt` holding `table` as its first event reads as."""
    (event,) = read_events([table], [PARENT], event_types("base"), fmt=fmt)
    assert isinstance(event, DeckShuffled)
    return event


def test_three_decks_are_written_as_they_always_were() -> None:
    """`deck_1`, `deck_2`, `deck_3` where `decks` is declared (after `player`, before `proofs`),
    byte for byte the block of a shuffle written before the list of decks."""
    event = _shuffle("AAAA", "BBBB", "CCCC")
    assert list(event_to_dict(event)) == ["type", "seq", "parent", "player", "deck_1", "deck_2", "deck_3", "proofs"]
    assert format_event(event) == (
        '\n[[events]]\ntype = "deck_shuffled"\nseq = 1\nparent = "0123456789abcdef"\nplayer = "ann"\n'
        'deck_1 = "AAAA"\ndeck_2 = "BBBB"\ndeck_3 = "CCCC"\nproofs = ["p0", "p1", "p2"]\n'
    )


@pytest.mark.parametrize("count", [1, 2, 4, 9])
def test_another_number_of_decks_is_written_as_a_list(count: int) -> None:
    """A shuffle of 1, 2, 4 or 9 decks writes `decks = [...]` in their place, and reads back the same."""
    event = _shuffle(*(f"D{k}" for k in range(count)))
    table = event_to_dict(event)
    assert list(table) == ["type", "seq", "parent", "player", "decks", "proofs"]
    assert table["decks"] == [f"D{k}" for k in range(count)]
    assert _read(table) == event


@pytest.mark.parametrize("fmt", [1, 2, 3])
def test_an_old_shuffle_reads_into_the_list_and_keeps_its_digest_and_signed_bytes(fmt: int) -> None:
    """A table of `deck_1` to `deck_3` (as every file before wrote it, whatever its format) reads
    as a shuffle of three decks in that order; the event hashes and signs over the table as
    written (its canonical form is that table), so old digests and signatures still hold."""
    written = {
        "type": "deck_shuffled",
        "seq": 1,
        "parent": PARENT,
        "player": "bob",
        "deck_1": "AAAA",
        "deck_2": "BBBB",
        "deck_3": "CCCC",
        "proofs": ["x", "y", "z"],
        "sig": "ab" * 64,
    }
    event = _read(dict(written), fmt)
    assert event.decks == ("AAAA", "BBBB", "CCCC") and event.sig == "ab" * 64
    assert event_to_dict(event) == written and list(event_to_dict(event)) == list(written)
    assert full_digest(event_to_dict(event)) == full_digest(written)
    assert canonical(event) == json.dumps(written, sort_keys=True, separators=(",", ":")).encode()


def test_the_form_reads_and_writes_back_every_table_it_writes() -> None:
    """`written(upcast(table)) == table` for both forms; `upcast` leaves the table it is given as it is."""
    for table in (event_to_dict(_shuffle("A", "B", "C")), event_to_dict(_shuffle("A", "B")), event_to_dict(_shuffle())):
        before = dict(table)
        assert DECKS_FORM.written(DECKS_FORM.upcast(table)) == table and table == before


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"decks": ["A", "B", "C"]}, "a shuffle of three decks writes them as deck_1, deck_2, deck_3, not as 'decks'"),
        ({"decks": ["A", "B"], "deck_1": "A"}, "writes its decks as deck_1, deck_2, deck_3 or as 'decks', not both"),
        ({"deck_1": "A", "deck_3": "C"}, "missing 'deck_2'"),
        ({"deck_1": "A", "deck_2": 7, "deck_3": "C"}, "wrong type for 'deck_2'"),
        ({"deck_1": "A", "deck_2": "B", "deck_3": "C", "deck_4": "D"}, "unknown 'deck_4'"),
        ({}, "missing 'decks'"),
        ({"decks": "A"}, "wrong type for 'decks'"),
    ],
    ids=["three-as-list", "both", "missing", "wrong-type", "fourth-key", "none", "not-a-list"],
)
def test_a_table_in_neither_form_is_refused_naming_the_event(change: dict[str, Any], said: str) -> None:
    """Three decks as a list (which this program never writes: its digest would not be the
    event's), both forms at once, a deck key missing or of the wrong type, a fourth key, no decks."""
    table = {"type": "deck_shuffled", "seq": 1, "parent": PARENT, "player": "ann", **change, "proofs": []}
    with pytest.raises(GameFileError, match=r"^event #1 \(deck_shuffled\): ") as caught:
        _read(table)
    assert said in str(caught.value)
