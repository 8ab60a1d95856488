"""Splendor with sealed decks (sealing/placeholders.py): the base game's own moves on placeholders.

A purchase from the market refills its slot with a placeholder (a card being revealed), a blind
reserve puts one in a reserve; the rules never read a placeholder's card nor offer one. What holds
alike for both games (the setup, the notation, `hide`, random play) is in test_sealed.py.
"""

from __future__ import annotations

import random

import attrs
import pytest
from sealed_placeholders import SEALED_BASE as GAME

from splendor_cli.errors import IllegalMoveError
from splendor_cli.model import EMPTY, Tokens
from splendor_cli.sealing.placeholders import is_placeholder
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base.events import CardPurchased, CardReserved
from splendor_cli.variants.base.rules import Move

# -- the rules -----------------------------------------------------------------------------------------


def test_a_purchase_from_the_market_deals_a_placeholder_into_its_slot() -> None:
    """A purchase from the market draws the deck's top placeholder into the slot: conserved, nothing
    shown, the notation names the card bought; neither player may buy or reserve the placeholder
    ("not revealed"), the bots value the state, and once revealed it is an ordinary card again."""
    state, chance = GAME.start(2)
    state = GAME.rich(state)
    card = state.board[0][1]
    assert card is not None
    top = state.decks[0][0]
    after, event = GAME.play(state, f"buy {card}")
    assert isinstance(event, CardPurchased) and event.drawn == top
    assert after.board[0][1] == top and is_placeholder(top)
    assert top not in after.decks[0]
    GAME.assert_conserved(after)
    assert BASE.shown(event) == ()
    assert BASE.event_notation(event) == f"buy {card}"
    assert BASE.state_json(2, after)["board"]["1"][1] == top
    # the slot being revealed is neither bought nor reserved, whoever is to move
    for who in (after, GAME.rich(after)):
        GAME.assert_no_placeholder_offered(who)
        for move in (Move(action="buy", card=top), Move(action="reserve", card=top)):
            with pytest.raises(IllegalMoveError, match="not revealed"):
                BASE.decide(who, move)
        assert BASE.move_json(who, Move(action="buy", card=top))["card"] == top
        BASE.value(who, 0)
        BASE.value(who, 1)
        BASE.score(who, who.to_move)
    # once revealed, it is an ordinary card again
    shown = GAME.reveal(after, {top: chance.truth[top]})
    assert not any(is_placeholder(c) for row in shown.board for c in row)
    assert chance.truth[top] in [m.card for m in BASE.legal_moves(GAME.rich(shown))]


def test_a_blind_reserve_puts_a_placeholder_in_the_reserve() -> None:
    """A blind reserve puts the deck's top placeholder in the reserve (marked blind): the event reads
    back to its move and names no card; its owner is never offered it, even rich, until her view
    opens it, and then she may buy it."""
    state, chance = GAME.start(3)
    top = state.decks[1][0]
    after, event = GAME.play(state, "reserve deck 2")
    assert isinstance(event, CardReserved) and event.blind and event.card == top
    ann = after.players[0]
    assert ann.reserved == (top,) and ann.blind == (top,)
    assert top not in after.decks[1]
    GAME.assert_conserved(after)
    # the event reads back to the move that made it, and its notation says no card
    assert BASE.move_of(event) == Move(action="reserve", deck=2, returned=EMPTY, noble="")
    assert BASE.decide(state, BASE.move_of(event)) == event
    assert BASE.event_notation(event) == "reserve deck 2"
    assert BASE.shown(event) == ()
    view = BASE.state_json(2, after)
    assert view["players"][0]["reserved"] == [top] and view["players"][0]["reserved_blind"] == [top]
    # bob plays; then ann, rich, is never offered her unopened reserve
    after, _ = GAME.play(after, "take red blue green")
    ann_turn = GAME.rich(after)
    GAME.assert_no_placeholder_offered(ann_turn)
    with pytest.raises(IllegalMoveError, match="not revealed"):
        BASE.decide(ann_turn, Move(action="buy", card=top))
    BASE.value(ann_turn, 0)
    # her view, substituted by the core, lets her buy it
    opened = GAME.reveal(ann_turn, {top: chance.truth[top]})
    assert chance.truth[top] in [m.card for m in BASE.legal_moves(opened) if m.action == "buy"]


def test_move_of_refuses_a_placeholder_but_in_a_blind_reserve() -> None:
    """`move_of` refuses an event that buys or reserves a placeholder by name: only a blind reserve
    holds one."""
    state, _ = GAME.start(4)
    card = state.board[2][0]
    assert card is not None
    _, event = GAME.play(GAME.rich(state), f"buy {card}")
    assert isinstance(event, CardPurchased)
    with pytest.raises(ValueError, match="no card"):
        BASE.move_of(attrs.evolve(event, card="3?07"))
    _, reserve = GAME.play(state, f"reserve {card}")
    assert isinstance(reserve, CardReserved)
    with pytest.raises(ValueError, match="no card"):
        BASE.move_of(attrs.evolve(reserve, card="3?07"))


def test_evolve_refuses_to_buy_or_show_a_placeholder() -> None:
    """`evolve` refuses an event that buys a placeholder lying in the market."""
    state, _ = GAME.start(5)
    state, event = GAME.play(GAME.rich(state), f"buy {state.board[0][0]}")
    placeholder_slot = state.board[0][0]
    assert isinstance(event, CardPurchased) and is_placeholder(placeholder_slot)
    with pytest.raises(ValueError):
        BASE.evolve(state, attrs.evolve(event, player="bob", card=placeholder_slot, drawn=""))


def test_a_pass_is_judged_without_the_cards_being_revealed() -> None:
    """Nothing to take, no reserve place, only placeholders to buy: the turn is a pass."""
    state, _ = GAME.start(6)
    blind = tuple(state.decks[level][0] for level in range(3))
    decks = tuple(deck[1:] for deck in state.decks)
    board = tuple(tuple(deck[k] for k in range(1, 5)) for deck in decks)
    decks = tuple(deck[5:] for deck in decks)
    players = list(state.players)
    players[0] = attrs.evolve(players[0], reserved=blind, blind=blind)
    state = attrs.evolve(state, players=tuple(players), board=board, decks=decks, bank=Tokens())
    moves = BASE.legal_moves(state)
    assert [m.action for m in moves] == ["pass"]
    BASE.decide(state, moves[0])


# -- the bots -------------------------------------------------------------------------------------------


def test_hide_of_a_sealed_state_depends_only_on_what_is_seen() -> None:
    """Which placeholder stands where in the deck changes nothing of the sample."""
    state = GAME.midgame(8)
    shuffled = attrs.evolve(state, decks=tuple(tuple(reversed(deck)) for deck in state.decks))
    rng = random.Random
    assert BASE.hide(state, 0, rng(3)) == BASE.hide(shuffled, 0, rng(3))


def test_bots_play_a_sealed_game() -> None:
    """The greedy bot, on a sealed state, picks a move that names no placeholder."""
    from splendor_cli.bots import make_bot

    state = GAME.midgame(9)
    move = make_bot(BASE, "greedy")(state, random.Random(1))
    assert not is_placeholder(move.card)
