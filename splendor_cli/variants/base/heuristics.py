"""How good a Splendor position looks to one player: the evaluation that `greedy` maximises and
`mcts` scores its search with. Everything here reads only what that player can see.

`value(state, seat)`, in points:
- the points held;
- each bonus, `BONUS` (a permanent discount, and progress toward nobles);
- each noble still on the table, its points times the square of the share of its requirement
  the bonuses meet (a noble half met is worth a quarter of its points);
- the tokens: `GEM` each, `GOLD` for gold; less `RESERVED` for each reserved card;
- the cards within reach (face up, or reserved by the player): each is worth its points plus
  `BONUS`, discounted by `REACH` for every token still missing to buy it; the three best
  count, with weights `TARGETS`. This is what makes the bot take the tokens it needs and
  return the ones it does not.

`score(state, seat)`, what `greedy` maximises one move ahead: the value, plus `WIN` (shared
among the winners) once the game is won.
"""

from __future__ import annotations

from ..common.weights import BONUS, GEM, GOLD, REACH, TARGETS, WIN
from .cards import CARDS, NOBLES
from .state import GameState, PlayerState

NOBLE_SHARE = 1.0
RESERVED = 0.4
"""Each reserved card held costs this: a slot taken, and tokens that may end up stuck."""

COST = {c.id: c.cost.counts[:5] for c in CARDS.values()}
"""Each card's cost in the five colours."""
WORTH = {c.id: c.points + BONUS for c in CARDS.values()}
"""Each card's worth once bought: its points and its bonus."""
REQUIRES = {n.id: (n.requires.counts[:5], sum(n.requires.counts), n.points) for n in NOBLES.values()}
"""Each noble's requirement in the five colours, its sum and the noble's points."""


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
        requires, total, points = REQUIRES[noble]
        met = sum(min(r, b) for r, b in zip(requires, bonuses))
        score += NOBLE_SHARE * points * (met / total) ** 2
    have = tuple(b + t for b, t in zip(bonuses, tokens))
    reach = []
    for row in (*state.board, player.reserved):
        for card in row:
            if card is not None and card in COST:  # not a placeholder (a sealed card: nothing to read)
                missing = _missing(COST[card], have) - gold
                reach.append(WORTH[card] if missing <= 0 else WORTH[card] * REACH**missing)
    reach.sort(reverse=True)
    return score + sum(w * r for w, r in zip(TARGETS, reach))


def score(state: GameState, seat: int) -> float:
    """`value`, and `WIN` (shared among the winners) once `seat` has won."""
    points = value(state, seat)
    if state.finished:
        winners = state.winners()
        if state.players[seat].name in winners:
            points += WIN / len(winners)
    return points
