"""A third game is one package plus one line in the registry: a toy game defined in the tests
(toy_game.py, *Two cards*) plays through the fold, the file format, verify and the command
line, and the bots and tournaments, none of which was written for it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
import toy_game
from helpers import cli

from splendor_cli import store, variants
from splendor_cli.errors import CorruptLogError, IllegalMoveError
from splendor_cli.events.codec import Header
from splendor_cli.projection import Game, replay
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.records import parse_text


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
    first = game.state.pile[0]
    game = game.apply(attrs.evolve(game.decide("take"), seq=2))
    assert game.state.players[0].points == toy_game.POINTS[first] and game.state.player.name == "bob"
    with pytest.raises(IllegalMoveError):
        game.decide("burn", player="ann")
    game = game.apply(attrs.evolve(game.decide_undo(), seq=3))
    assert game.state.players[0].points == 0 and game.undone == frozenset({2})
    forged = toy_game.CardTaken(seq=4, parent="", player="ann", card="B" if first == "A" else "A")
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
    assert state["finished"] and state["variant"] == "toy" and state["pile"] == 0
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
    assert cli("play", "burn", "-g", path)[0] == 0
    code, out, err = cli("bot", "-g", path, "--json")
    assert code == 0 and json.loads(out)["finished"], err
    code, out, err = cli("simulate", "--variant", "toy", "--games", 6, "--bots", "greedy,random", "--seed", 1, "--json")
    report = json.loads(out)
    assert code == 0 and report["games"] == 6 and sum(report["wins"].values()) >= 6, err


def test_the_toy_writes_only_what_differs() -> None:
    """The toy's class writes none of the hooks whose default fits it (`GameVariant`): one move
    is one turn, chance draws nothing in play, the turn is said from the state, a random move is
    one of the legal moves; and it declares no sealed cards."""
    written = set(vars(toy_game.TwoCards))
    inherited = {"stepwise", "drawing_types", "sealed_cards", "draw", "random_move", "at_turn_start", "status"}
    assert not written & {*inherited, "whose_turn"}
    toy = toy_game.VARIANT
    state = toy.start(toy.deal(("ann", "bob"), RandomChance(random.Random(4))))
    assert not toy.stepwise and toy.drawing_types == () and toy.sealed_cards is None
    assert toy.at_turn_start(state) and toy.status(state) == {} and toy.whose_turn(state) == "ann to move"
    assert toy.draw(state, "take", RandomChance(random.Random(5))) == "take"
    assert toy.random_move(state, random.Random(6)) in toy.legal_moves(state)


def test_a_game_that_declares_no_sealed_cards_cannot_be_made_sealed(tmp_path: Path) -> None:
    """`new --sealed` of the toy (no `sealed_cards`) is a usage error, exit 2, said in one line
    where the game is made; no file is written."""
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
