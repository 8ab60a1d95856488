"""Sealed setups for the games' own code (sealing/placeholders.py), for both games at once.

`SealedChance` deals as a sealed deal leaves a game: real cards face up, a placeholder (`2?07`)
in every other place of a deck. `SealedGame` holds what the tests of both games do alike (the
places of every card, conservation, no placeholder offered, reveals); `SealedBase` and
`SealedDuel` say what differs (the market, a move, a state whose player can pay anything). The
tests of a property both games share are written once over `GAMES` (variants/test_sealed.py);
the tests of one game's own moves stay in its module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import attrs

from splendor_cli.model import Gem, Tokens
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.sealing.placeholders import is_placeholder, level_of, placeholder
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base import heuristics as base_heuristics
from splendor_cli.variants.base.cards import DECKS as BASE_DECKS
from splendor_cli.variants.base.events import GameStarted
from splendor_cli.variants.base.rules import Move, choices
from splendor_cli.variants.base.state import GameState
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel import heuristics as duel_heuristics
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS
from splendor_cli.variants.duel.cards import DECKS as DUEL_DECKS
from splendor_cli.variants.duel.events import DuelStarted
from splendor_cli.variants.duel.state import CELLS, DuelState
from splendor_cli.variants.duel.step import Step


@attrs.define
class SealedChance:
    """Chance as a sealed deal leaves it: each deck shuffled by `rng`, its first `face_up[level]`
    cards real (revealed), every other one its placeholder. `truth` keeps what each placeholder
    stands for (what the players' shares would open)."""

    rng: random.Random
    face_up: Mapping[int, int]
    truth: dict[str, str] = attrs.Factory(dict)

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        out = list(items)
        self.rng.shuffle(out)
        if not label.startswith("deck "):
            return tuple(out)
        level = int(label.removeprefix("deck "))
        for position in range(self.face_up[level] + 1, len(out) + 1):
            self.truth[placeholder(level, position)] = out[position - 1]
            out[position - 1] = placeholder(level, position)
        return tuple(out)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return tuple(self.rng.sample(list(items), count))


class SealedGame:
    """What the sealed tests of both games do alike; the subclasses say what differs."""

    name = ""
    variant: Any = None
    decks: ClassVar[Mapping[int, tuple[str, ...]]] = {}
    face_up: ClassVar[Mapping[int, int]] = {}
    market_key = ""
    """The market's key in `state_json` (its rows by level)."""
    value: Callable[[Any, int], float]
    """The game's heuristic value of a state for a seat."""
    random_moves = 0
    """How many random moves (a Duel's steps) `random_play` plays."""

    def players(self, seed: int) -> tuple[str, ...]:
        return ("ann", "bob")

    def start(self, seed: int = 1, players: tuple[str, ...] = ("ann", "bob")) -> tuple[Any, SealedChance]:
        """A sealed setup dealt by the game's own `deal`, shuffled by `seed`; its chance."""
        chance = SealedChance(random.Random(seed), self.face_up)
        return self.variant.start(self.variant.deal(players, chance)), chance

    def market(self, state: Any) -> tuple[tuple[str | None, ...], ...]:
        raise NotImplementedError

    def rich(self, state: Any) -> Any:
        """`state` with the player to move able to pay for any card."""
        raise NotImplementedError

    def setup_of(self, decks: Sequence[tuple[str, ...]]) -> Any:
        """A setup of ann and bob with these decks (levels 1 to 3)."""
        raise NotImplementedError

    def random_move(self, state: Any, rng: random.Random) -> Any:
        """`state` after a random legal move (a Duel's step)."""
        raise NotImplementedError

    def midgame(self, seed: int) -> Any:
        """Both players reserved blind, a market place waiting to be revealed."""
        raise NotImplementedError

    def reveal(self, state: Any, cards: dict[str, str]) -> Any:
        return self.variant.sealed_cards.substitute(state, cards) if self.variant.sealed_cards else state

    def places(self, state: Any) -> list[str]:
        """Every card or placeholder of the state, wherever it lies (a blind reserve counted once)."""
        found = [card for deck in state.decks for card in deck]
        found += [card for row in self.market(state) for card in row if card is not None]
        for player in state.players:
            found += [*player.cards, *player.reserved]
        return found

    def assert_conserved(self, state: Any, *, sealed_ok: bool = True) -> None:
        """Each level's places hold its cards once each, a placeholder standing for some (unless not `sealed_ok`)."""
        found = self.places(state)
        assert len(found) == len(set(found)), "no card or placeholder twice"
        for level, cards in self.decks.items():
            here = [card for card in found if level_of(card) == level]
            assert len(here) == len(cards)
            assert {card for card in here if not is_placeholder(card)} <= set(cards)
            if not sealed_ok:
                assert sorted(here) == sorted(cards)

    def assert_no_placeholder_offered(self, state: Any) -> None:
        for move in self.variant.legal_moves(state):
            assert not is_placeholder(move.card), move
            self.variant.move_json(state, move)
            self.variant.format_move(move)

    def random_play(self, seed: int, reveal_reserves: bool) -> list[Any]:
        """Random legal moves on a sealed setup: a card dealt face up is revealed at once (a random
        card of those nowhere on the table, as an unknown deck could give); a blind reserve is
        opened in its owner's view when `reveal_reserves`. Every state met, in order."""
        rng = random.Random(seed)
        state, _ = self.start(seed, self.players(seed))
        met = [state]
        for _ in range(self.random_moves):
            if state.finished:
                break
            state = self.random_move(state, rng)
            met.append(state)
            pending = [c for row in self.market(state) for c in row if c is not None and is_placeholder(c)]
            if reveal_reserves:
                pending += [c for c in state.player.reserved if is_placeholder(c)]
            if pending:
                seen = set(self.places(state))
                for card in pending:
                    real = rng.choice(sorted(c for c in self.decks[level_of(card)] if c not in seen))
                    seen.add(real)
                    state = self.reveal(state, {card: real})
                met.append(state)
        return met


RICH = Tokens.of(white=7, blue=7, green=7, red=7, black=7)
"""Bonuses that make every card of the base game free."""


class SealedBase(SealedGame):
    name = "base"
    variant = BASE
    decks = BASE_DECKS
    face_up: ClassVar[Mapping[int, int]] = {1: 4, 2: 4, 3: 4}
    market_key = "board"
    value = staticmethod(base_heuristics.value)
    random_moves = 40

    def players(self, seed: int) -> tuple[str, ...]:
        return ("ann", "bob", "cy")[: 2 + seed % 2]

    def market(self, state: GameState) -> tuple[tuple[str | None, ...], ...]:
        rows: tuple[tuple[str | None, ...], ...] = state.board
        return rows

    def rich(self, state: GameState) -> GameState:
        """Bonuses that buy any card for nothing, and no noble on the table (which would visit)."""
        players = list(state.players)
        players[state.to_move] = attrs.evolve(players[state.to_move], bonuses=RICH)
        return attrs.evolve(state, players=tuple(players), nobles=())

    def setup_of(self, decks: Sequence[tuple[str, ...]]) -> GameStarted:
        return GameStarted.of(("ann", "bob"), tuple(decks), ("N01", "N02", "N03"))

    def play(self, state: GameState, move: Move | str) -> tuple[GameState, object]:
        if isinstance(move, str):
            (move,) = BASE.parse_moves(move)
        event = BASE.decide(state, move)
        return BASE.evolve(state, event), event

    def random_move(self, state: GameState, rng: random.Random) -> GameState:
        options = choices(state)
        return self.play(state, options.move(rng.randrange(len(options))))[0]

    def midgame(self, seed: int) -> GameState:
        state, _ = self.start(seed)
        state, _ = self.play(state, "reserve deck 1")
        state, _ = self.play(state, "reserve deck 3")
        state, _ = self.play(self.rich(state), f"buy {state.board[1][2]}")
        return state


FREE = Tokens.of(white=9, blue=9, green=9, red=9, black=9)
"""Bonuses that make every Duel card free (but for its pearls)."""


class SealedDuel(SealedGame):
    name = "duel"
    variant = DUEL
    decks = DUEL_DECKS
    face_up: ClassVar[Mapping[int, int]] = {1: 5, 2: 4, 3: 3}
    market_key = "pyramid"
    value = staticmethod(duel_heuristics.value)
    random_moves = 80

    def market(self, state: DuelState) -> tuple[tuple[str | None, ...], ...]:
        rows: tuple[tuple[str | None, ...], ...] = state.pyramid
        return rows

    def rich(self, state: DuelState) -> DuelState:
        """Bonuses that pay any gem, and 2 pearls."""
        players = list(state.players)
        players[state.to_move] = attrs.evolve(players[state.to_move], bonuses=FREE, tokens=Tokens.of(pearl=2))
        return attrs.evolve(state, players=tuple(players))

    def setup_of(self, decks: Sequence[tuple[str, ...]]) -> DuelStarted:
        board = self.start()[0].board
        return DuelStarted(seq=1, parent="", players=("ann", "bob"), decks=tuple(decks), board=board)

    def step(self, state: DuelState, move: Step | str, rng: random.Random | None = None) -> tuple[DuelState, object]:
        if isinstance(move, str):
            (move,) = DUEL.parse_moves(move)
        event = DUEL.decide(state, DUEL.draw(state, move, RandomChance(rng or random.Random(0))))
        return DUEL.evolve(state, event), event

    def finish_turn(self, state: DuelState, rng: random.Random) -> DuelState:
        """Whatever the turn still owes (an ability, a royal card, returns), played at random."""
        while not state.finished and not state.at_turn_start:
            state, _ = self.step(state, DUEL.random_move(state, rng), rng)
        return state

    def random_move(self, state: DuelState, rng: random.Random) -> DuelState:
        return self.step(state, DUEL.random_move(state, rng), rng)[0]

    def gold_cell(self, state: DuelState) -> str:
        return str(CELLS[state.board.index(Gem.GOLD)])

    def buy_step(self, state: DuelState, card: str) -> Step:
        return next(s for s in DUEL.legal_moves(state) if s.step == "buy" and s.card == card)

    def midgame(self, seed: int) -> DuelState:
        rng = random.Random(seed)
        state, _ = self.start(seed)
        state, _ = self.step(state, f"reserve deck 1 {self.gold_cell(state)}")
        state = self.finish_turn(state, rng)
        state, _ = self.step(state, f"reserve deck 2 {self.gold_cell(state)}")
        state = self.finish_turn(state, rng)
        state = self.rich(state)
        card = next(c for c in state.pyramid[2] if c is not None and not DUEL_CARDS[c].wild)
        state, _ = self.step(state, self.buy_step(state, card))
        return state


SEALED_BASE = SealedBase()
SEALED_DUEL = SealedDuel()
GAMES: dict[str, SealedGame] = {"base": SEALED_BASE, "duel": SEALED_DUEL}
