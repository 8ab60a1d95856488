"""`legal_moves`, built directly for speed, lists exactly `choices(state).moves()`: the same moves
in the same order, and each is `choices(state).move(i)` (what `random_move` draws from).

Positions: random games at 2, 3 and 4 players (open decks, and decks holding a sealed game's
placeholders below the cards face up), and positions made to reach the seldom branches: a noble
that may visit whatever the turn is, a hand at 10 tokens with gold in the bank (each reserve
returns a token), a hand near 10 with a noble to choose on every take.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest

from splendor_cli.model import Tokens
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.sealing.placeholders import placeholder
from splendor_cli.variants.base import VARIANT, rules
from splendor_cli.variants.base.cards import NOBLES
from splendor_cli.variants.base.state import GameState

NAMES = ("ann", "bob", "cat", "dan")


class _Sealed:
    """A seeded deal whose decks hold placeholders below the four cards dealt face up."""

    def __init__(self, rng: random.Random) -> None:
        self.chance = RandomChance(rng)

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        out = self.chance.shuffle(items, label)
        if not label.startswith("deck "):
            return out
        level = int(label.removeprefix("deck "))
        return out[:4] + tuple(placeholder(level, at) for at in range(5, len(out) + 1))

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return self.chance.sample(items, count, label)


def _same(state: GameState) -> int:
    listed = rules.legal_moves(state)
    options = rules.choices(state)
    assert listed == options.moves()
    assert len(listed) == options.size
    assert listed == [options.move(i) for i in range(options.size)]
    return len(listed)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sealed", [False, True])
def test_random_games(players: int, sealed: bool) -> None:
    rng = random.Random(f"{players}:{sealed}")
    for _ in range(6):
        chance = _Sealed(rng) if sealed else RandomChance(rng)
        state = VARIANT.start(VARIANT.deal(NAMES[:players], chance))
        turns = 0
        while not state.finished and turns < 400:
            _same(state)
            state = rules.play(state, rules.random_move(state, rng))
            turns += 1
    assert state.finished or turns == 400


def _with_player(state: GameState, **changes: object) -> GameState:
    players = list(state.players)
    players[state.to_move] = attrs.evolve(players[state.to_move], **changes)  # type: ignore[arg-type]
    return attrs.evolve(state, players=tuple(players))


def test_seldom_branches() -> None:
    state = VARIANT.start(VARIANT.deal(NAMES[:2], RandomChance(random.Random(5))))
    noble = NOBLES[state.nobles[0]]
    other = NOBLES[state.nobles[1]]
    meets = noble.requires
    met_both = Tokens._trusted(tuple(max(a, b) for a, b in zip(noble.requires.counts, other.requires.counts)))
    full = Tokens.of(white=2, blue=2, green=2, red=2, black=2)
    near = Tokens.of(white=2, blue=2, green=2, red=2)
    positions = [
        _with_player(state, bonuses=meets),  # a noble visits whatever the turn
        _with_player(state, bonuses=met_both),  # two nobles to choose from
        _with_player(state, tokens=full),  # each reserve returns a token (gold in the bank)
        _with_player(state, tokens=near, bonuses=meets),  # near 10, a noble on every take
        _with_player(state, tokens=full, bonuses=met_both),
        _with_player(attrs.evolve(state, bank=Tokens.of(white=4)), tokens=full, bonuses=met_both),
    ]
    sizes = [_same(position) for position in positions]
    assert all(sizes)
