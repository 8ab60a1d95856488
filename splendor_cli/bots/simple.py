"""The `random` bot: a uniform choice among the engine's own list of legal moves."""

from __future__ import annotations

import random

from ..model import Move, Step
from ..projection import duel
from ..projection.duel import DuelState
from ..projection.rules import choices
from ..projection.state import GameState


def random_bot(state: GameState, rng: random.Random) -> Move:
    """A uniform choice among every legal turn."""
    options = choices(state)
    return options.move(rng.randrange(len(options)))


def random_duel_bot(state: DuelState, rng: random.Random) -> Step:
    """A uniform choice among every legal next step (a replenish drawn from `rng`)."""
    options = duel.legal_steps(state)
    return duel.draw(state, options[rng.randrange(len(options))], rng)
