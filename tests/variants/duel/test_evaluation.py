"""The fitted evaluation of Splendor Duel (`evaluation.chances`), which the expert bot searches by:
the documented logistic model, chances that add up, an ended game exact."""

from __future__ import annotations

import math
import random

from helpers import deal_duel, duel_bot, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.variants.duel import VARIANT, evaluation
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel import state as duel_state


@settings(max_examples=examples(0.3))
@given(st.integers(0, 10**6))
def test_chances_are_the_documented_model_and_add_up(seed: int) -> None:
    rng = random.Random(seed)
    state = duel_state.start(deal_duel(("ann", "bob"), rng))
    play = duel_bot("random")
    for _ in range(400):
        got = VARIANT.chances(state)
        assert got == evaluation.chances(state)
        assert len(got) == 2 and all(0 <= c <= 1 for c in got) and math.isclose(sum(got), 1.0)
        if state.finished:
            expected = [0.5, 0.5] if not state.winner else [float(p.name == state.winner) for p in state.players]
            assert got == expected
            break
        first, second = evaluation.features(state, 0), evaluation.features(state, 1)
        lead = sum(w * (a - b) for w, a, b in zip(evaluation.WEIGHTS[2], first, second))
        assert math.isclose(got[0], 1 / (1 + math.exp(-lead)), abs_tol=1e-12)
        state = duel.evolve(state, duel.decide(state, play(state, rng)))


def test_weights_for_every_feature() -> None:
    assert sorted(evaluation.WEIGHTS) == [2]
    assert len(evaluation.WEIGHTS[2]) == len(evaluation.NAMES)
