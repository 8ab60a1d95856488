"""The text people see: `board_text` and `log_text`, snapshotted in ASCII at a fixed width."""

from __future__ import annotations

import random

import attrs
from helpers import new_game, random_game, step, undo

from splendor_cli.presentation.log_text import log_text
from splendor_cli.projection import Game
from splendor_cli.projection.log import log_entries
from splendor_cli.variants.base.render import board_text
from splendor_cli.variants.base.rules import choices


def board(game: Game, width: int = 100) -> str:
    return board_text(game, ascii=True, width=width)


def game_with_undo() -> Game:
    """ann and bob play four turns, bob takes his back, then three more turns are played."""
    game = new_game(("ann", "bob"), seed=1)
    for move in ("take w u g", "take r k w", "take g r k", "take w u g"):
        game = step(game, move)
    game = undo(game)
    for move in ("reserve deck 1", "buy 1-02", "reserve 2-21"):
        game = step(game, move)
    return game


def game_in_last_round(seed: int, players: int) -> Game:
    """Random legal turns until someone has reached 15 points and the round is being finished."""
    rng = random.Random(seed)
    game = new_game(tuple(f"p{i}" for i in range(1, players + 1)), seed)
    while not game.state.last_round:
        options = choices(game.state)
        game = step(game, options.move(rng.randrange(len(options))))
    assert not game.state.finished, "pick a seed whose last round is not over at once"
    return game


def test_new_two_player_game(snapshot):
    """A fresh 2-player board: turn 1 with ann to move, 4 of each gem and 5 gold, 3 nobles, full decks."""
    assert board(new_game(("ann", "bob"), seed=1)) == snapshot


def test_four_player_game_midway(snapshot):
    """Four players mid-game: tokens and bonuses per colour, reserved cards with costs, points."""
    assert board(random_game(6, players=4, max_turns=100)) == snapshot


def test_four_player_game_narrow(snapshot):
    """At 80 columns the players go one under another (name, points and nobles on a heading
    line), the reserved cards beside the tokens, so that nothing is cut."""
    text = board(random_game(6, players=4, max_turns=100), width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text == snapshot


def test_last_round(snapshot):
    """Once someone has 15 points the board says it is the last round and who plays last."""
    game = game_in_last_round(1, players=3)
    text = board(game)
    assert "LAST ROUND" in text
    assert text == snapshot


def test_finished_game(snapshot):
    """A game played to the end: the headline gives the winner and points, the winner is marked."""
    game = random_game(5, players=2)
    assert game.state.finished
    text = board(game)
    assert "game over" in text and "to move" not in text
    assert text == snapshot


def test_empty_slots_and_empty_deck(snapshot):
    """A 4-player game to the end with the level-1 deck spent: `deck 0`, and `(empty)` slots."""
    text = board(random_game(2, players=4))
    assert "deck 0" in text and "(empty)" in text
    assert text == snapshot


def test_blocked_game_result():
    """A game that ended because no one could play names the winner by the card tie-break, and says why."""
    game = random_game(6, players=3)
    assert game.state.finished and max(p.points for p in game.state.players) < 15
    lines = board(game).splitlines()
    assert lines[1] == "Winner: p3, 0 points and fewer cards than p1 and p2 (no one could play any more)"


def test_shared_victory():
    """Tied on points and on cards, the winners share the victory, and the headline says so."""
    game = random_game(2, players=4)
    state = game.state
    p4 = state.players[3]
    tied = tuple(attrs.evolve(p, points=p4.points, cards=p4.cards) if p.name == "p2" else p for p in state.players)
    game = attrs.evolve(game, states=(*game.states[:-1], attrs.evolve(state, players=tied)))
    assert board(game).splitlines()[1] == "Shared victory: p2 and p4, 18 points and 15 cards each"


def test_board_after_undo(snapshot):
    """After an undo the board shows the state of the effective turns only (the undone one is gone)."""
    assert board(game_with_undo()) == snapshot


def test_log_with_undo(snapshot):
    """One line per event: turn numbers, players, notation, the undone turn marked, drawn cards."""
    text = log_text(log_entries(game_with_undo()))
    assert "(undone)" in text and "drew 1-33" in text
    assert text == snapshot


def test_lines_fit_and_have_no_trailing_spaces():
    """Every line of a board fits the width asked for and none ends with a space."""
    for game in (new_game(("ann", "bob", "cy", "dee")), random_game(2, players=3), game_with_undo()):
        for width in (100, 80):
            lines = board(game, width).splitlines()
            assert all(len(line) <= width for line in lines)
            assert not any(line.endswith(" ") for line in lines)


def test_colour_only_when_asked():
    """color=False gives plain text (no escape character); color=True colours the board and the log."""
    game = game_with_undo()
    entries = log_entries(game)
    assert "\x1b" not in board_text(game) + log_text(entries)
    assert "\x1b[" in board_text(game, color=True)
    assert "\x1b[" in log_text(entries, color=True)


def test_colour_keeps_the_text():
    """With the colour codes taken out, the coloured board reads exactly as the plain one, but
    for the dim `·` that says a count of 0 in colour (blank without)."""
    import re

    game = random_game(3, players=3, max_turns=40)
    coloured = re.sub(r"\x1b\[[0-9;]*m", "", board_text(game, color=True))
    assert "·" in coloured and "·" not in board_text(game)
    assert coloured.replace("·", " ") == board_text(game)
