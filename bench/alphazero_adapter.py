"""The translation between our Splendor and cestpasphoto's AlphaZero (bench/versus_alphazero.py).

Our GameState stays the truth of a match; this module only translates, and never changes our
rules. Two parts:

- The common rule profile, pure Python (our bot searches with it): a move of ours counts when
  it is legal in our rules AND has exactly the effect of one of AlphaZero's 81 actions
  (`common_moves`: their action index -> our Move). Their rules differ from ours in what a turn
  may be: any 1 to 3 different colours may be taken, never over 10 tokens (no take-and-return);
  giving back 1 or 2 gems and passing are turns of their own; a reserve gives gold only at 9
  tokens or fewer; payment is coloured gems first; every noble that qualifies comes at once,
  and only after a purchase. So, by effect:
    * a take of ours that returns none of the tokens held before is their take of what it
      nets (take 3, return 2 of them = their take of 1; take and return the same = their pass);
    * a reserve with no return, or (at 10 tokens) returning the gold it brought = their reserve;
    * a purchase with the default payment (ours: coloured first) after which at most one noble
      qualifies (none or the one visiting) = their purchase;
    * our pass (only when nothing else is legal) = their pass;
    * anything that brings a noble otherwise, gives back gems, or brings two nobles at once is
      no common move. Among our moves with one same effect the one without a return is kept.
- The board: their numpy table (56 x 7 int8 for 2 players) built from our state (`Tables.board`),
  and read back (`Tables.read`), cards matched by level, cost, bonus and points (all 90 differ).

The check (`versus_alphazero.py --check N`) plays every common move in both engines and compares.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from splendor_cli.model import EMPTY, Tokens
from splendor_cli.variants.base import rules
from splendor_cli.variants.base.cards import CARDS, NOBLES
from splendor_cli.variants.base.rules import Move
from splendor_cli.variants.base.state import GameState

# Their action indices (SplendorLogicNumba.py: 12 buys, 15 reserves, 3 buys from the reserve,
# 30 takes, 20 give-backs, 1 pass).
BUY, RESERVE, RESERVE_DECK, BUY_RESERVED, TAKE, GIVE_BACK, PASS, ACTIONS = 0, 12, 24, 27, 30, 60, 80, 81
SLOTS, TIERS = 4, 3
ONE_GOLD = Tokens.of(gold=1)
CAP = 124
"""Their game ends after 62 rounds (124 turns of 2 players): a match ends there too, judged as
they judge it (most points, then fewest cards; else shared)."""


def take_indices(different: Sequence[Sequence[int]]) -> dict[tuple[int, ...], int]:
    """Their take actions by the 5 colour counts taken: `different` is their list of 1-3
    different-colour combinations (np_different_gems_up_to_3), then 2 of one colour."""
    found = {tuple(int(n) for n in row[:5]): TAKE + i for i, row in enumerate(different)}
    for colour in range(5):
        found[tuple(2 if c == colour else 0 for c in range(5))] = TAKE + len(different) + colour
    return found


def common_moves(state: GameState, takes: Mapping[tuple[int, ...], int]) -> dict[int, Move]:
    """The common-profile moves of the player to move: their action index -> our Move (see the
    module's docstring). Empty when the profiles share no move here (the caller counts it)."""
    found: dict[int, Move] = {}
    if state.finished:
        return found
    player = state.player
    board = {card: (level, slot) for level, row in enumerate(state.board) for slot, card in enumerate(row) if card}
    nobles_after: dict[str, int] = {}
    for move in rules.legal_moves(state):
        if move.action == "buy":
            card = move.card
            if card not in nobles_after:
                nobles_after[card] = len(rules.qualifying_nobles(state, player.bonuses + CARDS[card].gives))
            if nobles_after[card] > 1 or move.payment is not None:  # two nobles at once: theirs gives both
                continue
            where = board.get(card)
            index = BUY + 4 * where[0] + where[1] if where else BUY_RESERVED + player.reserved.index(card)
        elif move.noble:  # a noble after a take, a reserve or a pass: theirs never
            continue
        else:
            index = _index(move, board, takes)
            if index is None:
                continue
        held = found.get(index)
        if held is None or (held.returned and not move.returned):  # one move per effect, one without a return first
            found[index] = move
    return found


def _index(move: Move, board: Mapping[str, tuple[int, int]], takes: Mapping[tuple[int, ...], int]) -> int | None:
    """Their action with the effect of our take, reserve or pass, if any."""
    returned = move.returned or EMPTY
    if move.action == "pass":
        return PASS
    if move.action == "reserve":
        if returned and returned != ONE_GOLD:
            return None
        if move.deck:
            return RESERVE_DECK + move.deck - 1
        level, slot = board[move.card]
        return RESERVE + 4 * level + slot
    # a take: what it nets must be their take (or nothing: their pass), returning none held before
    if not returned <= move.gems:
        return None
    net = move.gems - returned
    return takes.get(net.counts[:5]) if net else PASS


class CommonProfile:
    """Our variant seen through the common profile: `legal_moves` and `random_move` list only
    common moves (all of ours when there is none: the harness counts those turns); everything
    else is the variant's. Give it to `make_bot` to restrict our bot, in its search too."""

    def __init__(self, variant: Any, takes: Mapping[tuple[int, ...], int]) -> None:
        self._variant = variant
        self._takes = takes

    def legal_moves(self, state: GameState) -> list[Move]:
        moves = list(common_moves(state, self._takes).values())
        return moves or list(self._variant.legal_moves(state))

    def random_move(self, state: GameState, rng: random.Random) -> Move:
        options = self.legal_moves(state)
        return options[rng.randrange(len(options))]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._variant, name)


# -- the board -------------------------------------------------------------------------------


def _wrap(byte: int) -> int:
    return byte - 256 if byte > 127 else byte


class Tables:
    """Their card and noble rows, matched to ours, and the board translation both ways.

    `logic` is their splendor/SplendorLogic.py module (np_all_cards_1..3, np_all_nobles,
    np_different_gems_up_to_3)."""

    def __init__(self, logic: Any) -> None:
        self.takes = take_indices(logic.np_different_gems_up_to_3)
        ours: dict[tuple[Any, ...], str] = {
            (card.level, card.cost.counts[:5], card.gives.counts[:5], card.points): card.id for card in CARDS.values()
        }
        self.place: dict[str, tuple[int, int, int]] = {}
        """Our card id -> (tier, group, bit) in their decks."""
        self.row: dict[str, np.ndarray] = {}
        """Our card id -> its two rows on their board (cost; gain and points)."""
        self.card_of: dict[bytes, str] = {}
        for tier, table in enumerate((logic.np_all_cards_1, logic.np_all_cards_2, logic.np_all_cards_3)):
            for group, cards in enumerate(table):
                for bit, rows in enumerate(cards):
                    key = (tier + 1, tuple(int(n) for n in rows[0][:5]), tuple(int(n) for n in rows[1][:5]))
                    card = ours.pop((*key, int(rows[1][6])))  # KeyError: a card of theirs we lack
                    self.place[card] = (tier, group, bit)
                    self.row[card] = np.array(rows, dtype=np.int8)
                    self.card_of[self.row[card].tobytes()] = card
        if ours or len(self.place) != len(CARDS):
            raise ValueError(f"cards of ours not in their tables: {sorted(ours.values())}")
        self.groups = [len(table) for table in (logic.np_all_cards_1, logic.np_all_cards_2, logic.np_all_cards_3)]
        by_need = {(noble.requires.counts[:5], noble.points): noble.id for noble in NOBLES.values()}
        self.noble_row: dict[str, np.ndarray] = {}
        self.noble_of: dict[bytes, str] = {}
        for row in logic.np_all_nobles:
            noble = by_need.pop((tuple(int(n) for n in row[:5]), int(row[6])))
            self.noble_row[noble] = np.array(row, dtype=np.int8)
            self.noble_of[self.noble_row[noble].tobytes()] = noble
        if by_need:
            raise ValueError(f"nobles of ours not in their tables: {sorted(by_need.values())}")

    def board(self, state: GameState, nobles: Sequence[str], hidden: Mapping[str, str] | None = None) -> np.ndarray:
        """Their board (players in seat order) for our `state`. `nobles` are the nobles of the
        setup in its order (their slots keep a noble's place). `hidden` replaces cards as one
        viewer sees them (a blind reserve by a stand-in, which leaves its deck; the reserve's
        card goes back to it)."""
        hidden = hidden or {}
        n = len(state.players)
        if n != 2:
            raise ValueError("the pretrained network plays 2 players")
        out = np.zeros((32 + 10 * n + n * n, 7), dtype=np.int8)
        out[0, :6] = state.bank.counts[:6]
        out[0, 6] = _wrap(state.turn % 256)
        for level, row in enumerate(state.board):
            for slot, card in enumerate(row):
                if card:
                    at = 1 + 2 * (4 * level + slot)
                    out[at : at + 2] = self.row[card]
        decks = [set(deck) for deck in state.decks]
        for real, shown in hidden.items():
            decks[int(real[0]) - 1].add(real)
            decks[int(shown[0]) - 1].discard(shown)
        for tier, deck in enumerate(decks):
            counts, bits = [0] * 5, [0] * 5
            for card in deck:
                _, group, bit = self.place[card]
                counts[group] += 1
                bits[group] |= 128 >> bit
            out[25 + 2 * tier, :5] = counts
            out[26 + 2 * tier, :5] = [_wrap(b) for b in bits]
        slots = 1 + n
        for i, noble in enumerate(nobles):
            if noble in state.nobles:
                out[31 + i] = self.noble_row[noble]
        for p, player in enumerate(state.players):
            out[32 + n + p, :6] = player.tokens.counts[:6]
            for i, noble in enumerate(nobles):
                if noble in player.nobles:
                    out[32 + 2 * n + slots * p + i] = self.noble_row[noble]
            line = 32 + 3 * n + n * n + p
            out[line, :5] = player.bonuses.counts[:5]
            out[line, 6] = sum(CARDS[card].points for card in player.cards)
            for j, card in enumerate(player.reserved):
                at = 32 + 4 * n + n * n + 6 * p + 2 * j
                out[at : at + 2] = self.row[hidden.get(card, card)]
        return out

    @staticmethod
    def seen(state: GameState, nobles: Sequence[str]) -> dict[str, Any]:
        """Our `state` as `read` gives their board back (worked out from our state alone)."""
        return {
            "bank": state.bank.counts[:6],
            "turn": state.turn,
            "board": tuple(card for row in state.board for card in row),
            "decks": tuple(frozenset(deck) for deck in state.decks),
            "nobles": tuple(noble if noble in state.nobles else None for noble in nobles),
            "players": tuple(
                (
                    (*player.tokens.counts[:6], 0),
                    tuple(noble if noble in player.nobles else None for noble in nobles),
                    (*player.bonuses.counts[:5], 0, sum(CARDS[card].points for card in player.cards)),
                    player.reserved,
                )
                for player in state.players
            ),
        }

    def read(self, board: np.ndarray, n: int = 2) -> dict[str, Any]:
        """Their board as our ids: what the check compares (and what `board` must give back)."""

        def card(at: int) -> str | None:
            rows = board[at : at + 2]
            return None if not rows.any() else self.card_of[np.ascontiguousarray(rows).tobytes()]

        def noble(line: int) -> str | None:
            return None if not board[line].any() else self.noble_of[np.ascontiguousarray(board[line]).tobytes()]

        decks = []
        tables = list(self.place.items())
        for tier in range(TIERS):
            counts = [int(c) for c in board[25 + 2 * tier, :5]]
            bits = [int(b) & 255 for b in board[26 + 2 * tier, :5]]
            deck = frozenset(c for c, (t, g, b) in tables if t == tier and bits[g] & (128 >> b))
            if [sum(1 for b in range(8) if bits[g] & (128 >> b)) for g in range(5)] != counts:
                raise ValueError(f"deck {tier + 1}: counts {counts} disagree with the cards")
            decks.append(deck)
        slots = 1 + n
        return {
            "bank": tuple(int(x) for x in board[0, :6]),
            "turn": int(board[0, 6]) & 255,
            "board": tuple(card(1 + 2 * i) for i in range(12)),
            "decks": tuple(decks),
            "nobles": tuple(noble(31 + i) for i in range(slots)),
            "players": tuple(
                (
                    tuple(int(x) for x in board[32 + n + p, :7]),
                    tuple(noble(32 + 2 * n + slots * p + i) for i in range(slots)),
                    tuple(int(x) for x in board[32 + 3 * n + n * n + p]),
                    tuple(c for j in range(3) if (c := card(32 + 4 * n + n * n + 6 * p + 2 * j))),
                )
                for p in range(n)
            ),
        }


def drawn_marked(seen: dict[str, Any], before: Sequence[Iterable[str]]) -> dict[str, Any]:
    """`seen` (from `Tables.read`) with each card drawn since `before` (the decks then) written
    `?L` wherever it is, and each deck as before less the number drawn: the card a deck gives is
    chance (each engine draws its own), the rest of a turn's effect must be the same."""
    drawn: dict[str, str] = {}
    decks = []
    for tier, deck in enumerate(before):
        deck = frozenset(deck)
        for card in deck - seen["decks"][tier]:
            drawn[card] = f"?{tier + 1}"
        decks.append((deck, len(deck - seen["decks"][tier]), bool(seen["decks"][tier] - deck)))
    mark = drawn.get
    players = tuple(
        (gems, nobles, cards, tuple(mark(c, c) for c in reserved)) for gems, nobles, cards, reserved in seen["players"]
    )
    board = tuple(mark(c, c) if c else c for c in seen["board"])
    return {**seen, "board": board, "decks": tuple(decks), "players": players}
