"""A game's setup holds its decks as one field, `decks` (a tuple of the decks of cards, level 1
first), and writes them as it always did, one key a deck (`deck_1`, `deck_2`, `deck_3`): the
class's written form (`events.numbered_form`, `GameStarted.FORM`, `DuelStarted.FORM`), an
upcaster of its own on read and the old layout on write. So every file keeps its bytes and its
digests, a new file is written as before, and the table as written stays flat.
"""

from __future__ import annotations

from typing import Any

import pytest

from splendor_cli.errors import GameFileError
from splendor_cli.events import numbered_keys
from splendor_cli.events.codec import event_to_dict, format_event, read_events
from splendor_cli.model import Gem
from splendor_cli.variants import event_types
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base.events import DECK_KEYS, GameStarted
from splendor_cli.variants.duel.events import DECK_KEYS as DUEL_DECK_KEYS
from splendor_cli.variants.duel.events import DuelStarted
from splendor_cli.variants.duel.state import setup_problem

PARENT = "0123456789abcdef"
DECKS = (("1-01", "1-02"), ("2-01",), ())


def _setup() -> GameStarted:
    return GameStarted(seq=1, parent=PARENT, variant="base", players=("ann", "bob"), decks=DECKS, nobles=("N01",))


def _duel() -> DuelStarted:
    return DuelStarted(seq=1, parent=PARENT, players=("ann", "bob"), decks=DECKS, board=(Gem.RED, Gem.PEARL))


def _read(table: dict[str, Any], variant: str = "base") -> Any:
    (event,) = read_events([table], [PARENT], event_types(variant))
    return event


def test_the_keys_are_the_ones_every_file_wrote() -> None:
    assert DECK_KEYS == DUEL_DECK_KEYS == numbered_keys("deck", 3) == ("deck_1", "deck_2", "deck_3")


def test_a_setup_is_written_as_it_always_was() -> None:
    """`deck_1`, `deck_2`, `deck_3` where `decks` is declared, byte for byte as before."""
    assert format_event(_setup()) == (
        '\n[[events]]\ntype = "game_started"\nseq = 1\nparent = "0123456789abcdef"\nvariant = "base"\n'
        'players = ["ann", "bob"]\ndeck_1 = ["1-01", "1-02"]\ndeck_2 = ["2-01"]\ndeck_3 = []\nnobles = ["N01"]\n'
    )
    assert format_event(_duel()) == (
        '\n[[events]]\ntype = "duel_started"\nseq = 1\nparent = "0123456789abcdef"\nplayers = ["ann", "bob"]\n'
        'deck_1 = ["1-01", "1-02"]\ndeck_2 = ["2-01"]\ndeck_3 = []\nboard = ["red", "pearl"]\n'
    )


@pytest.mark.parametrize(("make", "variant"), [(_setup, "base"), (_duel, "duel")])
def test_a_setup_reads_back_the_same_and_its_form_round_trips(make: Any, variant: str) -> None:
    event = make()
    table = event_to_dict(event)
    before = dict(table)
    assert _read(table, variant) == event and table == before
    form = type(event).FORM
    assert form.written(form.upcast(table)) == table
    assert form.upcast(table)["decks"] == [list(deck) for deck in DECKS]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"deck_2": None}, "missing 'deck_2'"),
        ({"deck_1": None, "deck_2": None, "deck_3": None}, "missing 'deck_1', 'deck_2', 'deck_3'"),
        ({"deck_2": "2-01"}, "wrong type for 'deck_2'"),
        ({"deck_1": ["1-01", 7], "deck_3": 3}, "wrong type for 'deck_1', 'deck_3'"),
        ({"decks": [["1-01"], [], []]}, "unknown 'decks'"),
        (
            {"deck_1": None, "deck_2": None, "deck_3": None, "decks": [[], [], []]},
            "missing 'deck_1', 'deck_2', 'deck_3'",
        ),
        ({"deck_4": []}, "unknown 'deck_4'"),
    ],
    ids=["missing", "none", "wrong-type", "wrong-types", "as-a-list", "only-a-list", "fourth-key"],
)
def test_a_setup_in_another_form_is_refused_naming_the_event(change: dict[str, Any], said: str) -> None:
    """The file writes the decks of a setup one key each, and only so."""
    table = event_to_dict(_setup())
    for key, value in change.items():
        if value is None:
            del table[key]
        else:
            table[key] = value
    with pytest.raises(GameFileError, match=r"^event #1 \(game_started\): ") as caught:
        _read(table)
    assert str(caught.value).endswith(said)


def test_a_setup_of_another_number_of_decks_is_refused_by_its_game() -> None:
    """Only code makes one (a file's setup always has its three keys)."""
    with pytest.raises(ValueError, match="game_started holds 3 decks, not 2"):
        BASE.start(GameStarted.of(("ann", "bob"), DECKS[:2], ("N01", "N02", "N03")))
    assert setup_problem(_duel()) != "" and "3 decks, not 2" in setup_problem(
        DuelStarted(players=("ann", "bob"), decks=DECKS[:2], board=())
    )
