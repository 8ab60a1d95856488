"""Splendor, 2 to 4 players (docs/rules/splendor_rules.md): the game as a `Variant`.

The package holds the whole game: its cards and nobles (cards.py, data/), its events
(events.py), its table (state.py), its rules (rules.py: `decide` with one handler per action,
`evolve`, the legal turns), its notation (notation.py), what it shows as data (views.py) and as
a board (render.py, svg.py: presentation), and its bots' evaluation (heuristics.py). The class
below names those modules and writes only what no default does (`GameVariant`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from ...events import Event, PlayEvent
from ...projection.variant import Chance, GameVariant, Variant
from ...sealing.placeholders import deck_problem
from . import notation, rules, views
from .cards import DECKS, NOBLES
from .events import DECK_KEYS, TURN_TYPES, GameStarted
from .rules import Move
from .state import GameState, start

if TYPE_CHECKING:
    import random

    from ...projection.variant import Places, SealedCards

LEVELS = (1, 2, 3)


def _deal(players: tuple[str, ...], decks: Mapping[int, tuple[str, ...]], chance: Chance) -> GameStarted:
    """The setup with these decks (from the top), and players + 1 nobles drawn from `chance`."""
    nobles = chance.sample(sorted(NOBLES), len(players) + 1, "nobles")
    return GameStarted.of(players, tuple(decks[level] for level in LEVELS), nobles)


def _card_places(state: GameState) -> Places:
    """The market, row by row, and each player's reserved cards."""
    face_up = tuple(card for row in state.board for card in row if card is not None)
    return face_up, {player.name: player.reserved for player in state.players}


@functools.cache
def _sealed_cards() -> SealedCards[GameState]:
    """The game can be sealed: its decks, its deal from given decks, where its states keep cards
    (built on first use: an open game's commands never import the sealed protocol)."""
    from ...sealing.capability import SealedDecks

    return SealedDecks(decks=DECKS, deal=_deal, places=_card_places)


class Splendor(GameVariant[GameState, Move]):
    """The base game. Satisfies `splendor_cli.projection.variant.Variant[GameState, Move]`."""

    name = "base"
    title = "Splendor"
    seats = (2, 4)
    demo_players: tuple[str, ...] = ("ann", "bob", "cy")
    expert_iterations: Mapping[int, int] = MappingProxyType({2: 800})
    """800 at two players: the most within a second of CPU a move on average on the development
    machine (0.76 s; 400 take 0.38), and 63.5% against AlphaZero at 100 simulations where 400
    scored 52.5%, on the same 100 deals (docs/performance.md). At three and four players a move
    costs more (the other seats are rated): the bot's own 400."""
    setup_type: type[Event] = GameStarted
    play_types: tuple[type[PlayEvent], ...] = TURN_TYPES
    rules = rules
    notation = notation
    views = views
    package = __name__

    @property
    def sealed_cards(self) -> SealedCards[GameState]:
        return _sealed_cards()

    def deal(self, players: tuple[str, ...], chance: Chance) -> GameStarted:
        """Shuffle the decks and reveal players + 1 nobles; the event records the outcome."""
        return _deal(players, {level: chance.shuffle(DECKS[level], f"deck {level}") for level in LEVELS}, chance)

    def start(self, setup: GameStarted) -> GameState:
        """The table after the setup. Raise ValueError naming what is wrong with the setup."""
        if setup.variant != self.name:
            raise ValueError(f"game_started sets up base Splendor, not {setup.variant!r}")
        if len(setup.decks) != len(LEVELS):
            raise ValueError(f"game_started holds {len(LEVELS)} decks, not {len(setup.decks)}")
        for level, deck in enumerate(setup.decks, start=1):
            problem = deck_problem(DECK_KEYS[level - 1], level, deck, DECKS[level], f"level-{level} cards")
            if problem:
                raise ValueError(problem)
        nobles = setup.nobles
        if len(nobles) != len(setup.players) + 1 or len(set(nobles)) != len(nobles) or not set(nobles) <= set(NOBLES):
            raise ValueError(f"{len(setup.players) + 1} distinct nobles are needed, not {nobles!r}")
        return start(setup.players, setup.decks, nobles)

    # The inner loop of random play and of every bot's search: the rules' functions themselves,
    # without a method's call around them.
    legal_moves = staticmethod(rules.legal_moves)
    random_move = staticmethod(rules.random_move)  # quicker than listing every move
    play = staticmethod(rules.play)  # trusted: no judging, no event

    @property
    def chances(self) -> Callable[[GameState], list[float]]:
        """The evaluation's function itself (bots only: imported on first use), so that a search
        that reads it once calls it without a method's call around it."""
        from .evaluation import chances

        return chances

    def hide(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        from ..common.hidden import determinize  # bots only

        return determinize(state, seat, rng, cards=DECKS, face_up="board")


VARIANT: Variant[GameState, Move] = Splendor()
