"""A third game, defined outside splendor_cli: what adding a game takes (see test_toy_variant.py).

*Two cards*: two piles of two cards each, the top card of each face up: pile 1 holds `1-A`
(1 point) and `1-B` (2 points), pile 2 holds `2-A` (3 points) and `2-B` (4 points). On your
turn you `take` the face-up card of the first pile that has cards (its points are yours) or
`burn` it (nobody scores it); the card under it is turned face up. The game ends when both piles
are empty; most points wins, equal points share the victory.

Everything a game is lives here: its events, its state, its rules (`decide` with one handler per
action), its notation, its views and its bots' evaluation, gathered in one object satisfying
`splendor_cli.projection.variant.Variant`: a `GameVariant` that writes only what no default does
(no `draw`, `random_move`, `at_turn_start`, `status`, `whose_turn`). It declares what the sealed
protocol needs (`sealed_cards`): its two piles are two sealed decks, so `new --sealed` plays it
with both piles shuffled and encrypted by every player, each face-up card revealed by everyone's
shares (`OPEN` is the same game declaring none, which cannot be sealed). The registry learns it
with one call, `splendor_cli.variants.register(VARIANT)` (a built-in game: one line in `_BUILT_IN`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, assert_never

import attrs

from splendor_cli.errors import IllegalMoveError, InvalidMoveError
from splendor_cli.events import Envelope, Event, PlayEvent
from splendor_cli.projection.variant import Chance, GameVariant, Moment, Variant
from splendor_cli.sealing.placeholders import deck_problem

if TYPE_CHECKING:
    from splendor_cli.projection.variant import SealedCards

DECKS: Mapping[int, tuple[str, ...]] = {1: ("1-A", "1-B"), 2: ("2-A", "2-B")}
"""The two piles' cards, by pile (a sealed deck's level), as the game lists them."""
POINTS = {"1-A": 1, "1-B": 2, "2-A": 3, "2-B": 4}


@attrs.frozen(kw_only=True)
class PileDealt(Envelope):
    """The setup: the players and the two piles, each from the top (its first card face up)."""

    TYPE: ClassVar[str] = "pile_dealt"
    players: tuple[str, ...]
    pile_1: tuple[str, ...]
    pile_2: tuple[str, ...]


@attrs.frozen(kw_only=True)
class CardTaken(PlayEvent):
    """The face-up `card` scored; `drawn` is the card turned face up in its place ("" for none)."""

    TYPE: ClassVar[str] = "card_taken"
    card: str
    drawn: str


@attrs.frozen(kw_only=True)
class CardBurned(PlayEvent):
    """The face-up `card` burned (nobody scores it); `drawn` as for `CardTaken`."""

    TYPE: ClassVar[str] = "card_burned"
    card: str
    drawn: str


ToyEvent = CardTaken | CardBurned
Action = Literal["take", "burn"]


@attrs.frozen
class Hand:
    name: str
    points: int = 0


@attrs.frozen
class Table:
    players: tuple[Hand, ...]
    piles: tuple[tuple[str, ...], ...]
    """Each pile from the top: its first card face up, the others face down."""
    to_move: int = 0
    turn: int = 0

    @property
    def player(self) -> Hand:
        return self.players[self.to_move]

    @property
    def pile(self) -> tuple[str, ...]:
        """The pile played from: the first that has cards (empty once both are)."""
        return next((pile for pile in self.piles if pile), ())

    @property
    def decks(self) -> tuple[tuple[str, ...], ...]:
        """The face-down cards of each pile (what a sealed game keeps sealed)."""
        return tuple(pile[1:] for pile in self.piles)

    @property
    def finished(self) -> bool:
        return not any(self.piles)

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def winners(self) -> tuple[str, ...]:
        if not self.finished:
            return ()
        best = max(p.points for p in self.players)
        return tuple(p.name for p in self.players if p.points == best)


def _take(state: Table) -> CardTaken:
    pile = state.pile
    return CardTaken(player=state.player.name, card=pile[0], drawn=pile[1] if len(pile) > 1 else "")


def _burn(state: Table) -> CardBurned:
    pile = state.pile
    return CardBurned(player=state.player.name, card=pile[0], drawn=pile[1] if len(pile) > 1 else "")


def _deal(players: tuple[str, ...], decks: Mapping[int, tuple[str, ...]], chance: Chance) -> PileDealt:
    """The setup with these piles (cards, or in a sealed game the placeholders of unseen cards)."""
    return PileDealt(seq=1, players=players, pile_1=decks[1], pile_2=decks[2])


def _places(state: Table) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Where a state keeps cards outside its decks: the face-up top of each pile; nobody reserves."""
    return tuple(pile[0] for pile in state.piles if pile), {hand.name: () for hand in state.players}


class TwoCards(GameVariant[Table, Action]):
    """What the toy writes: what no default of `GameVariant` does. One move is one turn, chance
    draws nothing in play, `whose_turn` and `random_move` are the defaults; its two piles are
    its sealed cards (`sealed_cards`)."""

    name = "toy"
    title = "Two cards"
    seats = (2, 2)
    demo_players: tuple[str, ...] = ("ann", "bob")
    setup_type: type[Event] = PileDealt
    play_types: tuple[type[PlayEvent], ...] = (CardTaken, CardBurned)

    @property
    def sealed_cards(self) -> SealedCards[Table] | None:
        """Two sealed decks, the two piles: the deal from given piles, the face-up cards."""
        from splendor_cli.sealing.capability import SealedDecks

        return SealedDecks(decks=DECKS, deal=_deal, places=_places)

    def deal(self, players: tuple[str, ...], chance: Chance) -> PileDealt:
        return _deal(players, {level: chance.shuffle(cards, f"pile {level}") for level, cards in DECKS.items()}, chance)

    def start(self, setup: PileDealt) -> Table:
        piles = (setup.pile_1, setup.pile_2)
        for level, pile in enumerate(piles, start=1):
            problem = deck_problem(f"pile_{level}", level, pile, DECKS[level], f"cards of pile {level}")
            if problem:
                raise ValueError(problem)
        return Table(players=tuple(Hand(name) for name in setup.players), piles=piles)

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
        pile = state.pile
        if not pile or event.card != pile[0] or event.drawn != (pile[1] if len(pile) > 1 else ""):
            raise ValueError(f"{event.card} is not face up on the pile, or {event.drawn!r} not under it")
        gained = POINTS[event.card] if isinstance(event, CardTaken) else 0
        players = list(state.players)
        players[state.to_move] = attrs.evolve(state.player, points=state.player.points + gained)
        at = state.piles.index(pile)
        piles = tuple(p[1:] if k == at else p for k, p in enumerate(state.piles))
        return Table(tuple(players), piles, 1 - state.to_move, state.turn + 1)

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
            "piles": [len(pile) for pile in state.piles],
            "face_up": [pile[0] if pile else None for pile in state.piles],
            "players": [{"name": p.name, "points": p.points} for p in state.players],
        }

    def event_notation(self, event: PileDealt | ToyEvent) -> str:
        if isinstance(event, PileDealt):
            return f"new game of two cards: {', '.join(event.players)}"
        return "take" if isinstance(event, CardTaken) else "burn"

    def shown(self, event: ToyEvent) -> tuple[str, ...]:
        return (event.drawn,) if event.drawn else ()

    def board_text(self, game: Moment, *, width: int, color: bool, ascii: bool) -> str:
        state: Table = game.state
        scores = ", ".join(f"{p.name} {p.points}" for p in state.players)
        left = sum(len(pile) for pile in state.piles)
        return f"Two cards: {left} in the piles; {scores}; {self.whose_turn(state)}"

    def board_svg(self, game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
        from splendor_cli.presentation.svg_elements import FELT, document, el, text  # the picture: only when asked for

        state: Table = game.state
        scorer = event.player if isinstance(event, CardTaken) else None
        rows = [
            el("g", text(12, 28, self.whose_turn(state), size=16, bold=True), id="turn"),
            text(12, 52, f"{sum(len(pile) for pile in state.piles)} in the piles", size=13, bold=False),
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
        piles = tuple(pile[:1] + tuple(rng.sample(pile[1:], len(pile) - 1)) if pile else pile for pile in state.piles)
        return attrs.evolve(state, piles=piles)

    def value(self, state: Table, seat: int) -> float:
        return float(state.players[seat].points)

    def score(self, state: Table, seat: int) -> float:
        return self.value(state, seat) - self.value(state, 1 - seat)


class OpenTwoCards(TwoCards):
    """The same game declaring no sealed cards: it cannot be sealed (`new --sealed` refuses it)."""

    @property
    def sealed_cards(self) -> SealedCards[Table] | None:
        return None


VARIANT: Variant[Table, Action] = TwoCards()
OPEN: Variant[Table, Action] = OpenTwoCards()
"""The toy as a game that declares no sealed cards (same name, `toy`)."""
