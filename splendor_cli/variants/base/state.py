"""The state of a game of Splendor: frozen values, rebuilt from the events and never stored."""

from __future__ import annotations

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


def start(players: tuple[str, ...], decks: tuple[tuple[str, ...], ...], nobles: tuple[str, ...]) -> GameState:
    """The table after setup: four cards face up per level, the nobles revealed, the bank full."""
    per_colour = GEMS_PER_COLOUR[len(players)]
    bank = Tokens.of({gem: per_colour for gem in COLOURS}) + Tokens.of({Gem.GOLD: GOLD_TOKENS})
    board = tuple(tuple(deck[:SLOTS]) + (None,) * (SLOTS - len(deck[:SLOTS])) for deck in decks)
    return GameState(
        players=tuple(PlayerState(name=name) for name in players),
        bank=bank,
        board=board,
        decks=tuple(deck[SLOTS:] for deck in decks),
        nobles=nobles,
    )
