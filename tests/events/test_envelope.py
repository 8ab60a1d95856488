"""The envelope, declared once (`events.Envelope`, `events.Signable`), and the way forward for old
files (`codec.UPCASTERS`).

Every event class derives from the envelope: an event is built without one (seq 0, parent "")
and gets it as it is appended (`codec.chained`). The file still writes `seq` and `parent` first
and always, and `sig` last and only when there is one, so the bytes of every file stay as they
were; a table without `seq` or `parent` is refused although the classes give them defaults.
"""

from __future__ import annotations

import inspect
from typing import Any

import attrs
import pytest

from splendor_cli.errors import GameFileError
from splendor_cli.events import SHARED_TYPES, WRITTEN, Envelope, Signable, TurnUndone
from splendor_cli.events.codec import (
    UPCASTERS,
    Header,
    Record,
    chained,
    event_digest,
    event_to_dict,
    format_event,
    format_header,
    header_digest,
    parse,
    upcasters,
)
from splendor_cli.model import Gem
from splendor_cli.variants import event_types
from splendor_cli.variants.base.events import TURN_TYPES, GameStarted, TokensTaken
from splendor_cli.variants.duel.events import STEP_TYPES, DuelStarted

HEADER = Header(game="envelope-demo", variant="base", players=("ann", "bob"), created="2026-01-01T12:00:00Z")
ALL_TYPES = (*SHARED_TYPES, GameStarted, *TURN_TYPES, DuelStarted, *STEP_TYPES)


def test_every_event_class_derives_from_the_envelope() -> None:
    """No event class declares `seq`, `parent` or `sig` itself: each derives them from the envelope,
    the events players make (every play event) from `Signable`."""
    for cls in ALL_TYPES:
        assert issubclass(cls, Envelope), cls
        assert not {"seq", "parent", "sig"} & set(inspect.get_annotations(cls)), cls
    for cls in (*TURN_TYPES, *STEP_TYPES):
        assert issubclass(cls, Signable), cls


def test_an_event_is_built_without_its_envelope_and_gets_it_as_it_is_appended() -> None:
    """A new event needs no `seq=0, parent=""`; `chained` gives it the next seq and the head's digest."""
    undo = TurnUndone(by="ann", to=3)
    assert (undo.seq, undo.parent, undo.sig) == (0, "", "")
    record = Record(header=HEADER, events=())
    first = chained(record, GameStarted.of(("ann", "bob"), (("1-01",), ("2-01",), ("3-01",)), ("N01",)))
    assert (first.seq, first.parent) == (1, header_digest(HEADER))
    second = chained(attrs.evolve(record, events=(first,)), TokensTaken(player="ann", gems=(), returned=(), noble=""))
    assert (second.seq, second.parent) == (2, event_digest(first))


def test_the_file_writes_the_envelope_around_the_payload() -> None:
    """`type`, `seq` and `parent` first, the payload in its class's order, `sig` last and only when
    signed: the layout of the files written before the envelope was declared once."""
    taken = TokensTaken(seq=2, parent="0123456789abcdef", player="ann", gems=(), returned=(), noble="")
    assert list(event_to_dict(taken)) == ["type", "seq", "parent", "player", "gems", "returned", "noble"]
    signed = attrs.evolve(taken, sig="ab" * 64)
    assert list(event_to_dict(signed)) == ["type", "seq", "parent", "player", "gems", "returned", "noble", "sig"]
    assert format_event(signed).splitlines()[-1] == f"sig = '{'ab' * 64}'"
    undo = TurnUndone(seq=5, parent="0123456789abcdef", by="bob", to=3, forced=True, sig="cd")
    assert list(event_to_dict(undo)) == ["type", "seq", "parent", "by", "to", "forced", "sig"]
    assert [f.metadata.get(WRITTEN) for f in attrs.fields(Signable)] == ["first", "first", "last"]


def _file(*events: dict[str, Any], fmt: int = 2) -> str:
    """A game file of `fmt` whose events are these tables, chained as written."""
    from splendor_cli.events.codec import _lines, digest

    header = attrs.evolve(HEADER, format=fmt)
    text, parent = format_header(header), header_digest(header)
    for seq, raw in enumerate(events, start=1):
        table = {"type": raw["type"], "seq": seq, "parent": parent, **{k: v for k, v in raw.items() if k != "type"}}
        text += "\n[[events]]\n" + _lines(table)
        parent = digest(table)
    return text


SETUP = {
    "type": "game_started",
    "variant": "base",
    "players": ["ann", "bob"],
    "deck_1": ["1-01"],
    "deck_2": ["2-01"],
    "deck_3": ["3-01"],
    "nobles": ["N01"],
}
TAKE = {"type": "tokens_taken", "player": "ann", "gems": ["red", "red"], "returned": [], "noble": ""}


@pytest.mark.parametrize("key", ["seq", "parent"])
def test_a_table_without_its_envelope_is_refused(key: str) -> None:
    """The envelope's defaults stand only for an event not yet on a log: a table that lacks `seq`
    or `parent` is refused as missing it, as before they had defaults."""
    text = _file(SETUP, TAKE)
    at = text.rindex(f"\n{key} = ")
    cut = text[: at + 1] + text[text.index("\n", at + 1) + 1 :]
    with pytest.raises(GameFileError, match=rf"^event #2 \(tokens_taken\): missing '{key}'$"):
        parse(cut, event_types)


def test_a_signature_and_a_payload_field_of_the_wrong_type_are_named_in_the_file_s_order() -> None:
    """Errors name the fields as the file lays them out (`sig` last), not as the classes declare them."""
    text = _file(SETUP, {**TAKE, "player": 3, "sig": 4})
    with pytest.raises(GameFileError, match=r"^event #2 \(tokens_taken\): wrong type for 'player', 'sig'$"):
        parse(text, event_types)


def test_no_upcaster_is_registered_for_the_formats_written_so_far() -> None:
    """Formats 1 and 2 write the same event tables: both are read as they are."""
    assert upcasters(1) == upcasters(2) == ()


def test_an_upcaster_registered_for_an_old_format_reads_its_files_forward(monkeypatch: pytest.MonkeyPatch) -> None:
    """A made-up format 3 renamed `tokens_taken`'s `gems` (format 2 called it `taken`): with the
    upcaster of format 2 registered, a file of format 2 reads into today's events; the chain is
    checked on the tables as they were written; a file of format 3 is not upcast."""
    from splendor_cli.events import codec

    def renamed(raw: dict[str, Any]) -> dict[str, Any]:
        if raw.get("type") != "tokens_taken" or "taken" not in raw:
            return raw
        moved = {key: value for key, value in raw.items() if key != "taken"}
        return {**moved, "gems": raw["taken"]}

    monkeypatch.setattr(codec, "FORMAT", 3)
    monkeypatch.setitem(UPCASTERS, 2, renamed)
    old = {"type": "tokens_taken", "player": "ann", "taken": ["red", "red"], "returned": [], "noble": ""}
    text = _file(SETUP, old, TAKE | {"player": "bob"}, fmt=2)
    record = parse(text, event_types)
    assert record.header.format == 2
    taken = record.events[1]
    assert isinstance(taken, TokensTaken) and taken.gems == (Gem.RED, Gem.RED)
    assert record.events[2].seq == 3  # its parent is the digest of the table as written
    with pytest.raises(GameFileError, match=r"missing 'gems'"):
        parse(_file(SETUP, old, fmt=3), event_types)
