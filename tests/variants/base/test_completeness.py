"""The legal-move list is exactly what `decide` accepts: nothing illegal listed, nothing legal missing."""

from __future__ import annotations

import itertools

import attrs
import pytest
from helpers import random_game

from splendor_cli.errors import AmbiguousMoveError, IllegalMoveError
from splendor_cli.model import EMPTY, GEMS, Tokens
from splendor_cli.variants.base.cards import NOBLES
from splendor_cli.variants.base.rules import Move, decide, legal_moves, return_choices
from splendor_cli.variants.base.state import GameState

_TAKES = [Tokens.from_gems(c) for n in (1, 2, 3) for c in itertools.combinations_with_replacement(GEMS, n)]


def _hand_after(state: GameState, move: Move) -> Tokens:
    tokens = state.player.tokens
    if move.action == "take":
        return tokens + move.gems
    if move.action == "reserve" and state.bank[GEMS[5]]:
        return tokens + Tokens.of(gold=1)
    return tokens


def candidates(state: GameState) -> list[Move]:
    """Every move worth trying here: all takes (gold included), every card and deck, pass,
    each with every return that could end the turn at 10 (and none), and every noble (and none)."""
    player = state.player
    cards = sorted({c for row in state.board for c in row if c} | set(player.reserved) | {"1-01", "2-01", "3-01"})
    actions = [Move(action="take", gems=gems) for gems in _TAKES]
    actions += [Move(action="reserve", card=c) for c in cards] + [Move(action="reserve", deck=d) for d in (1, 2, 3)]
    actions += [Move(action="buy", card=c) for c in cards] + [Move(action="pass")]
    moves = []
    for action in actions:
        returns = {EMPTY, *return_choices(_hand_after(state, action))}
        for returned in returns:
            for noble in ("", *NOBLES):
                moves.append(attrs.evolve(action, returned=returned, noble=noble))
    return moves


def accepted(state: GameState, move: Move) -> bool:
    try:
        decide(state, move)
    except (IllegalMoveError, AmbiguousMoveError, ValueError):
        return False
    return True


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 2)])
def test_listed_moves_are_exactly_the_accepted_ones(seed: int, players: int) -> None:
    """At positions along random games, the set of candidate moves `decide` accepts equals `legal_moves`."""
    game = random_game(seed, players=players)
    checked = 0
    for state in game.states[:: max(1, len(game.states) // 8)]:
        if state.finished:
            continue
        listed = set(legal_moves(state))
        accepted_here = {m for m in candidates(state) if accepted(state, m)}
        assert accepted_here == listed, (state.turn, accepted_here ^ listed)
        checked += 1
    assert checked >= 6
