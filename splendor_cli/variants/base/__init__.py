"""Splendor, 2 to 4 players (docs/rules/splendor_rules.md): the game as a `Variant`.

The package holds the whole game: its cards and nobles (cards.py, data/), its events
(events.py), its table (state.py), its rules (rules.py: `decide` with one handler per action,
`evolve`, the legal turns), its notation (notation.py), what it shows as data (views.py) and as
a board (render.py, presentation), and its bots' evaluation (heuristics.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...events import Event, PlayEvent
from ...projection.variant import Chance, Moment, Variant
from ..common.sealed import deck_problem
from . import notation, rules, views
from .cards import DECKS, NOBLES
from .events import TURN_TYPES, GameStarted, TurnEvent
from .rules import Move
from .state import GameState, start

if TYPE_CHECKING:
    import random


class Splendor:
    """The base game. Satisfies `splendor_cli.projection.variant.Variant[GameState, Move]`."""

    name = "base"
    title = "Splendor"
    seats = (2, 4)
    demo_players: tuple[str, ...] = ("ann", "bob", "cy")
    stepwise = False
    setup_type: type[Event] = GameStarted
    play_types: tuple[type[PlayEvent], ...] = TURN_TYPES
    drawing_types: tuple[type[PlayEvent], ...] = ()

    def deal(self, players: tuple[str, ...], chance: Chance) -> GameStarted:
        """Shuffle the decks and reveal players + 1 nobles; the event records the outcome."""
        decks = tuple(chance.shuffle(DECKS[level], f"deck {level}") for level in (1, 2, 3))
        nobles = chance.sample(sorted(NOBLES), len(players) + 1, "nobles")
        return GameStarted.of(players, decks, nobles)

    def start(self, setup: GameStarted) -> GameState:
        """The table after the setup. Raise ValueError naming what is wrong with the setup."""
        if setup.variant != self.name:
            raise ValueError(f"game_started sets up base Splendor, not {setup.variant!r}")
        for level, deck in enumerate((setup.deck_1, setup.deck_2, setup.deck_3), start=1):
            problem = deck_problem(f"deck_{level}", level, deck, DECKS[level], f"level-{level} cards")
            if problem:
                raise ValueError(problem)
        nobles = setup.nobles
        if len(nobles) != len(setup.players) + 1 or len(set(nobles)) != len(nobles) or not set(nobles) <= set(NOBLES):
            raise ValueError(f"{len(setup.players) + 1} distinct nobles are needed, not {nobles!r}")
        return start(setup.players, (setup.deck_1, setup.deck_2, setup.deck_3), nobles)

    def decide(self, state: GameState, move: Move) -> TurnEvent:
        return rules.decide(state, move)

    def evolve(self, state: GameState, event: TurnEvent) -> GameState:
        return rules.evolve(state, event)

    def move_of(self, event: TurnEvent) -> Move:
        return rules.move_of(event)

    def draw(self, state: GameState, move: Move, chance: Chance) -> Move:
        return move  # a turn draws nothing that the setup did not record

    def legal_moves(self, state: GameState) -> Sequence[Move]:
        return rules.legal_moves(state)

    def random_move(self, state: GameState, rng: random.Random) -> Move:
        options = rules.choices(state)
        return options.move(rng.randrange(len(options)))

    def at_turn_start(self, state: GameState) -> bool:
        return True

    def card_places(self, state: GameState) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
        face_up = tuple(card for row in state.board for card in row if card is not None)
        return face_up, {player.name: player.reserved for player in state.players}

    def parse_moves(self, text: str) -> list[Move]:
        return [notation.parse_move(text)]

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def move_json(self, state: GameState, move: Move) -> dict[str, Any]:
        return views.item_json(state, move)

    def state_json(self, seq: int, state: GameState) -> dict[str, Any]:
        return views.state_json(seq, state)

    def status(self, state: GameState) -> dict[str, Any]:
        return {}

    def whose_turn(self, state: GameState) -> str:
        if state.finished:
            winners = state.winners()
            return f"game over: {' and '.join(winners)} won{'' if len(winners) == 1 else ' together'}"
        return f"{state.player.name} to move"

    def event_notation(self, event: GameStarted | TurnEvent) -> str:
        return views.event_notation(event)

    def shown(self, event: TurnEvent) -> tuple[str, ...]:
        return views.shown(event)

    def board_text(self, game: Moment, *, width: int, color: bool, ascii: bool) -> str:
        from .render import board_text  # rich: only to print

        return board_text(game, width=width, color=color, ascii=ascii)

    def board_svg(self, game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
        from .svg import board_svg  # the picture: only when asked for

        return board_svg(game, seat=seat, event=event)

    # -- bots: their modules load on first use (a command that only shows or plays needs none)

    def hide(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        from ..common.hidden import determinize

        return determinize(state, seat, rng, cards=DECKS, face_up="board")

    def value(self, state: GameState, seat: int) -> float:
        from .heuristics import value

        return value(state, seat)

    def score(self, state: GameState, seat: int) -> float:
        from .heuristics import score

        return score(state, seat)


VARIANT: Variant[GameState, Move] = Splendor()
