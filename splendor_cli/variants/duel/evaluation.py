"""Each player's chance of winning a Splendor Duel position: the evaluation the `expert` bot
searches by.

A logistic model: each player's score is `WEIGHTS · features(state, seat)`, and a player's chance
is the logistic of their score less the opponent's (the softmax of the two). The features read
what both players see (points, crowns, the best colour's points and how near each is to its
victory, bonuses, tokens, privileges, the cards within reach) and who is to move; the cards an
opponent reserved blind are whatever the bot's sample (`Variant.hide`) says they are. The
weights were fitted by `bench/train_value.py --variant duel` to the outcomes of self-play games,
and are printed by it in the form below.
"""

from __future__ import annotations

import math

from .cards import CARDS
from .state import WIN_COLOUR, WIN_CROWNS, WIN_POINTS, DuelPlayer, DuelState

NAMES = (
    "points",
    "points_near",
    "crowns",
    "crowns_near",
    "colour",
    "colour_near",
    "bonuses",
    "gems",
    "gold",
    "pearls",
    "privileges",
    "reserved",
    "reach",
    "buy_count",
    "to_move",
)
"""The features of a seat, in the order of the weights."""

TWO = (
    0.0868,  # points
    3.8354,  # points_near
    0.3922,  # crowns
    -4.0807,  # crowns_near
    0.0306,  # colour
    0.6211,  # colour_near
    0.3550,  # bonuses
    -0.0294,  # gems
    -0.1825,  # gold
    0.0210,  # pearls
    0.0662,  # privileges
    0.0801,  # reserved
    0.2162,  # reach
    0.1318,  # buy_count
    0.0833,  # to_move
)
"""Fitted by bench/train_value.py --variant duel to 2,000 games of greedy self-play (seed 1), in
`NAMES` order."""
WEIGHTS = {2: TWO}
"""The weights by table size (a Duel has two players)."""

_COST = {c.id: c.cost.counts for c in CARDS.values()}
_WORTH = {c.id: c.points + c.crowns + 0.8 * c.bonus_count for c in CARDS.values()}
_TARGETS = (0.6, 0.25, 0.1)
_REACH = 0.75


def _near(value: int, goal: int) -> float:
    """How near `value` is to `goal`, squared: 0 at none, 1 at the goal."""
    share = min(value, goal) / goal
    return share * share


def _reach(player: DuelPlayer, state: DuelState) -> tuple[float, int]:
    """The three cards nearest to affordable, weighted; and how many are affordable now."""
    bonuses, tokens = player.bonuses.counts, player.tokens.counts
    reach: list[float] = []
    count = 0
    for row in (*state.pyramid, player.reserved):
        for card in row:
            if card is None or card not in _COST:  # an empty slot, or a sealed card nobody has seen
                continue
            cost = _COST[card]
            missing = -tokens[5]
            for i in (0, 1, 2, 3, 4, 6):
                c, b, t = cost[i], bonuses[i], tokens[i]
                if c > b + t:
                    missing += c - b - t
            if missing <= 0:
                count += 1
                reach.append(_WORTH[card])
            else:
                reach.append(_WORTH[card] * _REACH**missing)
    reach.sort(reverse=True)
    return sum(w * r for w, r in zip(_TARGETS, reach)), count


def features(state: DuelState, seat: int) -> tuple[float, ...]:
    """The features of `seat` in `state`, in `NAMES` order."""
    player = state.players[seat]
    tokens = player.tokens.counts
    colour = max(player.colour_points)
    reach, buy_count = _reach(player, state)
    return (
        player.points,
        _near(player.points, WIN_POINTS),
        player.crowns,
        _near(player.crowns, WIN_CROWNS),
        colour,
        _near(colour, WIN_COLOUR),
        sum(player.bonuses.counts),
        sum(tokens[:5]),
        tokens[5],
        tokens[6],
        player.privileges,
        len(player.reserved),
        reach,
        min(buy_count, 3),
        seat == state.to_move,
    )


def chances(state: DuelState) -> list[float]:
    """Both players' chances of winning: exact once the game is over (a draw: a half each)."""
    if state.finished:
        if not state.winner:
            return [0.5, 0.5]
        return [1.0 if p.name == state.winner else 0.0 for p in state.players]
    weights = WEIGHTS[2]
    lead = sum(w * (a - b) for w, a, b in zip(weights, features(state, 0), features(state, 1)))
    first = 1 / (1 + math.exp(-lead)) if lead > -700 else 0.0
    return [first, 1 - first]
