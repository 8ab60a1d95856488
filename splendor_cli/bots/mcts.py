"""The `mcts` bot: information-set Monte Carlo tree search (single observer), guided and scored
by the heuristics that `greedy` plays by.

Every seat is scored in [0, 1]: 1 for a win (shared: split), 0 for a loss, else a logistic of
the seat's lead in the game's heuristic `Variant.value` over its best opponent.

Each playout first samples what the bot cannot see (`Variant.hide`: deck order, opponents'
blind reserves), then walks down the one tree of the bot's information set to a node it has not
expanded yet, and expands it: every move legal there is played once and scored, each becomes a
child whose first score is that score, and the scores of the move best for the seat to move
there are backed up the path. So the tree's leaves carry a one-move lookahead, as `greedy`
does, and the search reads the replies to them.

Walking down, a node visited n times offers the `1 + WIDEN * sqrt(n)` children with the best
first scores among the moves legal in this sample (a move legal here but new to the node, such
as buying a card this sample drew, is scored and added first); of those it follows the best by
UCB1, each child counting how often it was available. A playout also stops at the game's end
and `HORIZON` moves below the root. The move played is the root child visited most.

The budget is a number of playouts (`mcts:400`, default `PLAYOUTS`) or seconds per move
(`mcts:0.5s`); a playout budget makes a game reproducible from its seed, a time budget does not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from ..projection.seeding import RandomChance
from ..projection.variant import AnyVariant, State
from ..variants.common.chances import from_lead as _scores
from .bot import Bot
from .tree import back_up

PLAYOUTS = 300
POSITIONS = 30
"""A budget of n playouts also ends once n * POSITIONS positions were scored: where every move
has a hundred variants (tokens to return), a playout costs more, and a move's time stays bounded."""
EXPLORE = 0.3
WIDEN = 0.5
"""Children considered at a node visited n times: the 1 + WIDEN * sqrt(n) best by their first score."""
HORIZON = 12
"""Moves (Duel: steps) below the root past which a playout stops and scores the seats where it is."""

S = TypeVar("S", bound=State)
M = TypeVar("M", bound=Hashable)


class _Node(Generic[M]):
    __slots__ = ("available", "children", "prior", "seat", "total", "visits")

    def __init__(self, seat: int, prior: float) -> None:
        self.seat = seat
        """The seat that moves from this node."""
        self.children: dict[M, _Node[M]] | None = None
        """None until the node is expanded."""
        self.prior = prior
        """The score of the move to this node when first seen, for the seat that chose it."""
        self.visits = 1
        self.total = prior
        self.available = 1


def search(
    state: S,
    rng: random.Random,
    legal: Callable[[S], Sequence[M]],
    apply: Callable[[S, M], S],
    rate: Callable[[S, int], float],
    hide: Callable[[S, int, random.Random], S],
    *,
    playouts: int | None,
    seconds: float | None,
) -> M:
    """The move of the player to move in `state` after an ISMCTS of the given budget."""
    seat = state.to_move
    options = legal(state)
    if len(options) == 1:
        return options[0]
    root: _Node[M] = _Node(seat, 0.0)
    deadline = time.perf_counter() + seconds if seconds else math.inf
    budget = playouts if playouts else (PLAYOUTS if not seconds else 1 << 62)
    cap = budget * POSITIONS
    done = scored = 0

    def grow(node: _Node[M], world: S, move: M) -> list[float]:
        """Play `move` in `world`, add it as a child of `node` with its score, return every seat's."""
        after = apply(world, move)
        scores = _scores(after, rate)
        assert node.children is not None
        node.children[move] = _Node(after.to_move, scores[node.seat])
        return scores

    while done < budget and scored < cap and (done == 0 or time.perf_counter() < deadline):
        done += 1
        world = hide(state, seat, rng)
        node, path = root, [root]
        while node.children is not None and not world.finished and len(path) <= HORIZON:
            moves = legal(world)
            children = node.children
            for m in moves:
                if m not in children:
                    scored += 1
                    grow(node, world, m)
            ranked = sorted((children[m].prior, i) for i, m in enumerate(moves))
            width = 1 + int(WIDEN * math.sqrt(node.visits))
            best, best_score = moves[0], -math.inf
            for _, i in ranked[-width:]:
                m = moves[i]
                c = children[m]
                c.available += 1
                score = c.total / c.visits + EXPLORE * math.sqrt(math.log(c.available) / c.visits)
                if score > best_score:
                    best, best_score = m, score
            node = children[best]
            world = apply(world, best)
            path.append(node)
        if world.finished or len(path) > HORIZON:
            result = _scores(world, rate)
        else:
            # expand: score every move from here, and back up the best one's scores
            node.children = {}
            result, top = _scores(world, rate), -math.inf
            for m in legal(world):
                scored += 1
                scores = grow(node, world, m)
                if scores[node.seat] > top:
                    result, top = scores, scores[node.seat]
        back_up(path, result)
    assert root.children
    return max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))[0]


def mcts_bot(variant: AnyVariant, *, playouts: int | None = None, seconds: float | None = None) -> Bot:
    """An `mcts` bot for games of `variant` with this budget (default `PLAYOUTS` playouts)."""

    def bot(state: Any, rng: random.Random) -> Any:
        chance = RandomChance(rng)

        def apply(world: Any, move: Any) -> Any:
            return variant.play(world, variant.draw(world, move, chance))

        move = search(
            state, rng, variant.legal_moves, apply, variant.value, variant.hide, playouts=playouts, seconds=seconds
        )
        return variant.draw(state, move, chance)

    return bot
