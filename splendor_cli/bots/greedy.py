"""The `greedy` bot: the legal move after which its own position looks best (heuristics.py).

It looks one move ahead, never at the opponents' replies: for each legal turn (in a Duel, each
legal next step) it plays it on a determinized copy of the table (hidden.py) and scores the
result with `heuristics.value` (in a Duel, its own `duel_value` less the opponent's, since
many Duel steps help or hurt the opponent directly). A move that wins outright is always
taken; ties are broken by the random source.
"""

from __future__ import annotations

import random
from typing import TypeVar

from ..model import Move, Step
from ..projection import duel
from ..projection.duel import DuelState
from ..projection.rules import decide, evolve, legal_moves
from ..projection.state import GameState
from .heuristics import duel_value, value
from .hidden import determinize

WIN = 1000.0


M = TypeVar("M", Move, Step)


def _best(scored: list[tuple[float, M]], rng: random.Random) -> M:
    """The move with the top score; among equals, one chosen by `rng`."""
    top = max(score for score, _ in scored)
    best = [move for score, move in scored if score >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


def score_moves(state: GameState, rng: random.Random) -> list[tuple[float, Move]]:
    """Every legal turn of the player to move, with the score greedy gives it."""
    seat = state.to_move
    world = determinize(state, seat, rng)
    me = state.player.name
    out = []
    for move in legal_moves(world):
        after = evolve(world, decide(world, move))
        score = value(after, seat)
        if after.finished and me in after.winners():
            score += WIN / len(after.winners())
        out.append((score, move))
    return out


def greedy_bot(state: GameState, rng: random.Random) -> Move:
    """The legal turn with the best score (see the module's docstring)."""
    return _best(score_moves(state, rng), rng)


def score_steps(state: DuelState, rng: random.Random) -> list[tuple[float, Step]]:
    """Every legal next step of the player to move (a replenish with its draw), with its score."""
    seat = state.to_move
    world = determinize(state, seat, rng)
    out = []
    for option in duel.legal_steps(world):
        step = duel.draw(world, option, rng)
        after = duel.evolve(world, duel.decide(world, step))
        if after.finished:
            score = WIN if after.winner == state.player.name else -WIN if after.winner else 0.0
        else:
            score = duel_value(after, seat) - duel_value(after, 1 - seat)
        out.append((score, step))
    return out


def greedy_duel_bot(state: DuelState, rng: random.Random) -> Step:
    """The legal next step with the best score (see the module's docstring)."""
    return _best(score_steps(state, rng), rng)
