"""Splendor Duel, 2 players (docs/rules/duel_rules.md): the game as a `Variant`.

The package holds the whole game: its cards, royal cards and board spiral (cards.py, data/),
its events (events.py), its table (state.py), the step a player says (step.py), its rules
(rules.py: `decide` and `evolve`, one handler per step, the legal steps), its notation
(notation.py), what it shows as data (views.py) and as a board (render.py, svg.py:
presentation), and its bots' evaluation (heuristics.py). A turn is played `stepwise`: each step
is its own event. The class below names those modules and writes only what no default does
(`GameVariant`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...events import Event, PlayEvent
from ...model import Gem
from ...projection.variant import Chance, GameVariant, Variant
from . import notation, rules, views
from .cards import DECKS
from .events import STEP_TYPES, BoardReplenished, DuelStarted
from .state import TOKENS, DuelState, board_of, setup_problem, start
from .step import Step

if TYPE_CHECKING:
    import random

    from ...projection.variant import Places, SealedCards

LEVELS = (1, 2, 3)


def _deal(players: tuple[str, ...], decks: Mapping[int, tuple[str, ...]], chance: Chance) -> DuelStarted:
    """The setup with these decks (from the top), the 25 tokens drawn from the bag onto the board
    in spiral order (duel_board.md) by `chance`."""
    bag = chance.shuffle(tuple(str(gem) for gem in TOKENS.gems()), "bag")
    return DuelStarted(
        seq=1,
        players=players,
        decks=tuple(decks[level] for level in LEVELS),
        board=board_of(tuple(Gem(gem) for gem in bag)),
    )


def _card_places(state: DuelState) -> Places:
    """The pyramid, row by row, and each player's reserved cards."""
    face_up = tuple(card for row in state.pyramid for card in row if card is not None)
    return face_up, {player.name: player.reserved for player in state.players}


@functools.cache
def _sealed_cards() -> SealedCards[DuelState]:
    """The game can be sealed: its decks, its deal from given decks, where its states keep cards
    (built on first use: an open game's commands never import the sealed protocol)."""
    from ...sealing.capability import SealedDecks

    return SealedDecks(decks=DECKS, deal=_deal, places=_card_places)


class Duel(GameVariant[DuelState, Step]):
    """Splendor Duel. Satisfies `splendor_cli.projection.variant.Variant[DuelState, Step]`."""

    name = "duel"
    title = "Splendor Duel"
    seats = (2, 2)
    demo_players: tuple[str, ...] = ("ann", "bob")
    stepwise = True
    setup_type: type[Event] = DuelStarted
    play_types: tuple[type[PlayEvent], ...] = STEP_TYPES
    drawing_types: tuple[type[PlayEvent], ...] = (BoardReplenished,)
    rules = rules
    views = views
    package = __name__

    @property
    def sealed_cards(self) -> SealedCards[DuelState]:
        return _sealed_cards()

    def deal(self, players: tuple[str, ...], chance: Chance) -> DuelStarted:
        """Shuffle the three decks, and draw the 25 tokens from the bag onto the board in spiral
        order (duel_board.md); the event records the outcome."""
        return _deal(players, {level: chance.shuffle(DECKS[level], f"deck {level}") for level in LEVELS}, chance)

    def start(self, setup: DuelStarted) -> DuelState:
        problem = setup_problem(setup)
        if problem:
            raise ValueError(problem)
        return start(setup)

    def draw(self, state: DuelState, move: Step, chance: Chance) -> Step:
        return rules.draw(state, move, chance)

    def random_move(self, state: DuelState, rng: random.Random) -> Step:
        return rules.random_step(state, rng)

    def play(self, state: DuelState, move: Step) -> DuelState:
        return rules.play(state, move)  # trusted: no judging, no event

    def at_turn_start(self, state: DuelState) -> bool:
        return state.at_turn_start

    def parse_moves(self, text: str) -> list[Step]:
        return notation.parse_steps(text)

    def format_move(self, move: Step) -> str:
        return notation.format_step(move)

    def status(self, state: DuelState) -> dict[str, Any]:
        return {"phase": state.phase}

    def whose_turn(self, state: DuelState) -> str:
        if state.finished:
            if not state.winner:
                return "game over: a draw (both players passed in a row)"
            return f"game over: {state.winner} won ({state.win_condition})"
        if state.phase != "main":
            return f"{state.player.name} to move: {state.phase}"
        return f"{state.player.name} to move"

    @property
    def chances(self) -> Callable[[DuelState], list[float]]:
        """The evaluation's function itself (bots only: imported on first use), so that a search
        that reads it once calls it without a method's call around it."""
        from .evaluation import chances

        return chances

    def hide(self, state: DuelState, seat: int, rng: random.Random) -> DuelState:
        from ..common.hidden import determinize  # bots only

        return determinize(state, seat, rng, cards=DECKS, face_up="pyramid")


VARIANT: Variant[DuelState, Step] = Duel()
