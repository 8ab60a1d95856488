"""Splendor with sealed decks (sealing/placeholders.py): the game's own code on placeholders.

A sealed setup is dealt by the game's own `deal` with a chance that, like the core's, deals real
cards to the face-up places and a placeholder (`2?07`) to every other place of a deck. Then turns
are played through `decide` and `evolve`: a purchase from the market refills its slot with a
placeholder (a card being revealed), a blind reserve puts one in a reserve. The rules never read
a placeholder's card, never offer one, and a bot's `hide` draws real cards for every one of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor_cli.errors import IllegalMoveError, InvalidMoveError
from splendor_cli.model import EMPTY, Tokens
from splendor_cli.sealing.placeholders import is_placeholder, level_of, placeholder
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base import heuristics
from splendor_cli.variants.base.cards import DECKS
from splendor_cli.variants.base.events import CardPurchased, CardReserved, GameStarted
from splendor_cli.variants.base.rules import Move, choices
from splendor_cli.variants.base.state import GameState

FACE_UP = {1: 4, 2: 4, 3: 4}
RICH = Tokens.of(white=7, blue=7, green=7, red=7, black=7)
"""Bonuses that make every card free."""


@attrs.define
class SealedChance:
    """Chance as a sealed deal leaves it: each deck shuffled by `rng`, its first `face_up[level]`
    cards real (revealed), every other one its placeholder. `truth` keeps what each placeholder
    stands for (what the players' shares would open)."""

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


def sealed_start(seed: int = 1, players: tuple[str, ...] = ("ann", "bob")) -> tuple[GameState, SealedChance]:
    chance = SealedChance(random.Random(seed), FACE_UP)
    setup = BASE.deal(players, chance)
    assert isinstance(setup, GameStarted)
    return BASE.start(setup), chance


def reveal(state: GameState, cards: dict[str, str]) -> GameState:
    revealed = BASE.sealed_cards.substitute(state, cards) if BASE.sealed_cards else state
    assert isinstance(revealed, GameState)
    return revealed


def places(state: GameState) -> list[str]:
    """Every card or placeholder of the state, wherever it lies (a blind reserve counted once)."""
    found = [card for deck in state.decks for card in deck]
    found += [card for row in state.board for card in row if card is not None]
    for player in state.players:
        found += [*player.cards, *player.reserved]
    return found


def assert_conserved(state: GameState, *, sealed_ok: bool = True) -> None:
    """Each level's places hold its cards once each, a placeholder standing for some (unless not `sealed_ok`)."""
    found = places(state)
    assert len(found) == len(set(found)), "no card or placeholder twice"
    for level, cards in DECKS.items():
        here = [card for card in found if level_of(card) == level]
        assert len(here) == len(cards)
        real = {card for card in here if not is_placeholder(card)}
        assert real <= set(cards)
        if not sealed_ok:
            assert sorted(here) == sorted(cards)


def rich(state: GameState) -> GameState:
    """`state` with the player to move holding bonuses that buy any card for nothing (and no
    noble on the table, which would visit)."""
    players = list(state.players)
    players[state.to_move] = attrs.evolve(players[state.to_move], bonuses=RICH)
    return attrs.evolve(state, players=tuple(players), nobles=())


def play(state: GameState, move: Move | str) -> tuple[GameState, object]:
    if isinstance(move, str):
        (move,) = BASE.parse_moves(move)
    event = BASE.decide(state, move)
    return BASE.evolve(state, event), event


def assert_no_placeholder_offered(state: GameState) -> None:
    for move in BASE.legal_moves(state):
        assert not is_placeholder(move.card), move
        BASE.move_json(state, move)
        BASE.format_move(move)


# -- the setup -------------------------------------------------------------------------------------


def test_a_sealed_setup_deals_real_cards_face_up_and_placeholders_in_the_decks() -> None:
    state, _ = sealed_start()
    assert all(not is_placeholder(card) for row in state.board for card in row)
    assert all(is_placeholder(card) for deck in state.decks for card in deck)
    assert [len(deck) for deck in state.decks] == [len(DECKS[level]) - 4 for level in (1, 2, 3)]
    assert_conserved(state)
    view = BASE.state_json(1, state)
    assert view["decks"] == {str(level): len(DECKS[level]) - 4 for level in (1, 2, 3)}
    assert all(not is_placeholder(card) for row in view["board"].values() for card in row)


def test_a_deck_of_placeholders_only_is_a_valid_setup() -> None:
    """What the core probes with: every card of every deck a placeholder, the market too."""
    decks = tuple(tuple(placeholder(level, k) for k in range(1, len(DECKS[level]) + 1)) for level in (1, 2, 3))
    state = BASE.start(GameStarted.of(("ann", "bob"), decks, ("N01", "N02", "N03")))
    assert all(is_placeholder(card) for row in state.board for card in row)
    assert BASE.state_json(1, state)["board"]["2"] == [placeholder(2, k) for k in (1, 2, 3, 4)]
    assert_no_placeholder_offered(state)
    assert all(move.action in ("take", "reserve") and not move.card for move in BASE.legal_moves(state))


def _setup_with(level: int, deck: tuple[str, ...]) -> GameStarted:
    decks = [DECKS[1], DECKS[2], DECKS[3]]
    decks[level - 1] = deck
    return GameStarted.of(("ann", "bob"), (decks[0], decks[1], decks[2]), ("N01", "N02", "N03"))


@pytest.mark.parametrize(
    "deck",
    [
        pytest.param(("2?01", *DECKS[1][1:]), id="placeholder of another level"),
        pytest.param((placeholder(1, len(DECKS[1]) + 1), *DECKS[1][1:]), id="position past the deck"),
        pytest.param(("1?00", *DECKS[1][1:]), id="position 0"),
        pytest.param(("1?05", "1?05", *DECKS[1][2:]), id="placeholder twice"),
        pytest.param(("1?05", *DECKS[1]), id="one too many"),
        pytest.param(("1?5", *DECKS[1][1:]), id="not a placeholder"),
        pytest.param(("1?05", DECKS[1][2], *DECKS[1][2:]), id="card twice"),
    ],
)
def test_a_sealed_deck_must_be_a_shuffle_of_its_level(deck: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="deck_1 is not a shuffle of the 40 level-1 cards"):
        BASE.start(_setup_with(1, deck))


def test_an_open_deck_keeps_its_message() -> None:
    with pytest.raises(ValueError) as caught:
        BASE.start(_setup_with(2, (DECKS[1][0], *DECKS[2][1:])))
    assert str(caught.value) == "deck_2 is not a shuffle of the 30 level-2 cards"


def test_placeholders_anywhere_in_their_deck_are_valid() -> None:
    deck = tuple(placeholder(1, k) if k % 3 else card for k, card in enumerate(DECKS[1], start=1))
    BASE.start(_setup_with(1, tuple(reversed(deck))))


# -- the notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["buy 2?07", "reserve 2?07", "reserve 1?05 return red", "buy 3?01 pay red"])
def test_a_placeholder_is_no_card_a_player_can_name(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not a card id"):
        BASE.parse_moves(text)


# -- the rules -----------------------------------------------------------------------------------------


def test_a_purchase_from_the_market_deals_a_placeholder_into_its_slot() -> None:
    state, chance = sealed_start(2)
    state = rich(state)
    card = state.board[0][1]
    assert card is not None
    top = state.decks[0][0]
    after, event = play(state, f"buy {card}")
    assert isinstance(event, CardPurchased) and event.drawn == top
    assert after.board[0][1] == top and is_placeholder(top)
    assert top not in after.decks[0]
    assert_conserved(after)
    assert BASE.shown(event) == ()
    assert BASE.event_notation(event) == f"buy {card}"
    assert BASE.state_json(2, after)["board"]["1"][1] == top
    # the slot being revealed is neither bought nor reserved, whoever is to move
    for who in (after, rich(after)):
        assert_no_placeholder_offered(who)
        for move in (Move(action="buy", card=top), Move(action="reserve", card=top)):
            with pytest.raises(IllegalMoveError, match="not revealed"):
                BASE.decide(who, move)
        assert BASE.move_json(who, Move(action="buy", card=top))["card"] == top
        BASE.value(who, 0)
        BASE.value(who, 1)
        BASE.score(who, who.to_move)
    # once revealed, it is an ordinary card again
    shown = reveal(after, {top: chance.truth[top]})
    assert not any(is_placeholder(c) for row in shown.board for c in row)
    assert chance.truth[top] in [m.card for m in BASE.legal_moves(rich(shown))]


def test_a_blind_reserve_puts_a_placeholder_in_the_reserve() -> None:
    state, chance = sealed_start(3)
    top = state.decks[1][0]
    after, event = play(state, "reserve deck 2")
    assert isinstance(event, CardReserved) and event.blind and event.card == top
    ann = after.players[0]
    assert ann.reserved == (top,) and ann.blind == (top,)
    assert top not in after.decks[1]
    assert_conserved(after)
    # the event reads back to the move that made it, and its notation says no card
    assert BASE.move_of(event) == Move(action="reserve", deck=2, returned=EMPTY, noble="")
    assert BASE.decide(state, BASE.move_of(event)) == event
    assert BASE.event_notation(event) == "reserve deck 2"
    assert BASE.shown(event) == ()
    view = BASE.state_json(2, after)
    assert view["players"][0]["reserved"] == [top] and view["players"][0]["reserved_blind"] == [top]
    # bob plays; then ann, rich, is never offered her unopened reserve
    after, _ = play(after, "take red blue green")
    ann_turn = rich(after)
    assert_no_placeholder_offered(ann_turn)
    with pytest.raises(IllegalMoveError, match="not revealed"):
        BASE.decide(ann_turn, Move(action="buy", card=top))
    BASE.value(ann_turn, 0)
    # her view, substituted by the core, lets her buy it
    opened = reveal(ann_turn, {top: chance.truth[top]})
    assert chance.truth[top] in [m.card for m in BASE.legal_moves(opened) if m.action == "buy"]


def test_move_of_refuses_a_placeholder_but_in_a_blind_reserve() -> None:
    state, _ = sealed_start(4)
    card = state.board[2][0]
    assert card is not None
    _, event = play(rich(state), f"buy {card}")
    assert isinstance(event, CardPurchased)
    with pytest.raises(ValueError, match="no card"):
        BASE.move_of(attrs.evolve(event, card="3?07"))
    _, reserve = play(state, f"reserve {card}")
    assert isinstance(reserve, CardReserved)
    with pytest.raises(ValueError, match="no card"):
        BASE.move_of(attrs.evolve(reserve, card="3?07"))


def test_evolve_refuses_to_buy_or_show_a_placeholder() -> None:
    state, _ = sealed_start(5)
    state, event = play(rich(state), f"buy {state.board[0][0]}")
    placeholder_slot = state.board[0][0]
    assert isinstance(event, CardPurchased) and is_placeholder(placeholder_slot)
    with pytest.raises(ValueError):
        BASE.evolve(state, attrs.evolve(event, player="bob", card=placeholder_slot, drawn=""))


def test_a_pass_is_judged_without_the_cards_being_revealed() -> None:
    """Nothing to take, no reserve place, only placeholders to buy: the turn is a pass."""
    state, _ = sealed_start(6)
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


def sealed_midgame(seed: int) -> GameState:
    """Both players reserved blind, a market slot waiting to be revealed."""
    state, _ = sealed_start(seed)
    state, _ = play(state, "reserve deck 1")
    state, _ = play(state, "reserve deck 3")
    card = state.board[1][2]
    state, _ = play(rich(state), f"buy {card}")
    return state


@pytest.mark.parametrize("seat", [0, 1])
def test_hide_leaves_no_placeholder_and_every_card_once(seat: int) -> None:
    state = sealed_midgame(7)
    assert any(is_placeholder(c) for row in state.board for c in row)
    world = BASE.hide(state, seat, random.Random(1))
    assert not any(is_placeholder(card) for card in places(world))
    assert_conserved(world, sealed_ok=False)
    # what the seat sees is kept: the revealed cards of the market, the holdings
    for before, now in zip(state.board, world.board):
        assert [c if not is_placeholder(c) else "?" for c in before] == [
            c if not is_placeholder(b) else "?" for b, c in zip(before, now)
        ]
    assert world.players[seat].cards == state.players[seat].cards
    assert [len(d) for d in world.decks] == [len(d) for d in state.decks]
    assert [len(p.reserved) for p in world.players] == [len(p.reserved) for p in state.players]
    # the bots can play on it
    assert BASE.legal_moves(world)
    BASE.value(world, seat)
    assert BASE.hide(state, seat, random.Random(1)) == world


def test_hide_of_a_sealed_state_depends_only_on_what_is_seen() -> None:
    """Which placeholder stands where in the deck changes nothing of the sample."""
    state = sealed_midgame(8)
    shuffled = attrs.evolve(state, decks=tuple(tuple(reversed(deck)) for deck in state.decks))
    rng = random.Random
    assert BASE.hide(state, 0, rng(3)) == BASE.hide(shuffled, 0, rng(3))


def test_bots_play_a_sealed_game() -> None:
    from splendor_cli.bots import make_bot

    state = sealed_midgame(9)
    move = make_bot(BASE, "greedy")(state, random.Random(1))
    assert not is_placeholder(move.card)


# -- random play -----------------------------------------------------------------------------------------


def random_sealed_play(seed: int, turns: int, reveal_reserves: bool) -> list[GameState]:
    """Random legal turns on a sealed setup: a card dealt face up is revealed at once (a random
    card of those nowhere on the table, as an unknown deck could give); a blind reserve is opened
    in its owner's view when `reveal_reserves`. Every state met, in order."""
    rng = random.Random(seed)
    state, _ = sealed_start(seed, ("ann", "bob", "cy")[: 2 + seed % 2])
    met = [state]
    for _ in range(turns):
        if state.finished:
            break
        options = choices(state)
        state, _ = play(state, options.move(rng.randrange(len(options))))
        met.append(state)
        pending = [c for row in state.board for c in row if is_placeholder(c)]
        if reveal_reserves:
            pending += [c for c in state.player.reserved if is_placeholder(c)]
        if pending:
            seen = set(places(state))
            for card in pending:
                unseen = sorted(c for c in DECKS[level_of(card)] if c not in seen)
                real = rng.choice(unseen)
                seen.add(real)
                state = reveal(state, {card: real})
            met.append(state)
    return met


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), reveal_reserves=st.booleans())
def test_random_sealed_play_never_reads_a_placeholder(seed: int, reveal_reserves: bool) -> None:
    met = random_sealed_play(seed, 40, reveal_reserves)
    for state in met:
        assert_conserved(state)
        assert_no_placeholder_offered(state)
        for seat in range(len(state.players)):
            heuristics.value(state, seat)
    last = met[-1]
    world = BASE.hide(last, last.to_move, random.Random(seed))
    assert not any(is_placeholder(card) for card in places(world))
    assert_conserved(world, sealed_ok=False)
    if not world.finished:
        assert BASE.legal_moves(world)
