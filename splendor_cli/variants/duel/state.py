"""The table of Splendor Duel (docs/rules/duel_rules.md): its constants, the state of a
player and of the table, and the setup. Rule numbers are those of duel_rules.md."""

from __future__ import annotations

from typing import Any, Literal, TypeVar

import attrs

from ...model import COLOURS, EMPTY, Gem, Tokens
from ...sealing.placeholders import deck_problem
from .cards import CARDS, DECKS, ROYALS, SPIRAL
from .events import DECK_KEYS, DuelStarted

SIZE = 5
CELLS: tuple[str, ...] = tuple(f"{'abcde'[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
"""Cell names by flat index: a1 b1 c1 d1 e1 a2 ... e5 (column letter, row number; c3 the centre)."""
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
PYRAMID = (5, 4, 3)
"""rule 3: face-up cards of levels 1, 2 and 3."""
TOKENS = Tokens.of(white=4, blue=4, green=4, red=4, black=4, pearl=2, gold=3)
"""The 25 tokens (components): the bag at setup."""
PRIVILEGES = 3
MAX_TOKENS = 10
MAX_RESERVED = 3
WIN_POINTS, WIN_CROWNS, WIN_COLOUR = 20, 10, 10
"""rule 23: the three victory conditions."""
ROYAL_AT = (3, 6)
"""rule 19: crowns that bring a royal card."""
Phase = Literal["main", "token", "steal", "royal", "return", "over"]
"""What the next step is: the turn's actions, an ability's choice, a royal card, returns; or none."""
Owed = Literal["token", "steal", "royal"]
"""A step a purchase or a royal card owes after the action: an ability's choice, a royal card."""

GOLD, PEARL = Gem.GOLD, Gem.PEARL
_T = TypeVar("_T", "DuelPlayer", "DuelState")
ONE = {gem: Tokens.of({gem: 1}) for gem in (*COLOURS, GOLD, PEARL)}


def _lines() -> tuple[tuple[int, ...], ...]:
    """rule 13: every run of 1 to 3 consecutive cells along a row, a column or a diagonal."""
    found: list[tuple[int, ...]] = []
    for start in range(SIZE * SIZE):
        row, col = divmod(start, SIZE)
        found.append((start,))
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for length in (2, 3):
                end_r, end_c = row + dr * (length - 1), col + dc * (length - 1)
                if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
                    found.append(tuple((row + dr * k) * SIZE + col + dc * k for k in range(length)))
    return tuple(sorted(found, key=lambda line: (len(line), line)))


LINES = _lines()
LINE_SET = {tuple(sorted(line)): line for line in LINES}
MASK = {line: sum(1 << i for i in line) for line in LINES}


@attrs.frozen
class DuelPlayer:
    """One player's holdings. `bonuses`, `points`, `crowns` and `colour_points` follow from the cards.

    Positional arguments are allowed (in this order) for the hot path of `evolve` only: building
    with keywords costs twice as much."""

    name: str
    tokens: Tokens = EMPTY
    cards: tuple[str, ...] = ()
    """Bought jewel cards, in the order bought."""
    wild: tuple[tuple[str, Gem], ...] = ()
    """Each wild card bought and the colour it joined."""
    reserved: tuple[str, ...] = ()
    blind: tuple[str, ...] = ()
    royals: tuple[str, ...] = ()
    privileges: int = 0
    bonuses: Tokens = EMPTY
    points: int = 0
    crowns: int = 0
    colour_points: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """Points of the cards of each colour group (rule 23), in `COLOURS` order."""

    def colour_of(self, card: str) -> Gem | None:
        """The colour group of a bought card: its bonus, or the colour its wild bonus joined."""
        return CARDS[card].bonus or dict(self.wild).get(card)


@attrs.frozen
class DuelState:
    """The table of a Duel after some steps. `board[i]` is the token on cell `CELLS[i]`, or None.

    Positional arguments are allowed (in this order) for the hot path of `evolve` only."""

    players: tuple[DuelPlayer, ...]
    board: tuple[Gem | None, ...]
    pyramid: tuple[tuple[str | None, ...], ...]
    decks: tuple[tuple[str, ...], ...]
    bag: Tokens = EMPTY
    privileges: int = PRIVILEGES
    """The privileges in the common supply."""
    royals: tuple[str, ...] = tuple(ROYALS)
    to_move: int = 0
    turn: int = 0
    """Turns completed (an extra turn counts as one)."""
    phase: Phase = "main"
    owed: tuple[Owed, ...] = ()
    """Steps owed after the current phase's (an ability's choice, then a royal card)."""
    replenished: bool = False
    """The board was replenished this turn: no more privileges (rule 10)."""
    fresh: bool = True
    """No step taken yet this turn."""
    again: bool = False
    """An `again` ability: the same player plays the next turn (rule 24)."""
    passes: int = 0
    """Turns in a row that were passes: two end the game as a draw (rule 12, decision)."""
    finished: bool = False
    win_condition: str = ""
    """`points`, `crowns` or `colour` once someone has won."""
    winner: str = ""

    @property
    def player(self) -> DuelPlayer:
        """The player to move."""
        return self.players[self.to_move]

    @property
    def opponent(self) -> DuelPlayer:
        return self.players[1 - self.to_move]

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def winners(self) -> tuple[str, ...]:
        """The winner once the game is over; nobody after a draw."""
        return (self.winner,) if self.winner else ()

    @property
    def at_turn_start(self) -> bool:
        return self.fresh and not self.finished


def start(event: DuelStarted) -> DuelState:
    """rules 3-6: the pyramid dealt from the decks, the board as the setup drew it, the second
    player holding one privilege."""
    decks = event.decks
    first, second = event.players
    return DuelState(
        players=(DuelPlayer(name=first), DuelPlayer(name=second, privileges=1)),
        board=tuple(event.board),
        privileges=PRIVILEGES - 1,
        pyramid=tuple(tuple(deck[:n]) + (None,) * (n - len(deck[:n])) for deck, n in zip(decks, PYRAMID)),
        decks=tuple(deck[n:] for deck, n in zip(decks, PYRAMID)),
    )


def board_of(draw: tuple[Gem, ...]) -> tuple[Gem, ...]:
    """The board after setup: the 25 tokens drawn from the bag, in the order `draw`, placed along
    the spiral (duel_board.md); as `DuelStarted.board` records it, cell by cell from a1."""
    placed = dict(zip(SPIRAL, draw, strict=True))
    return tuple(placed[cell] for cell in range(SIZE * SIZE))


def setup_problem(event: DuelStarted) -> str:
    """What is wrong with a setup event ("" when nothing is): the players are checked by the fold."""
    if len(event.players) != 2 or len(set(event.players)) != 2:
        return f"a Duel is for 2 players with distinct names, not {event.players!r}"
    if len(event.decks) != len(PYRAMID):
        return f"duel_started holds {len(PYRAMID)} decks, not {len(event.decks)}"
    for level, deck in enumerate(event.decks, start=1):
        problem = deck_problem(DECK_KEYS[level - 1], level, deck, DECKS[level], f"level-{level} Duel cards")
        if problem:
            return problem
    if len(event.board) != SIZE * SIZE or Tokens.from_gems(event.board) != TOKENS:
        return "board must hold the 25 tokens, one a cell: 4 of each gem colour, 2 pearls, 3 gold"
    return ""


FIELDS = {cls: tuple(f.name for f in attrs.fields(cls)) for cls in (DuelPlayer, DuelState)}


def evolve_by_position(value: _T, **changes: Any) -> _T:
    """`attrs.evolve`, three times faster (by position): evolving states is most of random play."""
    return type(value)(*[changes[name] if name in changes else getattr(value, name) for name in FIELDS[type(value)]])
