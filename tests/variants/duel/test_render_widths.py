"""The Duel's board at the widths of real terminals (60, 80, 100 and 140 columns): snapshots, and
checks that nothing a player reads is cut at any of them (names, token, pearl and gold counts,
privileges, reserved cards and their `(blind)`)."""

from __future__ import annotations

import functools
import random
import re

import attrs
import pytest
from helpers import DUEL, deal_duel
from rich.cells import cell_len

from splendor_cli.model import COLOURS, Gem, Tokens
from splendor_cli.projection import Game
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel.render import board_text
from splendor_cli.variants.duel.state import DuelState

WIDTHS = (60, 80, 100, 140)
PLAYERS = ("christabel", "bartholomew")
LONG = "maximilianalexanderfitzgeraldson"
"""32 letters: the longest name the rule allows."""


def played(players: tuple[str, ...], seed: int, steps: int | None = None) -> Game:
    """Random legal steps (seeded, replenishing draws too), to the end or for `steps` steps."""
    rng = random.Random(seed)
    game = Game(variant=DUEL).apply(deal_duel(players, random.Random(seed)))
    played = 0
    while not game.state.finished and (steps is None or played < steps):
        state = game.state
        options = duel.legal_steps(state)
        event = duel.decide(state, duel.draw(state, options[rng.randrange(len(options))], RandomChance(rng)))
        game = game.apply(attrs.evolve(event, seq=game.seq + 1, parent=""), check=False)
        played += 1
    return game


GAMES = {
    "midgame": lambda: played(PLAYERS, 1, 55),
    "finished": lambda: played(PLAYERS, 25),
    "long-name": lambda: played((PLAYERS[0], LONG), 1, 55),
}


@functools.cache
def game(name: str) -> Game:
    return GAMES[name]()


def state(name: str) -> DuelState:
    result: DuelState = game(name).state
    return result


def board(name: str, width: int) -> str:
    return board_text(game(name), width=width, ascii=True)


def test_the_games_hold_what_a_board_must_show() -> None:
    """Each game has a card reserved blind and a royal card won; one is over with gold in a hand."""
    for name in GAMES:
        players = state(name).players
        assert any(p.blind for p in players), name
        assert any(p.royals for p in players), name
    assert state("finished").finished and not state("midgame").finished
    assert any(p.tokens[Gem.GOLD] for p in state("finished").players)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", GAMES)
def test_board_at_width(name: str, width: int, snapshot) -> None:  # type: ignore[no-untyped-def]
    """The board at each width: the players side by side when they fit whole (80 columns, 100
    with a name of 32 letters), else one under the other; the players' privileges in the top
    table only when it fits them."""
    assert board(name, width) == snapshot


# -- nothing cut ---------------------------------------------------------------------------------

_NAME_CHARS = r"[A-Za-z0-9_.@:#+-]"
_TOKENS = re.compile(r" *(\d+)((?: +[wugrkp*]\d+)*) *")


def whole(word: str, text: str) -> bool:
    """`word` in `text`, not as a part of a longer name or id."""
    return re.search(rf"(?<!{_NAME_CHARS}){re.escape(word)}(?!{_NAME_CHARS})", text) is not None


def players_table(text: str) -> list[str]:
    """The lines of the players' table (the last table of the board, drawn in ASCII)."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("| tokens"))
    top = max(i for i in range(first) if lines[i].startswith("+"))
    return lines[top:]


def cells(table: list[str], label: str) -> list[str]:
    """The values of the rows labelled `label`, in order: both players' (side by side, or one
    under the other)."""
    return [cell for line in table if line.startswith(f"| {label} ") for cell in line.split("|")[2:-1]]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", GAMES)
def test_nothing_is_cut(name: str, width: int) -> None:
    """At every width: no line is wider than the terminal (in cells); the players' table names
    each player whole and gives the exact tokens (pearls and gold included) and privileges, every
    reserved card, and `(blind)` whole for each one drawn blind."""
    text = board(name, width)
    assert max(cell_len(line) for line in text.splitlines()) <= width
    table = players_table(text)
    joined = "\n".join(table)
    players = state(name).players
    assert all(whole(p.name, joined) for p in players), joined
    tokens = [_TOKENS.fullmatch(cell) for cell in cells(table, "tokens")]
    assert len(tokens) == len(players), joined
    for player, found in zip(players, tokens):
        assert found, joined
        gems = (*COLOURS, Gem.PEARL, Gem.GOLD)
        want: Tokens = player.tokens
        assert (int(found[1]), found[2].split()) == (want.total(), [f"{g.letter}{want[g]}" for g in gems if want[g]])
    assert [int(cell) for cell in cells(table, "privileges")] == [p.privileges for p in players]
    for player in players:
        assert all(whole(card, joined) for card in player.reserved), joined
    assert joined.count("(blind)") == sum(len(p.blind) for p in players)


@pytest.mark.parametrize("width", [60, 72, 80, 90, 100, 120, 140, 160])
def test_lines_fit_every_width(width: int) -> None:
    """Between the snapshots' widths too, every line fits and none ends with a space."""
    for name in GAMES:
        lines = board_text(game(name), width=width).splitlines()
        assert max(cell_len(line) for line in lines) <= width, name
        assert not any(line.endswith(" ") for line in lines), name
