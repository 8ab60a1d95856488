"""The `mcts` bot: information-set Monte Carlo tree search (single observer), scored by heuristics.

Each playout first samples what the bot cannot see (hidden.py: deck order, opponents' blind
reserves), then walks the one tree of the bot's information set: at a node, the moves legal in
this sample that were never tried are expanded first, in random order; otherwise the child with
the best UCB1 score among those legal here is followed (each counts how often it was
available). A playout stops `HORIZON` moves below the root, or at the game's end, and scores
every seat: 1 for a win (shared: split), 0 for a loss, else a logistic of the seat's lead in
`heuristics.value` over its best opponent. The move played is the root child visited most.

The budget is a number of playouts (`mcts:400`, default `PLAYOUTS`) or seconds per move
(`mcts:0.5s`); a playout budget makes a game reproducible from its seed, a time budget does not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from ..model import Move, Step
from ..projection import duel
from ..projection.duel import DuelState
from ..projection.rules import decide, evolve, legal_moves
from ..projection.state import GameState
from .heuristics import duel_value, value
from .hidden import determinize

PLAYOUTS = 1000
HORIZON = 4
"""Moves (Duel: steps times three) below the root after which a playout is scored."""
EXPLORE = 0.7
SCALE = 2.0
"""Points of heuristic lead that make a seat's score about 0.73 (logistic)."""

S = TypeVar("S", GameState, DuelState)
M = TypeVar("M", Move, Step)


class _Node(Generic[M]):
    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        """The seat that moves from this node."""
        self.children: dict[M, _Node[M]] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


def _scores(state: GameState | DuelState, rate: Callable[[Any, int], float]) -> list[float]:
    seats = range(len(state.players))
    if state.finished:
        winners = state.winners()
        return [1 / len(winners) if p.name in winners else 0.0 for p in state.players]
    values = [rate(state, i) for i in seats]
    out = []
    for i in seats:
        lead = values[i] - max(values[j] for j in seats if j != i)
        out.append(1 / (1 + math.exp(-lead / SCALE)))
    return out


def search(
    state: S,
    rng: random.Random,
    legal: Callable[[S], list[M]],
    apply: Callable[[S, M, random.Random], S],
    rate: Callable[[S, int], float],
    *,
    playouts: int | None,
    seconds: float | None,
    horizon: int,
) -> M:
    """The move of the player to move in `state` after an ISMCTS of the given budget."""
    seat = state.to_move
    options = legal(state)
    if len(options) == 1:
        return options[0]
    root: _Node[M] = _Node(seat)
    deadline = time.perf_counter() + seconds if seconds else math.inf
    budget = playouts if playouts else (PLAYOUTS if not seconds else 1 << 62)
    done = 0
    while done < budget and (done == 0 or time.perf_counter() < deadline):
        done += 1
        world = determinize(state, seat, rng)
        node, path, depth = root, [root], 0
        while not world.finished and depth < horizon:
            moves = legal(world)
            fresh = [m for m in moves if m not in node.children]
            if fresh:
                move = rng.choice(fresh)
                world = apply(world, move, rng)
                child: _Node[M] = _Node(world.to_move)
                child.available = 1
                node.children[move] = child
                path.append(child)
                break
            best, best_score = moves[0], -math.inf
            for m in moves:
                c = node.children[m]
                c.available += 1
                score = c.total / c.visits + EXPLORE * math.sqrt(math.log(c.available) / c.visits)
                if score > best_score:
                    best, best_score = m, score
            node = node.children[best]
            # the score stored in a child is that of the seat which chose it: its parent's
            world = apply(world, best, rng)
            path.append(node)
            depth += 1
        scores = _scores(world, rate)
        mover = root.seat
        for n in path:
            n.visits += 1
            if n is not root:
                n.total += scores[mover]
            mover = n.seat
    return max(root.children.items(), key=lambda item: item[1].visits)[0]


def _apply(state: GameState, move: Move, rng: random.Random) -> GameState:
    return evolve(state, decide(state, move))


def _duel_apply(state: DuelState, step: Step, rng: random.Random) -> DuelState:
    return duel.evolve(state, duel.decide(state, duel.draw(state, step, rng)))


def base_mcts(
    *, playouts: int | None = None, seconds: float | None = None
) -> Callable[[GameState, random.Random], Move]:
    """An `mcts` bot for the base game with this budget."""

    def bot(state: GameState, rng: random.Random) -> Move:
        return search(state, rng, legal_moves, _apply, value, playouts=playouts, seconds=seconds, horizon=HORIZON)

    return bot


def duel_mcts(
    *, playouts: int | None = None, seconds: float | None = None
) -> Callable[[DuelState, random.Random], Step]:
    """An `mcts` bot for Splendor Duel with this budget."""

    def bot(state: DuelState, rng: random.Random) -> Step:
        step = search(
            state,
            rng,
            duel.legal_steps,
            _duel_apply,
            duel_value,
            playouts=playouts,
            seconds=seconds,
            horizon=3 * HORIZON,
        )
        return duel.draw(state, step, rng)

    return bot
