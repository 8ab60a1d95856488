"""The plain readers and writers of tables (events/conversion.py) give what cattrs gives.

Reading a good file never imports cattrs: `structure` builds a table that is exactly right field
by field, and `plain` writes a value so, each with the converter's own hooks. cattrs stays the
judge of every other table. These tests hold the two to the same results: every event of real
games (base, Duel, sealed, the commit-then-reveal deal, undos) and their headers, written and read
both ways; and tables spoiled at random (a value of another type, a key added or taken away),
which the plain reader must leave to cattrs exactly when cattrs refuses them.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from helpers import random_game, seeded_deal
from hypothesis import given, settings
from hypothesis import strategies as st
from sealed_helpers import Table

from splendor_cli.errors import GameFileError
from splendor_cli.events import SeedCommitted, SeedRevealed, SeedsAsked, TurnUndone
from splendor_cli.events.codec import Header
from splendor_cli.events.conversion import _REFUSED, _converter, _quick, plain, structure

HEADERS = (
    Header(game="g-1", variant="base", players=("ann", "bob"), created="2026-12-06T00:00:00Z"),
    Header(
        format=4,
        game="g-2",
        variant="duel",
        table="sealed",
        players=("ann", "bob"),
        created="2026-12-06T00:00:00Z",
        emails=("a@example.org", ""),
    ),
)


def every_kind_of_event() -> list[Any]:
    """Events of every kind the tests can make: random base games with undos, a Duel, a whole
    sealed game, a commit-then-reveal deal."""
    events: list[Any] = []
    for seed in (1, 2, 3):
        events += random_game(seed, players=2 + seed % 3).events
    events += Table.new("duel", 2, 7).deal().play_to_end(blind=0.3).game.events
    events += Table.new("base", 3, 8).deal().play_to_end(blind=0.3).game.events
    events.append(SeedsAsked(seq=1, parent="0" * 16, variant="base", players=("ann", "bob")))
    events.append(SeedCommitted(seq=2, parent="1" * 16, player="ann", commitment="ab" * 32))
    events.append(SeedRevealed(seq=3, parent="2" * 16, player="ann", secret="cd" * 32))
    events.append(TurnUndone(seq=9, parent="3" * 16, to=7, by="ann"))
    events.append(seeded_deal(("ann", "bob"), ("s1", "s2")))
    return events


def sample(events: list[Any], each: int = 4) -> list[Any]:
    """The first `each` events of every kind."""
    seen: dict[type, int] = {}
    kept = []
    for event in events:
        seen[type(event)] = seen.get(type(event), 0) + 1
        if seen[type(event)] <= each:
            kept.append(event)
    return kept


EVENTS = sample(every_kind_of_event())
KINDS = sorted({type(event).__name__ for event in EVENTS})


def _by_cattrs(body: dict[str, Any], cls: type) -> Any:
    """What cattrs builds of `body`, or `_REFUSED` when it refuses it."""
    from cattrs.errors import ClassValidationError

    try:
        return _converter().structure(body, cls)
    except ClassValidationError:
        return _REFUSED


def test_the_events_cover_every_kind() -> None:
    """The sample holds the play events of both games, the sealed protocol's and the shared ones."""
    assert {"GameStarted", "DuelStarted", "TokensTaken", "CardPurchased", "SealedAsked", "DeckShuffled"} <= set(KINDS)
    assert {"CardsShown", "KeysPublished", "PlayerJoined", "TurnUndone", "SeedCommitted"} <= set(KINDS)


@pytest.mark.parametrize("value", [*HEADERS, *EVENTS], ids=lambda v: type(v).__name__)
def test_plain_writes_and_reads_as_cattrs_does(value: Any) -> None:
    """Every value is written as cattrs writes it, and read back as cattrs reads it."""
    cls = type(value)
    written = plain(value)
    assert written == _converter().unstructure(value, cls)
    assert list(written) == [field.name for field in attrs.fields(cls)]  # the same order
    assert _quick(written, cls) == _by_cattrs(written, cls) == value
    assert structure({"type": "x", **written}, cls, "here") == value


SPOILS = st.one_of(
    st.sampled_from([0, 1, -3, True, False, 1.5, "", "red", "gold", "Red", "x", "1", "ab" * 40]),
    st.lists(st.sampled_from(["red", "white", "x", 1, True, ["a"]]), max_size=3),
    st.lists(st.lists(st.sampled_from(["1-01", "a", 2]), max_size=2), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(EVENTS + list(HEADERS)), st.data())
def test_a_spoiled_table_is_refused_or_read_exactly_as_cattrs_does(value: Any, data: st.DataObject) -> None:
    """A value of another type, an unknown key, a missing key: the plain reader gives what cattrs
    gives (the same value, or a refusal, which `structure` then words as cattrs found it)."""
    cls = type(value)
    body = plain(value)
    how = data.draw(st.sampled_from(["change", "add", "remove"]))
    if how == "change":
        body[data.draw(st.sampled_from(sorted(body)))] = data.draw(SPOILS)
    elif how == "add":
        body[data.draw(st.sampled_from(["extra", "Type", "deck_9", "sig2"]))] = data.draw(SPOILS)
    else:
        del body[data.draw(st.sampled_from(sorted(body)))]
    try:
        expected = _by_cattrs(body, cls)
    except Exception as exc:  # the class itself refuses the values (its own validators)
        with pytest.raises(type(exc)):
            _quick(body, cls)
        return
    assert _quick(body, cls) == expected
    if expected is _REFUSED:
        with pytest.raises(GameFileError, match=r"^here: (missing|unknown|wrong type|'\w+' holds)"):
            structure(body, cls, "here")


def test_reading_a_good_file_imports_no_cattrs() -> None:
    """The point of the plain readers: a whole game is read and folded without cattrs."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from splendor_cli.records import parse_text, replay_record\n"
        "text = Path('games/sample-3p.toml').read_text()\n"
        "replay_record(parse_text(text))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'cattrs'))\n"
    )
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
