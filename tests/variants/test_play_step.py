"""`variant.play(state, move)`, the trusted step of random play and search, is exactly
`evolve(state, decide(state, move))` for every move the rules list.

Random positions of both games (base at 2, 3 and 4 players, open and sealed, whose decks hold
placeholders; Duel open and sealed) are reached by playing random listed moves through the judged
path (`decide` then `evolve`), never through `play`, so that a fault of `play` cannot build the
positions it is checked on. At each position met, every legal move (a Duel's replenish given its
draw by `draw` first) is played both ways, and so is the fully specified move that its event
records (`move_of`: an explicit payment), and the two states must be equal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from splendor_cli.errors import AmbiguousMoveError
from splendor_cli.model import Tokens
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.projection.variant import AnyVariant, GameVariant
from splendor_cli.sealing.placeholders import is_placeholder, placeholder
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base import rules as base_rules
from splendor_cli.variants.base.rules import Move
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel.step import Step

NAMES = ("ann", "bob", "cat", "dan")
BASE_FACE_UP = {1: 4, 2: 4, 3: 4}
DUEL_FACE_UP = {1: 5, 2: 4, 3: 3}

SETTINGS = settings(max_examples=examples(0.5), suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


class SealedChance:
    """A seeded deal whose decks hold placeholders below the cards dealt face up, as a sealed
    game's do until a card is revealed (none is, here)."""

    def __init__(self, rng: random.Random, face_up: dict[int, int]) -> None:
        self.chance = RandomChance(rng)
        self.face_up = face_up

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        out = self.chance.shuffle(items, label)
        if not label.startswith("deck "):
            return out
        level = int(label.removeprefix("deck "))
        shown = self.face_up[level]
        return out[:shown] + tuple(placeholder(level, at) for at in range(shown + 1, len(out) + 1))

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return self.chance.sample(items, count, label)


def judged(variant: AnyVariant, state: Any, move: Any) -> Any:
    return variant.evolve(state, variant.decide(state, move))


def positions(variant: AnyVariant, players: int, seed: int, sealed: bool, every: int) -> Iterator[Any]:
    """Every `every`-th position of a random game (the first one included), played through the
    judged path to its end."""
    rng = random.Random(seed)
    chance: Any = RandomChance(rng)
    if sealed:
        chance = SealedChance(rng, DUEL_FACE_UP if variant.name == "duel" else BASE_FACE_UP)
    state = variant.start(variant.deal(NAMES[:players], chance))
    limit = 4000 if variant.stepwise else 1000
    for count in range(limit):
        if state.finished:
            break
        if count % every == 0:
            yield state
        moves = variant.legal_moves(state)
        move = variant.draw(state, moves[rng.randrange(len(moves))], RandomChance(rng))
        state = judged(variant, state, move)
    yield state


def check_every_move(variant: AnyVariant, state: Any, rng: random.Random) -> int:
    """Assert `play` agrees with the judged path for every legal move of `state`; how many were checked."""
    checked = 0
    for listed in variant.legal_moves(state):
        move = variant.draw(state, listed, RandomChance(rng))
        event = variant.decide(state, move)
        expected = variant.evolve(state, event)
        assert variant.play(state, move) == expected, (state, move)
        stated = variant.move_of(event)  # fully specified: an explicit payment
        assert variant.play(state, stated) == expected, (state, stated)
        checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
@SETTINGS
@given(seed=seeds)
def test_base_play_is_the_judged_step_for_every_listed_turn(players: int, sealed: bool, seed: int) -> None:
    rng = random.Random(seed)
    seen = 0
    for state in positions(BASE, players, seed, sealed, every=3):
        seen += check_every_move(BASE, state, rng)
    assert seen


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
@SETTINGS
@given(seed=seeds)
def test_duel_play_is_the_judged_step_for_every_listed_step(sealed: bool, seed: int) -> None:
    rng = random.Random(seed)
    seen = 0
    for state in positions(DUEL, 2, seed, sealed, every=3):
        seen += check_every_move(DUEL, state, rng)
    assert seen


@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=seeds)
def test_base_random_move_is_a_listed_turn_drawn_as_from_the_list(players: int, seed: int) -> None:
    """`random_move` draws the same turn as a uniform index into `legal_moves` with the same
    random source: one turn built instead of all, the games of a seed unchanged."""
    for state in positions(BASE, players, seed, False, every=5):
        if state.finished:
            continue
        moves = BASE.legal_moves(state)
        assert BASE.random_move(state, random.Random(seed)) == moves[random.Random(seed).randrange(len(moves))]
        assert len(base_rules.choices(state)) == len(moves)


@SETTINGS
@given(seed=seeds)
def test_duel_random_move_is_a_listed_step_drawn_as_from_the_list(seed: int) -> None:
    """As `GameVariant.random_move` draws: an index into `legal_moves`, then the outcome."""
    for state in positions(DUEL, 2, seed, False, every=2):
        if state.finished:
            continue
        fast = DUEL.random_move(state, random.Random(seed))
        assert fast == GameVariant.random_move(DUEL, state, random.Random(seed))  # type: ignore[arg-type]


def test_an_underspecified_move_goes_through_the_judge() -> None:
    """A move that leaves its returns or its noble unsaid is judged (and refused when ambiguous),
    as the judged path would: `play` trusts only what the rules list."""
    state = BASE.start(BASE.deal(NAMES[:2], RandomChance(random.Random(3))))
    move = Move(action="take", gems=base_rules.legal_moves(state)[0].gems)
    assert move.returned is None
    assert BASE.play(state, move) == judged(BASE, state, move)
    duel = DUEL.start(DUEL.deal(NAMES[:2], RandomChance(random.Random(3))))
    replenish = Step(step="replenish")
    if duel.bag:
        with pytest.raises(AmbiguousMoveError):
            DUEL.play(duel, replenish)


def test_the_default_play_is_the_judged_step() -> None:
    """`GameVariant.play`, for a game that writes none: `evolve(state, decide(state, move))`."""
    state = BASE.start(BASE.deal(NAMES[:3], RandomChance(random.Random(5))))
    for move in BASE.legal_moves(state):
        assert GameVariant.play(BASE, state, move) == BASE.play(state, move)  # type: ignore[arg-type]


def test_sealed_positions_do_hold_placeholders() -> None:
    """The sealed deals above do put placeholders where the rules must step around them."""
    state = next(positions(BASE, 2, 1, True, every=1))
    assert all(is_placeholder(card) for deck in state.decks for card in deck)
    assert Tokens.of() == state.player.tokens
