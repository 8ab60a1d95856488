"""The protocol every game implements, so that everything else is written once.

The fold (game.py), the store, verify, the merge driver, mail, the bots, tournaments and the
command line know a game only through this protocol: they never ask which game it is. Each
game is one package under `splendor_cli/variants/` that builds one object satisfying
`Variant` and registers it in `splendor_cli/variants/__init__.py` (one line); `find_variant`
there turns a file header's `variant` into it, as python-chess's `find_variant` turns a PGN
header into a board class. A game's class derives from `GameVariant`, which writes what games
share once (the delegation to the game's modules, the defaults), so that it writes only what
differs; and it declares up front what it can be (OpenSpiel's `GameType`): whether it is played
`stepwise`, and whether it can be sealed (`sealed_cards`).

A game has states (frozen, rebuilt by the fold), moves (what a player says: a whole turn, or
in a game played `stepwise`, one step of a turn) and events (what the log records). The
contract between them, checked on every read of a file:

    event = variant.decide(state, move)          # IllegalMoveError / AmbiguousMoveError
    state = variant.evolve(state, event)         # ValueError if the event cannot apply
    variant.decide(state, variant.move_of(event)) == event   (up to the envelope)

Chance (a shuffle, a draw from a bag) enters only through `Chance`: a seeded random source
when a game is dealt or simulated, the SHA-256 stream of seeding.py when the log decides it.
"""

from __future__ import annotations

import abc
import functools
import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..events import Event, PlayEvent
from ..patterns import LazyPattern

if TYPE_CHECKING:
    import random


class Seat(Protocol):
    """A player's holdings, as far as code outside the game needs them."""

    @property
    def name(self) -> str: ...

    @property
    def points(self) -> int: ...


class State(Protocol):
    """A game's table, as far as code outside the game needs it."""

    @property
    def players(self) -> Sequence[Seat]: ...

    @property
    def player(self) -> Seat:
        """The player to move."""
        ...

    @property
    def to_move(self) -> int: ...

    @property
    def turn(self) -> int:
        """Turns completed."""
        ...

    @property
    def finished(self) -> bool: ...

    def winners(self) -> tuple[str, ...]:
        """The winners once finished (several: a shared victory; none: a draw)."""
        ...

    def names(self) -> tuple[str, ...]: ...


class Moment(Protocol):
    """A game as it stands after some event, as a board draws it (a `Game` is one)."""

    @property
    def seq(self) -> int:
        """The number of the last event taken into account."""
        ...

    @property
    def state(self) -> Any:
        """The table then, of the game's own state type."""
        ...


class Chance(Protocol):
    """Where randomness comes from: items are strings (card ids, gem names) so that every
    source, seeded or not, sees the same thing. `label` names the draw (a seeded source
    draws each label independently; a random source ignores it)."""

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]: ...

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]: ...


S = TypeVar("S", bound=State)
M = TypeVar("M", bound=Hashable)


class Variant(Protocol[S, M]):
    """One game: its setup, rules, notation, views and bots' evaluation."""

    name: str
    """What a file header's `variant` says ("base", "duel"): never change it."""
    title: str
    """What people call it ("Splendor", "Splendor Duel")."""
    seats: tuple[int, int]
    """The fewest and most players."""
    demo_players: tuple[str, ...]
    stepwise: bool
    """A turn is several moves, each its own event (Splendor Duel); else one move is one turn."""
    setup_type: type[Event]
    play_types: tuple[type[PlayEvent], ...]
    drawing_types: tuple[type[PlayEvent], ...]
    """The play events whose outcome chance decides (a Duel's replenish): the fold counts them,
    and the k-th draw of a game is the same whatever happened before it (an undo cannot re-roll
    it, a detour cannot choose it): `projection.game.Game.chance`."""
    expert_iterations: Mapping[int, int]
    """By table size, the `expert` bot's iterations a move when its spec names no budget, where
    the game sets one (else the bot's own default)."""

    @property
    def sealed_cards(self) -> SealedCards[S] | None:
        """What the game declares to be played sealed (`splendor new --sealed`): its decks, its
        deal from given decks, where its states keep cards, how revealed cards replace
        placeholders (splendor_cli/sealing/capability.py). None: the game cannot be sealed."""
        ...

    # -- setup and rules -------------------------------------------------------------------

    def deal(self, players: tuple[str, ...], chance: Chance) -> Event:
        """The setup event of a new game: the outcome of the shuffle, recorded."""
        ...

    def start(self, setup: Any) -> S:
        """The table after the setup event. Raise ValueError naming what is wrong with it."""
        ...

    def decide(self, state: S, move: M) -> PlayEvent:
        """The event recording `move` for the player to move (envelope empty).

        Raises:
            IllegalMoveError: the rules forbid it now (the message names the rule).
            AmbiguousMoveError: the move leaves a choice unsaid.
        """
        ...

    def evolve(self, state: S, event: Any) -> S:
        """The state after a play event that `decide` accepted. Raise ValueError if it cannot apply."""
        ...

    def move_of(self, event: Any) -> M:
        """The fully specified move that a play event records. Raise ValueError for ids no table has."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after a move that `legal_moves`/`random_move` just listed (its random outcome
        already drawn by `draw` in a game that draws), trusted, not judged: equal to
        `evolve(state, decide(state, move))`, built quicker (no judging, no event). The engine of
        search and random play; never for a move read from a file or typed by a player, which
        `decide` judges."""
        ...

    def draw(self, state: S, move: M, chance: Chance) -> M:
        """`move` with its random outcome drawn from `chance` (a Duel's replenish); else `move`."""
        ...

    def legal_moves(self, state: S) -> Sequence[M]:
        """Every legal move of the player to move; empty once the game is over."""
        ...

    def random_move(self, state: S, rng: random.Random) -> M:
        """A uniform choice among the legal moves (quicker than listing them all), outcome drawn."""
        ...

    def at_turn_start(self, state: S) -> bool:
        """Whether `state` is between two turns (always, unless `stepwise`)."""
        ...

    # -- notation and views ----------------------------------------------------------------

    def parse_moves(self, text: str) -> list[M]:
        """The moves `text` says (one turn; or, `stepwise`, one or more steps). InvalidMoveError."""
        ...

    def format_move(self, move: M) -> str: ...

    def move_json(self, state: S, move: M) -> dict[str, Any]:
        """An item of `moves --json` (docs/contract.md)."""
        ...

    def state_json(self, seq: int, state: S) -> dict[str, Any]:
        """`state --json` (docs/contract.md)."""
        ...

    def status(self, state: S) -> dict[str, Any]:
        """What `play --json` adds about where the turn stands (a Duel's `phase`); {} for none."""
        ...

    def whose_turn(self, state: S) -> str:
        """`bob to move`, or how the game ended."""
        ...

    def event_notation(self, event: Any) -> str:
        """How the log writes one of the game's own events (its setup, a turn or a step)."""
        ...

    def shown(self, event: Any) -> tuple[str, ...]:
        """The hidden cards a play event showed (dealt to the table, reserved blind)."""
        ...

    def board_text(self, game: Moment, *, width: int, color: bool, ascii: bool) -> str:
        """The board as a player sees it (the presentation floor: imported only when asked for)."""
        ...

    def board_svg(self, game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
        """The table as one self-contained SVG document (presentation floor: imported only when asked for).
        `seat`: the player whose view it is (their blind reserves face up); None: a spectator's view
        (every blind reserve face down). `event`: the event that led to this moment, whose changes are
        highlighted (None: nothing highlighted; an undo or the setup: nothing)."""
        ...

    # -- bots --------------------------------------------------------------------------------

    def hide(self, state: S, seat: int, rng: random.Random) -> S:
        """`state` with what `seat` cannot see (deck order, others' blind reserves) drawn anew."""
        ...

    def value(self, state: S, seat: int) -> float:
        """How good the position looks for `seat`, in points (heuristic; mcts scores leads by it)."""
        ...

    def score(self, state: S, seat: int) -> float:
        """What `greedy` maximises one move ahead: `value`, with wins and losses weighed in."""
        ...

    def chances(self, state: S) -> list[float]:
        """Each seat's chance of winning from `state`, in [0, 1] (exact once the game is over):
        what `expert` searches by. The default reads it off `value` (variants/common/chances.py)."""
        ...


# -- what a game writes: only what differs ---------------------------------------------------

if TYPE_CHECKING:  # what mypy checks a game's modules against (types only: no start-up cost)
    S_contra = TypeVar("S_contra", contravariant=True)
    M_contra = TypeVar("M_contra", contravariant=True)

    # what a game declares to be played sealed (`sealed_cards`; sealing/capability.py: `SealedDecks`)
    Places = tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]
    """Where a state keeps cards outside its decks: those face up, and each player's reserved ones."""
    Decks = Mapping[int, tuple[str, ...]]
    """A game's decks by level (1, 2, ...: as many as it has, at most 9), each from the top."""

    class SealedCards(Protocol[S_contra]):
        """What a game declares to be played sealed (`Variant.sealed_cards`)."""

        @property
        def decks(self) -> Decks:
            """The cards of each of the game's sealed decks, by level (1, 2, ...: as many decks as
            the game has, each of 1 to 99 cards), in the order the game lists them: the first
            shuffle encrypts them in this order, openly. The number of decks is the game's: each
            shuffle holds that many (`sealing.events.DeckShuffled.decks`)."""
            ...

        def deal(self, players: tuple[str, ...], decks: Decks, chance: Chance) -> Event:
            """The setup event of a game whose decks are `decks` (each from the top: cards, or the
            placeholders of cards nobody has seen), the rest of the deal (nobles, a Duel's bag)
            drawn from `chance` by its labels."""
            ...

        def card_places(self, state: S_contra) -> Places:
            """Where `state` keeps the cards a sealed game may hold unrevealed, outside its decks:
            the cards face up on the table (a market, a pyramid: row by row, as the state holds
            them, empty slots left out), and each player's reserved cards, by name (every player, in
            seat order). Read at every turn and reveal (reveal.py), instead of walking the state."""
            ...

        def substitute(self, value: Any, cards: Mapping[str, str]) -> Any:
            """`value` (a state, or a play event) with each placeholder of `cards` replaced by its
            card: only the parts that hold one are made anew, the others kept (the very objects)."""
            ...

    class RulesModule(Protocol[S, M]):
        """A game's rules module, as `GameVariant` delegates to it."""

        def decide(self, state: S, move: M, /) -> PlayEvent: ...

        def evolve(self, state: S, event: Any, /) -> S: ...

        def move_of(self, event: Any, /) -> M: ...

        def legal_moves(self, state: S, /) -> Sequence[M]: ...

    class NotationModule(Protocol[M]):
        """A game's notation module, where one move is one turn (`parse_moves` says one move)."""

        def parse_move(self, text: str, /) -> M: ...

        def format_move(self, move: M, /) -> str: ...

    class ViewsModule(Protocol[S_contra, M_contra]):
        """A game's views module: what it shows as data (docs/contract.md) and in the log."""

        def item_json(self, state: S_contra, move: M_contra, /) -> dict[str, Any]: ...

        def state_json(self, seq: int, state: S_contra, /) -> dict[str, Any]: ...

        def event_notation(self, event: Any, /) -> str: ...

        def shown(self, event: Any, /) -> tuple[str, ...]: ...


@functools.cache
def _lazy(module: str, name: str) -> Any:
    """`name` of `module`, imported on first use (a game's board, picture or heuristics)."""
    return getattr(importlib.import_module(module), name)


class GameVariant(abc.ABC, Generic[S, M]):
    """The base class of a game: it writes what games share once, so that a game writes only
    what differs (as python-chess's variants override the few hooks that differ from `Board`).

    A game names its modules and the base class delegates to them: `rules` (`decide`, `evolve`,
    `move_of`, `legal_moves`), `notation` (`parse_moves` of one move, `format_move`), `views`
    (`move_json` is its `item_json`, `state_json`, `event_notation`, `shown`), and under
    `package` the modules imported on first use, the presentation and the bots' evaluation:
    `render.board_text`, `svg.board_svg`, `heuristics.value` and `heuristics.score` (a game's
    own boards, reached lazily as before: nothing but the game's package is named). It writes
    `deal` and `start`, and overrides any other hook whose default does not fit:

    - one move is one turn (`stepwise` False, `at_turn_start` always), chance draws nothing in
      play (`drawing_types` empty, `draw` the move as it is), `random_move` a uniform choice
      among `legal_moves` with its outcome drawn, `play` the event `decide` makes, applied by
      `evolve` (a game writes a quicker one: the property tests hold it equal);
    - `status` nothing, `whose_turn` from the state's `finished`, `winners` and `player`;
    - `hide` the state as it is (a game that hides nothing from its players);
    - `sealed_cards` None: the game cannot be sealed until it declares what sealing needs.
    """

    name: str
    title: str
    seats: tuple[int, int]
    demo_players: tuple[str, ...]
    setup_type: type[Event]
    play_types: tuple[type[PlayEvent], ...]
    stepwise: bool = False
    drawing_types: tuple[type[PlayEvent], ...] = ()
    expert_iterations: Mapping[int, int] = MappingProxyType({})

    @property
    def sealed_cards(self) -> SealedCards[S] | None:
        return None

    rules: RulesModule[S, M]
    notation: NotationModule[M]
    views: ViewsModule[S, M]
    package: str = ""
    """The game's package, where its `render`, `svg` and `heuristics` modules are."""

    # -- setup and rules: what every game writes

    @abc.abstractmethod
    def deal(self, players: tuple[str, ...], chance: Chance) -> Event: ...

    @abc.abstractmethod
    def start(self, setup: Any) -> S: ...

    # -- what a game's modules say

    def decide(self, state: S, move: M) -> PlayEvent:
        return self.rules.decide(state, move)

    def evolve(self, state: S, event: Any) -> S:
        return self.rules.evolve(state, event)

    def move_of(self, event: Any) -> M:
        return self.rules.move_of(event)

    def play(self, state: S, move: M) -> S:
        return self.evolve(state, self.decide(state, move))

    def legal_moves(self, state: S) -> Sequence[M]:
        return self.rules.legal_moves(state)

    def parse_moves(self, text: str) -> list[M]:
        return [self.notation.parse_move(text)]

    def format_move(self, move: M) -> str:
        return self.notation.format_move(move)

    def move_json(self, state: S, move: M) -> dict[str, Any]:
        return self.views.item_json(state, move)

    def state_json(self, seq: int, state: S) -> dict[str, Any]:
        return self.views.state_json(seq, state)

    def event_notation(self, event: Any) -> str:
        return self.views.event_notation(event)

    def shown(self, event: Any) -> tuple[str, ...]:
        return self.views.shown(event)

    def board_text(self, game: Moment, *, width: int, color: bool, ascii: bool) -> str:
        board_text: Callable[..., str] = _lazy(f"{self.package}.render", "board_text")  # rich: only to print
        return board_text(game, width=width, color=color, ascii=ascii)

    def board_svg(self, game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
        board_svg: Callable[..., str] = _lazy(f"{self.package}.svg", "board_svg")  # only when asked for
        return board_svg(game, seat=seat, event=event)

    def value(self, state: S, seat: int) -> float:
        value: Callable[[S, int], float] = _lazy(f"{self.package}.heuristics", "value")  # bots only
        return value(state, seat)

    def score(self, state: S, seat: int) -> float:
        score: Callable[[S, int], float] = _lazy(f"{self.package}.heuristics", "score")
        return score(state, seat)

    # -- defaults

    def chances(self, state: S) -> list[float]:
        from ..variants.common.chances import from_lead  # bots only

        return from_lead(state, self.value)

    def draw(self, state: S, move: M, chance: Chance) -> M:
        return move

    def random_move(self, state: S, rng: random.Random) -> M:
        from .seeding import RandomChance

        options = self.legal_moves(state)
        return self.draw(state, options[rng.randrange(len(options))], RandomChance(rng))

    def at_turn_start(self, state: S) -> bool:
        return True

    def status(self, state: S) -> dict[str, Any]:
        return {}

    def whose_turn(self, state: S) -> str:
        if not state.finished:
            return f"{state.player.name} to move"
        winners = state.winners()
        if not winners:
            return "game over: a draw"
        return f"game over: {' and '.join(winners)} won{'' if len(winners) == 1 else ' together'}"

    def hide(self, state: S, seat: int, rng: random.Random) -> S:
        return state


AnyVariant = Variant[Any, Any]
"""A game of unknown kind, as the code written once against the protocol holds it."""


NAME_RULE = (
    "a player name is 1 to 32 ASCII letters, digits and _ . @ : # + -, starting with a letter or a digit, without '..'"
)
"""The rule for a player name, as every message that refuses a name quotes it."""
NAME = LazyPattern(r"[A-Za-z0-9][A-Za-z0-9_.@:#+-]{0,31}")
"""What a player name may be (with no `..` in it): see `name_problem`."""


def name_problem(name: str) -> str:
    """What is wrong with `name` as a player name ("" when nothing is).

    The one rule for a player name, enforced where a game is made (`splendor new`) and on every
    read of a file (`check_players`, which the fold calls for the setup and for `seeds_asked`;
    the header's players must be the setup's): `NAME_RULE`, i.e. the regular expression `NAME`
    and no `..`. An ASCII letter or digit first, then letters, digits and `_ . @ : # + -` (a bot
    seat is named like `bot:mcts:400#2`), at most 32 characters. So a name holds no whitespace,
    no control character (a terminal escape, a line break), nothing that is not ASCII (no
    right-to-left override), no `/` or `\\` and no `..`: it is safe to print, and safe in a
    file name (the secrets of a commit-then-reveal deal are kept in files named after players).
    """
    if NAME.fullmatch(name) and ".." not in name:
        return ""
    return f"bad player name {_quoted(name)}: {NAME_RULE}"


def _quoted(value: str, most: int = 40) -> str:
    """A value of a file quoted for a message: ASCII, escaped (no control character), short."""
    text = ascii(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def check_players(variant: AnyVariant, players: Sequence[str]) -> str:
    """What is wrong with this list of players for `variant` ("" when nothing is): a name that
    breaks `NAME_RULE` (the first), a number of players the game cannot have, a name twice."""
    for name in players:
        problem = name_problem(name)
        if problem:
            return problem
    low, high = variant.seats
    if not low <= len(players) <= high:
        many = f"{low}" if low == high else f"{low} to {high}"
        return f"{variant.title} is for {many} players, not {len(players)}"
    if len(set(players)) != len(players):
        return f"player names must differ: {', '.join(players)}"
    return ""


__all__ = [
    "NAME",
    "NAME_RULE",
    "AnyVariant",
    "Chance",
    "GameVariant",
    "Moment",
    "Seat",
    "State",
    "Variant",
    "check_players",
    "name_problem",
]
