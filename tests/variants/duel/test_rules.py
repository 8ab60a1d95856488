"""One test (or a few) per rule of docs/rules/duel_rules.md, on the pure Duel core.

Positions are dealt by `deal_duel` with a fixed seed, or crafted with `attrs.evolve` on a
DuelState (`table` below keeps the 25 tokens accounted for: what is neither on the board nor
in a hand is in the bag; and `owning` sets the fields a player's cards determine). Each step is
judged by `duel.decide` and applied by `duel.evolve`, as `splendor play` does. Docstrings name
the rule of duel_rules.md (or the section of duel_board.md) they check.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import attrs
import pytest
from helpers import deal_duel

from splendor_cli.errors import AmbiguousMoveError, IllegalMoveError
from splendor_cli.model import COLOURS, EMPTY, Gem, Tokens
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel import state as duel_state
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS
from splendor_cli.variants.duel.cards import DECKS as DUEL_DECKS
from splendor_cli.variants.duel.cards import ROYALS, SPIRAL
from splendor_cli.variants.duel.events import BoardReplenished, DuelCardBought, GoldReserved, LineTaken
from splendor_cli.variants.duel.state import DuelPlayer, DuelState
from splendor_cli.variants.duel.step import Step

W, U, G, R, K, P, GOLD = Gem.WHITE, Gem.BLUE, Gem.GREEN, Gem.RED, Gem.BLACK, Gem.PEARL, Gem.GOLD
ANN, BOB = 0, 1
SEED = 1


# -- helpers -------------------------------------------------------------------------------------


def fresh(seed: int = SEED) -> DuelState:
    return duel_state.start(deal_duel(("ann", "bob"), random.Random(seed)))


def at(*names: str) -> tuple[int, ...]:
    """Cells by name: at("a1", "b1") == (0, 1)."""
    return tuple(duel_state.CELL_INDEX[name] for name in names)


def layout(**cells: Gem) -> tuple[Gem | None, ...]:
    """A board holding only the named cells: layout(c3=RED)."""
    board: list[Gem | None] = [None] * 25
    for name, gem in cells.items():
        board[duel_state.CELL_INDEX[name]] = gem
    return tuple(board)


def on_board(board: Iterable[Gem | None]) -> Tokens:
    return Tokens.from_gems(gem for gem in board if gem is not None)


def owning(player: DuelPlayer, *cards: str, wild: dict[str, Gem] | None = None, **fields: object) -> DuelPlayer:
    """`player` owning `cards` (wild ones placed on the colours of `wild`), the derived fields set to match."""
    wild = wild or {}
    bonuses, points, crowns, colour_points = EMPTY, 0, 0, [0] * 5
    for cid in cards:
        card = DUEL_CARDS[cid]
        colour = card.bonus or wild.get(cid)
        bonuses = bonuses + (card.gives if card.bonus else Tokens.of({colour: 1}) if colour else EMPTY)
        points += card.points
        crowns += card.crowns
        if colour is not None:
            colour_points[COLOURS.index(colour)] += card.points
    royals = fields.get("royals", ())
    points += sum(ROYALS[r].points for r in royals)  # type: ignore[attr-defined]  # royals: the ids given
    return attrs.evolve(
        player,
        cards=cards,
        wild=tuple(wild.items()),
        bonuses=bonuses,
        points=points,
        crowns=crowns,
        colour_points=tuple(colour_points),
        **fields,
    )


def _arrange(state: DuelState, show: Iterable[str], hidden: Iterable[str]) -> DuelState:
    """Take `hidden` cards (owned or reserved) off the table, and deal `show` cards face up."""
    pyramid = [list(row) for row in state.pyramid]
    decks = [list(deck) for deck in state.decks]
    for cid in hidden:
        level = DUEL_CARDS[cid].level - 1
        if cid in decks[level]:
            decks[level].remove(cid)
        elif cid in pyramid[level]:
            pyramid[level][pyramid[level].index(cid)] = decks[level].pop(0) if decks[level] else None
    placed: list[str] = []
    for cid in show:
        level = DUEL_CARDS[cid].level - 1
        if cid not in pyramid[level]:
            slot = next(i for i, c in enumerate(pyramid[level]) if c not in placed)
            old = pyramid[level][slot]
            decks[level].remove(cid)
            if old is not None:
                decks[level].append(old)
            pyramid[level][slot] = cid
        placed.append(cid)
    return attrs.evolve(state, pyramid=tuple(map(tuple, pyramid)), decks=tuple(map(tuple, decks)))


def table(
    *,
    board: tuple[Gem | None, ...] | None = None,
    ann: DuelPlayer | None = None,
    bob: DuelPlayer | None = None,
    bag: Tokens | None = None,
    show: Iterable[str] = (),
    base: DuelState | None = None,
    **fields: object,
) -> DuelState:
    """A crafted position (ann to move unless `to_move` says otherwise). The bag, unless given,
    holds every token that is neither on the board nor in a hand."""
    state = base or fresh()
    players = (ann or state.players[ANN], bob or state.players[BOB])
    if board is None:  # the dealt board, less the tokens in hands (taken from the end of the spiral)
        cells = list(state.board)
        for gem in (players[ANN].tokens + players[BOB].tokens).gems():
            cells[next(i for i in reversed(SPIRAL) if cells[i] is gem)] = None
        board = tuple(cells)
    if bag is None:
        bag = duel_state.TOKENS - on_board(board) - players[ANN].tokens - players[BOB].tokens
    hidden = [c for p in players for c in (*p.cards, *p.reserved)]
    state = _arrange(attrs.evolve(state, players=players, board=board, bag=bag), show, hidden)
    return attrs.evolve(state, **fields)


def player(index: int = ANN, **fields: object) -> DuelPlayer:
    return attrs.evolve(fresh().players[index], **fields)


def play(state: DuelState, step: Step) -> DuelState:
    return duel.evolve(state, duel.decide(state, step))


def refused(state: DuelState, step: Step, rule: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        duel.decide(state, step)
    assert caught.value.rule == rule, str(caught.value)
    return caught.value


def take(*names: str) -> Step:
    return Step(step="take", cells=at(*names))


def privilege(name: str) -> Step:
    return Step(step="privilege", cells=at(name))


def buy(card: str, payment: Tokens | None = None, wild: Gem | None = None) -> Step:
    return Step(step="buy", card=card, payment=payment, wild=wild)


def replenish(state: DuelState, seed: int = 0) -> Step:
    return duel.draw(state, Step(step="replenish"), RandomChance(random.Random(seed)))


def kinds(state: DuelState) -> set[str]:
    return {step.step for step in duel.legal_steps(state)}


# A board with a few of each kind, no gold: rows 1-2 hold gems and pearls, rows 3-5 are empty.
#   a1 red  b1 red  c1 red  d1 white e1 blue
#   a2 pearl b2 pearl c2 green d2 black e2 white
PLAIN = layout(a1=R, b1=R, c1=R, d1=W, e1=U, a2=P, b2=P, c2=G, d2=K, e2=W)


# -- setup (rules 3-6, duel_board.md) ------------------------------------------------------------


def test_setup_deals_a_pyramid_of_5_4_3_cards() -> None:
    """Rule 3: deal face up 5 level-1, 4 level-2 and 3 level-3 cards; the rest stay in the decks."""
    event = deal_duel(("ann", "bob"), random.Random(SEED))
    state = duel_state.start(event)
    assert [len(row) for row in state.pyramid] == [5, 4, 3]
    for level, (row, deck, dealt) in enumerate(zip(state.pyramid, state.decks, event.decks, strict=True), 1):
        assert all(DUEL_CARDS[c].level == level for c in row)
        assert (*row, *deck) == dealt
        assert sorted(dealt) == sorted(DUEL_DECKS[level])
    assert [len(deck) for deck in state.decks] == [25, 20, 10]
    assert len(DUEL_CARDS) == 67 and [len(DUEL_DECKS[n]) for n in (1, 2, 3)] == [30, 24, 13]  # rule 1


def test_setup_fills_the_board_from_the_bag_in_spiral_order() -> None:
    """Rule 4 (duel_board.md, initial setup): the 25 tokens drawn at random are placed along the
    spiral from the centre; the board is full and the bag empty."""
    event = deal_duel(("ann", "bob"), random.Random(SEED))
    state = duel_state.start(event)
    assert None not in state.board and on_board(state.board) == duel_state.TOKENS
    assert Tokens.of(white=4, blue=4, green=4, red=4, black=4, pearl=2, gold=3) == duel_state.TOKENS
    assert not state.bag
    # Replay the dealer's draws (decks shuffled first, then the bag): the k-th token drawn lands on
    # the k-th space of the spiral.
    rng = random.Random(SEED)
    for level in (1, 2, 3):
        rng.shuffle(list(DUEL_DECKS[level]))
    drawn = list(duel_state.TOKENS.gems())
    rng.shuffle(drawn)
    assert [state.board[cell] for cell in SPIRAL] == drawn


def test_spiral_is_the_printed_path() -> None:
    """duel_board.md, spiral order: centre first, then down, left, up, right, clockwise outwards,
    ending in the corner (5, 5)."""
    assert SPIRAL == (12, 17, 16, 11, 6, 7, 8, 13, 18, 23, 22, 21, 20, 15, 10, 5, 0, 1, 2, 3, 4, 9, 14, 19, 24)
    assert duel_state.CELLS[12] == "c3" and duel_state.CELL_INDEX["c3"] == 12
    assert [duel_state.CELLS[i] for i in SPIRAL[:3]] == ["c3", "c4", "b4"]


def test_setup_second_player_holds_a_privilege_and_the_supply_two() -> None:
    """Rules 5 and 6: 3 privileges in the supply, of which the second player takes 1 at once;
    the first named plays first; the 4 royal cards are all laid out."""
    state = fresh()
    assert state.to_move == ANN and state.player.name == "ann"
    assert (state.players[ANN].privileges, state.players[BOB].privileges, state.privileges) == (0, 1, 2)
    assert sorted(state.royals) == ["R1", "R2", "R3", "R4"]
    assert all(not p.tokens and not p.cards and not p.reserved for p in state.players)
    assert state.phase == "main" and not state.finished


def test_setup_problem_accepts_a_deal_and_names_a_bad_one() -> None:
    """Rules 1-4: two distinct players, three complete decks, the 25 tokens on the board."""
    event = deal_duel(("ann", "bob"), random.Random(SEED))
    assert duel_state.setup_problem(event) == ""
    assert "2 players" in duel_state.setup_problem(attrs.evolve(event, players=("ann", "ann")))
    one, two, three = event.decks
    assert "deck_1" in duel_state.setup_problem(attrs.evolve(event, decks=(one[1:], two, three)))
    assert "3 decks" in duel_state.setup_problem(attrs.evolve(event, decks=(one, two)))
    too_much_gold = (GOLD, *event.board[1:]) if event.board[0] is not GOLD else (R, *event.board[1:])
    assert "board" in duel_state.setup_problem(attrs.evolve(event, board=too_much_gold))
    assert "board" in duel_state.setup_problem(attrs.evolve(event, board=event.board[:24]))


# -- turn structure (rules 7, 11) ------------------------------------------------------------------


def test_turn_is_optional_steps_then_one_mandatory_action() -> None:
    """Rules 7, 8, 9 and 11: use a privilege, then replenish, then exactly one mandatory action;
    after it the turn passes to the opponent."""
    board = layout(a1=R, b1=R, c1=W, a2=K)
    ann = player(ANN, privileges=1, tokens=Tokens.of(green=1))
    state = table(board=board, ann=ann, bob=player(BOB, privileges=1), privileges=1)
    state = play(state, privilege("a2"))
    assert (state.to_move, state.phase, state.player.tokens) == (ANN, "main", Tokens.of(green=1, black=1))
    state = play(state, replenish(state))
    assert (state.to_move, state.phase, state.replenished) == (ANN, "main", True)
    state = play(state, take("a1", "b1"))
    assert state.to_move == BOB and state.turn == 1 and state.phase == "main"
    assert state.players[ANN].tokens == Tokens.of(green=1, black=1, red=2)
    assert not state.replenished and state.fresh


# -- privileges (rules 8, 10, 17) ------------------------------------------------------------------


def test_privileges_any_number_any_cell_pearls_give_nothing() -> None:
    """Rule 8: return any number of privileges, each for one token from anywhere (no adjacency);
    pearls taken this way give the opponent no privilege (rule 14 is for the take action only)."""
    state = table(board=PLAIN, ann=player(ANN, privileges=3), bob=player(BOB, privileges=0), privileges=0)
    for cell in ("a2", "e2", "b2"):
        state = play(state, privilege(cell))
    assert state.players[ANN].tokens == Tokens.of(pearl=2, white=1)
    assert state.players[ANN].privileges == 0 and state.privileges == 3
    assert state.players[BOB].privileges == 0
    assert [state.board[i] for i in at("a2", "b2", "e2")] == [None, None, None]
    assert (state.to_move, state.phase) == (ANN, "main")  # still the optional actions of ann's turn
    refused(state, privilege("a1"), "privilege")  # no privilege left
    state = play(state, take("a1"))
    assert state.to_move == BOB


def test_privilege_never_takes_gold_nor_an_empty_cell() -> None:
    """Rule 8: a privilege takes a gem or a pearl, never gold."""
    board = layout(a1=GOLD, b1=R)
    state = table(board=board, ann=player(ANN, privileges=1), privileges=1)
    refused(state, privilege("a1"), "privilege")
    refused(state, privilege("c1"), "privilege")
    assert [s.cells for s in duel.legal_steps(state) if s.step == "privilege"] == [at("b1")]


def test_no_privilege_after_replenishing() -> None:
    """Rule 10: the order is strict: no privilege may be used after replenishing in the same turn."""
    state = table(board=PLAIN, ann=player(ANN, privileges=1), privileges=1)
    assert "privilege" in kinds(state)
    state = play(state, replenish(state))
    refused(state, privilege("a1"), "privilege")
    assert "privilege" not in kinds(state)


def test_privilege_comes_from_the_opponent_when_the_supply_is_empty() -> None:
    """Rule 17: when the supply is empty, the privilege is taken from the opponent."""
    state = table(board=PLAIN, ann=player(ANN, privileges=2), bob=player(BOB, privileges=1), privileges=0)
    state = play(state, replenish(state))  # rule 9: bob takes a privilege, here from ann
    assert (state.players[ANN].privileges, state.players[BOB].privileges, state.privileges) == (1, 2, 0)


def test_privilege_nothing_happens_when_holding_all_three() -> None:
    """Rule 17: if you already hold all 3 privileges, nothing happens."""
    state = table(board=PLAIN, ann=player(ANN, privileges=0), bob=player(BOB, privileges=3), privileges=0)
    state = play(state, replenish(state))
    assert (state.players[ANN].privileges, state.players[BOB].privileges, state.privileges) == (0, 3, 0)


# -- replenish (rule 9, duel_board.md refill) --------------------------------------------------------


def test_replenish_needs_tokens_in_the_bag() -> None:
    """Rule 9: replenish only if the bag is not empty (at setup it is)."""
    state = fresh()
    assert not state.bag
    refused(state, Step(step="replenish", order=()), "replenish")
    assert "replenish" not in kinds(state)


def test_replenish_fills_empty_cells_in_spiral_order_skipping_occupied_ones() -> None:
    """duel_board.md, refill 2: walk the spiral; each empty space gets the next token drawn,
    occupied ones are skipped; when the bag is empty, the latest empty spaces stay empty."""
    start = fresh()
    emptied = [SPIRAL[k] for k in (0, 2, 5, 20, 24)]  # c3, b4, c2, e1, e5
    board = tuple(None if i in emptied else gem for i, gem in enumerate(start.board))
    in_hand = Tokens.from_gems(start.board[i] for i in emptied[3:])
    state = table(board=board, ann=player(ANN, tokens=in_hand))
    assert state.bag.total() == 3
    order = tuple(reversed(state.bag.gems()))
    event = duel.decide(state, Step(step="replenish", order=order))
    assert isinstance(event, BoardReplenished)
    assert event.cells == ("c3", "b4", "c2") and event.tokens == order
    after = duel.evolve(state, event)
    assert [after.board[i] for i in emptied] == [*order, None, None]
    assert all(after.board[i] == board[i] for i in range(25) if i not in emptied)
    assert not after.bag


def test_replenish_gives_the_opponent_a_privilege() -> None:
    """Rule 9: after the replenish, the opponent takes 1 privilege (from the supply)."""
    state = table(board=PLAIN)
    after = play(state, replenish(state))
    assert (after.players[ANN].privileges, after.players[BOB].privileges, after.privileges) == (0, 2, 1)
    assert after.to_move == ANN and after.phase == "main"


def test_replenish_not_twice_in_a_turn() -> None:
    """Rule 10 [D]: replenishing empties the bag, so it cannot be done twice."""
    state = table(board=PLAIN)
    state = play(state, replenish(state))
    assert "replenish" not in kinds(state)
    refused(state, Step(step="replenish", order=()), "replenish")


def test_replenish_records_the_random_order_in_the_event() -> None:
    """Rule 9 (duel_board.md refill 2): the bag is mixed; the outcome is recorded in the event,
    and a replenish without its draw, or with a draw that is not the bag, is refused."""
    state = table(board=PLAIN)
    listed = [s for s in duel.legal_steps(state) if s.step == "replenish"]
    assert listed == [Step(step="replenish")]
    with pytest.raises(AmbiguousMoveError):
        duel.decide(state, listed[0])
    step = duel.draw(state, listed[0], RandomChance(random.Random(5)))
    assert Tokens.from_gems(step.order or ()) == state.bag
    assert step == duel.draw(state, listed[0], RandomChance(random.Random(5)))
    event = duel.decide(state, step)
    assert isinstance(event, BoardReplenished) and event.tokens == step.order
    assert event.cells == tuple(duel_state.CELLS[i] for i in SPIRAL if PLAIN[i] is None)[: len(event.tokens)]
    refused(state, Step(step="replenish", order=(*step.order[1:], GOLD)), "replenish")


def test_forced_replenish_when_no_mandatory_action_is_possible() -> None:
    """Rule 12: a player who can neither take, reserve nor buy must replenish first (and the
    opponent still takes the privilege); passing is refused while the bag holds tokens."""
    state = table(board=layout(), ann=player(ANN, privileges=1), privileges=1)
    assert on_board(state.board) == EMPTY and state.bag.total() == 25
    assert duel.legal_steps(state) == [Step(step="replenish")]
    refused(state, Step(step="pass"), "pass")
    state = play(state, replenish(state))
    assert None not in state.board
    assert state.players[BOB].privileges == 2
    assert {"take", "reserve"} <= kinds(state) and "replenish" not in kinds(state)


# -- pass and the draw (rule 12, decision) -----------------------------------------------------------


def _stuck(to_move: int = ANN, passes: int = 0) -> DuelState:
    """The mover holds 10 tokens and 2 privileges; the board holds 3 gold, a black and a pearl; the
    bag is empty; the table has no cards left, and the mover 3 reserved cards: two too dear, and
    the wild 1-27 (white 4, pearl 1), affordable once the pearl is taken but with no colour to join."""
    mover = player(
        to_move,
        tokens=Tokens.of(white=4, blue=4, green=2),
        privileges=2,
        reserved=("1-27", "3-08", "3-10"),
    )
    other = player(1 - to_move, tokens=Tokens.of(green=2, red=4, black=3, pearl=1), privileges=1)
    ann, bob = (mover, other) if to_move == ANN else (other, mover)
    state = table(
        board=layout(a1=GOLD, c1=GOLD, e1=GOLD, a3=K, e5=P),
        ann=ann,
        bob=bob,
        privileges=0,
        pyramid=((None,) * 5, (None,) * 4, (None,) * 3),
        decks=((), (), ()),
        to_move=to_move,
        passes=passes,
    )
    assert not state.bag
    return state


def test_pass_only_without_mandatory_action_and_with_an_empty_bag() -> None:
    """Rule 12, decision: having taken the last gems and pearls with privileges, with the bag
    empty, a player with no mandatory action passes; the turn ends as usual (returns to 10)."""
    state = _stuck()
    refused(state, Step(step="pass"), "pass")  # the black and the pearl can still be taken
    state = play(play(state, privilege("a3")), privilege("e5"))
    assert duel.legal_steps(state) == [Step(step="pass")]
    state = play(state, Step(step="pass"))
    assert (state.phase, state.to_move, state.player.tokens.total()) == ("return", ANN, 12)
    state = play(play(state, Step(step="return", colour=W)), Step(step="return", colour=W))
    assert (state.phase, state.to_move, state.passes, state.finished) == ("main", BOB, 1, False)
    assert state.bag == Tokens.of(white=2)


def test_two_passes_in_a_row_end_the_game_in_a_draw() -> None:
    """Rule 12, decision: if both players pass one after the other, the game ends with no winner."""
    state = _stuck(to_move=BOB, passes=1)
    state = play(play(state, privilege("a3")), privilege("e5"))
    state = play(state, Step(step="pass"))
    state = play(play(state, Step(step="return", colour=W)), Step(step="return", colour=W))
    assert state.finished and state.winner == "" and state.winners() == () and state.win_condition == ""
    assert duel.legal_steps(state) == []


def test_a_mandatory_action_resets_the_passes() -> None:
    """Rule 12, decision: only passes one after the other end the game."""
    state = table(board=PLAIN, passes=1)
    state = play(state, take("a1"))
    assert state.passes == 0 and not state.finished


# -- take up to 3 tokens (rules 13, 14) ---------------------------------------------------------------


@pytest.mark.parametrize(
    "cells",
    [
        ("c2",),  # one token anywhere
        ("a1", "b1"),
        ("a1", "b1", "c1"),  # a row
        ("a1", "a2"),  # a column
        ("a1", "b2"),  # a diagonal
        ("c1", "b2"),  # the other diagonal
        ("e1", "d2", "c3"),  # the other diagonal, 3 long
        ("c1", "c2", "c3"),  # a column, 3 long
        ("a1", "b2", "c3"),  # a diagonal, 3 long
        ("c1", "a1", "b1"),  # any order
    ],
)
def test_take_a_line_of_one_to_three(cells: tuple[str, ...]) -> None:
    """Rule 13: 1, 2 or 3 tokens on consecutive spaces of a row, a column or a diagonal."""
    board = (*PLAIN[:12], U, *PLAIN[13:])  # PLAIN and a blue on c3
    state = table(board=board)
    event = duel.decide(state, take(*cells))
    assert isinstance(event, LineTaken) and sorted(event.cells) == sorted(cells)
    after = duel.evolve(state, event)
    assert after.players[ANN].tokens == Tokens.from_gems(board[i] for i in at(*cells))
    assert all(after.board[i] is None for i in at(*cells))
    assert after.to_move == BOB


@pytest.mark.parametrize(
    "cells",
    [
        ("a1", "c1"),  # not adjacent
        ("a1", "b1", "d1"),  # a gap of one
        ("a1", "b1", "b2"),  # an elbow, not a line
        ("a1", "c2"),  # a knight's jump
        ("a1", "b1", "c1", "d1"),  # four
        (),
        ("a1", "a1"),
    ],
)
def test_take_refuses_what_is_not_a_line(cells: tuple[str, ...]) -> None:
    """Rule 13: tokens lie on one straight line on consecutive spaces; at most 3."""
    refused(table(board=PLAIN), take(*cells), "take-line")


def test_take_an_empty_space_breaks_the_line() -> None:
    """Rule 13: no empty space between taken tokens (nor an empty space taken)."""
    state = table(board=layout(a1=R, c1=R, a3=W))
    refused(state, take("a1", "b1", "c1"), "take-line")
    refused(state, take("a1", "c1"), "take-line")
    refused(state, take("b1"), "take-line")
    assert {s.cells for s in duel.legal_steps(state) if s.step == "take"} == {at("a1"), at("c1"), at("a3")}


def test_take_gold_breaks_the_line_and_is_never_taken() -> None:
    """Rule 13: gems and pearls only, never gold; a gold token interrupts the line."""
    state = table(board=layout(a1=R, b1=GOLD, c1=R))
    refused(state, take("a1", "b1", "c1"), "take-gold")
    refused(state, take("b1"), "take-gold")
    refused(state, take("a1", "c1"), "take-line")
    assert {s.cells for s in duel.legal_steps(state) if s.step == "take"} == {at("a1"), at("c1")}


@pytest.mark.parametrize(
    ("cells", "gives"),
    [
        (("a1", "b1", "c1"), True),  # 3 red
        (("a2", "b2"), True),  # both pearls
        (("a2", "b2", "c2"), True),  # both pearls and a gem
        (("a1", "b1"), False),  # 2 red
        (("b1", "c1", "d1"), False),  # 2 red and a white
        (("a2",), False),  # one pearl
        (("a1", "a2"), False),  # a red and a pearl
    ],
)
def test_take_three_of_a_colour_or_both_pearls_gives_the_opponent_a_privilege(
    cells: tuple[str, ...], gives: bool
) -> None:
    """Rule 14: 3 tokens of the same colour, or both pearls, give the opponent 1 privilege."""
    state = play(table(board=PLAIN), take(*cells))
    assert state.players[BOB].privileges == (2 if gives else 1)
    assert state.privileges == (1 if gives else 2)
    assert state.players[ANN].privileges == 0


def test_take_three_of_a_colour_privilege_comes_from_the_taker_when_supply_empty() -> None:
    """Rules 14 and 17: with the supply empty, the opponent's privilege comes from the taker."""
    state = table(board=PLAIN, ann=player(ANN, privileges=2), bob=player(BOB, privileges=1), privileges=0)
    state = play(state, take("a1", "b1", "c1"))
    assert (state.players[ANN].privileges, state.players[BOB].privileges) == (1, 2)


# -- reserve (rule 15) -------------------------------------------------------------------------------


def test_reserve_takes_a_gold_and_a_pyramid_card_replaced_from_its_deck() -> None:
    """Rule 15: take any gold (no adjacency), reserve a face-up card; its space is refilled
    from its deck (the event records the card drawn)."""
    state = fresh()
    gold = state.board.index(GOLD)
    card, top = state.pyramid[1][2], state.decks[1][0]
    event = duel.decide(state, Step(step="reserve", cells=(gold,), card=card))
    assert isinstance(event, GoldReserved)
    assert (event.card, event.blind, event.drawn, event.gold) == (card, False, top, duel_state.CELLS[gold])
    after = duel.evolve(state, event)
    assert after.players[ANN].reserved == (card,) and after.players[ANN].tokens == Tokens.of(gold=1)
    assert after.board[gold] is None
    assert after.pyramid[1][2] == top and after.decks[1] == state.decks[1][1:]
    assert after.to_move == BOB


def test_reserve_blind_from_the_top_of_a_deck() -> None:
    """Rule 15: or reserve the top card of any of the three decks; the pyramid does not change."""
    state = fresh()
    gold = state.board.index(GOLD)
    top = state.decks[2][0]
    event = duel.decide(state, Step(step="reserve", cells=(gold,), deck=3))
    assert isinstance(event, GoldReserved) and (event.card, event.blind, event.drawn) == (top, True, "")
    after = duel.evolve(state, event)
    assert after.players[ANN].reserved == (top,) and after.players[ANN].blind == (top,)
    assert after.pyramid == state.pyramid and after.decks[2] == state.decks[2][1:]


def test_reserve_needs_a_gold_on_the_board() -> None:
    """Rule 15: allowed only if a gold token is on the board (the cell named must hold it)."""
    state = table(board=PLAIN)
    card = state.pyramid[0][0]
    refused(state, Step(step="reserve", cells=at("a1"), card=card), "reserve")
    refused(state, Step(step="reserve", cells=at("a5"), deck=1), "reserve")
    assert "reserve" not in kinds(state)


def test_reserve_at_most_three() -> None:
    """Rule 15: at most 3 reserved cards."""
    base = fresh()
    state = table(ann=player(ANN, reserved=("1-01", "2-01", "3-01"), tokens=EMPTY), base=base)
    gold = state.board.index(GOLD)
    refused(state, Step(step="reserve", cells=(gold,), card=state.pyramid[0][0]), "reserve")
    refused(state, Step(step="reserve", cells=(gold,), deck=1), "reserve")
    assert "reserve" not in kinds(state)
    two = table(ann=player(ANN, reserved=("1-01", "2-01")), base=base)
    assert play(two, Step(step="reserve", cells=(gold,), deck=1)).players[ANN].reserved[-1] == two.decks[0][0]


def test_reserve_from_an_empty_deck_is_refused_and_its_pyramid_space_stays_empty() -> None:
    """Rule 25: an empty deck has no top card to reserve, and no longer refills the pyramid."""
    state = table(decks=(fresh().decks[0], fresh().decks[1], ()))
    gold = state.board.index(GOLD)
    refused(state, Step(step="reserve", cells=(gold,), deck=3), "reserve")
    assert Step(step="reserve", cells=(gold,), deck=3) not in duel.legal_steps(state)
    card = state.pyramid[2][1]
    event = duel.decide(state, Step(step="reserve", cells=(gold,), card=card))
    assert isinstance(event, GoldReserved) and event.drawn == ""
    after = duel.evolve(state, event)
    assert after.pyramid[2][1] is None and after.players[ANN].reserved == (card,)
    assert not after.finished and after.to_move == BOB  # rule 25: the game goes on


def test_reserve_impossible_with_no_card_left_anywhere() -> None:
    """Rule 29: with the pyramid and all decks empty, the reserve action is forbidden."""
    state = table(pyramid=((None,) * 5, (None,) * 4, (None,) * 3), decks=((), (), ()))
    gold = state.board.index(GOLD)
    assert "reserve" not in kinds(state)
    refused(state, Step(step="reserve", cells=(gold,), card=""), "reserve")
    refused(state, Step(step="reserve", cells=(gold,), deck=2), "reserve")


# -- purchase (rule 16) ------------------------------------------------------------------------------


def test_buy_bonuses_reduce_the_cost() -> None:
    """Rule 16: for each colour the cost is reduced by your bonuses of that colour."""
    ann = owning(player(ANN), "1-21", "1-25", tokens=Tokens.of(green=2, red=4, black=2, white=1))
    state = table(ann=ann, show=("3-10",))  # 3-10 costs green 2, red 6, black 2
    event = duel.decide(state, buy("3-10"))
    assert isinstance(event, DuelCardBought)
    assert Tokens.from_gems(event.payment) == Tokens.of(green=2, red=4, black=2)
    after = duel.evolve(state, event)
    assert after.players[ANN].tokens == Tokens.of(white=1)
    assert after.players[ANN].bonuses == Tokens.of(red=3) and after.players[ANN].points == 1 + 4
    assert after.players[ANN].cards == ("1-21", "1-25", "3-10")


def test_buy_a_pyramid_card_is_replaced_from_its_deck() -> None:
    """Rule 16: a bought pyramid card is replaced from its deck (rule 21: the event records it)."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=3)), show=("1-12",))  # 1-12 costs 3 red
    slot = state.pyramid[0].index("1-12")
    top = state.decks[0][0]
    event = duel.decide(state, buy("1-12"))
    assert isinstance(event, DuelCardBought) and event.drawn == top
    after = duel.evolve(state, event)
    assert after.pyramid[0][slot] == top and after.decks[0] == state.decks[0][1:]
    assert after.players[ANN].bonuses == Tokens.of(green=1)


def test_buy_a_reserved_card() -> None:
    """Rule 16: buy a face-up card or one of your own reserved cards."""
    state = table(ann=player(ANN, reserved=("1-12",), tokens=Tokens.of(red=3)))
    assert "1-12" not in [c for row in state.pyramid for c in row]
    event = duel.decide(state, buy("1-12"))
    assert isinstance(event, DuelCardBought) and event.drawn == ""
    after = duel.evolve(state, event)
    assert after.players[ANN].reserved == () and after.players[ANN].cards == ("1-12",)
    assert after.pyramid == state.pyramid


def test_buy_only_a_pyramid_or_own_reserved_card() -> None:
    """Rule 16: a card in a deck, or reserved by the opponent, is not for sale."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=3)), bob=player(BOB, reserved=("1-12",)))
    refused(state, buy("1-12"), "buy")
    refused(state, buy(state.decks[0][0]), "buy")


def test_buy_a_double_bonus_card_discounts_two() -> None:
    """Rule 16: a double-bonus card (2-04, 2-08, 2-12, 2-16, 2-20) reduces later costs by 2."""
    doubles = sorted(c for c, card in DUEL_CARDS.items() if card.bonus_count == 2)
    assert doubles == ["2-04", "2-08", "2-12", "2-16", "2-20"]
    assert all(DUEL_CARDS[c].gives.total() == 2 for c in doubles)
    board = layout(a1=R, b1=W, a4=U)
    ann = player(ANN, tokens=Tokens.of(white=2, black=4, gold=1, red=1))
    state = table(board=board, ann=ann, show=("2-20", "1-12"))  # 2-20: red x2, costs white 2 black 5
    state = play(state, buy("2-20"))
    assert state.players[ANN].bonuses == Tokens.of(red=2)
    assert state.players[ANN].tokens == Tokens.of(red=1)
    state = play(state, take("a4"))  # bob's turn
    event = duel.decide(state, buy("1-12"))  # 1-12 costs 3 red: 1 after the double bonus
    assert isinstance(event, DuelCardBought) and Tokens.from_gems(event.payment) == Tokens.of(red=1)


def test_buy_a_card_without_bonus() -> None:
    """Rules 2 and 16: 1-28, 2-24 and 3-13 give no bonus; their points count for no colour."""
    assert sorted(c for c, card in DUEL_CARDS.items() if not card.bonus and not card.wild) == ["1-28", "2-24", "3-13"]
    state = table(ann=player(ANN, tokens=Tokens.of(red=4, pearl=1)), show=("1-28",))
    state = play(state, buy("1-28"))
    ann = state.players[ANN]
    assert ann.cards == ("1-28",) and ann.bonuses == EMPTY and ann.points == 3
    assert ann.colour_points == (0, 0, 0, 0, 0) and not ann.tokens


def test_buy_pearls_are_never_discounted() -> None:
    """Rule 16: pearl costs are never reduced (no card gives a pearl bonus)."""
    assert all(not card.gives[P] for card in DUEL_CARDS.values())
    cards = ("1-01", "1-06", "1-11", "1-16", "1-21", "1-02", "1-07", "1-12", "1-17", "1-22")  # 2 of each colour
    rich = owning(player(ANN), *cards, tokens=Tokens.of(red=2))
    state = table(ann=rich, show=("1-03",))  # 1-03 costs blue 2, green 2, pearl 1
    refused(state, buy("1-03"), "buy")
    assert Step(step="buy", card="1-03") not in duel.legal_steps(state)
    state = table(ann=attrs.evolve(rich, tokens=Tokens.of(pearl=1)), show=("1-03",))
    event = duel.decide(state, buy("1-03"))
    assert isinstance(event, DuelCardBought) and event.payment == (P,)


def test_buy_gold_replaces_a_gem_or_a_pearl() -> None:
    """Rule 16: each gold token can replace any one gem or pearl."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=2, gold=1)), show=("1-12", "1-03"))
    event = duel.decide(state, buy("1-12"))  # 3 red: 2 red and a gold by default
    assert isinstance(event, DuelCardBought) and Tokens.from_gems(event.payment) == Tokens.of(red=2, gold=1)
    state = table(ann=player(ANN, tokens=Tokens.of(blue=2, green=2, pearl=1, gold=1)), show=("1-03",))
    paid = Tokens.of(blue=2, green=2, gold=1)  # gold for the pearl
    after = play(state, buy("1-03", payment=paid))
    assert after.players[ANN].tokens == Tokens.of(pearl=1)


def test_buy_paid_tokens_go_into_the_bag() -> None:
    """Rule 16: spent tokens go into the bag, not back on the board."""
    state = table(board=layout(d1=W), ann=player(ANN, tokens=Tokens.of(red=2, gold=1)), show=("1-12",))
    before = state.bag
    after = play(state, buy("1-12"))
    assert after.bag == before + Tokens.of(red=2, gold=1)
    assert after.board == state.board


@pytest.mark.parametrize(
    "payment",
    [
        Tokens.of(red=2),  # too little
        Tokens.of(red=3, gold=1),  # too much: no change is given
        Tokens.of(red=2, blue=1),  # a wrong colour
        Tokens.of(red=4),  # more than held
    ],
)
def test_buy_an_explicit_wrong_payment_is_refused(payment: Tokens) -> None:
    """Rule 16: pay the rest exactly with tokens (gold for any gem or pearl)."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=3, blue=1, gold=1)), show=("1-12",))
    refused(state, buy("1-12", payment=payment), "payment")
    assert play(state, buy("1-12", payment=Tokens.of(red=2, gold=1))).players[ANN].tokens == Tokens.of(red=1, blue=1)


def test_buy_a_payment_ignoring_the_bonus_is_refused() -> None:
    """Rule 16: the bonus reduces the cost; you never pay (nor gain) beyond it."""
    ann = owning(player(ANN), "1-21", tokens=Tokens.of(red=3))
    state = table(ann=ann, show=("1-12",))
    refused(state, buy("1-12", payment=Tokens.of(red=3)), "payment")
    assert play(state, buy("1-12", payment=Tokens.of(red=2))).players[ANN].tokens == Tokens.of(red=1)


def test_buy_unaffordable_is_refused() -> None:
    """Rule 16: the cost after bonuses must be paid."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=2)), show=("1-12",))
    refused(state, buy("1-12"), "buy")


def test_wild_card_needs_an_owned_coloured_bonus() -> None:
    """Rules 16 and 18: a wild-bonus card can only be bought with a card with a coloured bonus
    already owned (a no-bonus card does not count)."""
    ann = owning(player(ANN), "1-28", tokens=Tokens.of(black=4, pearl=1))
    state = table(ann=ann, show=("1-26",))  # 1-26: wild, 1 point, costs black 4 pearl 1
    refused(state, buy("1-26"), "wild")
    refused(state, buy("1-26", wild=R), "wild")
    assert not [s for s in duel.legal_steps(state) if s.card == "1-26" and s.step == "buy"]


def test_wild_card_joins_an_owned_colour_and_its_points_count_there() -> None:
    """Rule 18 (wild): the card joins a colour you have a bonus of; its bonus counts as that
    colour and its points count for that colour."""
    ann = owning(player(ANN), "1-21", "1-01", tokens=Tokens.of(black=4, pearl=1))  # red and white
    state = table(ann=ann, show=("1-26",))
    assert sorted(s.wild for s in duel.legal_steps(state) if s.step == "buy" and s.card == "1-26") == sorted([R, W])
    with pytest.raises(AmbiguousMoveError):
        duel.decide(state, buy("1-26"))
    refused(state, buy("1-26", wild=U), "wild")
    event = duel.decide(state, buy("1-26", wild=R))
    assert isinstance(event, DuelCardBought) and event.wild == "red"
    after = duel.evolve(state, event).players[ANN]
    assert after.wild == (("1-26", R),) and after.colour_of("1-26") == R
    assert after.bonuses == Tokens.of(red=2, white=1)
    assert after.colour_points == (0, 0, 0, 1, 0) and after.points == 1


def test_wild_card_with_one_colour_needs_no_choice() -> None:
    """Rule 18 (wild): with one owned colour, the wild card joins it."""
    ann = owning(player(ANN), "1-16", tokens=Tokens.of(black=4, pearl=1))
    after = play(table(ann=ann, show=("1-26",)), buy("1-26")).players[ANN]
    assert after.wild == (("1-26", K),) and after.bonuses == Tokens.of(black=2)


def test_wild_card_reserved_without_a_bonus_joins_a_colour_when_bought() -> None:
    """Rules 15 and 18 (wild): reserving needs no bonus and fixes nothing; the colour is chosen at purchase."""
    state = table(ann=player(ANN, tokens=Tokens.of(black=4, pearl=1)), show=("1-26",))
    gold = state.board.index(GOLD)
    state = play(state, Step(step="reserve", cells=(gold,), card="1-26"))
    assert state.players[ANN].reserved == ("1-26",) and state.players[ANN].wild == ()
    state = attrs.evolve(state, to_move=ANN, fresh=True)  # crafted: ann to move again
    refused(state, buy("1-26"), "wild")
    state = attrs.evolve(state, players=(owning(state.players[ANN], "1-11", reserved=("1-26",)), state.players[BOB]))
    after = play(state, buy("1-26")).players[ANN]  # green is ann's only colour
    assert after.reserved == () and after.wild == (("1-26", G),) and after.colour_points[COLOURS.index(G)] == 1


def test_a_coloured_card_takes_no_wild_colour() -> None:
    """Rule 18 (wild): only a wild bonus is placed."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=3)), show=("1-12",))
    refused(state, buy("1-12", wild=G), "wild")


def test_card_3_11_is_wild_and_again() -> None:
    """Rule 18: 3-11 has a wild bonus (placed as above) and grants another turn."""
    assert DUEL_CARDS["3-11"].wild and DUEL_CARDS["3-11"].ability == "again"
    ann = owning(player(ANN), "1-21", "1-01", tokens=Tokens.of(red=4, gold=3))
    state = table(board=layout(a1=G), ann=ann, show=("3-11",))  # 8 red, 7 after the red bonus
    with pytest.raises(AmbiguousMoveError):
        duel.decide(state, buy("3-11"))
    after = play(state, buy("3-11", wild=W))
    assert after.players[ANN].wild == (("3-11", W),)
    assert after.players[ANN].bonuses == Tokens.of(red=1, white=2)
    assert after.players[ANN].colour_points == (3, 0, 0, 0, 0)
    assert (after.to_move, after.phase, after.turn) == (ANN, "main", 1)
    assert not after.players[ANN].tokens


# -- abilities (rule 18) -------------------------------------------------------------------------------


def test_ability_again_the_same_player_plays_next() -> None:
    """Rule 18 (again) and rule 24: another full turn right after this one."""
    state = table(board=layout(a1=R, b1=R), ann=player(ANN, tokens=Tokens.of(blue=2, green=2, pearl=1)), show=("1-03",))
    state = play(state, buy("1-03"))
    assert (state.to_move, state.turn, state.phase, state.fresh, state.again) == (ANN, 1, "main", True, False)
    assert not state.replenished
    state = play(state, take("a1"))  # the extra turn, after which bob plays
    assert state.to_move == BOB and state.turn == 2


def test_ability_token_takes_a_token_of_the_card_colour() -> None:
    """Rule 18 (token): take 1 token of the card's bonus colour from anywhere on the board."""
    board = layout(a1=R, c3=W, e5=W, b2=GOLD)
    state = table(board=board, ann=player(ANN, tokens=Tokens.of(red=2, black=2)), show=("1-04",))  # white, token
    state = play(state, buy("1-04"))
    assert (state.phase, state.to_move) == ("token", ANN)
    assert duel.legal_steps(state) == [Step(step="token", cells=at("c3")), Step(step="token", cells=at("e5"))]
    refused(state, Step(step="token", cells=at("a1")), "token")
    refused(state, Step(step="token", cells=at("b2")), "token")
    state = play(state, Step(step="token", cells=at("e5")))
    assert state.players[ANN].tokens == Tokens.of(white=1) and state.board[24] is None
    assert (state.phase, state.to_move) == ("main", BOB)


def test_ability_token_skipped_when_none_of_the_colour_is_on_the_board() -> None:
    """Rule 18 (token): if there is none, nothing happens."""
    board = layout(a1=R, b2=GOLD)
    state = table(board=board, ann=player(ANN, tokens=Tokens.of(red=2, black=2)), show=("1-04",))
    state = play(state, buy("1-04"))
    assert (state.phase, state.to_move) == ("main", BOB)
    assert state.players[ANN].tokens == EMPTY


def test_ability_privilege() -> None:
    """Rule 18 (privilege): take 1 privilege (rule 17: from the opponent if the supply is empty)."""
    tokens = Tokens.of(white=4, black=2, pearl=1)  # 2-03: white, 2 points, privilege
    state = play(table(ann=player(ANN, tokens=tokens), show=("2-03",)), buy("2-03"))
    assert (state.players[ANN].privileges, state.players[BOB].privileges, state.privileges) == (1, 1, 1)
    crafted = table(ann=player(ANN, tokens=tokens), bob=player(BOB, privileges=3), privileges=0, show=("2-03",))
    state = play(crafted, buy("2-03"))
    assert (state.players[ANN].privileges, state.players[BOB].privileges, state.privileges) == (1, 2, 0)
    full = table(
        ann=player(ANN, tokens=tokens, privileges=3), bob=player(BOB, privileges=0), privileges=0, show=("2-03",)
    )
    state = play(full, buy("2-03"))
    assert (state.players[ANN].privileges, state.players[BOB].privileges) == (3, 0)


def test_ability_steal_a_gem_or_pearl_never_gold() -> None:
    """Rule 18 (steal): take 1 gem or pearl of your choice from the opponent, never gold."""
    ann = player(ANN, tokens=Tokens.of(blue=4, red=3))  # 2-02: white, steal, costs blue 4 red 3
    bob = player(BOB, tokens=Tokens.of(green=1, pearl=1, gold=2))
    state = play(table(ann=ann, bob=bob, show=("2-02",)), buy("2-02"))
    assert (state.phase, state.to_move) == ("steal", ANN)
    assert sorted(s.colour for s in duel.legal_steps(state)) == sorted([G, P])
    refused(state, Step(step="steal", colour=GOLD), "steal")
    refused(state, Step(step="steal", colour=R), "steal")
    state = play(state, Step(step="steal", colour=P))
    assert state.players[ANN].tokens == Tokens.of(pearl=1)
    assert state.players[BOB].tokens == Tokens.of(green=1, gold=2)
    assert (state.phase, state.to_move) == ("main", BOB)


def test_ability_steal_skipped_when_the_opponent_has_no_gem_or_pearl() -> None:
    """Rule 18 (steal): if the opponent has none, nothing happens (gold cannot be stolen)."""
    ann = player(ANN, tokens=Tokens.of(blue=4, red=3))
    bob = player(BOB, tokens=Tokens.of(gold=2))
    state = play(table(ann=ann, bob=bob, show=("2-02",)), buy("2-02"))
    assert (state.phase, state.to_move) == ("main", BOB)
    assert state.players[BOB].tokens == Tokens.of(gold=2) and state.players[ANN].tokens == EMPTY


# -- crowns and royal cards (rules 19, 20) -------------------------------------------------------------


def _crowned(crowns_before: tuple[str, ...], royals: tuple[str, ...] = (), **fields: object) -> DuelState:
    """Ann owns `crowns_before` (and `royals`), holds 3 red for 1-12 (green, 1 crown, costs 3 red)."""
    ann = owning(player(ANN), *crowns_before, tokens=Tokens.of(red=3), royals=royals)
    left = tuple(r for r in ROYALS if r not in royals)
    return table(board=layout(d1=W, e1=U, a2=P, c2=G), ann=ann, show=("1-12",), royals=left, **fields)


def test_royal_card_at_three_crowns() -> None:
    """Rule 19: the turn your crowns reach 3, take a royal card of your choice; it carries no
    bonus and no crowns, and its points count for no colour."""
    state = _crowned(("1-02", "1-07"))  # 2 crowns
    state = play(state, buy("1-12"))
    assert state.players[ANN].crowns == 3 and (state.phase, state.to_move) == ("royal", ANN)
    assert sorted(s.card for s in duel.legal_steps(state)) == ["R1", "R2", "R3", "R4"]
    refused(state, take("c2"), "step-order")
    state = play(state, Step(step="royal", card="R4"))  # 3 points, no ability
    ann = state.players[ANN]
    assert ann.royals == ("R4",) and ann.points == 3 and ann.crowns == 3
    assert ann.colour_points == (0, 0, 0, 0, 0) and ann.bonuses == Tokens.of(white=1, blue=1, green=1)
    assert "R4" not in state.royals and (state.phase, state.to_move) == ("main", BOB)


def test_royal_card_again_at_six_crowns_and_not_between() -> None:
    """Rule 19: again the turn crowns reach 6; no royal card for 4 or 5."""
    state = play(_crowned(("1-02", "1-07", "1-17", "2-01"), royals=("R4",)), buy("1-12"))  # 4 -> 5
    assert (state.phase, state.to_move, state.players[ANN].crowns) == ("main", BOB, 5)
    state = play(_crowned(("1-02", "1-07", "1-17", "1-22", "2-01"), royals=("R4",)), buy("1-12"))  # 5 -> 6
    assert (state.phase, state.players[ANN].crowns) == ("royal", 6)
    refused(state, Step(step="royal", card="R4"), "royal")  # already taken
    state = play(state, Step(step="royal", card="R3"))
    assert state.players[ANN].royals == ("R4", "R3") and state.royals == ("R1", "R2")


def test_royal_privilege() -> None:
    """Rule 19: the royal card R3 (2 points) gives a privilege (rule 17)."""
    state = play(play(_crowned(("1-02", "1-07")), buy("1-12")), Step(step="royal", card="R3"))
    assert state.players[ANN].privileges == 1 and state.privileges == 1 and state.players[ANN].points == 2
    assert state.to_move == BOB


def test_royal_again() -> None:
    """Rules 19 and 24: the royal card R2 (2 points) gives another turn."""
    state = play(play(_crowned(("1-02", "1-07")), buy("1-12")), Step(step="royal", card="R2"))
    assert (state.to_move, state.phase, state.turn, state.players[ANN].points) == (ANN, "main", 1, 2)


def test_royal_steal() -> None:
    """Rules 19 and 20: the royal card R1 (2 points) steals a gem or pearl, resolved after it."""
    state = _crowned(("1-02", "1-07"), bob=player(BOB, tokens=Tokens.of(red=1, gold=1)))
    state = play(play(state, buy("1-12")), Step(step="royal", card="R1"))
    assert (state.phase, state.to_move) == ("steal", ANN)
    assert duel.legal_steps(state) == [Step(step="steal", colour=R)]
    state = play(state, Step(step="steal", colour=R))
    assert state.players[ANN].tokens == Tokens.of(red=1) and state.players[BOB].tokens == Tokens.of(gold=1)
    assert state.to_move == BOB


# -- end of the turn: 10 tokens (rule 22) ---------------------------------------------------------------


def test_more_than_ten_tokens_are_returned_one_by_one_to_the_bag() -> None:
    """Rule 22: over 10 tokens (gold included) at the end of the turn, return tokens of your
    choice to the bag until you hold 10."""
    ann = player(ANN, tokens=Tokens.of(green=3, blue=3, gold=3))  # 9
    state = table(board=PLAIN, ann=ann)
    state = play(state, take("a1", "b1", "c1"))
    assert (state.phase, state.to_move, state.players[ANN].tokens.total()) == ("return", ANN, 12)
    assert sorted(s.colour for s in duel.legal_steps(state)) == sorted([U, G, R, GOLD])
    refused(state, take("d1"), "step-order")
    refused(state, Step(step="return", colour=W), "ten-tokens")
    bag = state.bag
    state = play(state, Step(step="return", colour=GOLD))
    assert (state.phase, state.to_move, state.bag) == ("return", ANN, bag + Tokens.of(gold=1))
    state = play(state, Step(step="return", colour=R))
    assert (state.phase, state.to_move) == ("main", BOB)
    assert state.players[ANN].tokens == Tokens.of(green=3, blue=3, gold=2, red=2)
    assert state.bag == bag + Tokens.of(gold=1, red=1)
    assert state.board == (None, None, None, *PLAIN[3:])  # returns go to the bag, not the board


def test_exactly_ten_tokens_are_kept() -> None:
    """Rule 22: only more than 10 tokens must be returned."""
    state = play(table(board=PLAIN, ann=player(ANN, tokens=Tokens.of(green=3, blue=3, gold=1))), take("a1", "b1", "c1"))
    assert (state.phase, state.to_move, state.players[ANN].tokens.total()) == ("main", BOB, 10)


def test_abilities_may_go_above_ten_then_tokens_are_returned() -> None:
    """Rules 18 and 22: tokens gained by abilities may take you above 10; rule 22 handles it."""
    ann = owning(player(ANN), "1-21", "1-22", "1-16", "1-17", tokens=Tokens.of(white=3, blue=4, green=3))
    state = table(board=layout(c3=W, a1=R), ann=ann, show=("1-04",))  # 1-04 costs red 2 black 2: nothing here
    state = play(state, buy("1-04"))
    assert state.players[ANN].tokens.total() == 10
    state = play(state, Step(step="token", cells=at("c3")))
    assert (state.phase, state.players[ANN].tokens.total()) == ("return", 11)
    state = play(state, Step(step="return", colour=G))
    assert (state.phase, state.to_move) == ("main", BOB)


# -- victory (rule 23) ------------------------------------------------------------------------------------


def test_victory_twenty_points() -> None:
    """Rule 23: 20 or more prestige points in total win at the end of the turn."""
    ann = owning(player(ANN), "3-02", "3-04", "3-06", "3-08", "1-05", tokens=Tokens.of(red=4, pearl=1))  # 17
    state = play(table(ann=ann, show=("1-28",)), buy("1-28"))  # 3 points, no colour
    assert state.finished and state.winner == "ann" and state.win_condition == "points"
    assert state.winners() == ("ann",) and state.phase == "over" and duel.legal_steps(state) == []
    refused(state, take("a1"), "game-over")


def test_victory_ten_crowns() -> None:
    """Rule 23: 10 or more crowns win."""
    cards = ("3-01", "3-03", "3-05", "3-07")  # 8 crowns, 12 points, 3 in each of 4 colours
    ann = owning(player(ANN), *cards, royals=("R3", "R4"), tokens=Tokens.of(green=4, gold=1, pearl=1))
    state = table(ann=ann, royals=("R1", "R2"), show=("2-22",))  # 2-22: wild, 2 crowns, green 6 pearl 1
    state = play(state, buy("2-22", wild=K))
    assert state.players[ANN].crowns == 10 and state.players[ANN].points == 17
    assert state.finished and state.winner == "ann" and state.win_condition == "crowns"


def test_victory_ten_points_in_one_colour() -> None:
    """Rule 23: 10 or more prestige points on the cards of one colour group win."""
    ann = owning(player(ANN), "3-10", "3-09", "1-25", tokens=Tokens.of(green=2, red=1, pearl=1))  # red: 8
    state = play(table(ann=ann, show=("2-19",)), buy("2-19"))  # red, 2 points
    assert state.players[ANN].colour_points == (0, 0, 0, 10, 0) and state.players[ANN].points == 10
    assert state.finished and state.winner == "ann" and state.win_condition == "colour"


def test_victory_wild_card_points_count_for_its_colour() -> None:
    """Rules 18 and 23: a wild card counts for the colour it was placed on."""
    ann = owning(player(ANN), "3-10", "3-09", "2-19", tokens=Tokens.of(black=4, pearl=1))  # red: 9
    state = play(table(ann=ann, show=("1-26",)), buy("1-26", wild=R))
    assert state.finished and state.win_condition == "colour" and state.winner == "ann"


def test_victory_no_bonus_card_points_count_for_no_colour() -> None:
    """Rule 23: no-bonus cards count for no colour."""
    ann = owning(player(ANN), "3-10", "3-09", "2-19", tokens=Tokens.of(red=4, pearl=1))  # red: 9
    state = play(table(ann=ann, show=("1-28",)), buy("1-28"))
    assert state.players[ANN].colour_points == (0, 0, 0, 9, 0) and state.players[ANN].points == 12
    assert not state.finished and state.to_move == BOB


def test_victory_royal_points_count_for_twenty_not_for_a_colour() -> None:
    """Rules 19 and 23: royal card points count toward 20 but toward no colour."""
    red9 = owning(player(ANN), "3-10", "3-09", "2-19", tokens=Tokens.of(black=3))  # red 9, 2 crowns
    state = play(table(board=PLAIN, ann=red9, show=("1-22",)), buy("1-22"))  # red, 0 points, 1 crown
    assert state.phase == "royal"
    state = play(state, Step(step="royal", card="R4"))
    assert state.players[ANN].points == 12 and state.players[ANN].colour_points == (0, 0, 0, 9, 0)
    assert not state.finished
    rich = owning(player(ANN), "3-02", "3-04", "3-06", "3-08", "1-05", "1-02", "1-07", tokens=Tokens.of(black=3))
    assert (rich.points, rich.crowns) == (17, 2)
    state = play(table(board=PLAIN, ann=rich, show=("1-22",)), buy("1-22"))
    assert not state.finished  # the royal card is still owed
    state = play(state, Step(step="royal", card="R4"))
    assert state.finished and state.win_condition == "points" and state.players[ANN].points == 20


def test_victory_checked_only_for_the_player_whose_turn_ends() -> None:
    """Rule 23: only the player whose turn ends is checked."""
    bob = owning(player(BOB), "3-02", "3-04", "3-06", "3-08", "3-10")  # 20 points
    state = table(board=PLAIN, bob=bob)
    state = play(state, take("a1"))
    assert not state.finished and state.to_move == BOB
    state = play(state, take("b1"))
    assert state.finished and state.winner == "bob" and state.win_condition == "points"


def test_victory_checked_before_an_extra_turn() -> None:
    """Rules 18 (again) and 23: the victory check is made before the extra turn is granted."""
    ann = owning(
        player(ANN), "3-02", "3-04", "3-06", "3-08", "1-05", "1-21", tokens=Tokens.of(red=4, gold=3, white=3)
    )  # 17 points
    state = table(board=layout(a1=G), ann=ann, show=("3-11",))
    state = play(state, buy("3-11", wild=R))
    assert state.finished and state.winner == "ann" and state.win_condition == "points"
    assert state.turn == 1


def test_victory_waits_for_the_end_of_the_turn() -> None:
    """Rules 22 and 23: the check happens after the returns down to 10, at the end of the turn."""
    tokens = Tokens.of(green=3, black=3, gold=3, blue=1)
    ann = owning(player(ANN), "3-02", "3-04", "3-06", "3-08", "3-10", tokens=tokens)
    state = play(table(board=PLAIN, ann=ann), take("a1"))  # 20 points, 11 tokens
    assert (state.phase, state.finished) == ("return", False)
    state = play(state, Step(step="return", colour=R))
    assert state.finished and state.winner == "ann"


# -- decks running out (rule 25) --------------------------------------------------------------------------


def test_bought_card_not_replaced_when_its_deck_is_empty() -> None:
    """Rule 25: when a deck is empty, bought pyramid cards of that level are not replaced."""
    state = table(ann=player(ANN, tokens=Tokens.of(red=3)), show=("1-12",))
    slot = state.pyramid[0].index("1-12")
    state = attrs.evolve(state, decks=((), *state.decks[1:]))
    event = duel.decide(state, buy("1-12"))
    assert isinstance(event, DuelCardBought) and event.drawn == ""
    after = duel.evolve(state, event)
    assert after.pyramid[0][slot] is None and len(after.pyramid[0]) == 5
    assert not after.finished and after.to_move == BOB


# -- step order -----------------------------------------------------------------------------------------


def test_step_order_an_owed_step_comes_first() -> None:
    """Rules 7 and 18: while a token ability is owed, no other step (take, privilege, buy)."""
    ann = player(ANN, tokens=Tokens.of(red=2, black=2), privileges=1)
    state = play(table(board=layout(c3=W, a1=R), ann=ann, privileges=1, show=("1-04",)), buy("1-04"))
    assert state.phase == "token"
    for step in (take("a1"), privilege("a1"), buy("1-12"), Step(step="pass"), Step(step="return", colour=R)):
        refused(state, step, "step-order")


def test_step_order_no_owed_step_in_the_main_phase() -> None:
    """Rules 7, 18, 19 and 22: ability, royal and return steps follow the mandatory action only."""
    state = table(board=PLAIN, ann=player(ANN, tokens=Tokens.of(red=1)))
    for step in (
        Step(step="token", cells=at("a1")),
        Step(step="steal", colour=R),
        Step(step="royal", card="R4"),
        Step(step="return", colour=R),
    ):
        refused(state, step, "step-order")
