"""How good a position looks to one player: the evaluation that `greedy` maximises and `mcts`
scores its search with. Everything here reads only what that player can see.

Base game, `value(state, seat)`, in points:
- the points held;
- each bonus, `BONUS` (a permanent discount, and progress toward nobles);
- each noble still on the table, its points times the square of the share of its requirement
  the bonuses meet (a noble half met is worth a quarter of its points);
- the tokens: `GEM` each, `GOLD` for gold; less `RESERVED` for each reserved card;
- the cards within reach (face up, or reserved by the player): each is worth its points plus
  `BONUS`, discounted by `REACH` for every token still missing to buy it; the three best
  count, with weights `TARGETS`. This is what makes the bot take the tokens it needs and
  return the ones it does not.

Splendor Duel, `duel_value(state, seat)`, in the same spirit: points, crowns and the best
colour's points (the three victories), bonuses, tokens, privileges, and the cards within reach
(reserved ones included), worth their points and crowns.
"""

from __future__ import annotations

from ..cards import CARDS, DUEL_CARDS, NOBLES
from ..projection.duel import DuelState
from ..projection.state import GameState, PlayerState

BONUS = 0.8
GEM = 0.12
GOLD = 0.3
REACH = 0.75
TARGETS = (0.6, 0.25, 0.1)
NOBLE_SHARE = 1.0
RESERVED = 0.4
"""Each reserved card held costs this: a slot taken, and tokens that may end up stuck."""

_COST = {c.id: c.cost.counts[:5] for c in CARDS.values()}
_WORTH = {c.id: c.points + BONUS for c in CARDS.values()}
_REQUIRES = {n.id: (n.requires.counts[:5], sum(n.requires.counts), n.points) for n in NOBLES.values()}


def _missing(cost: tuple[int, ...], have: tuple[int, ...]) -> int:
    """The tokens still missing to pay `cost` (five colours) with `have` (bonuses plus tokens)."""
    c0, c1, c2, c3, c4 = cost
    h0, h1, h2, h3, h4 = have
    # `c > h and c - h` is the shortfall in one colour, or False (0)
    return (
        (c0 > h0 and c0 - h0)
        + (c1 > h1 and c1 - h1)
        + (c2 > h2 and c2 - h2)
        + (c3 > h3 and c3 - h3)
        + (c4 > h4 and c4 - h4)
    )


def value(state: GameState, seat: int) -> float:
    """The worth of player `seat`'s position in points (see the module's docstring)."""
    player = state.players[seat]
    key = (player.bonuses.counts, player.tokens.counts, player.reserved, state.board, state.nobles)
    rest = _VALUES.get(key)
    if rest is None:
        if len(_VALUES) >= _CACHED:
            _VALUES.clear()
        rest = _VALUES[key] = _rest(state, player)
    return player.points + rest


_VALUES: dict[tuple[object, ...], float] = {}
"""`_rest` memoized: searches meet the same holdings before the same table again and again."""
_CACHED = 1 << 18


def _rest(state: GameState, player: PlayerState) -> float:
    """`value` less the points: all that depends on the bonuses, tokens, reserves and the table."""
    bonuses = player.bonuses.counts[:5]
    counts = player.tokens.counts
    tokens, gold = counts[:5], counts[5]
    score = BONUS * sum(bonuses) + GEM * sum(tokens) + GOLD * gold - RESERVED * len(player.reserved)
    for noble in state.nobles:
        requires, total, points = _REQUIRES[noble]
        met = sum(min(r, b) for r, b in zip(requires, bonuses))
        score += NOBLE_SHARE * points * (met / total) ** 2
    have = tuple(b + t for b, t in zip(bonuses, tokens))
    reach = []
    for row in (*state.board, player.reserved):
        for card in row:
            if card is not None:
                missing = _missing(_COST[card], have) - gold
                reach.append(_WORTH[card] if missing <= 0 else _WORTH[card] * REACH**missing)
    reach.sort(reverse=True)
    return score + sum(w * r for w, r in zip(TARGETS, reach))


# -- Splendor Duel ---------------------------------------------------------------------------

CROWN = 1.2
BEST_COLOUR = 0.6
PEARL = 0.3
PRIVILEGE = 0.25

_DUEL_COST = {c.id: c.cost.counts for c in DUEL_CARDS.values()}
_DUEL_WORTH = {c.id: c.points + CROWN * c.crowns + BONUS * c.bonus_count for c in DUEL_CARDS.values()}


def _duel_reach(worth: float, cost: tuple[int, ...], bonuses: tuple[int, ...], tokens: tuple[int, ...]) -> float:
    missing = -tokens[5]
    for i in (0, 1, 2, 3, 4, 6):
        c, b, t = cost[i], bonuses[i], tokens[i]
        if c > b + t:
            missing += c - b - t
    return worth if missing <= 0 else worth * REACH**missing


def duel_value(state: DuelState, seat: int) -> float:
    """The worth of player `seat`'s position in a Duel, in points (see the module's docstring)."""
    player = state.players[seat]
    bonuses, tokens = player.bonuses.counts, player.tokens.counts
    score = (
        player.points
        + CROWN * player.crowns
        + BEST_COLOUR * max(player.colour_points)
        + BONUS * sum(bonuses)
        + GEM * sum(tokens[:5])
        + GOLD * tokens[5]
        + PEARL * tokens[6]
        + PRIVILEGE * player.privileges
    )
    reach = sorted(
        (
            _duel_reach(_DUEL_WORTH[card], _DUEL_COST[card], bonuses, tokens)
            for row in (*state.pyramid, player.reserved)
            for card in row
            if card is not None
        ),
        reverse=True,
    )
    return score + sum(w * r for w, r in zip(TARGETS, reach))
