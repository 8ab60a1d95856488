"""Each seat's chance of winning a Splendor position: the evaluation the `expert` bot searches by.

A conditional-logit model (a softmax over the seats of one linear score each), at any table
size: seat i's score is `linear · features(state, i)`, plus, for a model fitted with phase
weights, `lead * phase · features(state, i)` (`lead`: the best seat's points over 15, so the
weights move as the game goes on); its chance is `exp(score_i) / sum_j exp(score_j)`. At two
players this is a logistic of the difference.

The features read only what every player sees (points, cards, tokens, reserves, the face-up
cards and the nobles) and the seat's place in the round; the reserved cards an opponent took
blind are whatever the bot's sample (`Variant.hide`) says they are. The weights are data
(`data/evaluation.toml`, one model per table size), written by `bench/train.py` from the
outcomes of the bots' own games, generation after generation (docs/performance.md).

A model's `share` of each chance comes from `greedy`'s heuristic instead (at three and four
players, half).
"""

from __future__ import annotations

import math
from collections.abc import Callable

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

MODELS = "data/evaluation.toml"
"""The fitted weights, by table size, in the package (written by `bench/train.py`; each set says
what it was fitted to)."""


class Model:
    """A fitted evaluation for one table size: seat i's score is `linear · x_i + lead * phase · x_i`
    (x_i its `features`, `lead` the best seat's points over `WINNING_POINTS`: the weights move as
    the game goes on), and its chance the softmax of the scores; blended, when `share` is not 0,
    with that share of `greedy`'s heuristic leads (`chances.from_lead` of `heuristics.value`)."""

    __slots__ = ("inline", "late", "linear", "phase", "share")

    def __init__(self, linear: tuple[float, ...], phase: tuple[float, ...] | None = None, share: float = 0.0) -> None:
        if len(linear) != len(NAMES) or (phase is not None and len(phase) != len(NAMES)):
            raise ValueError(f"a model has {len(NAMES)} weights ({', '.join(NAMES)})")
        if not 0 <= share <= 1:
            raise ValueError("a model's share of the heuristic is between 0 and 1")
        self.linear = tuple(float(w) for w in linear)
        self.phase = tuple(float(w) for w in phase) if phase is not None and any(phase) else None
        self.share = float(share)
        inline = (0, 1, 11, 12, 13, 14)  # the weights `chances` applies itself (the rest: `_holdings`)
        self.inline = tuple(self.linear[i] for i in inline)
        self.late = tuple(self.phase[i] for i in inline) if self.phase else None


def read_models(text: str) -> dict[int, Model]:
    """The models of an `evaluation.toml` text, by table size.

    Raises:
        ValueError: not such a file (a bad format, other feature names, a bad model)."""
    import tomllib

    table = tomllib.loads(text)
    if table.get("format") != 1 or tuple(table.get("names", ())) != NAMES:
        raise ValueError(f"not an evaluation of these features ({', '.join(NAMES)}), format 1")
    models = {}
    for size, model in table.get("players", {}).items():
        models[int(size)] = Model(tuple(model["linear"]), model.get("phase"), model.get("share", 0.0))
    return models


def _shipped() -> dict[int, Model]:
    import pkgutil

    data = pkgutil.get_data(__package__ or "splendor_cli.variants.base", MODELS)
    if data is None:  # pragma: no cover - only with an exotic loader
        raise RuntimeError(f"package data {MODELS} is missing")
    return read_models(data.decode("utf-8"))


SHIPPED = _shipped()
"""The models the package ships, by table size (2, 3 and 4)."""
WEIGHTS = {n: model.linear for n, model in SHIPPED.items()}
"""The linear weights by table size, in `NAMES` order."""
LEAD = {n: model.share for n, model in SHIPPED.items() if model.share}
"""By table size, the share of the chances that comes from `greedy`'s heuristic instead: its
leads (`chances.from_lead` of `heuristics.value`), made to sum to 1. The model alone counts a
card a seat can afford nearly as if it were bought, so at three and four players, where the
search seldom reaches the seat's next move, it would put off buying; the heuristic counts a card
bought well above one within reach."""

_POINTS = {c.id: c.points for c in CARDS.values()}

_CARD = {card: (*cost, WORTH[card], _POINTS[card]) for card, cost in COST.items()}
"""Each card's cost in the five colours, its worth (`WORTH`) and its points, in one look-up."""
_POWERS = tuple(REACH**missing for missing in range(64))
"""`REACH**missing`, by the tokens missing (the same floats as the power itself)."""

_T0, _T1, _T2 = TARGETS
"""The weights of the three largest reaches (`reach`)."""
_Row = tuple[tuple[float, ...], int, int]
_ROWS: dict[tuple[int, ...], dict[tuple[str | None, ...], _Row]] = {}
"""By a seat's holdings (bonus plus tokens in each of the five colours, then gold), what `_row`
found for each row of cards: after a move, most rows and most seats' holdings are the same."""
_BONUSES: dict[tuple[object, ...], tuple[int, int, float]] = {}
"""By a seat's bonuses and the nobles on the table: cards, spread and nobles (`_holdings`)."""
_rows = 0
"""The rows `_ROWS` holds, all holdings together (at most `_CACHED_ROWS`: a search of 800
iterations meets some 20 000 new ones a move)."""
_CACHED_ROWS = 1 << 16


def _row(row: tuple[str | None, ...], h0: int, h1: int, h2: int, h3: int, h4: int, gold: int) -> _Row:
    """The reach of each card of `row` a seat holding `h0`..`h4` (bonus plus tokens) and `gold`
    could buy (its worth, times `REACH` for every token still missing), largest first; how many
    of them it can buy now, and the most points of those."""
    reach: list[float] = []
    buy_points = buy_count = 0
    for card in row:
        known = _CARD.get(card)  # type: ignore[arg-type]
        if known is None:  # an empty slot, or a sealed card nobody has seen
            continue
        c0, c1, c2, c3, c4, worth, points = known
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
            if points > buy_points:
                buy_points = points
            reach.append(worth)
        else:
            reach.append(worth * _POWERS[missing])
    reach.sort(reverse=True)
    return tuple(reach[:3]), buy_count, buy_points


def _holdings(player: PlayerState, state: GameState) -> tuple[float, ...]:
    """The features that depend on the seat's holdings and the table, not on the turn order:
    cards, spread, tokens, gold, reserved, nobles, reach, buy_points, buy_count. `nobles` and
    `reach` are terms of `greedy`'s heuristic (`heuristics.value`), so that `_held` has the
    heuristic from them. Memoized by parts (`_BONUSES`, `_ROWS`)."""
    global _rows
    bonuses = player.bonuses.counts
    b0, b1, b2, b3, b4, _, _ = bonuses
    t0, t1, t2, t3, t4, gold, _ = player.tokens.counts
    nobles = state.nobles
    found = _BONUSES.get((bonuses, nobles))
    if found is None:
        if len(_BONUSES) >= _CACHED:
            _BONUSES.clear()
        value = 0.0
        for noble in nobles:
            (r0, r1, r2, r3, r4), total, points = REQUIRES[noble]
            met = (
                (r0 if r0 < b0 else b0)
                + (r1 if r1 < b1 else b1)
                + (r2 if r2 < b2 else b2)
                + (r3 if r3 < b3 else b3)
                + (r4 if r4 < b4 else b4)
            )
            value += points * (met / total) ** 2
        spread = (
            (b0 if b0 < 3 else 3)
            + (b1 if b1 < 3 else 3)
            + (b2 if b2 < 3 else 3)
            + (b3 if b3 < 3 else 3)
            + (b4 if b4 < 3 else 3)
        )
        found = _BONUSES[bonuses, nobles] = (b0 + b1 + b2 + b3 + b4, spread, value)
    cards, spread, value = found
    h0, h1, h2, h3, h4 = b0 + t0, b1 + t1, b2 + t2, b3 + t3, b4 + t4
    held = (h0, h1, h2, h3, h4, gold)
    rows = _ROWS.get(held)
    if rows is None:
        rows = _ROWS[held] = {}
    reach: list[float] = []
    buy_points = buy_count = 0
    for row in (*state.board, player.reserved):
        known = rows.get(row)
        if known is None:
            if _rows >= _CACHED_ROWS:
                _ROWS.clear()
                _rows = 0
                rows = _ROWS[held] = {}
            known = rows[row] = _row(row, h0, h1, h2, h3, h4, gold)
            _rows += 1
        some, count, points = known
        reach += some
        buy_count += count
        if points > buy_points:
            buy_points = points
    reach.sort(reverse=True)
    # as `sum(w * r for w, r in zip(TARGETS, reach))`: the same products, added in the same order
    many = len(reach)
    if many > 2:
        best = sum((_T0 * reach[0], _T1 * reach[1], _T2 * reach[2]))
    elif many == 2:
        best = sum((_T0 * reach[0], _T1 * reach[1]))
    else:
        best = sum((_T0 * reach[0],)) if many else 0
    return (
        cards,
        spread,
        t0 + t1 + t2 + t3 + t4,
        gold,
        len(player.reserved),
        value,
        best,
        buy_points,
        buy_count if buy_count < 3 else 3,
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


_CACHED = 1 << 18
"""The most holdings a `chances` function memoizes before it starts again."""


def chances_of(models: dict[int, Model]) -> Callable[[GameState], list[float]]:
    """Every seat's chance of winning by `models` (by table size): exact once the game is over
    (a shared win split). The function returned memoizes the score of each seat's holdings
    before the table (`_holdings`): a search meets the same ones again and again."""
    _Held = dict[tuple[object, ...], tuple[float, float, float, float]]
    tables: dict[tuple[object, ...], _Held] = {}  # by table (board, nobles, size), by holdings
    size = 0  # the holdings all tables hold

    def held(player: PlayerState, state: GameState, n: int) -> tuple[float, float, float, float]:
        """The linear and phase scores of the seat's holdings (`_holdings` weighted),
        `heuristics.value` less the points, which is made of the same terms, and the cards."""
        model = models[n]
        x0, x1, x2, x3, x4, x5, x6, x7, x8 = _holdings(player, state)
        w0, w1, w2, w3, w4, w5, w6, w7, w8 = model.linear[2:11]
        part = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3 + w4 * x4 + w5 * x5 + w6 * x6 + w7 * x7 + w8 * x8
        late = 0.0
        if model.phase:
            v0, v1, v2, v3, v4, v5, v6, v7, v8 = model.phase[2:11]
            late = v0 * x0 + v1 * x1 + v2 * x2 + v3 * x3 + v4 * x4 + v5 * x5 + v6 * x6 + v7 * x7 + v8 * x8
        rest = BONUS * x0 + GEM * x2 + GOLD * x3 - RESERVED * x4 + NOBLE_SHARE * x5 + x6
        return (part, late, rest, x0)

    def chances(state: GameState) -> list[float]:
        players = state.players
        if state.finished:
            winners = state.winners()
            return [1 / len(winners) if p.name in winners else 0.0 for p in players]
        n, to_move, last_round = len(players), state.to_move, state.last_round
        model = models[n]
        lead = max(p.points for p in players) / WINNING_POINTS
        w_points, w_square, w_late, w_now, w_next, w_left = model.inline
        if model.late:
            v_points, v_square, v_late, v_now, v_next, v_left = model.late
            w_points += lead * v_points
            w_square += lead * v_square
            w_late += lead * v_late
            w_now += lead * v_now
            w_next += lead * v_next
            w_left += lead * v_left
        share = model.share
        nonlocal size
        table = tables.get((state.board, state.nobles, n))
        if table is None:
            table = tables[state.board, state.nobles, n] = {}
        scores = []
        values = []  # heuristics.value of each seat, read only for a share of the heuristic
        for seat, player in enumerate(players):
            points = player.points
            ahead = (seat - to_move) % n
            key = (player.bonuses.counts, player.tokens.counts, player.reserved)
            found = table.get(key)
            if found is None:
                if size >= _CACHED:
                    tables.clear()
                    size = 0
                    table = tables[state.board, state.nobles, n] = {}
                found = table[key] = held(player, state, n)
                size += 1
            part, late, rest, cards = found
            scores.append(
                part
                + lead * late
                + w_points * points
                + w_square * points * points / WINNING_POINTS
                + w_late * cards * lead
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

    return chances


chances = chances_of(SHIPPED)
"""Every seat's chance of winning by the shipped models (`SHIPPED`)."""
