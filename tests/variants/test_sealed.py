"""Both games with sealed decks (sealing/placeholders.py): what holds alike for the base game and
the Duel, tested once for each (the moves of one game are tested in test_sealed_base.py and
test_sealed_duel.py).

A sealed setup is dealt by the game's own `deal` with a chance that deals real cards to the face-up
places of the market (the Duel's pyramid) and a placeholder (`2?07`) to every other place of a
deck. A setup must still hold each deck's cards or their placeholders once each; no placeholder
can be named, offered or read by the rules, and a bot's `hide` draws real cards for every one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sealed_placeholders import GAMES, SEALED_BASE, SEALED_DUEL

from splendor_cli.errors import InvalidMoveError
from splendor_cli.sealing.placeholders import is_placeholder, placeholder

VARIANTS = sorted(GAMES)
BASE_1, DUEL_2 = SEALED_BASE.decks[1], SEALED_DUEL.decks[2]


# -- the setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sealed_setup_deals_real_cards_face_up_and_placeholders_in_the_decks(variant: str) -> None:
    """The market's places hold real cards, as many a level as the game deals face up; every card
    left in a deck is a placeholder; each level's cards are all there once; the JSON view counts
    the decks and shows no placeholder."""
    game = GAMES[variant]
    state, _ = game.start()
    levels = (1, 2, 3)
    assert [len(row) for row in game.market(state)] == [game.face_up[level] for level in levels]
    assert all(not is_placeholder(card) for row in game.market(state) for card in row)
    assert all(is_placeholder(card) for deck in state.decks for card in deck)
    assert [len(deck) for deck in state.decks] == [len(game.decks[level]) - game.face_up[level] for level in levels]
    game.assert_conserved(state)
    view = game.variant.state_json(1, state)
    assert view["decks"] == {str(level): len(game.decks[level]) - game.face_up[level] for level in levels}
    assert all(not is_placeholder(card) for row in view[game.market_key].values() for card in row)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_deck_of_placeholders_only_is_a_valid_setup(variant: str) -> None:
    """What the core probes with: every card of every deck a placeholder, the market's too; the
    view shows the market's placeholders, and no move names a card, even for a player able to pay
    anything."""
    game = GAMES[variant]
    decks = [tuple(placeholder(level, k) for k in range(1, len(game.decks[level]) + 1)) for level in (1, 2, 3)]
    state = game.variant.start(game.setup_of(decks))
    assert all(is_placeholder(card) for row in game.market(state) for card in row)
    market = game.variant.state_json(1, state)[game.market_key]
    assert market == {str(level): [placeholder(level, k) for k in range(1, n + 1)] for level, n in game.face_up.items()}
    rich = game.rich(state)
    game.assert_no_placeholder_offered(rich)
    assert not any(move.card for move in game.variant.legal_moves(rich))


@pytest.mark.parametrize(
    ("variant", "level", "deck"),
    [
        pytest.param("base", 1, ("2?01", *BASE_1[1:]), id="base: placeholder of another level"),
        pytest.param("base", 1, (placeholder(1, len(BASE_1) + 1), *BASE_1[1:]), id="base: position past the deck"),
        pytest.param("base", 1, ("1?00", *BASE_1[1:]), id="base: position 0"),
        pytest.param("base", 1, ("1?05", "1?05", *BASE_1[2:]), id="base: placeholder twice"),
        pytest.param("base", 1, ("1?05", *BASE_1), id="base: one too many"),
        pytest.param("base", 1, ("1?5", *BASE_1[1:]), id="base: not a placeholder"),
        pytest.param("base", 1, ("1?05", BASE_1[2], *BASE_1[2:]), id="base: card twice"),
        pytest.param("duel", 2, ("3?01", *DUEL_2[1:]), id="duel: placeholder of another level"),
        pytest.param("duel", 2, (placeholder(2, len(DUEL_2) + 1), *DUEL_2[1:]), id="duel: position past the deck"),
        pytest.param("duel", 2, ("2?03", "2?03", *DUEL_2[2:]), id="duel: placeholder twice"),
        pytest.param("duel", 2, DUEL_2[1:], id="duel: one too few"),
    ],
)
def test_a_sealed_deck_must_be_a_shuffle_of_its_level(variant: str, level: int, deck: tuple[str, ...]) -> None:
    """A deck whose placeholders are of another level, past its end, at 0, doubled or misspelt,
    or a deck of one card too many or too few, is no shuffle of its level: the setup is refused."""
    game = GAMES[variant]
    decks = [game.decks[n] for n in (1, 2, 3)]
    decks[level - 1] = deck
    size = len(game.decks[level])
    with pytest.raises(ValueError, match=f"deck_{level} is not a shuffle of the {size} level-{level} "):
        game.variant.start(game.setup_of(decks))


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_open_deck_keeps_its_message(variant: str) -> None:
    """An open deck (no placeholder) that is no shuffle of its level is refused in the words of an
    open game's setup."""
    game = GAMES[variant]
    decks = [game.decks[1], (game.decks[1][0], *game.decks[2][1:]), game.decks[3]]
    with pytest.raises(ValueError) as caught:
        game.variant.start(game.setup_of(decks))
    duel = " Duel" if variant == "duel" else ""
    assert str(caught.value) == f"deck_2 is not a shuffle of the {len(game.decks[2])} level-2{duel} cards"


@pytest.mark.parametrize("variant", VARIANTS)
def test_placeholders_anywhere_in_their_deck_are_valid(variant: str) -> None:
    """A deck of real cards and placeholders mixed in any order (each placeholder at a position of
    its level, each card once) is a valid setup."""
    game = GAMES[variant]
    deck = tuple(placeholder(1, k) if k % 3 else card for k, card in enumerate(game.decks[1], start=1))
    game.variant.start(game.setup_of([tuple(reversed(deck)), game.decks[2], game.decks[3]]))


# -- the notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "text"),
    [
        *[("base", text) for text in ("buy 2?07", "reserve 2?07", "reserve 1?05 return red", "buy 3?01 pay red")],
        *[("duel", text) for text in ("buy 2?07", "reserve 2?07 a1", "reserve 1?06", "buy 3?04 as red")],
    ],
)
def test_a_placeholder_is_no_card_a_player_can_name(variant: str, text: str) -> None:
    """A move that names a placeholder does not parse: it is not a card id."""
    with pytest.raises(InvalidMoveError, match="is not a card id"):
        GAMES[variant].variant.parse_moves(text)


# -- the bots -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seat", [0, 1])
def test_hide_leaves_no_placeholder_and_every_card_once(variant: str, seat: int) -> None:
    """A seat's sample of a sealed state (`hide`) holds real cards only, each card once; it keeps
    what the seat sees (the market's revealed cards, its own cards, how many cards each deck and
    reserve holds); the bots can play on it, and the same rng gives the same sample."""
    game = GAMES[variant]
    state = game.midgame(7)
    assert any(is_placeholder(c) for row in game.market(state) for c in row)
    world = game.variant.hide(state, seat, random.Random(1))
    assert not any(is_placeholder(card) for card in game.places(world))
    game.assert_conserved(world, sealed_ok=False)
    for before, now in zip(game.market(state), game.market(world)):
        assert [c if not is_placeholder(c) else "?" for c in before] == [
            c if not is_placeholder(b) else "?" for b, c in zip(before, now)
        ]
    assert world.players[seat].cards == state.players[seat].cards
    assert [len(d) for d in world.decks] == [len(d) for d in state.decks]
    assert [len(p.reserved) for p in world.players] == [len(p.reserved) for p in state.players]
    assert game.variant.legal_moves(world)
    game.variant.value(world, seat)
    assert game.variant.hide(state, seat, random.Random(1)) == world


# -- random play -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), reveal_reserves=st.booleans())
def test_random_sealed_play_never_reads_a_placeholder(variant: str, seed: int, reveal_reserves: bool) -> None:
    """Random play on a sealed setup (40 turns of the base game, 80 steps of the Duel), each card
    dealt face up revealed at once, blind reserves opened or not: every state conserves the cards,
    offers no placeholder and is valued by the game's heuristics; a bot's sample of the last one
    holds real cards only, each once, and has moves unless the game is over."""
    game = GAMES[variant]
    met = game.random_play(seed, reveal_reserves)
    for state in met:
        game.assert_conserved(state)
        game.assert_no_placeholder_offered(state)
        for seat in range(len(state.players)):
            game.value(state, seat)
    last = met[-1]
    world = game.variant.hide(last, last.to_move, random.Random(seed))
    assert not any(is_placeholder(card) for card in game.places(world))
    game.assert_conserved(world, sealed_ok=False)
    if not world.finished:
        assert game.variant.legal_moves(world)
