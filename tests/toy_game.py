"""A third game, defined outside splendor_cli: what adding a game takes (see test_toy_variant.py).

*Two cards*: a face-down pile of two cards, `A` (1 point) and `B` (2 points). On your turn you
`take` the top card (its points are yours) or `burn` it (nobody scores it). The game ends when
the pile is empty; most points wins, equal points share the victory.

Everything a game is lives here: its events, its state, its rules (`decide` with one handler per
action), its notation, its views and its bots' evaluation, gathered in one object satisfying
`splendor_cli.projection.variant.Variant`: a `GameVariant` that writes only what no default does
(no `draw`, `random_move`, `at_turn_start`, `status`, `whose_turn`; and no sealed cards, so it
cannot be sealed). The registry learns it with one call,
`splendor_cli.variants.register(VARIANT)` (a built-in game: one line in `_BUILT_IN`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, assert_never

import attrs

from splendor_cli.errors import IllegalMoveError, InvalidMoveError
from splendor_cli.events import Envelope, Event, PlayEvent
from splendor_cli.projection.variant import Chance, GameVariant, Moment, Variant

POINTS = {"A": 1, "B": 2}


@attrs.frozen(kw_only=True)
class PileDealt(Envelope):
    """The setup: the players and the pile, from the top."""

    TYPE: ClassVar[str] = "pile_dealt"
    players: tuple[str, ...]
    pile: tuple[str, ...]


@attrs.frozen(kw_only=True)
class CardTaken(Envelope):
    TYPE: ClassVar[str] = "card_taken"
    player: str
    card: str


@attrs.frozen(kw_only=True)
class CardBurned(Envelope):
    TYPE: ClassVar[str] = "card_burned"
    player: str
    card: str


ToyEvent = CardTaken | CardBurned
Action = Literal["take", "burn"]


@attrs.frozen
class Hand:
    name: str
    points: int = 0


@attrs.frozen
class Table:
    players: tuple[Hand, ...]
    pile: tuple[str, ...]
    to_move: int = 0
    turn: int = 0

    @property
    def player(self) -> Hand:
        return self.players[self.to_move]

    @property
    def finished(self) -> bool:
        return not self.pile

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def winners(self) -> tuple[str, ...]:
        if not self.finished:
            return ()
        best = max(p.points for p in self.players)
        return tuple(p.name for p in self.players if p.points == best)


def _take(state: Table) -> CardTaken:
    return CardTaken(player=state.player.name, card=state.pile[0])


def _burn(state: Table) -> CardBurned:
    return CardBurned(player=state.player.name, card=state.pile[0])


class TwoCards(GameVariant[Table, Action]):
    """What the toy writes: what no default of `GameVariant` does. One move is one turn, chance
    draws nothing in play, `whose_turn` and `random_move` are the defaults; no sealed cards."""

    name = "toy"
    title = "Two cards"
    seats = (2, 2)
    demo_players: tuple[str, ...] = ("ann", "bob")
    setup_type: type[Event] = PileDealt
    play_types: tuple[type[PlayEvent], ...] = (CardTaken, CardBurned)

    def deal(self, players: tuple[str, ...], chance: Chance) -> PileDealt:
        return PileDealt(seq=1, players=players, pile=chance.shuffle(sorted(POINTS), "pile"))

    def start(self, setup: PileDealt) -> Table:
        if sorted(setup.pile) != sorted(POINTS):
            raise ValueError(f"the pile must hold A and B, not {setup.pile!r}")
        return Table(players=tuple(Hand(name) for name in setup.players), pile=setup.pile)

    def decide(self, state: Table, move: Action) -> ToyEvent:
        if state.finished:
            raise IllegalMoveError("the game is over", rule="game-over")
        match move:
            case "take":
                return _take(state)
            case "burn":
                return _burn(state)
            case _:
                assert_never(move)

    def evolve(self, state: Table, event: ToyEvent) -> Table:
        if event.card != state.pile[0]:
            raise ValueError(f"{event.card} is not on top of the pile")
        gained = POINTS[event.card] if isinstance(event, CardTaken) else 0
        players = list(state.players)
        players[state.to_move] = attrs.evolve(state.player, points=state.player.points + gained)
        return Table(tuple(players), state.pile[1:], 1 - state.to_move, state.turn + 1)

    def move_of(self, event: ToyEvent) -> Action:
        if event.card not in POINTS:
            raise ValueError(f"there is no card {event.card!r}")
        return "take" if isinstance(event, CardTaken) else "burn"

    def legal_moves(self, state: Table) -> Sequence[Action]:
        return () if state.finished else ("take", "burn")

    def parse_moves(self, text: str) -> list[Action]:
        word = text.strip().lower()
        if word == "take":
            return ["take"]
        if word == "burn":
            return ["burn"]
        raise InvalidMoveError(f"{text!r}: say take or burn")

    def format_move(self, move: Action) -> str:
        return move

    def move_json(self, state: Table, move: Action) -> dict[str, Any]:
        return {"notation": move, "action": move}

    def state_json(self, seq: int, state: Table) -> dict[str, Any]:
        return {
            "variant": self.name,
            "seq": seq,
            "turn": state.turn,
            "to_move": None if state.finished else state.player.name,
            "finished": state.finished,
            "winners": list(state.winners()),
            "pile": len(state.pile),
            "players": [{"name": p.name, "points": p.points} for p in state.players],
        }

    def event_notation(self, event: PileDealt | ToyEvent) -> str:
        if isinstance(event, PileDealt):
            return f"new game of two cards: {', '.join(event.players)}"
        return "take" if isinstance(event, CardTaken) else "burn"

    def shown(self, event: ToyEvent) -> tuple[str, ...]:
        return (event.card,)

    def board_text(self, game: Moment, *, width: int, color: bool, ascii: bool) -> str:
        state: Table = game.state
        scores = ", ".join(f"{p.name} {p.points}" for p in state.players)
        return f"Two cards: {len(state.pile)} in the pile; {scores}; {self.whose_turn(state)}"

    def board_svg(self, game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
        from splendor_cli.presentation.svg import FELT, document, el, text  # the picture: only when asked for

        state: Table = game.state
        scorer = event.player if isinstance(event, CardTaken) else None
        rows = [
            el("g", text(12, 28, self.whose_turn(state), size=16, bold=True), id="turn"),
            text(12, 52, f"{len(state.pile)} in the pile", size=13, bold=False),
            *(
                el(
                    "g",
                    text(12, 76 + 22 * i, f"{p.name}: {p.points}", size=14, bold=True),
                    id=f"player-{p.name}",
                    class_="player changed" if p.name == scorer else "player",
                )
                for i, p in enumerate(state.players)
            ),
        ]
        return document(
            320, 76 + 22 * len(state.players), f"Two cards, {self.whose_turn(state)}", rows, background=FELT
        )

    def hide(self, state: Table, seat: int, rng: random.Random) -> Table:
        return attrs.evolve(state, pile=tuple(rng.sample(state.pile, len(state.pile))))

    def value(self, state: Table, seat: int) -> float:
        return float(state.players[seat].points)

    def score(self, state: Table, seat: int) -> float:
        return self.value(state, seat) - self.value(state, 1 - seat)


VARIANT: Variant[Table, Action] = TwoCards()
