"""The fitted evaluation of base Splendor (`evaluation.chances`), which the expert bot searches by:
its fast path is the model it documents, its numbers are chances, and a won game is exact."""

from __future__ import annotations

import math
import pkgutil
import random

import attrs
import pytest
from helpers import base_bot, deal, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.variants.base import VARIANT, evaluation, heuristics
from splendor_cli.variants.base.rules import decide, evolve
from splendor_cli.variants.base.state import GameState, start
from splendor_cli.variants.common import chances


def _positions(seed: int, players: int) -> list[GameState]:
    """Every position of a seeded game of random play, to its end."""
    rng = random.Random(seed)
    setup = deal(tuple(f"p{i}" for i in range(players)), rng)
    state = start(setup.players, setup.decks, setup.nobles)
    play, seen = base_bot("random"), [state]
    while not state.finished and state.turn < 300:
        state = evolve(state, decide(state, play(state, rng)))
        seen.append(state)
    return seen


def _model(state: GameState, models: dict[int, evaluation.Model] = evaluation.SHIPPED) -> list[float]:
    """The documented model, written plainly: the softmax of (linear + lead * phase) · features,
    lead the best seat's points over 15, blended with the model's share of the heuristic's leads
    (each a logistic of the seat's value less the best other seat's), made to sum to 1."""
    n = len(state.players)
    model = models[n]
    lead = max(p.points for p in state.players) / 15
    phase = model.phase or (0.0,) * len(model.linear)
    weights = [w + lead * v for w, v in zip(model.linear, phase)]
    scores = [sum(w * x for w, x in zip(weights, evaluation.features(state, i))) for i in range(n)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    model_chances = [e / sum(exps) for e in exps]
    share = model.share
    values = [heuristics.value(state, i) for i in range(n)]
    leads = [1 / (1 + math.exp(-(v - max(values[:i] + values[i + 1 :])) / chances.SCALE)) for i, v in enumerate(values)]
    return [(1 - share) * m + share * lead / sum(leads) for m, lead in zip(model_chances, leads)]


@settings(max_examples=examples(0.3))
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_chances_are_the_documented_model_and_add_up(seed: int, players: int) -> None:
    for state in _positions(seed, players):
        got = evaluation.chances(state)
        assert len(got) == players and all(0 <= c <= 1 for c in got)
        assert math.isclose(sum(got), 1.0, abs_tol=1e-9)
        if state.finished:
            winners = state.winners()
            assert got == [1 / len(winners) if p.name in winners else 0.0 for p in state.players]
        else:
            assert all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(got, _model(state)))


def test_the_variant_gives_them_and_more_points_are_better() -> None:
    state = _positions(5, 2)[10]
    assert VARIANT.chances(state) == evaluation.chances(state)
    # the same table, the player to move given 3 more points: their chance rises
    player = state.players[state.to_move]
    richer = attrs.evolve(
        state,
        players=tuple(attrs.evolve(p, points=p.points + 3) if p is player else p for p in state.players),
    )
    assert VARIANT.chances(richer)[state.to_move] > VARIANT.chances(state)[state.to_move]


def test_every_table_size_has_weights_for_every_feature() -> None:
    assert sorted(evaluation.WEIGHTS) == [2, 3, 4]
    assert set(evaluation.LEAD) <= {2, 3, 4} and all(0 <= s <= 1 for s in evaluation.LEAD.values())
    for weights in evaluation.WEIGHTS.values():
        assert len(weights) == len(evaluation.NAMES)
        assert all(math.isfinite(w) for w in weights)


@settings(max_examples=examples(0.2))
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(0, 10**6), st.sampled_from([0.0, 0.3]))
def test_phase_models_are_the_documented_model(seed: int, players: int, draw: int, share: float) -> None:
    """`chances_of` for models other than the shipped ones (a generation's): phase weights that
    move with the leader's points, a share of the heuristic or none."""
    rng = random.Random(draw)
    names = len(evaluation.NAMES)
    model = evaluation.Model(
        tuple(rng.uniform(-1, 1) for _ in range(names)), tuple(rng.uniform(-1, 1) for _ in range(names)), share
    )
    models = {players: model}
    of = evaluation.chances_of(models)
    for state in _positions(seed, players)[::3]:
        got = of(state)
        assert math.isclose(sum(got), 1.0, abs_tol=1e-9)
        if not state.finished:
            assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(got, _model(state, models)))


def test_the_shipped_file_is_read_and_a_wrong_one_refused() -> None:
    text = pkgutil.get_data("splendor_cli.variants.base", evaluation.MODELS)
    assert text is not None
    models = evaluation.read_models(text.decode())
    assert sorted(models) == [2, 3, 4]
    assert {n: m.linear for n, m in models.items()} == evaluation.WEIGHTS
    good = text.decode()
    for bad, why in (
        (good.replace("format = 1", "format = 2"), "format 1"),
        (good.replace('"points_sq", ', ""), "these features"),
        (good.replace("linear = [0.2840, ", "linear = [", 1), "15 weights"),
        (good.replace("share = 0.5", "share = 1.5", 1), "between 0 and 1"),
    ):
        with pytest.raises(ValueError, match=why):
            evaluation.read_models(bad)
