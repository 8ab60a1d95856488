"""How good a Splendor Duel position looks to one player: the evaluation that `greedy` maximises
and `mcts` scores its search with. Everything here reads only what that player can see.

`value(state, seat)`, in points: points, crowns and the best colour's points (the three
victories), bonuses, tokens, privileges, and the cards within reach (reserved ones included),
worth their points and crowns, discounted for each token still missing (weights shared with
the base game: common/weights.py).

`score(state, seat)`, what `greedy` maximises one step ahead: its own value less the
opponent's (many Duel steps help or hurt the opponent directly); `WIN` or `-WIN` once the game
is won or lost, 0 after a draw.
"""

from __future__ import annotations

from ..common.weights import BONUS, GEM, GOLD, REACH, TARGETS, WIN
from .cards import CARDS
from .state import DuelState

CROWN = 1.2
BEST_COLOUR = 0.6
PEARL = 0.3
PRIVILEGE = 0.25

_COST = {c.id: c.cost.counts for c in CARDS.values()}
_WORTH = {c.id: c.points + CROWN * c.crowns + BONUS * c.bonus_count for c in CARDS.values()}


def _reach(worth: float, cost: tuple[int, ...], bonuses: tuple[int, ...], tokens: tuple[int, ...]) -> float:
    missing = -tokens[5]
    for i in (0, 1, 2, 3, 4, 6):
        c, b, t = cost[i], bonuses[i], tokens[i]
        if c > b + t:
            missing += c - b - t
    return worth if missing <= 0 else worth * REACH**missing


def value(state: DuelState, seat: int) -> float:
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
            _reach(_WORTH[card], _COST[card], bonuses, tokens)
            for row in (*state.pyramid, player.reserved)
            for card in row
            if card is not None and card in _COST  # not a placeholder (a sealed card: nothing to read)
        ),
        reverse=True,
    )
    return score + sum(w * r for w, r in zip(TARGETS, reach))


def score(state: DuelState, seat: int) -> float:
    """Its value less the opponent's; `WIN`, `-WIN` or 0 once the game is over."""
    if state.finished:
        me = state.players[seat].name
        return WIN if state.winner == me else -WIN if state.winner else 0.0
    return value(state, seat) - value(state, 1 - seat)
