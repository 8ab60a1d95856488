"""The state of a game of Splendor: frozen values, rebuilt from the events and never stored."""

from __future__ import annotations

from typing import Any

import attrs

from ...model import COLOURS, EMPTY, Gem, Tokens

WINNING_POINTS = 15
"""rulebook: a player who ends a turn with 15 points or more triggers the last round."""
MAX_TOKENS = 10
"""rulebook: at most 10 tokens (gold included) at the end of a turn."""
MAX_RESERVED = 3
SLOTS = 4
"""Face-up cards per level."""
GOLD_TOKENS = 5
GEMS_PER_COLOUR = {2: 4, 3: 5, 4: 7}
"""rulebook: tokens of each gem colour by number of players; gold is always 5."""


@attrs.frozen(kw_only=True)
class PlayerState:
    """One player's holdings. `bonuses` and `points` follow from the cards and nobles held."""

    name: str
    tokens: Tokens = EMPTY
    cards: tuple[str, ...] = ()
    reserved: tuple[str, ...] = ()
    blind: tuple[str, ...] = ()
    """The reserved cards taken blind from a deck: at the table, only their owner knows them."""
    nobles: tuple[str, ...] = ()
    bonuses: Tokens = EMPTY
    points: int = 0


@attrs.frozen(kw_only=True)
class GameState:
    """The table after some turns. `board[level - 1][slot]` is a card id or None (deck empty)."""

    players: tuple[PlayerState, ...]
    bank: Tokens
    board: tuple[tuple[str | None, ...], ...]
    decks: tuple[tuple[str, ...], ...]
    nobles: tuple[str, ...]
    to_move: int = 0
    turn: int = 0
    last_round: bool = False
    finished: bool = False

    @property
    def player(self) -> PlayerState:
        """The player to move."""
        return self.players[self.to_move]

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def winners(self) -> tuple[str, ...]:
        """rulebook: most points; tie: fewest purchased cards; still tied: a shared victory."""
        if not self.finished:
            return ()
        best = min((-p.points, len(p.cards)) for p in self.players)
        return tuple(p.name for p in self.players if (-p.points, len(p.cards)) == best)


_FULL_BANK = {
    players: Tokens.of({gem: per_colour for gem in COLOURS}) + Tokens.of({Gem.GOLD: GOLD_TOKENS})
    for players, per_colour in GEMS_PER_COLOUR.items()
}
"""The bank at the start, by number of players."""


def start(players: tuple[str, ...], decks: tuple[tuple[str, ...], ...], nobles: tuple[str, ...]) -> GameState:
    """The table after setup: four cards face up per level, the nobles revealed, the bank full."""
    bank = _FULL_BANK[len(players)]
    board = tuple(tuple(deck[:SLOTS]) + (None,) * (SLOTS - len(deck[:SLOTS])) for deck in decks)
    return GameState(
        players=tuple(PlayerState(name=name) for name in players),
        bank=bank,
        board=board,
        decks=tuple(deck[SLOTS:] for deck in decks),
        nobles=nobles,
    )


# -- building states quickly (the hot path of play: a new PlayerState and GameState every turn) --


def _setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The slots' setters of `cls`, whose fields must be exactly `names` (in order) with no
    validator, converter or post-init: what its attrs `__init__` would do, done directly."""
    fields = attrs.fields(cls)
    if (
        tuple(f.name for f in fields) != names
        or any(f.validator or f.converter for f in fields)
        or hasattr(cls, "__attrs_post_init__")
    ):
        raise TypeError(f"{cls.__name__} changed: update its builder in {__name__}")
    return tuple(cls.__dict__[name].__set__ for name in names)


_new = object.__new__
PLAYER_SETTERS = _setters(PlayerState, ("name", "tokens", "cards", "reserved", "blind", "nobles", "bonuses", "points"))
"""The slots' setters of PlayerState, in the order of its fields (for a builder written inline)."""
STATE_SETTERS = _setters(
    GameState, ("players", "bank", "board", "decks", "nobles", "to_move", "turn", "last_round", "finished")
)
"""The slots' setters of GameState, in the order of its fields."""
_P_NAME, _P_TOKENS, _P_CARDS, _P_RESERVED, _P_BLIND, _P_NOBLES, _P_BONUSES, _P_POINTS = PLAYER_SETTERS
_G_PLAYERS, _G_BANK, _G_BOARD, _G_DECKS, _G_NOBLES, _G_TO_MOVE, _G_TURN, _G_LAST, _G_FINISHED = STATE_SETTERS


def new_player(
    name: str,
    tokens: Tokens,
    cards: tuple[str, ...],
    reserved: tuple[str, ...],
    blind: tuple[str, ...],
    nobles: tuple[str, ...],
    bonuses: Tokens,
    points: int,
) -> PlayerState:
    """`PlayerState(name=name, tokens=tokens, ...)`, every field given, in half the time."""
    player = _new(PlayerState)
    _P_NAME(player, name)
    _P_TOKENS(player, tokens)
    _P_CARDS(player, cards)
    _P_RESERVED(player, reserved)
    _P_BLIND(player, blind)
    _P_NOBLES(player, nobles)
    _P_BONUSES(player, bonuses)
    _P_POINTS(player, points)
    return player


def new_state(
    players: tuple[PlayerState, ...],
    bank: Tokens,
    board: tuple[tuple[str | None, ...], ...],
    decks: tuple[tuple[str, ...], ...],
    nobles: tuple[str, ...],
    to_move: int,
    turn: int,
    last_round: bool,
    finished: bool,
) -> GameState:
    """`GameState(players=players, bank=bank, ...)`, every field given, in half the time."""
    state = _new(GameState)
    _G_PLAYERS(state, players)
    _G_BANK(state, bank)
    _G_BOARD(state, board)
    _G_DECKS(state, decks)
    _G_NOBLES(state, nobles)
    _G_TO_MOVE(state, to_move)
    _G_TURN(state, turn)
    _G_LAST(state, last_round)
    _G_FINISHED(state, finished)
    return state
