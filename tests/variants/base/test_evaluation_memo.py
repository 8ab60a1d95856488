"""The evaluation's memoized parts (`evaluation._holdings` by bonuses and by row, `chances_of`'s
`held`) give exactly the floats of the plain computation they replace: compared with `==`, over
the positions of random games at every table size, with memos warm, cold and cleared often."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import attrs
import pytest
from helpers import base_bot, deal, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.variants.base import evaluation
from splendor_cli.variants.base.cards import CARDS
from splendor_cli.variants.base.heuristics import COST, NOBLE_SHARE, REQUIRES, RESERVED, WORTH
from splendor_cli.variants.base.rules import decide, evolve
from splendor_cli.variants.base.state import GameState, PlayerState, start
from splendor_cli.variants.common.chances import leads
from splendor_cli.variants.common.weights import BONUS, GEM, GOLD, REACH, TARGETS

POINTS = {c.id: c.points for c in CARDS.values()}


def reference_holdings(player: PlayerState, state: GameState) -> tuple[float, ...]:
    """`_holdings` as it was written before its memos: every card of the table read again."""
    b0, b1, b2, b3, b4 = player.bonuses.counts[:5]
    t0, t1, t2, t3, t4, gold = player.tokens.counts[:6]
    h = (b0 + t0, b1 + t1, b2 + t2, b3 + t3, b4 + t4)
    nobles = 0.0
    for noble in state.nobles:
        requires, total, points = REQUIRES[noble]
        met = sum(min(r, b) for r, b in zip(requires, (b0, b1, b2, b3, b4)))
        nobles += points * (met / total) ** 2
    reach: list[float] = []
    buy_points = buy_count = 0
    for row in (*state.board, player.reserved):
        for card in row:
            if card is None or card not in COST:
                continue
            missing = sum(c - have for c, have in zip(COST[card], h) if c > have) - gold
            if missing <= 0:
                buy_count += 1
                buy_points = max(buy_points, POINTS[card])
                reach.append(WORTH[card])
            else:
                reach.append(WORTH[card] * REACH**missing)
    reach.sort(reverse=True)
    return (
        b0 + b1 + b2 + b3 + b4,
        sum(min(b, 3) for b in (b0, b1, b2, b3, b4)),
        t0 + t1 + t2 + t3 + t4,
        gold,
        len(player.reserved),
        nobles,
        sum(w * r for w, r in zip(TARGETS, reach)),
        buy_points,
        min(buy_count, 3),
    )


def reference_chances(models: dict[int, evaluation.Model], state: GameState) -> list[float]:
    """`chances_of(models)(state)` as it was written before (no memo), same operations in the same order."""
    players = state.players
    if state.finished:
        winners = state.winners()
        return [1 / len(winners) if p.name in winners else 0.0 for p in players]
    n, to_move = len(players), state.to_move
    model = models[n]
    lead = max(p.points for p in players) / 15
    w_points, w_square, w_late, w_now, w_next, w_left = model.inline
    if model.late:
        v_points, v_square, v_late, v_now, v_next, v_left = model.late
        w_points += lead * v_points
        w_square += lead * v_square
        w_late += lead * v_late
        w_now += lead * v_now
        w_next += lead * v_next
        w_left += lead * v_left
    scores, values = [], []
    for seat, player in enumerate(players):
        x0, x1, x2, x3, x4, x5, x6, x7, x8 = reference_holdings(player, state)
        w0, w1, w2, w3, w4, w5, w6, w7, w8 = model.linear[2:11]
        part = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3 + w4 * x4 + w5 * x5 + w6 * x6 + w7 * x7 + w8 * x8
        late = 0.0
        if model.phase:
            v0, v1, v2, v3, v4, v5, v6, v7, v8 = model.phase[2:11]
            late = v0 * x0 + v1 * x1 + v2 * x2 + v3 * x3 + v4 * x4 + v5 * x5 + v6 * x6 + v7 * x7 + v8 * x8
        rest = BONUS * x0 + GEM * x2 + GOLD * x3 - RESERVED * x4 + NOBLE_SHARE * x5 + x6
        points = player.points
        ahead = (seat - to_move) % n
        scores.append(
            part
            + lead * late
            + w_points * points
            + w_square * points * points / 15
            + w_late * sum(player.bonuses.counts) * lead
            + (w_now if ahead == 0 else w_next if ahead == 1 else 0.0)
            + (w_left if state.last_round and seat >= to_move else 0.0)
        )
        values.append(points + rest)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    if not model.share:
        return [e / total for e in exps]
    heuristic = leads(values)
    scale = model.share / sum(heuristic)
    return [(1 - model.share) * e / total + scale * h for e, h in zip(exps, heuristic)]


def _positions(seed: int, players: int) -> list[GameState]:
    """Every position of a seeded game of random play, some of them with a slot emptied and a
    reserved card sealed (a placeholder id no card has), as a sample or an empty deck makes them."""
    rng = random.Random(seed)
    setup = deal(tuple(f"p{i}" for i in range(players)), rng)
    state = start(setup.players, setup.decks, setup.nobles)
    play, seen = base_bot("random"), [state]
    while not state.finished and state.turn < 300:
        state = evolve(state, decide(state, play(state, rng)))
        seen.append(state)
        if rng.random() < 0.2:
            level, slot = rng.randrange(3), rng.randrange(4)
            board = tuple(
                tuple(None if (i, j) == (level, slot) else card for j, card in enumerate(row))
                for i, row in enumerate(state.board)
            )
            sealed = tuple(
                attrs.evolve(p, reserved=tuple(f"?{k}" if rng.random() < 0.5 else c for k, c in enumerate(p.reserved)))
                for p in state.players
            )
            seen.append(attrs.evolve(state, board=board, players=sealed))
    return seen


def _random_models(rng: random.Random, players: int) -> dict[int, evaluation.Model]:
    names = len(evaluation.NAMES)
    linear = tuple(rng.uniform(-1, 1) for _ in range(names))
    phase = tuple(rng.uniform(-1, 1) for _ in range(names))
    return {players: evaluation.Model(linear, phase, rng.choice((0.0, 0.5)))}


def _check(
    positions: list[GameState], of: Callable[[GameState], list[float]], models: dict[int, evaluation.Model]
) -> None:
    for state in positions:
        for player in state.players:
            assert evaluation._holdings(player, state) == reference_holdings(player, state)
        assert of(state) == reference_chances(models, state)


@settings(max_examples=examples(0.3), deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(0, 10**6))
def test_the_memoized_evaluation_is_the_plain_one_bit_for_bit(seed: int, players: int, draw: int) -> None:
    positions = _positions(seed, players)
    _check(positions, evaluation.chances, evaluation.SHIPPED)
    models = _random_models(random.Random(draw), players)
    of = evaluation.chances_of(models)
    _check(positions, of, models)  # the memos cold for this model's `held`
    _check(positions[::-1], of, models)  # and warm: every position met again


def test_the_memos_start_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    # fresh memos: other tests in this process may have filled them with these very positions,
    # and a memo that only hits is never found full
    monkeypatch.setattr(evaluation, "_BONUSES", {})
    monkeypatch.setattr(evaluation, "_ROWS", {})
    monkeypatch.setattr(evaluation, "_rows", 0)
    monkeypatch.setattr(evaluation, "_CACHED", 5)
    monkeypatch.setattr(evaluation, "_CACHED_ROWS", 5)
    for players in (2, 3, 4):
        positions = _positions(players, players)
        models = _random_models(random.Random(players), players)
        _check(positions, evaluation.chances_of(models), models)
        assert len(evaluation._BONUSES) <= 5 and evaluation._rows <= 5
