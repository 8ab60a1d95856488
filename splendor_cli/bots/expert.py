"""The `expert` bot: information-set Monte Carlo tree search, steered by each seat's chance of
winning (`Variant.chances`) and its one-move lookahead.

One tree for the bot's information set. Each iteration first samples what the bot cannot see
(`Variant.hide`: deck order, opponents' blind reserves), then walks down the tree by PUCT among
the moves legal in this sample, to a node not expanded yet, and expands it: every move legal
there is played once (`Variant.play`) and the position after it rated, each seat's chance of
winning (exact once the game is over). Each move becomes a child whose first value is that
rating, and whose prior is the softmax of the ratings, for the seat to move, at `TEMPERATURE`;
the rating of the move best for the seat to move is backed up the path (so that a leaf's value
has looked one move further than the rating alone: a card about to be bought counts).

Walking down, a child's value is its mean, seen from the seat that chose it; the walk follows
the child with the best `value + EXPLORE * prior * sqrt(visits of the parent) / (1 + visits)`,
among all the children or, at three and four players, among the few of best prior (`WIDEN`).
A move legal in this sample but new to a node (a card this sample drew) is rated and added
first. The move played is the root's child visited most (its value breaks ties).

At three and four players (`MODELLED`) the other seats are not searched: each plays the move
`greedy` would play there (the best by `Variant.score`, one move ahead; each move scored once,
in the sample in which the node first met it), and the rating backed up from a leaf where
another seat moves is that of greedy's move. The tree then holds the bot's own moves, each
followed by the others' replies in the model.

The budget is iterations (`expert:400`; by default the game's own for the table size,
`Variant.expert_iterations`: base Splendor 800 at two players; else `ITERATIONS`, 400) or
seconds a move (`expert:1s`);
an iteration budget makes a game reproducible from its seed, a time budget does not.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections.abc import Hashable
from typing import Any

from ..projection.seeding import RandomChance
from ..projection.variant import AnyVariant
from .bot import Bot
from .tree import back_up

ITERATIONS = 400
"""The default budget, where the game sets none for its table size (`Variant.expert_iterations`:
base Splendor, 800 at two players)."""
EXPLORE = 1.0
TEMPERATURE = 0.05
"""Chances of winning this far apart make a prior e (2.7) times likelier."""
SURE = 0.99
"""A chance of winning from which the bot plays on as `greedy` does (see `expert_bot`)."""
WIDEN = {3: 0.5, 4: 0.5}
"""Progressive widening, by table size: a node visited n times offers only the
`1 + WIDEN * sqrt(n)` children of best prior (at other sizes, all). At three and four players
the moves' chances differ little, and the search would spread over all of them and seldom
reach the bot's next move; narrowed, it plans its next purchases."""
MODELLED = frozenset({3, 4})
"""Table sizes at which the search models the other seats as playing `greedy`'s move (the move
after which greedy's score of the seat is best, each move scored in the sample in which its node
first met it) instead of searching their replies. With three opponents a search over every
seat's replies spends its iterations on their moves and seldom reaches the bot's own next one;
modelled, the tree holds the bot's own moves, each followed by the others' likeliest replies,
and plans two and three purchases ahead."""
RATINGS = 40
"""A budget of n iterations also ends once n * RATINGS positions were rated: where every move
has a hundred variants (tokens to return), an iteration costs more; a move's time stays bounded."""


class _Node:
    __slots__ = ("children", "prior", "seat", "total", "visits")

    def __init__(self, seat: int, value: float, prior: float) -> None:
        self.seat = seat
        """The seat that moves from this node."""
        self.children: dict[Hashable, _Node] | None = None
        """None until the node is expanded."""
        self.prior = prior
        """The move's prior for PUCT; below a seat the search models (`MODELLED`), greedy's score."""
        self.visits = 1
        self.total = value
        """The sum of the values seen below, for the seat that chose the move to this node."""


def search(
    variant: AnyVariant, state: Any, rng: random.Random, *, iterations: int | None, seconds: float | None
) -> Any:
    """The move (undrawn) of the player to move in `state` after the search's budget."""
    options = variant.legal_moves(state)
    if len(options) == 1:
        return options[0]
    return ranked(grow(variant, state, rng, iterations=iterations, seconds=seconds))[0][0]


def ranked(children: dict[Hashable, Any]) -> list[tuple[Any, int, float]]:
    """The root's moves as the search ends, best first: each move (undrawn), its visits and its
    value, the mean of the chances of winning backed up through it for the seat to move at the
    root (`Variant.chances`, averaged over the samples and replies the search walked). The
    first is the move played: the most visited (its value breaks ties)."""
    rows = [(move, node.visits, node.total / node.visits) for move, node in children.items()]
    return sorted(rows, key=lambda row: (row[1], row[2]), reverse=True)


def grow(
    variant: AnyVariant, state: Any, rng: random.Random, *, iterations: int | None, seconds: float | None
) -> dict[Hashable, Any]:
    """The root's children after the search's budget (at least two legal moves), by move."""
    seat = state.to_move
    chance = RandomChance(rng)
    chances = variant.chances
    play = variant.play
    draw = variant.draw
    legal = variant.legal_moves
    hide = variant.hide
    drawing = bool(variant.drawing_types)
    widen = WIDEN.get(len(state.players))
    model = len(state.players) in MODELLED
    greedy_score = variant.score

    def rate(node: _Node, world: Any, moves: Any) -> list[float] | None:
        """Add the moves new to `node` as its children, rated; the rating of the move its seat
        would choose among them (None when no move was new)."""
        children = node.children
        assert children is not None
        mover = node.seat
        fresh = [(m, play(world, draw(world, m, chance) if drawing else m)) for m in moves if m not in children]
        if not fresh:
            return None
        if model and mover != seat:
            # greedy's scores are the priors; a child's value is never read (the walk follows the
            # prior here), so only the move greedy plays is rated
            keys = [greedy_score(after, mover) for _, after in fresh]
            for (m, after), key in zip(fresh, keys):
                children[m] = _Node(after.to_move, 0.0, key)
            return chances(fresh[keys.index(max(keys))][1])
        ratings = [chances(after) for _, after in fresh]
        top = max(r[mover] for r in ratings)
        weights = [math.exp((r[mover] - top) / TEMPERATURE) for r in ratings]
        scale = 1 / sum(weights)
        # a node expanded once keeps its priors; later arrivals share with them
        share = len(fresh) / (len(children) + len(fresh))
        for (m, after), r, w in zip(fresh, ratings, weights):
            children[m] = _Node(after.to_move, r[mover], w * scale * share)
        return next(r for r in ratings if r[mover] == top)

    def choose(node: _Node, moves: Any) -> Any:
        """The move the walk follows from `node` among `moves` (all children already): by PUCT,
        or for a modelled seat greedy's move."""
        children = node.children
        assert children is not None
        if model and node.seat != seat:
            return max(moves, key=lambda m: children[m].prior)
        lift = EXPLORE * math.sqrt(node.visits)
        best, best_score = moves[0], -math.inf
        considered = moves
        if widen:
            width = 1 + int(widen * math.sqrt(node.visits))
            if width < len(moves):
                considered = heapq.nlargest(width, moves, key=lambda m: children[m].prior)
        for m in considered:
            c = children[m]
            score = c.total / c.visits + lift * c.prior / (1 + c.visits)
            if score > best_score:
                best, best_score = m, score
        return best

    root = _Node(seat, 0.0, 1.0)
    root.children = {}
    deadline = time.perf_counter() + seconds if seconds else math.inf
    budget = iterations if iterations else (default_budget(variant, state) if not seconds else 1 << 62)
    rated_cap = budget * RATINGS
    rated = done = 0
    while done < budget and rated < rated_cap and (done == 0 or time.perf_counter() < deadline):
        done += 1
        world = hide(state, seat, rng)
        node, path = root, [root]
        result: list[float] | None = None
        while not world.finished:
            moves = legal(world)
            if node.children is None:  # a leaf: expand it and rate its moves
                node.children = {}
                rated += len(moves)
                result = rate(node, world, moves)
                break
            children = node.children
            new = [m for m in moves if m not in children]
            if new:
                rated += len(new)
                rate(node, world, new)
            best = choose(node, moves)
            node = children[best]
            world = play(world, draw(world, best, chance) if drawing else best)
            path.append(node)
        if result is None:
            result = chances(world)
        back_up(path, result)
    assert root.children
    return root.children


def default_budget(variant: AnyVariant, state: Any) -> int:
    """The iterations a move when the spec names no budget (`expert`): the game's own for this
    table size (`Variant.expert_iterations`), else `ITERATIONS`."""
    return variant.expert_iterations.get(len(state.players), ITERATIONS)


def expert_bot(variant: AnyVariant, *, iterations: int | None = None, seconds: float | None = None) -> Bot:
    """An `expert` bot for games of `variant` with this budget (default `default_budget`).

    A position the bot is `SURE` to win, by its evaluation, is played as `greedy` plays: there
    every move looks as good as won (the chances saturate), so the search would not tell the moves
    that get nearer to the end from those that do not; greedy's lookahead counts the points."""

    def bot(state: Any, rng: random.Random) -> Any:
        if variant.chances(state)[state.to_move] >= SURE:
            from .greedy import best, score_moves

            return best(score_moves(variant, state, rng), rng)
        move = search(variant, state, rng, iterations=iterations, seconds=seconds)
        return variant.draw(state, move, RandomChance(rng))

    return bot
