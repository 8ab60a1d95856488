"""Each seat's chance of winning a Splendor position: the evaluation the `expert` bot searches by.

A conditional-logit model (a softmax over the seats of one linear score each), at any table
size: seat i's score is `WEIGHTS[players] · features(state, i)`, and its chance is
`exp(score_i) / sum_j exp(score_j)`. At two players this is a logistic of the difference.

The features read only what every player sees (points, cards, tokens, reserves, the face-up
cards and the nobles) and the seat's place in the round; the reserved cards an opponent took
blind are whatever the bot's sample (`Variant.hide`) says they are. The weights were fitted by
`bench/train_value.py` to the outcomes of self-play games (its docstring says how), and are
printed by it in the form below.

At three and four players (`LEAD`), half of each chance comes from `greedy`'s heuristic instead.
"""

from __future__ import annotations

import math

from ..common.chances import leads
from ..common.weights import BONUS, GEM, GOLD, REACH, TARGETS
from .cards import CARDS
from .heuristics import COST, NOBLE_SHARE, REQUIRES, RESERVED, WORTH
from .state import WINNING_POINTS, GameState, PlayerState

NAMES = (
    "points",
    "points_sq",
    "cards",
    "spread",
    "tokens",
    "gold",
    "reserved",
    "nobles",
    "reach",
    "buy_points",
    "buy_count",
    "engine_late",
    "to_move",
    "next",
    "turn_left",
)
"""The features of a seat, in the order of the weights."""

MANY = (
    0.2840,  # points
    0.1867,  # points_sq
    1.0531,  # cards
    -0.0930,  # spread
    0.0510,  # tokens
    -0.1964,  # gold
    -0.0636,  # reserved
    0.3491,  # nobles
    0.6439,  # reach
    0.0385,  # buy_points
    0.0139,  # buy_count
    -1.1518,  # engine_late
    0.3209,  # to_move
    0.1582,  # next
    -0.8619,  # turn_left
)
"""Fitted by bench/train_value.py to 4,000 games of greedy self-play at 2, 3 and 4 players
(`--players 2,3,4`), in `NAMES` order: the weights of 3- and 4-player tables."""
TWO = MANY
"""The weights of 2-player tables."""
WEIGHTS = {2: TWO, 3: MANY, 4: MANY}
"""The weights by table size."""
LEAD = {3: 0.5, 4: 0.5}
"""By table size, the share of the chances that comes from `greedy`'s heuristic instead: its
leads (`chances.from_lead` of `heuristics.value`), made to sum to 1. The model alone counts a
card a seat can afford nearly as if it were bought, so at three and four players, where the
search seldom reaches the seat's next move, it would put off buying; the heuristic counts a card
bought well above one within reach."""

_POINTS = {c.id: c.points for c in CARDS.values()}


def _holdings(player: PlayerState, state: GameState) -> tuple[float, ...]:
    """The features that depend on the seat's holdings and the table, not on the turn order:
    cards, spread, tokens, gold, reserved, nobles, reach, buy_points, buy_count. `nobles` and
    `reach` are terms of `greedy`'s heuristic (`heuristics.value`), so that `_held` has the
    heuristic from them."""
    bonuses = player.bonuses.counts[:5]
    counts = player.tokens.counts
    b0, b1, b2, b3, b4 = bonuses
    t0, t1, t2, t3, t4, gold = counts[:6]
    h0, h1, h2, h3, h4 = b0 + t0, b1 + t1, b2 + t2, b3 + t3, b4 + t4
    nobles = 0.0
    for noble in state.nobles:
        (r0, r1, r2, r3, r4), total, points = REQUIRES[noble]
        met = min(r0, b0) + min(r1, b1) + min(r2, b2) + min(r3, b3) + min(r4, b4)
        nobles += points * (met / total) ** 2
    reach: list[float] = []
    buy_points = buy_count = 0
    for row in (*state.board, player.reserved):
        for card in row:
            if card is None or card not in COST:  # an empty slot, or a sealed card nobody has seen
                continue
            cost = COST[card]
            c0, c1, c2, c3, c4 = cost
            # `c > h and c - h` is the shortfall in one colour, or False (0)
            missing = (
                (c0 > h0 and c0 - h0)
                + (c1 > h1 and c1 - h1)
                + (c2 > h2 and c2 - h2)
                + (c3 > h3 and c3 - h3)
                + (c4 > h4 and c4 - h4)
                - gold
            )
            if missing <= 0:
                buy_count += 1
                if _POINTS[card] > buy_points:
                    buy_points = _POINTS[card]
                reach.append(WORTH[card])
            else:
                reach.append(WORTH[card] * REACH**missing)
    reach.sort(reverse=True)
    return (
        b0 + b1 + b2 + b3 + b4,
        min(b0, 3) + min(b1, 3) + min(b2, 3) + min(b3, 3) + min(b4, 3),
        t0 + t1 + t2 + t3 + t4,
        gold,
        len(player.reserved),
        nobles,
        sum(w * r for w, r in zip(TARGETS, reach)),
        buy_points,
        min(buy_count, 3),
    )


def features(state: GameState, seat: int) -> tuple[float, ...]:
    """The features of `seat` in `state`, in `NAMES` order."""
    player = state.players[seat]
    cards, spread, tokens, gold, reserved, nobles, reach, buy_points, buy_count = _holdings(player, state)
    ahead = (seat - state.to_move) % len(state.players)
    lead = max(p.points for p in state.players) / WINNING_POINTS
    return (
        player.points,
        player.points * player.points / WINNING_POINTS,
        cards,
        spread,
        tokens,
        gold,
        reserved,
        nobles,
        reach,
        buy_points,
        buy_count,
        cards * lead,
        ahead == 0,
        ahead == 1,
        state.last_round and seat >= state.to_move,
    )


_PARTS: dict[tuple[object, ...], tuple[float, float]] = {}
"""`_held` memoized (the model's score of the holdings, the heuristic's value less the points):
a search meets the same holdings before the same table again and again."""
_CACHED = 1 << 18


def _held(player: PlayerState, state: GameState, n: int) -> tuple[float, float]:
    """The score of the seat's holdings (`_holdings` weighted), and `heuristics.value` less the
    points, which is made of the same terms."""
    key = (player.bonuses.counts, player.tokens.counts, player.reserved, state.board, state.nobles, n)
    held = _PARTS.get(key)
    if held is None:
        if len(_PARTS) >= _CACHED:
            _PARTS.clear()
        w0, w1, w2, w3, w4, w5, w6, w7, w8 = WEIGHTS[n][2:11]
        x0, x1, x2, x3, x4, x5, x6, x7, x8 = _holdings(player, state)
        part = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3 + w4 * x4 + w5 * x5 + w6 * x6 + w7 * x7 + w8 * x8
        rest = BONUS * x0 + GEM * x2 + GOLD * x3 - RESERVED * x4 + NOBLE_SHARE * x5 + x6
        held = _PARTS[key] = (part, rest)
    return held


def chances(state: GameState) -> list[float]:
    """Every seat's chance of winning: exact once the game is over (a shared win split)."""
    players = state.players
    if state.finished:
        winners = state.winners()
        return [1 / len(winners) if p.name in winners else 0.0 for p in players]
    n, to_move, last_round = len(players), state.to_move, state.last_round
    weights = WEIGHTS[n]
    w_points, w_square, w_late, w_now, w_next, w_left = (weights[i] for i in (0, 1, 11, 12, 13, 14))
    lead = max(p.points for p in players) / WINNING_POINTS
    share = LEAD.get(n)
    scores = []
    values = []  # heuristics.value of each seat, read only for a share of the heuristic
    for seat, player in enumerate(players):
        points = player.points
        ahead = (seat - to_move) % n
        part, rest = _held(player, state, n)
        scores.append(
            part
            + w_points * points
            + w_square * points * points / WINNING_POINTS
            + w_late * sum(player.bonuses.counts) * lead
            + (w_now if ahead == 0 else w_next if ahead == 1 else 0.0)
            + (w_left if last_round and seat >= to_move else 0.0)
        )
        if share:
            values.append(points + rest)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    if not share:
        return [e / total for e in exps]
    heuristic = leads(values)  # as `chances.from_lead` reads `heuristics.value`
    scale = share / sum(heuristic)
    return [(1 - share) * e / total + scale * h for e, h in zip(exps, heuristic)]
