"""The base board at the widths of real terminals (60, 80, 100 and 140 columns): snapshots, and
checks that nothing a player reads is cut at any of them (names, token and gold counts, points,
reserved cards and their `(blind)`, nobles won)."""

from __future__ import annotations

import functools
import random
import re

import pytest
from helpers import new_game, step
from rich.cells import cell_len

from splendor_cli.model import COLOURS, GEMS, Gem, Tokens
from splendor_cli.projection import Game
from splendor_cli.variants.base.render import board_text
from splendor_cli.variants.base.rules import choices
from splendor_cli.variants.base.state import GameState

WIDTHS = (60, 80, 100, 140)
FOUR = ("alice", "bartholomew", "christabel", "dominique")
LONG = "maximilianalexanderfitzgeraldson"
"""32 letters: the longest name the rule allows."""


def played(players: tuple[str, ...], seed: int, turns: int | None = None) -> Game:
    """Random legal turns (seeded), to the end or for `turns` turns."""
    rng = random.Random(seed)
    game = new_game(players, seed)
    while not game.state.finished and (turns is None or game.state.turn < turns):
        options = choices(game.state)
        game = step(game, options.move(rng.randrange(len(options))))
    return game


GAMES = {
    "four-midgame": lambda: played(FOUR, 3, 140),
    "four-finished": lambda: played(FOUR, 8),
    "two-players": lambda: played(FOUR[:2], 20, 62),
    "long-name": lambda: played((FOUR[0], LONG, *FOUR[2:]), 3, 141),
}


@functools.cache
def game(name: str) -> Game:
    return GAMES[name]()


def state(name: str) -> GameState:
    result: GameState = game(name).state
    return result


def board(name: str, width: int) -> str:
    return board_text(game(name), width=width, ascii=True)


def test_the_games_hold_what_a_board_must_show() -> None:
    """Each game has gold in a hand, a card reserved blind and a noble won; one is over; in the
    long-name game the 32-letter name is to move (so the headline carries it)."""
    for name in GAMES:
        players = state(name).players
        assert any(p.tokens[Gem.GOLD] for p in players), name
        assert any(p.blind for p in players), name
        assert any(p.nobles for p in players), name
    assert state("four-finished").finished and not state("four-midgame").finished
    assert state("long-name").player.name == LONG


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", GAMES)
def test_board_at_width(name: str, width: int, snapshot) -> None:  # type: ignore[no-untyped-def]
    """The board at each width, as a person sees it: a table of the players from about 100
    columns, each player under a heading line below that (the reserved cards beside the tokens
    at 80, under them at 60), the market's cards on three lines at 60."""
    assert board(name, width) == snapshot


# -- nothing cut ---------------------------------------------------------------------------------

_NAME_CHARS = r"[A-Za-z0-9_.@:#+-]"
_ROW = re.compile(r"(tokens|cards) +(\d+)((?: +[wugrk*]\d+)*)")


def whole(word: str, text: str) -> bool:
    """`word` in `text`, not as a part of a longer name or id."""
    return re.search(rf"(?<!{_NAME_CHARS}){re.escape(word)}(?!{_NAME_CHARS})", text) is not None


def player_pieces(text: str) -> list[str]:
    """The players' table of a board drawn in ASCII, cut at its inner frame lines: the header
    (when it has one), then one piece per player."""
    lines = text.splitlines()
    edges = [i for i, line in enumerate(lines) if line.startswith("+")]
    assert len(edges) == 4, text  # the market's top and bottom, then the players'
    pieces: list[list[str]] = [[]]
    for line in lines[edges[2] + 1 : edges[3]]:
        if line.startswith("|-"):
            pieces.append([])
        else:
            pieces[-1].append(line)
    return ["\n".join(piece) for piece in pieces]


def counts(found: re.Match[str]) -> tuple[int, dict[str, int]]:
    return int(found[2]), {part[0]: int(part[1:]) for part in found[3].split()}


def expected(tokens: Tokens, gems: tuple[Gem, ...]) -> tuple[int, dict[str, int]]:
    return tokens.total(), {gem.letter: tokens[gem] for gem in gems if tokens[gem]}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", GAMES)
def test_nothing_is_cut(name: str, width: int) -> None:
    """At every width: no line is wider than the terminal (in cells); the headline names the
    player to move whole; and each player's piece of the table holds the whole name, the exact
    token counts (gold included) and bonuses, the points, every reserved card (each one drawn
    blind marked `(blind)`, whole) and every noble won."""
    text = board(name, width)
    assert max(cell_len(line) for line in text.splitlines()) <= width
    headline = text.split("\nBank", 1)[0]
    current = state(name)
    if not current.finished:
        assert whole(current.player.name, headline) and "to move" in headline
    pieces = player_pieces(text)
    for player in current.players:
        mine = [piece for piece in pieces if whole(player.name, piece)]
        assert len(mine) == 1, (player.name, text)
        piece = mine[0]
        rows = {found[1]: counts(found) for found in _ROW.finditer(piece)}
        assert rows["tokens"] == expected(player.tokens, GEMS), piece
        assert rows["cards"] == expected(player.bonuses, COLOURS), piece
        assert re.search(rf"\| +{player.points} \||\b{player.points} points?\b", piece), piece
        for card in player.reserved:
            line = next(line for line in piece.splitlines() if whole(card, line))
            assert ("(blind)" in line) == (card in player.blind), line
        assert piece.count("(blind)") == len(player.blind)
        assert all(whole(noble, piece) for noble in player.nobles), piece


@pytest.mark.parametrize("width", [50, 60, 72, 80, 90, 100, 120, 140, 160])
def test_lines_fit_every_width(width: int) -> None:
    """Between the snapshots' widths too (and down to 50), every line fits and none ends with a space."""
    for name in GAMES:
        lines = board_text(game(name), width=width).splitlines()
        assert max(cell_len(line) for line in lines) <= width, name
        assert not any(line.endswith(" ") for line in lines), name


@pytest.mark.parametrize(("columns", "width"), [("60", 60), ("100", 100), ("140", 140), ("200", 160)])
def test_show_draws_for_the_terminal_up_to_160_columns(
    monkeypatch: pytest.MonkeyPatch, columns: str, width: int
) -> None:
    """`show` draws the board for $COLUMNS, up to 160 (the widest layout, a table of players with
    names of 32 letters, needs about 120): the long-name game gets its table from 121 columns."""
    from splendor_cli.app.output import width as terminal_width

    monkeypatch.setenv("COLUMNS", columns)
    assert terminal_width() == width
    assert ("| Player " in board("long-name", terminal_width())) == (width > 120)
