"""The board of a Splendor Duel (its package's render.py, reached through `Variant.board_text`), snapshotted."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import attrs
import pytest
from helpers import DUEL, deal_duel, new_game

from splendor_cli.model import Gem, Tokens
from splendor_cli.projection import Game
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel.render import board_text
from splendor_cli.variants.duel.state import CELL_INDEX, DuelState
from splendor_cli.variants.duel.step import Step


def duel_game(seed: int = 1) -> Game:
    """A freshly dealt Duel between ann (first) and bob."""
    return Game(variant=DUEL).apply(deal_duel(("ann", "bob"), random.Random(seed)))


def play(game: Game, step: Step, rng: random.Random | None = None) -> Game:
    """One step through `decide`, a replenish drawn from `rng` (not from the log, as the CLI
    does: these boards should not change with the way draws are derived), folded unchecked."""
    state = game.state
    assert isinstance(state, DuelState)
    event = duel.decide(state, duel.draw(state, step, RandomChance(rng or random.Random(0))))
    return game.apply(attrs.evolve(event, seq=game.seq + 1, parent=""), check=False)


def random_steps(seed: int, steps: int | None = None, until: Callable[[DuelState], bool] | None = None) -> Game:
    """A Duel of uniformly random legal steps: `steps` of them, until `until(state)`, or to the end."""
    rng = random.Random(seed)
    game = duel_game(seed)
    played = 0
    while not game.state.finished and (steps is None or played < steps):
        if until is not None and until(game.state):
            break
        options = duel.legal_steps(game.state)
        game = play(game, options[rng.randrange(len(options))], rng)
        played += 1
    return game


def with_state(game: Game, **changes: object) -> Game:
    """The game with its last state changed: a situation crafted rather than played."""
    return attrs.evolve(game, states=(*game.states[:-1], attrs.evolve(game.state, **changes)))


def with_player(game: Game, index: int, **changes: object) -> Game:
    players = list(game.state.players)
    players[index] = attrs.evolve(players[index], **changes)
    return with_state(game, players=tuple(players))


def board(game: Game, width: int = 100, ascii: bool = False) -> str:
    return board_text(game, width=width, ascii=ascii)


def gold_cell(game: Game) -> int:
    return game.state.board.index(Gem.GOLD)


def with_reserves() -> Game:
    """ann reserves the top of deck 2 blind, then bob a face-up level-3 card."""
    game = duel_game(3)
    game = play(game, Step(step="reserve", cells=(gold_cell(game),), deck=2))
    game = play(game, Step(step="reserve", cells=(gold_cell(game),), card=game.state.pyramid[2][1]))
    return game


# -- snapshots ---------------------------------------------------------------------------------


def test_setup(snapshot):
    """A fresh Duel: ann to move, the board full, the bag empty, all four royal cards, bob's privilege."""
    text = board(duel_game())
    assert text.splitlines()[0] == "Splendor Duel  turn 1: ann to move  (event #1)"
    assert text == snapshot


def test_midgame(snapshot):
    """Forty random steps in: tokens and bonuses per colour, cards bought, wild cards placed."""
    assert board(random_steps(1, 60)) == snapshot


def test_midgame_narrow(snapshot):
    """At 80 columns reserved cards take two lines each, so that the players still fit."""
    text = board(random_steps(1, 60), width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text == snapshot


def test_ascii(snapshot):
    """`ascii`: frames without box-drawing characters, every character plain ASCII."""
    text = board(random_steps(1, 60), width=80, ascii=True)
    assert text.isascii()
    assert text == snapshot


def test_reserved_cards(snapshot):
    """A reserve taken blind from a deck is marked so; a face-up one is not; each took a gold."""
    game = with_reserves()
    text = board(game)
    blind, shown = game.state.players[0].reserved[0], game.state.players[1].reserved[0]
    assert re.search(rf"{blind} .*\(blind\)", text)
    assert not re.search(rf"{shown} .*\(blind\)", text)
    assert text == snapshot


def test_return_phase(snapshot):
    """A player above 10 tokens after the turn's action is told how many to return."""
    game = random_steps(0, until=lambda s: s.phase == "return")
    assert game.state.phase == "return"
    text = board(game)
    assert "ann must return 1 token to the bag (11 held, 10 at most)" in text.splitlines()[1]
    assert text == snapshot


def test_royal_phase_crafted(snapshot):
    """A player who reached 3 crowns after a purchase with a token ability takes the token, then a royal card."""
    game = with_player(duel_game(), 0, cards=("1-04",), bonuses=Tokens.of(white=1), crowns=3)
    game = with_state(game, phase="token", owed=("royal",), fresh=False, again=True)
    lines = board(game).splitlines()
    assert lines[1:3] == [
        "ann must take a white token from the board (the ability of 1-04), then take a royal card (3 crowns)",
        "ann plays again after this turn",
    ]
    game = with_state(game, phase="royal", owed=())
    text = board(game)
    assert text.splitlines()[1].startswith("ann must take a royal card (3 crowns)")
    assert text == snapshot


def test_points_victory(snapshot):
    """A game played to the end: the winner, the condition met, the winner marked."""
    game = random_steps(0)
    state = game.state
    assert state.finished and state.win_condition == "points"
    text = board(game)
    assert text.splitlines()[1] == "Winner: bob, with 20 points (20 points win)"
    assert "to move" not in text and "winner" in text
    assert text == snapshot


def test_points_victory_narrow(snapshot):
    text = board(random_steps(0), width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text == snapshot


# -- headlines -----------------------------------------------------------------------------------


def test_other_victories_and_a_draw():
    """Crowns, points in one colour, or a draw when both players passed: the headline says which."""
    crowns = random_steps(20)
    assert crowns.state.win_condition == "crowns"
    assert board(crowns).splitlines()[1] == "Winner: ann, with 10 crowns (10 crowns win)"
    colour = random_steps(24)
    assert colour.state.win_condition == "colour"
    assert board(colour).splitlines()[1] == "Winner: ann, with 11 points on red cards (10 points in one colour win)"
    draw = with_state(random_steps(2, 30), finished=True, phase="over", passes=2)
    lines = board(draw).splitlines()
    assert lines[0].startswith("Splendor Duel  game over after ")
    assert lines[1].startswith("Draw: both players passed")


def test_mid_turn_notes():
    """After a replenish the headline says no privilege may follow; after a pass, that another ends the game."""
    game = duel_game()
    empty = with_state(game, board=(None,) * 3 + game.state.board[3:], bag=Tokens.from_gems(game.state.board[:3]))
    replenished = play(empty, Step(step="replenish"))
    assert board(replenished).splitlines()[1] == "ann replenished the board this turn: no more privileges"
    gem = next(i for i, g in enumerate(game.state.board) if g is not Gem.GOLD)
    privileged = play(with_player(game, 0, privileges=1), Step(step="privilege", cells=(gem,)))
    assert board(privileged).splitlines()[1] == "ann used a privilege this turn"
    passed = with_state(game, passes=1)
    assert board(passed).splitlines()[1] == "bob passed: if ann passes too, the game ends in a draw"


# -- the parts -----------------------------------------------------------------------------------


def test_token_board_coordinates():
    """Columns a to e across, rows 1 to 5 down: the cell c1 is the third letter of row 1; `.` when empty."""
    game = duel_game()
    game = with_state(game, board=tuple(None if i == CELL_INDEX["c1"] else g for i, g in enumerate(game.state.board)))
    lines = board(game).splitlines()
    header = next(i for i, line in enumerate(lines) if "a b c d e" in line)
    row_1 = lines[header + 1]
    cells = row_1[row_1.index("1  ") + 3 :].split()[:5]
    expected = [g.letter if g else "." for g in game.state.board[:5]]
    assert cells == expected and cells[2] == "."


def test_pyramid_and_decks():
    """3, 4 and 5 face-up cards, each deck's size, and `(empty)` once a deck ran out."""
    game = duel_game()
    state = game.state
    text = board(game)
    for level in (1, 2, 3):
        assert f"deck {len(state.decks[level - 1])}" in text
        for card in state.pyramid[level - 1]:
            assert card in text
    level_1 = (None, *state.pyramid[0][1:])
    text = board(with_state(game, pyramid=(level_1, *state.pyramid[1:]), decks=((), *state.decks[1:])))
    assert "(empty)" in text and "deck 0" in text


def test_duel_cards_looked_up_in_the_duel_table():
    """Duel ids overlap base ids: 2-04 is a Duel double bonus (white x2, pearl-free cost u5 g2)."""
    game = duel_game()
    state = game.state
    pyramid = (state.pyramid[0], ("2-04", *state.pyramid[1][1:]), state.pyramid[2])
    text = board(with_state(game, pyramid=pyramid))
    assert "white x2" in text and "u5 g2" in text


@pytest.mark.parametrize("width", [100, 80])
def test_lines_fit_and_have_no_trailing_spaces(width):
    """Every line of a Duel board fits the width asked for and none ends with a space."""
    games = [duel_game(), random_steps(1, 60), random_steps(3, 50), random_steps(0), random_steps(20), with_reserves()]
    for game in games:
        for ascii in (False, True):
            lines = board(game, width, ascii).splitlines()
            assert all(len(line) <= width for line in lines), max(lines, key=len)
            assert not any(line.endswith(" ") for line in lines)


def test_colour():
    """No escape codes without colour; with colour, the same text once the codes are taken out,
    but for the dim `·` that says a count of 0 in colour (blank without)."""
    game = random_steps(1, 60)
    plain = board_text(game)
    coloured = board_text(game, color=True)
    assert "\x1b" not in plain and "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).replace("·", " ") == plain


def test_the_variant_draws_its_own_board():
    """`Variant.board_text` (what `show` calls) draws a Duel with the Duel's board, and a base game
    with the base game's: the command asks the game, never which game it is."""
    game = random_steps(1, 30)
    assert game.variant.board_text(game, width=90, color=False, ascii=True) == board_text(game, width=90, ascii=True)
    base = new_game()
    assert "Splendor Duel" not in base.variant.board_text(base, width=90, color=False, ascii=True)
