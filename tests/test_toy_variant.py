"""A third game is one package plus one line in the registry: a toy game defined in the tests
(toy_game.py, *Two cards*) plays through the fold, the file format, verify and the command
line, and the bots and tournaments, none of which was written for it; and, since it declares its
two piles as sealed decks, sealed, through the sealed protocol, which was written for no number
of decks in particular."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
import toy_game
from helpers import cli
from sealed_helpers import Table as SealedTable

from splendor_cli import store, variants
from splendor_cli.errors import CorruptLogError, IllegalMoveError
from splendor_cli.events.codec import Header, format_record
from splendor_cli.projection import Game, replay
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.records import parse_text, replay_record
from splendor_cli.sealing.audit import audit
from splendor_cli.sealing.events import DeckShuffled, KeysPublished
from splendor_cli.sealing.placeholders import is_placeholder
from splendor_cli.sealing.table import decks_problem


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """The toy game is known while a test runs, and forgotten after."""
    variants.register(toy_game.VARIANT)
    yield
    variants.unregister("toy")


def test_the_registry_finds_the_game_by_name() -> None:
    """`find_variant` turns a header's variant into the game; its events join the shared ones."""
    assert variants.find_variant("toy") is toy_game.VARIANT
    types = variants.event_types("toy")
    assert types["card_taken"] is toy_game.CardTaken and "turn_undone" in types and "tokens_taken" not in types
    assert "toy" in variants.names()


def test_the_fold_plays_judges_and_undoes_the_toy_game() -> None:
    """`Game` deals, decides, applies, refuses an illegal move and undoes, through the protocol alone."""
    game = Game(variant=toy_game.VARIANT).apply(toy_game.VARIANT.deal(("ann", "bob"), RandomChance(random.Random(1))))
    first, under = game.state.pile
    game = game.apply(attrs.evolve(game.decide("take"), seq=2))
    assert game.state.players[0].points == toy_game.POINTS[first] and game.state.player.name == "bob"
    assert game.state.piles[0] == (under,) and game.events[-1].drawn == under
    with pytest.raises(IllegalMoveError):
        game.decide("burn", player="ann")
    game = game.apply(attrs.evolve(game.decide_undo(), seq=3))
    assert game.state.players[0].points == 0 and game.undone == frozenset({2})
    forged = toy_game.CardTaken(seq=4, parent="", player="ann", card=under, drawn=first)
    with pytest.raises(CorruptLogError, match="event #4"):
        game.apply(forged)  # the rules make of this move a take of the top card, not of another
    assert replay(toy_game.VARIANT, game.events) == game


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "toy.toml"
    header = Header(game="toy-1", variant="toy", players=("ann", "bob"), created="2026-12-03T00:00:00Z")
    store.create(path, header, toy_game.VARIANT.deal(("ann", "bob"), RandomChance(random.Random(2))))
    return path


def test_the_file_format_writes_and_reads_the_toy_game(tmp_path: Path) -> None:
    """The codec writes the toy's events as any others, and reads them back by the header's variant."""
    path = _file(tmp_path)
    text = path.read_text()
    assert 'variant = "toy"' in text and 'type = "pile_dealt"' in text
    record = parse_text(text)
    assert isinstance(record.events[0], toy_game.PileDealt)


def test_the_command_line_plays_the_toy_game_to_the_end(tmp_path: Path) -> None:
    """moves, play, state, log, show, undo and verify work on a game they were not written for."""
    path = _file(tmp_path)
    code, out, err = cli("moves", "-g", path)
    assert code == 0 and out.split() == ["take", "burn"], err
    code, out, err = cli("play", "take", "-g", path, "--json")
    assert code == 0 and json.loads(out)["to_move"] == "bob", err
    assert cli("play", "fly", "-g", path)[0] == 2  # the toy's notation refuses it: invalid, exit 2
    assert cli("undo", "-g", path)[0] == 0
    for move in ("burn", "take"):
        assert cli("play", move, "-g", path)[0] == 0
    code, out, _ = cli("state", "-g", path, "--json")
    state = json.loads(out)
    assert not state["finished"] and state["variant"] == "toy" and state["piles"] == [0, 2]
    for move in ("take", "burn"):
        assert cli("play", move, "-g", path)[0] == 0
    code, out, _ = cli("state", "-g", path, "--json")
    state = json.loads(out)
    assert state["finished"] and state["piles"] == [0, 0] and state["face_up"] == [None, None]
    code, out, _ = cli("log", "-g", path)
    assert code == 0 and "(undone)" in out and "new game of two cards" in out
    code, out, _ = cli("show", "-g", path)
    assert code == 0 and out.startswith("Two cards: 0 in the pile")
    code, out, err = cli("verify", "-g", path)
    assert code == 0, err + out
    assert cli("play", "take", "-g", path)[0] == 3  # the game is over: illegal, exit 3


def test_new_and_the_bots_play_the_toy_game(tmp_path: Path) -> None:
    """`new --variant toy` deals it; `simulate` plays a tournament of its bots."""
    path = tmp_path / "new.toml"
    code, _, err = cli("new", "-g", path, "--players", "ann,bot:greedy", "--variant", "toy", "--seed", 3)
    assert code == 0, err
    for _ in range(2):  # four cards: ann burns, the bot plays, twice
        assert cli("play", "burn", "-g", path)[0] == 0
        code, out, err = cli("bot", "-g", path, "--json")
    assert code == 0 and json.loads(out)["finished"], err
    code, out, err = cli("simulate", "--variant", "toy", "--games", 6, "--bots", "greedy,random", "--seed", 1, "--json")
    report = json.loads(out)
    assert code == 0 and report["games"] == 6 and sum(report["wins"].values()) >= 6, err


def test_the_toy_writes_only_what_differs() -> None:
    """The toy's class writes none of the hooks whose default fits it (`GameVariant`): one move
    is one turn, chance draws nothing in play, the turn is said from the state, a random move is
    one of the legal moves; it declares its sealed cards (two decks), and `OPEN`, the same game
    declaring none, writes that hook alone."""
    written = set(vars(toy_game.TwoCards))
    inherited = {"stepwise", "drawing_types", "draw", "random_move", "at_turn_start", "status"}
    assert not written & {*inherited, "whose_turn"} and "sealed_cards" in written
    assert {name for name in vars(toy_game.OpenTwoCards) if not name.startswith("_")} == {"sealed_cards"}
    toy = toy_game.VARIANT
    state = toy.start(toy.deal(("ann", "bob"), RandomChance(random.Random(4))))
    assert not toy.stepwise and toy.drawing_types == () and toy_game.OPEN.sealed_cards is None
    sealed = toy.sealed_cards
    assert sealed is not None and sorted(sealed.decks) == [1, 2]
    assert toy.at_turn_start(state) and toy.status(state) == {} and toy.whose_turn(state) == "ann to move"
    assert toy.draw(state, "take", RandomChance(random.Random(5))) == "take"
    assert toy.random_move(state, random.Random(6)) in toy.legal_moves(state)


def test_a_game_that_declares_no_sealed_cards_cannot_be_made_sealed(tmp_path: Path) -> None:
    """`new --sealed` of the toy declaring no `sealed_cards` (`OPEN`) is a usage error, exit 2,
    said in one line where the game is made; no file is written."""
    variants.register(toy_game.OPEN)
    path = tmp_path / "sealed.toml"
    code, out, err = cli("new", "-g", path, "--players", "ann,bob", "--variant", "toy", "--sealed")
    assert code == 2 and "toy cannot be sealed" in err and len(err.strip().splitlines()) == 1, err + out
    assert not path.exists()


def test_a_variant_this_program_does_not_know_is_refused(tmp_path: Path) -> None:
    """A file of a game not registered (say, written by a newer version) is refused, exit 4."""
    path = _file(tmp_path)
    variants.unregister("toy")
    code, _, err = cli("state", "-g", path)
    assert code == 4 and "unknown variant 'toy'" in err


# -- sealed: two decks ---------------------------------------------------------------------------


def test_the_toy_is_played_sealed_to_the_end_with_its_two_decks(tmp_path: Path) -> None:
    """The toy declares two sealed decks (its piles): a sealed game of it is played to the end
    through the same protocol as the real games (keys, shuffles with their proofs, every face-up
    card opened by everyone's shares, signed moves, keys published), each shuffle holding two
    decks, written `decks = [...]`; the file reads again byte for byte, every signature and proof
    checked, to the same game, and the audit opens all four cards, as does `splendor verify`."""
    table = SealedTable.new("toy", 2, 3).deal().play_to_end()
    record = table.record
    shuffles = [event for event in record.events if isinstance(event, DeckShuffled)]
    assert [len(event.decks) for event in shuffles] == [2, 2] and all(len(e.proofs) == 2 for e in shuffles)
    assert all(len(event.seeds) == 2 for event in record.events if isinstance(event, KeysPublished))
    setup = next(event for event in record.events if isinstance(event, toy_game.PileDealt))
    assert [is_placeholder(card) for card in (*setup.pile_1, *setup.pile_2)] == [False, True, False, True]
    text = format_record(record)
    assert text.count("\ndecks = [") == 2 and "\ndeck_1 = " not in text
    again = parse_text(text)
    assert format_record(again) == text and list(again.digests) == list(record.digests)
    game = replay_record(again)
    assert game.state == table.state and game.state.finished and game.sealing is not None
    found = audit(game.sealing, game.state)
    assert not found.problems and found.cards_opened == 4 and found.shuffles_checked == 4
    assert sorted(table.truth().values()) == sorted(toy_game.POINTS)
    scored = sum(toy_game.POINTS[e.card] for e in record.events if isinstance(e, toy_game.CardTaken))
    assert sum(hand.points for hand in game.state.players) == scored
    path = tmp_path / "sealed-toy.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("verify", "-g", path)
    assert code == 0, err + out


def test_a_shuffle_of_another_number_of_decks_than_the_game_has_is_refused() -> None:
    """A sealed toy's shuffle must hold its two decks: a shuffle of three (a real game's shape)
    or of one is refused, naming the player; and a deck list the game cannot hold (levels not 1,
    2, ...) is refused where the game is sealed."""
    table = SealedTable.new("toy", 2, 4)
    table.join()
    (honest,) = table.duties("ann")
    assert isinstance(honest, DeckShuffled) and len(honest.decks) == 2
    for decks in ((*honest.decks, honest.decks[0]), honest.decks[:1]):
        with pytest.raises(CorruptLogError, match=rf"ann's shuffle holds {len(decks)} decks: the game has 2"):
            table.add(attrs.evolve(honest, decks=decks), "ann")
    assert decks_problem({1: ("1-A",), 3: ("3-A",)}).startswith("it declares no decks of levels 1, 2, ...")
    assert decks_problem({1: ()}) == "deck 1 holds 0 cards (1 to 99)"
    assert decks_problem(toy_game.DECKS) == ""
