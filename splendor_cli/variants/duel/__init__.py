"""Splendor Duel, 2 players (docs/rules/duel_rules.md): the game as a `Variant`.

The package holds the whole game: its cards, royal cards and board spiral (cards.py, data/),
its events (events.py), its table (state.py), the step a player says (step.py), its rules
(rules.py: `decide` and `evolve`, one handler per step, the legal steps), its notation
(notation.py), what it shows as data (views.py) and as a board (render.py, presentation), and
its bots' evaluation (heuristics.py). A turn is played `stepwise`: each step is its own event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...events import Event, PlayEvent
from ...model import Gem
from ...projection.variant import Chance, Moment, Variant
from . import notation, rules, views
from .cards import DECKS
from .events import STEP_TYPES, BoardReplenished, DuelStarted, StepEvent
from .state import TOKENS, DuelState, board_of, setup_problem, start
from .step import Step

if TYPE_CHECKING:
    import random


class Duel:
    """Splendor Duel. Satisfies `splendor_cli.projection.variant.Variant[DuelState, Step]`."""

    name = "duel"
    title = "Splendor Duel"
    seats = (2, 2)
    demo_players: tuple[str, ...] = ("ann", "bob")
    stepwise = True
    setup_type: type[Event] = DuelStarted
    play_types: tuple[type[PlayEvent], ...] = STEP_TYPES
    drawing_types: tuple[type[PlayEvent], ...] = (BoardReplenished,)

    def deal(self, players: tuple[str, ...], chance: Chance) -> DuelStarted:
        """Shuffle the three decks, and draw the 25 tokens from the bag onto the board in spiral
        order (duel_board.md); the event records the outcome."""
        deck_1, deck_2, deck_3 = (chance.shuffle(DECKS[level], f"deck {level}") for level in (1, 2, 3))
        bag = chance.shuffle(tuple(str(gem) for gem in TOKENS.gems()), "bag")
        return DuelStarted(
            seq=1,
            players=players,
            deck_1=deck_1,
            deck_2=deck_2,
            deck_3=deck_3,
            board=board_of(tuple(Gem(gem) for gem in bag)),
        )

    def start(self, setup: DuelStarted) -> DuelState:
        problem = setup_problem(setup)
        if problem:
            raise ValueError(problem)
        return start(setup)

    def decide(self, state: DuelState, move: Step) -> StepEvent:
        return rules.decide(state, move)

    def evolve(self, state: DuelState, event: StepEvent) -> DuelState:
        return rules.evolve(state, event)

    def move_of(self, event: StepEvent) -> Step:
        return rules.move_of(event)

    def draw(self, state: DuelState, move: Step, chance: Chance) -> Step:
        return rules.draw(state, move, chance)

    def legal_moves(self, state: DuelState) -> Sequence[Step]:
        return rules.legal_steps(state)

    def random_move(self, state: DuelState, rng: random.Random) -> Step:
        from ...projection.seeding import RandomChance

        options = rules.legal_steps(state)
        return rules.draw(state, options[rng.randrange(len(options))], RandomChance(rng))

    def at_turn_start(self, state: DuelState) -> bool:
        return state.at_turn_start

    def card_places(self, state: DuelState) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
        face_up = tuple(card for row in state.pyramid for card in row if card is not None)
        return face_up, {player.name: player.reserved for player in state.players}

    def parse_moves(self, text: str) -> list[Step]:
        return notation.parse_steps(text)

    def format_move(self, move: Step) -> str:
        return notation.format_step(move)

    def move_json(self, state: DuelState, move: Step) -> dict[str, Any]:
        return views.item_json(state, move)

    def state_json(self, seq: int, state: DuelState) -> dict[str, Any]:
        return views.state_json(seq, state)

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

    def event_notation(self, event: DuelStarted | StepEvent) -> str:
        return views.event_notation(event)

    def shown(self, event: StepEvent) -> tuple[str, ...]:
        return views.shown(event)

    def board_text(self, game: Moment, *, width: int, color: bool, ascii: bool) -> str:
        from .render import board_text  # rich: only to print

        return board_text(game, width=width, color=color, ascii=ascii)

    def board_svg(self, game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
        from .svg import board_svg  # the picture: only when asked for

        return board_svg(game, seat=seat, event=event)

    # -- bots: their modules load on first use (a command that only shows or plays needs none)

    def hide(self, state: DuelState, seat: int, rng: random.Random) -> DuelState:
        from ..common.hidden import determinize

        return determinize(state, seat, rng, cards=DECKS, face_up="pyramid")

    def value(self, state: DuelState, seat: int) -> float:
        from .heuristics import value

        return value(state, seat)

    def score(self, state: DuelState, seat: int) -> float:
        from .heuristics import score

        return score(state, seat)


VARIANT: Variant[DuelState, Step] = Duel()
