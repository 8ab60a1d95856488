"""Splendor Duel with sealed decks (sealing/placeholders.py): the game's own code on placeholders.

As for the base game (test_sealed_base.py): a sealed setup dealt by the game's `deal` with a
chance that deals real cards to the pyramid and a placeholder (`2?07`) to every other place of a
deck; steps played through `decide` and `evolve`. A purchase from the pyramid refills its place
with a placeholder, a blind reserve puts one in a reserve; no step ever offers or reads one, and
a bot's `hide` draws real cards for every one of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.errors import IllegalMoveError, InvalidMoveError
from splendor_cli.model import Gem, Tokens
from splendor_cli.sealing.placeholders import is_placeholder, level_of, placeholder
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel import heuristics
from splendor_cli.variants.duel.cards import CARDS, DECKS
from splendor_cli.variants.duel.events import DuelCardBought, DuelStarted, GoldReserved
from splendor_cli.variants.duel.state import CELLS, DuelState, setup_problem
from splendor_cli.variants.duel.step import Step

FACE_UP = {1: 5, 2: 4, 3: 3}
FREE = Tokens.of(white=9, blue=9, green=9, red=9, black=9)
"""Bonuses that make every card free (but for its pearls)."""


@attrs.define
class SealedChance:
    """Chance as a sealed deal leaves it: each deck shuffled by `rng`, its first `face_up[level]`
    cards real, every other one its placeholder; `truth` keeps what each placeholder stands for."""

    rng: random.Random
    face_up: dict[int, int]
    truth: dict[str, str] = attrs.Factory(dict)

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        out = list(items)
        self.rng.shuffle(out)
        if not label.startswith("deck "):
            return tuple(out)
        level = int(label.removeprefix("deck "))
        dealt = []
        for position, card in enumerate(out, start=1):
            if position <= self.face_up[level]:
                dealt.append(card)
            else:
                self.truth[placeholder(level, position)] = card
                dealt.append(placeholder(level, position))
        return tuple(dealt)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return tuple(self.rng.sample(list(items), count))


def sealed_start(seed: int = 1) -> tuple[DuelState, SealedChance]:
    chance = SealedChance(random.Random(seed), FACE_UP)
    setup = DUEL.deal(("ann", "bob"), chance)
    assert isinstance(setup, DuelStarted)
    return DUEL.start(setup), chance


def reveal(state: DuelState, cards: dict[str, str]) -> DuelState:
    revealed = DUEL.sealed_cards.substitute(state, cards) if DUEL.sealed_cards else state
    assert isinstance(revealed, DuelState)
    return revealed


def places(state: DuelState) -> list[str]:
    """Every card or placeholder of the state, wherever it lies (a blind reserve counted once)."""
    found = [card for deck in state.decks for card in deck]
    found += [card for row in state.pyramid for card in row if card is not None]
    for player in state.players:
        found += [*player.cards, *player.reserved]
    return found


def assert_conserved(state: DuelState, *, sealed_ok: bool = True) -> None:
    found = places(state)
    assert len(found) == len(set(found)), "no card or placeholder twice"
    for level, cards in DECKS.items():
        here = [card for card in found if level_of(card) == level]
        assert len(here) == len(cards)
        assert {card for card in here if not is_placeholder(card)} <= set(cards)
        if not sealed_ok:
            assert sorted(here) == sorted(cards)


def free(state: DuelState) -> DuelState:
    """`state` with the player to move holding bonuses that pay any gem, and 2 pearls."""
    players = list(state.players)
    players[state.to_move] = attrs.evolve(players[state.to_move], bonuses=FREE, tokens=Tokens.of(pearl=2))
    return attrs.evolve(state, players=tuple(players))


def step(state: DuelState, move: Step | str, rng: random.Random | None = None) -> tuple[DuelState, object]:
    if isinstance(move, str):
        (move,) = DUEL.parse_moves(move)
    from splendor_cli.projection.seeding import RandomChance

    event = DUEL.decide(state, DUEL.draw(state, move, RandomChance(rng or random.Random(0))))
    return DUEL.evolve(state, event), event


def finish_turn(state: DuelState, rng: random.Random) -> DuelState:
    """Whatever the turn still owes (an ability, a royal card, returns), played at random."""
    while not state.finished and not state.at_turn_start:
        state, _ = step(state, DUEL.random_move(state, rng), rng)
    return state


def gold_cell(state: DuelState) -> str:
    return CELLS[state.board.index(Gem.GOLD)]


def assert_no_placeholder_offered(state: DuelState) -> None:
    for move in DUEL.legal_moves(state):
        assert not is_placeholder(move.card), move
        DUEL.move_json(state, move)
        DUEL.format_move(move)


# -- the setup -------------------------------------------------------------------------------------


def test_a_sealed_setup_deals_real_cards_to_the_pyramid_and_placeholders_in_the_decks() -> None:
    state, _ = sealed_start()
    assert [len(row) for row in state.pyramid] == [5, 4, 3]
    assert all(not is_placeholder(card) for row in state.pyramid for card in row)
    assert all(is_placeholder(card) for deck in state.decks for card in deck)
    assert_conserved(state)
    assert DUEL.state_json(1, state)["decks"] == {str(n): len(DECKS[n]) - FACE_UP[n] for n in (1, 2, 3)}


def duel_setup(decks: Sequence[tuple[str, ...]], board: tuple[Gem | None, ...]) -> DuelStarted:
    deck_1, deck_2, deck_3 = decks
    cells = tuple(gem for gem in board if gem is not None)
    assert len(cells) == len(board), "a setup's board is full"
    return DuelStarted(
        seq=1, parent="", players=("ann", "bob"), deck_1=deck_1, deck_2=deck_2, deck_3=deck_3, board=cells
    )


def test_a_deck_of_placeholders_only_is_a_valid_setup() -> None:
    state, _ = sealed_start()
    decks = tuple(tuple(placeholder(level, k) for k in range(1, len(DECKS[level]) + 1)) for level in (1, 2, 3))
    setup = duel_setup(decks, state.board)
    assert setup_problem(setup) == ""
    sealed = DUEL.start(setup)
    assert DUEL.state_json(1, sealed)["pyramid"]["3"] == ["3?01", "3?02", "3?03"]
    assert_no_placeholder_offered(free(sealed))
    assert all(step.step != "buy" and not step.card for step in DUEL.legal_moves(free(sealed)))


@pytest.mark.parametrize(
    "deck",
    [
        pytest.param(("3?01", *DECKS[2][1:]), id="placeholder of another level"),
        pytest.param((placeholder(2, len(DECKS[2]) + 1), *DECKS[2][1:]), id="position past the deck"),
        pytest.param(("2?03", "2?03", *DECKS[2][2:]), id="placeholder twice"),
        pytest.param(DECKS[2][1:], id="one too few"),
    ],
)
def test_a_sealed_deck_must_be_a_shuffle_of_its_level(deck: tuple[str, ...]) -> None:
    state, _ = sealed_start()
    setup = duel_setup((DECKS[1], deck, DECKS[3]), state.board)
    assert setup_problem(setup).startswith(f"deck_2 is not a shuffle of the {len(DECKS[2])} level-2 Duel cards")
    with pytest.raises(ValueError, match="deck_2 is not a shuffle"):
        DUEL.start(setup)


def test_an_open_deck_keeps_its_message() -> None:
    state, _ = sealed_start()
    setup = duel_setup((DECKS[1], DECKS[2][1:], DECKS[3]), state.board)
    assert setup_problem(setup) == f"deck_2 is not a shuffle of the {len(DECKS[2])} level-2 Duel cards"


@pytest.mark.parametrize("text", ["buy 2?07", "reserve 2?07 a1", "reserve 1?06", "buy 3?04 as red"])
def test_a_placeholder_is_no_card_a_player_can_name(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not a card id"):
        DUEL.parse_moves(text)


# -- the rules ---------------------------------------------------------------------------------------


def buy_step(state: DuelState, card: str) -> Step:
    return next(s for s in DUEL.legal_moves(state) if s.step == "buy" and s.card == card)


def test_a_purchase_from_the_pyramid_deals_a_placeholder_into_its_place() -> None:
    state, chance = sealed_start(2)
    state = free(state)
    card = next(c for c in state.pyramid[0] if c is not None and not CARDS[c].wild)
    slot = state.pyramid[0].index(card)
    top = state.decks[0][0]
    after, event = step(state, buy_step(state, card))
    assert isinstance(event, DuelCardBought) and event.drawn == top
    assert after.pyramid[0][slot] == top
    assert_conserved(after)
    assert DUEL.shown(event) == ()
    assert DUEL.event_notation(event).startswith(f"buy {card}")
    assert DUEL.state_json(2, after)["pyramid"]["1"][slot] == top
    after = finish_turn(after, random.Random(1))
    for who in (after, free(after)):
        assert_no_placeholder_offered(who)
        gold = who.board.index(Gem.GOLD)
        for move in (Step(step="buy", card=top), Step(step="reserve", card=top, cells=(gold,))):
            with pytest.raises(IllegalMoveError, match="not revealed"):
                DUEL.decide(who, move)
        assert DUEL.move_json(who, Step(step="buy", card=top))["card"] == top
        DUEL.value(who, 0)
        DUEL.score(who, 1)
    shown = reveal(after, {top: chance.truth[top]})
    assert chance.truth[top] in [s.card for s in DUEL.legal_moves(free(shown))]


def test_a_blind_reserve_puts_a_placeholder_in_the_reserve() -> None:
    state, chance = sealed_start(3)
    top = state.decks[2][0]
    gold = gold_cell(state)
    after, event = step(state, f"reserve deck 3 {gold}")
    assert isinstance(event, GoldReserved) and event.blind and event.card == top
    ann = after.players[0]
    assert ann.reserved == (top,) and ann.blind == (top,)
    assert_conserved(after)
    assert DUEL.move_of(event) == Step(step="reserve", cells=(CELLS.index(gold),), deck=3)
    assert DUEL.decide(state, DUEL.move_of(event)) == event
    assert DUEL.event_notation(event) == f"reserve deck 3 {gold}"
    assert DUEL.shown(event) == ()
    assert DUEL.state_json(2, after)["players"][0]["reserved"] == [top]
    # bob plays; ann is never offered her unopened reserve, even able to pay anything
    rng = random.Random(2)
    after = finish_turn(after, rng)
    after, _ = step(after, DUEL.random_move(after, rng), rng)
    after = finish_turn(after, rng)
    if after.finished or after.to_move != 0:
        pytest.skip("bob's turn ended the game or gave him another")
    ann_turn = free(after)
    assert_no_placeholder_offered(ann_turn)
    with pytest.raises(IllegalMoveError, match="not revealed"):
        DUEL.decide(ann_turn, Step(step="buy", card=top))
    DUEL.value(ann_turn, 0)
    opened = reveal(ann_turn, {top: chance.truth[top]})
    assert chance.truth[top] in [s.card for s in DUEL.legal_moves(opened) if s.step == "buy"]


def test_move_of_refuses_a_placeholder_but_in_a_blind_reserve() -> None:
    state, _ = sealed_start(4)
    state = free(state)
    card = next(c for c in state.pyramid[0] if c is not None and not CARDS[c].wild)
    _, event = step(state, buy_step(state, card))
    assert isinstance(event, DuelCardBought)
    with pytest.raises(ValueError, match="no card"):
        DUEL.move_of(attrs.evolve(event, card="1?09"))
    _, reserve = step(state, f"reserve {card} {gold_cell(state)}")
    assert isinstance(reserve, GoldReserved)
    # a face-up reserve's card is judged by `decide` (as for an open game): not revealed
    sealed = attrs.evolve(reserve, card=state.decks[0][0])
    with pytest.raises(IllegalMoveError, match="not face up"):
        DUEL.decide(state, DUEL.move_of(sealed))
    with pytest.raises(ValueError):
        DUEL.evolve(state, attrs.evolve(reserve, card=state.decks[0][0], blind=False))


# -- the bots ---------------------------------------------------------------------------------------------


def sealed_midgame(seed: int) -> DuelState:
    """Both players reserved blind, a place of the pyramid waiting to be revealed."""
    rng = random.Random(seed)
    state, _ = sealed_start(seed)
    state, _ = step(state, f"reserve deck 1 {gold_cell(state)}")
    state = finish_turn(state, rng)
    state, _ = step(state, f"reserve deck 2 {gold_cell(state)}")
    state = finish_turn(state, rng)
    state = free(state)
    card = next(c for c in state.pyramid[2] if c is not None and not CARDS[c].wild)
    state, _ = step(state, buy_step(state, card))
    return state


@pytest.mark.parametrize("seat", [0, 1])
def test_hide_leaves_no_placeholder_and_every_card_once(seat: int) -> None:
    state = sealed_midgame(7)
    assert any(is_placeholder(c) for row in state.pyramid for c in row)
    world = DUEL.hide(state, seat, random.Random(1))
    assert not any(is_placeholder(card) for card in places(world))
    assert_conserved(world, sealed_ok=False)
    assert world.players[seat].cards == state.players[seat].cards
    assert [len(d) for d in world.decks] == [len(d) for d in state.decks]
    assert DUEL.legal_moves(world)
    DUEL.value(world, seat)
    assert DUEL.hide(state, seat, random.Random(1)) == world


def test_bots_play_a_sealed_duel() -> None:
    from splendor_cli.bots import make_bot

    state = finish_turn(sealed_midgame(9), random.Random(9))
    assert not state.finished
    assert any(is_placeholder(c) for row in state.pyramid for c in row)  # the bot faces sealed cards
    legal = DUEL.legal_moves(state)
    assert any(m.card for m in legal)  # buys or reserves are on offer, not takes alone
    assert not any(is_placeholder(m.card) for m in legal)  # never a sealed card: no bot can pick one
    bot = make_bot(DUEL, "greedy")
    for seed in range(8):
        assert bot(state, random.Random(seed)) in legal


# -- random play -----------------------------------------------------------------------------------------


def random_sealed_play(seed: int, steps: int, reveal_reserves: bool) -> list[DuelState]:
    """Random legal steps on a sealed setup: a card dealt face up is revealed at once (a random
    card of those nowhere on the table); a blind reserve is opened in its owner's view when
    `reveal_reserves`. Every state met, in order."""
    rng = random.Random(seed)
    state, _ = sealed_start(seed)
    met = [state]
    for _ in range(steps):
        if state.finished:
            break
        state, _ = step(state, DUEL.random_move(state, rng), rng)
        met.append(state)
        pending = [c for row in state.pyramid for c in row if is_placeholder(c)]
        if reveal_reserves:
            pending += [c for c in state.player.reserved if is_placeholder(c)]
        if pending:
            seen = set(places(state))
            for card in pending:
                real = rng.choice(sorted(c for c in DECKS[level_of(card)] if c not in seen))
                seen.add(real)
                state = reveal(state, {card: real})
            met.append(state)
    return met


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), reveal_reserves=st.booleans())
def test_random_sealed_play_never_reads_a_placeholder(seed: int, reveal_reserves: bool) -> None:
    met = random_sealed_play(seed, 80, reveal_reserves)
    for state in met:
        assert_conserved(state)
        assert_no_placeholder_offered(state)
        for seat in (0, 1):
            heuristics.value(state, seat)
    last = met[-1]
    world = DUEL.hide(last, last.to_move, random.Random(seed))
    assert not any(is_placeholder(card) for card in places(world))
    assert_conserved(world, sealed_ok=False)
    if not world.finished:
        assert DUEL.legal_moves(world)
