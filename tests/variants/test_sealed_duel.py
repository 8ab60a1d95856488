"""Splendor Duel with sealed decks (sealing/placeholders.py): the Duel's own steps on placeholders.

As for the base game (test_sealed_base.py): a purchase from the pyramid refills its place with a
placeholder, a blind reserve puts one in a reserve; no step ever offers or reads one. What holds
alike for both games (the setup, the notation, `hide`, random play) is in test_sealed.py.
"""

from __future__ import annotations

import random

import attrs
import pytest
from sealed_placeholders import SEALED_DUEL as GAME

from splendor_cli.errors import IllegalMoveError
from splendor_cli.model import Gem
from splendor_cli.sealing.placeholders import is_placeholder
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel.cards import CARDS
from splendor_cli.variants.duel.events import DuelCardBought, GoldReserved
from splendor_cli.variants.duel.state import CELLS
from splendor_cli.variants.duel.step import Step

# -- the rules ---------------------------------------------------------------------------------------


def test_a_purchase_from_the_pyramid_deals_a_placeholder_into_its_place() -> None:
    """A purchase from the pyramid draws the deck's top placeholder into its place: conserved, nothing
    shown, the notation names the card bought; once the turn is over, neither player may buy or
    reserve the placeholder ("not revealed"), the bots value the state, and once revealed it is on
    offer."""
    state, chance = GAME.start(2)
    state = GAME.rich(state)
    card = next(c for c in state.pyramid[0] if c is not None and not CARDS[c].wild)
    slot = state.pyramid[0].index(card)
    top = state.decks[0][0]
    after, event = GAME.step(state, GAME.buy_step(state, card))
    assert isinstance(event, DuelCardBought) and event.drawn == top
    assert after.pyramid[0][slot] == top
    GAME.assert_conserved(after)
    assert DUEL.shown(event) == ()
    assert DUEL.event_notation(event).startswith(f"buy {card}")
    assert DUEL.state_json(2, after)["pyramid"]["1"][slot] == top
    after = GAME.finish_turn(after, random.Random(1))
    for who in (after, GAME.rich(after)):
        GAME.assert_no_placeholder_offered(who)
        gold = who.board.index(Gem.GOLD)
        for move in (Step(step="buy", card=top), Step(step="reserve", card=top, cells=(gold,))):
            with pytest.raises(IllegalMoveError, match="not revealed"):
                DUEL.decide(who, move)
        assert DUEL.move_json(who, Step(step="buy", card=top))["card"] == top
        DUEL.value(who, 0)
        DUEL.score(who, 1)
    shown = GAME.reveal(after, {top: chance.truth[top]})
    assert chance.truth[top] in [s.card for s in DUEL.legal_moves(GAME.rich(shown))]


def test_a_blind_reserve_puts_a_placeholder_in_the_reserve() -> None:
    """A blind reserve (with a gold) puts the deck's top placeholder in the reserve: the event reads
    back to its step and names no card; after bob's turn ann is never offered it, even able to pay
    anything, until her view opens it, and then she may buy it."""
    state, chance = GAME.start(3)
    top = state.decks[2][0]
    gold = GAME.gold_cell(state)
    after, event = GAME.step(state, f"reserve deck 3 {gold}")
    assert isinstance(event, GoldReserved) and event.blind and event.card == top
    ann = after.players[0]
    assert ann.reserved == (top,) and ann.blind == (top,)
    GAME.assert_conserved(after)
    assert DUEL.move_of(event) == Step(step="reserve", cells=(CELLS.index(gold),), deck=3)
    assert DUEL.decide(state, DUEL.move_of(event)) == event
    assert DUEL.event_notation(event) == f"reserve deck 3 {gold}"
    assert DUEL.shown(event) == ()
    assert DUEL.state_json(2, after)["players"][0]["reserved"] == [top]
    # bob plays; ann is never offered her unopened reserve, even able to pay anything
    rng = random.Random(2)
    after = GAME.finish_turn(after, rng)
    after, _ = GAME.step(after, DUEL.random_move(after, rng), rng)
    after = GAME.finish_turn(after, rng)
    assert not after.finished and after.to_move == 0, "with these seeds, bob's turn ends and ann is to move"
    ann_turn = GAME.rich(after)
    GAME.assert_no_placeholder_offered(ann_turn)
    with pytest.raises(IllegalMoveError, match="not revealed"):
        DUEL.decide(ann_turn, Step(step="buy", card=top))
    DUEL.value(ann_turn, 0)
    opened = GAME.reveal(ann_turn, {top: chance.truth[top]})
    assert chance.truth[top] in [s.card for s in DUEL.legal_moves(opened) if s.step == "buy"]


def test_move_of_refuses_a_placeholder_but_in_a_blind_reserve() -> None:
    """`move_of` refuses a purchase of a placeholder; a face-up reserve of a card still in a deck is
    judged by `decide` ("not face up") and refused by `evolve`."""
    state, _ = GAME.start(4)
    state = GAME.rich(state)
    card = next(c for c in state.pyramid[0] if c is not None and not CARDS[c].wild)
    _, event = GAME.step(state, GAME.buy_step(state, card))
    assert isinstance(event, DuelCardBought)
    with pytest.raises(ValueError, match="no card"):
        DUEL.move_of(attrs.evolve(event, card="1?09"))
    _, reserve = GAME.step(state, f"reserve {card} {GAME.gold_cell(state)}")
    assert isinstance(reserve, GoldReserved)
    # a face-up reserve's card is judged by `decide` (as for an open game): not revealed
    sealed = attrs.evolve(reserve, card=state.decks[0][0])
    with pytest.raises(IllegalMoveError, match="not face up"):
        DUEL.decide(state, DUEL.move_of(sealed))
    with pytest.raises(ValueError):
        DUEL.evolve(state, attrs.evolve(reserve, card=state.decks[0][0], blind=False))


# -- the bots ---------------------------------------------------------------------------------------------


def test_bots_play_a_sealed_duel() -> None:
    """Facing placeholders in the pyramid, the legal steps name no placeholder but offer cards, and
    the greedy bot always picks one of them."""
    from splendor_cli.bots import make_bot

    state = GAME.finish_turn(GAME.midgame(9), random.Random(9))
    assert not state.finished
    assert any(is_placeholder(c) for row in state.pyramid for c in row)  # the bot faces sealed cards
    legal = DUEL.legal_moves(state)
    assert any(m.card for m in legal)  # buys or reserves are on offer, not takes alone
    assert not any(is_placeholder(m.card) for m in legal)  # never a sealed card: no bot can pick one
    bot = make_bot(DUEL, "greedy")
    for seed in range(8):
        assert bot(state, random.Random(seed)) in legal
