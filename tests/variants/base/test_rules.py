"""One test per rule of docs/rules/splendor_rules.md, and per "question people ask".

Positions come from `helpers.started` (the top of each deck fixed) or, for holdings no short
game reaches, from `attrs.evolve` on a GameState. Each is then judged by `decide` and
`legal_moves`, the same functions `splendor play` and `splendor moves` use. Docstrings cite
the rulebook by section and line: "Turn 1" is line 1 of "A turn: exactly one action".
"""

from __future__ import annotations

import attrs
import pytest
from helpers import BASE, new_game, started, step

from splendor_cli.errors import AmbiguousMoveError, CorruptLogError, IllegalMoveError, InvalidMoveError
from splendor_cli.model import COLOURS, EMPTY, Gem, Tokens
from splendor_cli.projection import Game
from splendor_cli.variants.base.events import CardPurchased, CardReserved, GameStarted, TokensTaken, TurnPassed
from splendor_cli.variants.base.notation import parse_move
from splendor_cli.variants.base.rules import Move, decide, evolve, legal_moves
from splendor_cli.variants.base.state import GameState

R, U, G, W, K, GOLD = Gem.RED, Gem.BLUE, Gem.GREEN, Gem.WHITE, Gem.BLACK, Gem.GOLD

# Level 1 face up: 1-06 (white, costs 3 blue), 1-09 (blue, 3 black), 1-17 (green, 3 red),
# 1-08 (white, 1 point, 4 green); then 1-31 (red, 3 white) and 1-35 (black, 3 green) on the deck.
DECK_1 = ["1-06", "1-09", "1-17", "1-08", "1-31", "1-35"]
DECK_2 = ["2-01", "2-02", "2-03", "2-04", "2-05"]
DECK_3 = ["3-01", "3-02", "3-03", "3-04", "3-05"]
# N01 asks 4 white 4 blue; N06 3 white 3 blue 3 green; N03 4 blue 4 green; N05 4 red 4 black.
NOBLES = ["N01", "N06", "N03", "N05", "N10"]
NAMES = ("ann", "bob", "cat", "dan")


def fresh(players: int = 2) -> Game:
    return started(NAMES[:players], DECK_1, DECK_2, DECK_3, NOBLES[: players + 1])


def table(players: int = 2) -> GameState:
    return fresh(players).state


def seat(state: GameState, index: int | None = None, **changes: object) -> GameState:
    """`state` with one player's holdings changed (by default the player to move's)."""
    i = state.to_move if index is None else index
    players = list(state.players)
    players[i] = attrs.evolve(players[i], **changes)
    return attrs.evolve(state, players=tuple(players))


def bank(state: GameState, **counts: int) -> GameState:
    return attrs.evolve(state, bank=Tokens.of(**counts))


def play(state: GameState, text: str | Move):
    return decide(state, parse_move(text) if isinstance(text, str) else text)


def after(state: GameState, text: str | Move) -> GameState:
    return evolve(state, play(state, text))


def refused(state: GameState, text: str | Move, rule: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        play(state, text)
    assert info.value.rule == rule, str(info.value)
    return info.value


def takes(state: GameState) -> set[Tokens]:
    return {m.gems for m in legal_moves(state) if m.action == "take"}


def tok(text: str) -> Tokens:
    """Tokens by letters: tok('uug') is 2 blue and 1 green; '*' is gold."""
    letters = {g.letter: g for g in Gem}
    return Tokens.from_gems([letters[c] for c in text])


# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "per_colour"), [(2, 4), (3, 5), (4, 7)])
def test_setup_tokens_per_player_count(players: int, per_colour: int) -> None:
    """Setup 3: 4, 5 or 7 tokens of each gem colour for 2, 3 or 4 players; gold is always 5
    (the Decision that gold is used with 2 and 3 players too)."""
    state = new_game(NAMES[:players], seed=players).state
    assert state.bank == Tokens.of({gem: per_colour for gem in COLOURS}, gold=5)
    assert all(p.tokens == EMPTY for p in state.players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_cards_per_level(players: int) -> None:
    """Setup 1: each level's deck is shuffled and 4 cards are dealt face up from its top."""
    game = new_game(NAMES[:players], seed=11)
    setup = game.events[0]
    assert isinstance(setup, GameStarted)
    state = game.state
    for level, deck in enumerate(setup.decks):
        assert state.board[level] == deck[:4]
        assert state.decks[level] == deck[4:]
    assert [len(d) for d in state.decks] == [36, 26, 16]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_reveals_players_plus_one_nobles(players: int) -> None:
    """Setup 2: players + 1 nobles are revealed; a setup with another number is refused."""
    game = new_game(NAMES[:players], seed=5)
    assert len(game.state.nobles) == players + 1 == len(set(game.state.nobles))
    setup = game.events[0]
    wrong = attrs.evolve(setup, nobles=setup.nobles[:-1])
    with pytest.raises(CorruptLogError, match="nobles") as info:
        Game(variant=BASE).apply(wrong)
    assert info.value.seq == 1


def test_setup_first_name_starts_and_order_is_kept() -> None:
    """Setup 4: the first player named starts, and play goes in the order given."""
    game = fresh(3)
    seen = []
    for _ in range(4):
        seen.append(game.state.player.name)
        game = step(game, "reserve deck 1")
    assert seen == ["ann", "bob", "cat", "ann"]
    with pytest.raises(IllegalMoveError) as info:
        game.decide(parse_move("take w u g"), player="cat")
    assert info.value.rule == "turn"


# -- take 3 different ------------------------------------------------------------------------


def test_take_three_different_colours() -> None:
    """Turn 1: take 3 gems of different colours; they move from the bank to the player."""
    state = table()
    event = play(state, "take white blue green")
    assert event == TokensTaken(seq=0, parent="", player="ann", gems=(W, U, G), returned=(), noble="")
    later = evolve(state, event)
    assert later.players[0].tokens == tok("wug")
    assert later.bank == Tokens.of(white=3, blue=3, green=3, red=4, black=4, gold=5)


@pytest.mark.parametrize("text", ["take red blue", "take red"])
def test_take_fewer_than_three_refused_while_three_colours_are_available(text: str) -> None:
    """Turn 1: with 3 or more colours available it is always 3 different gems."""
    refused(table(), text, "take-three")
    assert all(gems.total() in (2, 3) for gems in takes(table()))


@pytest.mark.parametrize(
    ("text", "rule"), [("take red red red", "take"), ("take red red blue", "take"), ("take w u g r", "take-three")]
)
def test_take_other_shapes_refused(text: str, rule: str) -> None:
    """Turn 1-2: a take is 3 different colours or 2 of one colour, nothing else: a colour twice
    with more is not a take of two (rule take), four colours are more than three (take-three)."""
    refused(table(), text, rule)


def test_take_fewer_when_only_two_colours_are_available() -> None:
    """Turn 1: with 2 colours available, the player may take 2 of different colours, or 1."""
    state = bank(table(), red=3, blue=1, gold=5)
    assert play(state, "take red blue").gems == (U, R)
    assert play(state, "take red").gems == (R,)
    assert takes(state) == {tok("ru"), tok("r"), tok("u")}
    refused(state, "take red blue green", "take")  # green is not available


def test_take_one_when_only_one_colour_is_available() -> None:
    """Turn 1: with one colour available, the player may take 1 gem of it."""
    state = bank(table(), black=2, gold=3)
    assert play(state, "take black").gems == (K,)
    assert takes(state) == {tok("k")}


def test_take_a_colour_the_bank_lacks_refused() -> None:
    """Turn 1: gems are taken from the bank, so only colours it has can be taken."""
    state = bank(table(), white=0, blue=4, green=4, red=4, black=4, gold=5)
    refused(state, "take white blue green", "take")
    assert all(gems[W] == 0 for gems in takes(state))


def test_take_two_of_one_colour_from_a_pile_of_four() -> None:
    """Turn 2: 2 gems of one colour may be taken when that colour has at least 4 in the bank."""
    state = table()
    assert state.bank[R] == 4
    assert after(state, "take red red").bank[R] == 2
    assert {g for g in takes(state) if g.total() == 2} == {Tokens.of({c: 2}) for c in COLOURS}


def test_take_two_from_a_pile_of_three_refused() -> None:
    """Turn 2: only if that colour has at least 4 in the bank before taking."""
    state = bank(table(), white=4, blue=4, green=4, red=3, black=4, gold=5)
    error = refused(state, "take red red", "take-two")
    assert "4 or more" in str(error)
    assert Tokens.of(red=2) not in takes(state)


@pytest.mark.parametrize("text", ["take gold", "take white blue gold", "take gold gold", "take * *"])
def test_gold_is_never_taken(text: str) -> None:
    """Turn 1-2: never gold (gold comes only with a reserve)."""
    refused(table(), text, "take")
    assert all(gems[GOLD] == 0 for gems in takes(table()))


# -- reserve ---------------------------------------------------------------------------------


def test_reserve_face_up_gives_gold_and_is_replaced_from_the_deck() -> None:
    """Turn 3 and "A face-up card that is bought or reserved is replaced at once from its
    level's deck": the card goes to the player's hand with 1 gold, a new card fills its slot."""
    state = table()
    event = play(state, "reserve 1-09")
    assert event == CardReserved(
        seq=0, parent="", player="ann", card="1-09", blind=False, gold=True, drawn="1-31", returned=(), noble=""
    )
    later = evolve(state, event)
    assert later.board[0] == ("1-06", "1-31", "1-17", "1-08")
    assert later.decks[0][0] == "1-35"
    assert later.players[0].reserved == ("1-09",)
    assert later.players[0].tokens == Tokens.of(gold=1)
    assert later.bank[GOLD] == 4


def test_reserve_blind_takes_the_top_of_a_deck() -> None:
    """Turn 3: the top card of one level's deck may be reserved without showing it; the board
    does not change."""
    state = table()
    event = play(state, "reserve deck 1")
    assert (event.card, event.blind, event.gold, event.drawn) == ("1-31", True, True, "")
    later = evolve(state, event)
    assert later.board == state.board
    assert later.decks[0] == state.decks[0][1:]
    assert later.players[0].reserved == ("1-31",)
    assert later.players[0].blind == ("1-31",)  # shown as reserved blind: unknown at a real table


def test_a_blind_reserve_stays_marked_until_bought() -> None:
    """Turn 3-4: a card reserved blind stays marked blind among the reserved until it is bought;
    a face-up reserve is never marked."""
    state = table()
    state = evolve(state, play(state, "reserve deck 1"))
    state = evolve(state, play(state, "take white blue green"))
    state = evolve(state, play(state, "reserve 1-06"))
    assert state.players[0].reserved == ("1-31", "1-06") and state.players[0].blind == ("1-31",)
    rich = attrs.evolve(state.players[0], tokens=Tokens.of(gold=5, white=1, blue=1, green=1, red=1, black=1))
    state = attrs.evolve(state, players=(rich, state.players[1]), to_move=0)
    state = evolve(state, play(state, "buy 1-31"))
    assert state.players[0].reserved == ("1-06",) and state.players[0].blind == ()


def test_reserve_blind_from_an_empty_deck_refused() -> None:
    """Turn 3: the deck must not be empty."""
    state = table()
    state = attrs.evolve(state, decks=(state.decks[0], state.decks[1], ()))
    refused(state, "reserve deck 3", "reserve")
    reserves = [m for m in legal_moves(state) if m.action == "reserve"]
    assert {m.deck for m in reserves} == {0, 1, 2}


def test_reserve_without_gold_when_the_bank_has_none() -> None:
    """Turn 3: take 1 gold if the bank has any; reserving is allowed without gold."""
    state = bank(table(), white=4, blue=4, green=4, red=4, black=4, gold=0)
    event = play(state, "reserve 1-06")
    assert event.gold is False
    later = evolve(state, event)
    assert later.players[0].tokens == EMPTY
    assert later.bank[GOLD] == 0
    assert later.players[0].reserved == ("1-06",)


def test_at_most_three_reserved_cards() -> None:
    """Turn 3: a player may hold at most 3 reserved cards."""
    state = seat(table(), reserved=("1-01", "1-02", "1-03"))
    error = refused(state, "reserve 1-06", "reserve")
    assert "3 reserved" in str(error)
    refused(state, "reserve deck 2", "reserve")
    assert not [m for m in legal_moves(state) if m.action == "reserve"]
    # Buying one of them frees a place.
    state = seat(state, tokens=tok("rrk"))
    freed = after(state, "buy 1-01")
    freed = attrs.evolve(freed, to_move=0)
    assert play(freed, "reserve 1-06").card == "1-06"


def test_reserve_a_card_that_is_not_face_up_refused() -> None:
    """Turn 3: a face-up card, or the top of a deck blind; not a card from inside a deck."""
    refused(table(), "reserve 1-35", "reserve")


def test_reserved_cards_cannot_be_discarded() -> None:
    """Turn 3: reserved cards can't be discarded, only bought: no legal turn drops one."""
    state = seat(table(), reserved=("3-02", "3-03", "3-04"), tokens=tok("wwurrk**"))
    state = bank(state, white=2, blue=3, green=4, red=2, black=3, gold=3)
    for move in legal_moves(state):
        assert after(state, move).players[0].reserved == state.players[0].reserved, move
    with pytest.raises(InvalidMoveError):
        parse_move("discard 3-02")


# -- buy -------------------------------------------------------------------------------------


def test_buy_a_face_up_card() -> None:
    """Turn 4: buy a face-up card; the paid tokens go back to the bank; the card is replaced."""
    state = bank(seat(table(), tokens=tok("uuu")), white=4, blue=1, green=4, red=4, black=4, gold=5)
    event = play(state, "buy 1-06")
    assert event == CardPurchased(
        seq=0, parent="", player="ann", card="1-06", payment=(U, U, U), drawn="1-31", noble=""
    )
    later = evolve(state, event)
    ann = later.players[0]
    assert (ann.cards, ann.tokens, ann.bonuses, ann.points) == (("1-06",), EMPTY, Tokens.of(white=1), 0)
    assert later.bank[U] == 4
    assert later.board[0] == ("1-31", "1-09", "1-17", "1-08")


def test_buy_a_reserved_card() -> None:
    """Turn 4: or one of the player's own reserved cards (no slot to refill)."""
    state = seat(table(), reserved=("1-01",), tokens=tok("rrk"))
    event = play(state, "buy 1-01")
    assert (event.card, event.drawn) == ("1-01", "")
    later = evolve(state, event)
    assert later.players[0].reserved == ()
    assert later.players[0].cards == ("1-01",)
    assert later.board == state.board
    assert later.decks == state.decks


def test_buy_another_players_reserved_card_refused() -> None:
    """Turn 4: only the player's *own* reserved cards may be bought."""
    state = seat(seat(table(), 1, reserved=("1-01",)), tokens=tok("rrk"))
    refused(state, "buy 1-01", "buy")


def test_bonuses_reduce_the_cost_never_below_zero() -> None:
    """Turn 4: the cost is reduced by the player's bonuses, per colour, never below zero: a
    surplus bonus pays nothing in another colour."""
    state = seat(table(), bonuses=Tokens.of(blue=2), tokens=tok("u"))
    assert play(state, "buy 1-06").payment == (U,)
    rich = seat(table(), bonuses=Tokens.of(blue=5), tokens=tok("kk"))
    assert play(rich, "buy 1-06").payment == ()
    refused(rich, "buy 1-09", "buy")  # 3 black: 5 blue bonuses do not help, 2 black tokens are short


def test_gold_pays_for_a_missing_colour() -> None:
    """Turn 4: gold pays for any colour; by default coloured tokens go first."""
    state = seat(table(), tokens=tok("u**"))
    assert play(state, "buy 1-06").payment == (U, GOLD, GOLD)


def test_gold_may_be_spent_while_holding_the_colour() -> None:
    """Turn 4: a player may pay gold even while holding the colour; an exact explicit payment
    is accepted, and the default payment spends the colour first."""
    state = seat(table(), tokens=tok("uuu*"))
    assert play(state, "buy 1-06").payment == (U, U, U)
    assert play(state, "buy 1-06 pay blue blue gold").payment == (U, U, GOLD)
    later = after(state, "buy 1-06 pay gold blue blue")
    assert later.players[0].tokens == tok("u")
    assert later.bank[GOLD] == table().bank[GOLD] + 1


@pytest.mark.parametrize(
    "payment",
    ["blue blue blue gold", "blue blue blue blue", "blue blue blue red", "blue blue gold gold"],
)
def test_overpaying_refused(payment: str) -> None:
    """Turn 4: no change is given: pay the exact remainder, not more."""
    state = seat(table(), tokens=tok("uuuurr**"))
    refused(state, f"buy 1-06 pay {payment}", "payment")


@pytest.mark.parametrize("payment", ["blue blue", "gold", "nothing"])
def test_underpaying_refused(payment: str) -> None:
    """Turn 4: the rest of the cost is paid with tokens, all of it."""
    state = seat(table(), tokens=tok("uuu*"))
    refused(state, f"buy 1-06 pay {payment}", "payment")


def test_paying_with_tokens_not_held_refused() -> None:
    """Turn 4: the payment comes from the player's own tokens."""
    state = seat(table(), tokens=tok("uuu"))
    refused(state, "buy 1-06 pay blue blue gold", "payment")


def test_buying_what_one_cannot_afford_refused() -> None:
    """Turn 4: the cost after bonuses must be paid; short of tokens and gold, no buy."""
    state = seat(table(), tokens=tok("uu"))
    error = refused(state, "buy 1-06", "buy")
    assert "cannot afford" in str(error)
    assert not [m for m in legal_moves(state) if m.action == "buy"]


def test_a_free_card_is_still_a_buy() -> None:
    """Turn 4: a card that costs nothing after bonuses is still a buy action (the whole turn)."""
    state = seat(table(), bonuses=Tokens.of(blue=3))
    event = play(state, "buy 1-06")
    assert isinstance(event, CardPurchased) and event.payment == ()
    assert play(state, "buy 1-06 pay nothing") == event
    later = evolve(state, event)
    assert later.to_move == 1 and later.turn == 1
    assert later.players[0].tokens == EMPTY
    assert later.players[0].cards == ("1-06",)
    assert [m for m in legal_moves(state) if m.card == "1-06" and m.action == "buy"] == [
        Move(action="buy", card="1-06", returned=EMPTY, noble="")
    ]


def test_buy_is_listed_once_per_card_with_the_default_payment() -> None:
    """CONTRACT: `buy` is listed once per card, with the default payment (colours before gold)."""
    state = seat(table(), tokens=tok("uuu**"))
    buys = [m for m in legal_moves(state) if m.action == "buy"]
    assert [m.card for m in buys] == ["1-06"]
    assert buys[0].payment is None
    assert play(state, buys[0]).payment == (U, U, U)


def test_buying_and_reserving_cannot_be_combined() -> None:
    """A turn: exactly one action; buying and reserving can't be combined in one turn."""
    with pytest.raises(InvalidMoveError):
        parse_move("buy 1-06 reserve 1-09")
    state = seat(table(), tokens=tok("uuu"))
    later = after(state, "buy 1-06")
    assert later.players[0].reserved == () and later.players[0].cards == ("1-06",)


# -- replacement -----------------------------------------------------------------------------


def test_slot_stays_empty_when_the_deck_is_empty() -> None:
    """ "when that deck is empty the slot stays empty": the slot keeps its position, as None."""
    state = table()
    state = attrs.evolve(state, decks=((), state.decks[1], state.decks[2]))
    state = seat(state, tokens=tok("kkk"))
    event = play(state, "buy 1-09")
    assert event.drawn == ""
    later = evolve(state, event)
    assert later.board[0] == ("1-06", None, "1-17", "1-08")
    later = after(later, "reserve 1-06")
    assert later.board[0] == (None, None, "1-17", "1-08")
    assert later.players[1].reserved == ("1-06",)


def test_replacement_comes_from_the_same_level() -> None:
    """ "replaced at once from its level's deck": a level-2 slot is refilled from deck 2."""
    later = after(table(), "reserve 2-03")
    assert later.board[1] == ("2-01", "2-02", "2-05", "2-04")
    assert later.board[0] == table().board[0]


# -- ten tokens ------------------------------------------------------------------------------


def test_more_than_ten_tokens_must_be_returned_exactly() -> None:
    """End of a turn 1: a player holding more than 10 tokens returns tokens of their choice
    until exactly 10 remain: the move must say which (several choices), and exactly that many."""
    state = seat(table(), tokens=tok("wwuuggrrk"))
    with pytest.raises(AmbiguousMoveError, match="return"):
        play(state, "take red blue green")
    event = play(state, "take red blue green return black red")
    assert event.returned == (R, K)
    assert evolve(state, event).players[0].tokens.total() == 10
    refused(state, "take red blue green return black", "ten-tokens")
    refused(state, "take red blue green return black red red", "ten-tokens")


def test_any_colour_may_be_returned_including_ones_just_taken() -> None:
    """End of a turn 1: any colour may be returned, including ones just taken, and gold."""
    state = seat(table(), tokens=tok("wwuuggrk*"))
    later = after(state, "take white blue red return white blue")
    assert later.players[0].tokens == tok("wwuuggrrk*")
    later = after(state, "take white blue red return gold red")
    assert later.players[0].tokens == tok("wwwuuuggrk")
    returns = {m.returned for m in legal_moves(state) if m.gems == tok("wur")}
    assert tok("wu") in returns and tok("*r") in returns and tok("rr") in returns


def test_tokens_not_held_cannot_be_returned() -> None:
    """End of a turn 1: the player returns their own tokens."""
    state = seat(table(), tokens=tok("wwuuggrrk"))
    refused(state, "take red blue green return gold gold", "ten-tokens")


def test_no_return_at_ten_or_below() -> None:
    """End of a turn 1: only a player over 10 returns; ending with exactly 10 is fine."""
    state = seat(table(), tokens=tok("wwuuggr"))
    assert play(state, "take red blue green").returned == ()
    refused(state, "take red blue green return red", "ten-tokens")


def test_a_single_possible_return_is_filled_in() -> None:
    """End of a turn 1: when only one set of tokens can be returned, the move need not say it."""
    state = seat(table(), tokens=Tokens.of(red=9))
    state = bank(state, white=4, blue=4, green=4, red=4, black=4, gold=5)
    assert play(state, "take red red").returned == (R,)


def test_bonuses_do_not_count_toward_ten() -> None:
    """End of a turn 1: bonuses are cards, not tokens, and don't count."""
    state = seat(table(), tokens=tok("wwuuggr"), bonuses=Tokens.of(red=5, black=4))
    assert play(state, "take red blue green").returned == ()


def test_question_ten_tokens_may_still_take_or_reserve() -> None:
    """Questions: with 10 tokens you may still take tokens or reserve for gold: the limit is
    checked at the end of the turn."""
    state = seat(table(), tokens=tok("wwuuggrrkk"))
    moves = legal_moves(state)
    assert {m.action for m in moves} >= {"take", "reserve"}
    assert all(m.returned.total() == 3 for m in moves if m.action == "take" and m.gems.total() == 3)
    event = play(state, "reserve 1-06 return gold")
    assert (event.gold, event.returned) == (True, (GOLD,))
    later = evolve(state, event)
    assert later.players[0].tokens == state.players[0].tokens
    assert later.players[0].reserved == ("1-06",)
    assert play(state, "reserve 1-06 return white").returned == (W,)


def test_reserve_at_ten_without_gold_needs_no_return() -> None:
    """End of a turn 1 with Turn 3: reserving when the bank has no gold adds no token."""
    state = bank(seat(table(), tokens=tok("wwuuggrrkk")), white=2, blue=2, green=2, red=2, black=2)
    assert play(state, "reserve 1-06").returned == ()


# -- nobles ----------------------------------------------------------------------------------


def test_a_noble_visit_is_mandatory() -> None:
    """End of a turn 2: when the bonuses meet a noble's requirement, it visits (3 points, no
    action); the player cannot decline it."""
    state = seat(table(), bonuses=Tokens.of(white=4, blue=3), tokens=tok("kkk"))
    event = play(state, "buy 1-09")
    assert event.noble == "N01"
    later = evolve(state, event)
    ann = later.players[0]
    assert (ann.nobles, ann.points) == (("N01",), 3)
    assert "N01" not in later.nobles
    assert later.to_move == 1
    refused(state, Move(action="buy", card="1-09", noble=""), "noble")


def test_the_player_chooses_among_several_nobles() -> None:
    """End of a turn 2: one or more nobles qualify: exactly one visits, the player chooses."""
    state = seat(table(3), bonuses=Tokens.of(white=4, blue=3, green=3), tokens=tok("kkk"))
    with pytest.raises(AmbiguousMoveError, match="N01"):
        play(state, "buy 1-09")
    assert play(state, "buy 1-09 noble N06").noble == "N06"
    assert play(state, "buy 1-09 noble N01").noble == "N01"
    listed = [m.noble for m in legal_moves(state) if m.action == "buy" and m.card == "1-09"]
    assert listed == ["N01", "N06"]


def test_at_most_one_noble_per_turn_and_the_other_may_come_later() -> None:
    """End of a turn 2: at most one noble per turn; a noble that qualified earlier but was not
    chosen visits at the end of a later turn."""
    state = seat(table(3), bonuses=Tokens.of(white=4, blue=3, green=3), tokens=tok("kkk"))
    later = after(state, "buy 1-09 noble N06")
    assert later.players[0].nobles == ("N06",)
    assert later.players[0].points == 3
    assert "N01" in later.nobles
    later = after(after(later, "take w u g"), "take w u g")
    assert later.to_move == 0
    assert play(later, "take red blue green").noble == "N01"
    assert after(later, "take red blue green").players[0].points == 6


@pytest.mark.parametrize("text", ["take red blue green", "take red red", "reserve 1-06", "reserve deck 2", "buy 1-17"])
def test_an_earlier_noble_comes_at_a_later_turn_of_any_kind(text: str) -> None:
    """End of a turn 2: a noble that qualified earlier can visit at the end of any later turn,
    whatever the action was."""
    state = seat(table(), bonuses=Tokens.of(white=4, blue=4), tokens=tok("rrr"))
    assert play(state, text).noble == "N01"


def test_a_noble_that_does_not_qualify_is_refused() -> None:
    """End of a turn 2: only a noble whose requirement the bonuses meet may visit."""
    state = seat(table(), bonuses=Tokens.of(white=4, blue=3))
    refused(state, "take red blue green noble N03", "noble")
    refused(state, "take red blue green noble N05", "noble")  # not on the table at all


def test_tokens_never_count_for_nobles() -> None:
    """End of a turn 2: bonuses, cards only; tokens never count."""
    state = seat(table(), tokens=tok("wwwwuuu"), bonuses=Tokens.of(blue=1))
    assert play(state, "take white blue green").noble == ""


# -- end of the game -------------------------------------------------------------------------


def test_reaching_fifteen_completes_the_round() -> None:
    """End of the game 1 and Questions: reaching 15 does not win at once; the round is finished
    so that every player has had the same number of turns."""
    state = seat(table(3), points=14, tokens=tok("gggg"))
    state = after(state, "buy 1-08")
    assert state.players[0].points == 15
    assert state.last_round and not state.finished and state.winners() == ()
    state = after(state, "take w u g")
    assert not state.finished
    assert play(state, "take w u r").player == "cat"
    state = after(state, "take w u r")
    assert state.finished and state.winners() == ("ann",)
    assert legal_moves(state) == []
    refused(state, "take w u g", "game-over")


def test_when_the_last_player_reaches_fifteen_the_game_ends_at_once() -> None:
    """End of the game 1: the game ends after the last player in turn order has moved."""
    state = attrs.evolve(seat(table(3), 2, points=14, tokens=tok("gggg")), to_move=2)
    state = after(state, "buy 1-08")
    assert state.finished and state.winners() == ("cat",)


def test_nobles_count_toward_fifteen() -> None:
    """End of the game 1-2: points are cards + nobles; a noble's 3 points can end the game."""
    state = seat(table(), points=12, bonuses=Tokens.of(white=4, blue=4))
    state = after(state, "take red blue green")
    assert state.players[0].points == 15 and state.last_round


def test_after_the_round_the_most_points_win() -> None:
    """End of the game 2: the most prestige points win, not the player who reached 15 first."""
    state = seat(table(), points=14, tokens=tok("gggg"))
    state = seat(state, 1, points=14, bonuses=Tokens.of(red=3), cards=("1-01", "1-02", "1-03"))
    state = after(state, "buy 1-08")
    state = seat(state, 1, tokens=tok("rrrrr"))
    state = after(state, "buy 2-03")
    assert state.finished
    assert [p.points for p in state.players] == [15, 16]
    assert state.winners() == ("bob",)


def _final(*players: tuple[int, int]) -> GameState:
    """A finished table whose players have (points, number of purchased cards)."""
    state = table(len(players))
    for i, (points, cards) in enumerate(players):
        state = seat(state, i, points=points, cards=tuple(f"1-{n + 1:02d}" for n in range(cards)))
    return attrs.evolve(state, finished=True)


def test_tie_broken_by_fewest_purchased_cards() -> None:
    """End of the game 2: tie: the tied player with the fewest purchased development cards wins
    (reserved cards are not purchased)."""
    state = _final((16, 9), (16, 7), (17, 12))
    assert state.winners() == ("cat",)
    state = _final((16, 9), (16, 7), (15, 2))
    state = seat(state, 0, reserved=("2-01", "2-02", "2-03"))
    assert state.winners() == ("bob",)


def test_still_tied_they_share_the_victory() -> None:
    """End of the game 2: still tied, they share the victory."""
    assert _final((16, 8), (15, 3), (16, 8), (16, 9)).winners() == ("ann", "cat")


def test_nobody_wins_before_the_end() -> None:
    """End of the game: the winners are decided when the game is over, not before."""
    state = seat(table(), points=20)
    assert state.winners() == ()


# -- pass and the dead position --------------------------------------------------------------


def _stuck(state: GameState, index: int) -> GameState:
    """Player `index` can do nothing: no tokens, 3 reserved cards they cannot afford."""
    return seat(state, index, tokens=EMPTY, bonuses=EMPTY, reserved=("3-02", "3-03", "3-04"))


def _costly(state: GameState) -> GameState:
    """No face-up card costs white or blue only: 4 white and 4 blue bonuses buy none for free."""
    return attrs.evolve(state, board=(("1-09", "1-17", "1-08", "1-35"), *state.board[1:]))


def test_pass_refused_while_another_turn_is_legal() -> None:
    """Decision (pass): a pass is the turn only when the player has no legal action at all."""
    refused(table(), "pass", "pass")
    assert all(m.action != "pass" for m in legal_moves(table()))


def test_pass_when_nothing_else_is_legal() -> None:
    """Decision (pass): with no legal action, the turn is a pass; the game goes on when another
    player can still act."""
    state = bank(_stuck(table(), 0), gold=5)
    assert legal_moves(state) == [Move(action="pass", returned=EMPTY, noble="")]
    event = play(state, "pass")
    assert event == TurnPassed(seq=0, parent="", player="ann", noble="")
    later = evolve(state, event)
    assert later.to_move == 1 and not later.finished
    assert {m.action for m in legal_moves(later)} == {"reserve"}


def test_a_noble_may_visit_at_the_end_of_a_pass() -> None:
    """Decision (pass): a noble may still visit at its end."""
    state = seat(bank(_stuck(_costly(table()), 0), gold=5), bonuses=Tokens.of(white=4, blue=4))
    assert legal_moves(state) == [Move(action="pass", returned=EMPTY, noble="N01")]
    assert play(state, "pass").noble == "N01"


def test_a_dead_position_ends_the_game_after_a_pass() -> None:
    """Decision (dead position): if after a pass no player has any turn but a plain pass, the
    game ends at once and is scored, even if nobody reached 15 points."""
    state = bank(_stuck(_stuck(table(), 0), 1), gold=5)
    state = seat(state, 1, points=4, cards=("1-01", "1-02"))
    state = seat(state, 0, points=4, cards=("1-03",))
    later = after(state, "pass")
    assert later.finished and not later.last_round
    assert later.winners() == ("ann",)
    assert legal_moves(later) == []


def test_a_pending_noble_keeps_the_position_alive() -> None:
    """Decision (dead position): "no noble to come": a noble that can still visit is a turn."""
    state = bank(_stuck(_stuck(_costly(table()), 0), 1), gold=5)
    state = seat(state, 1, bonuses=Tokens.of(white=4, blue=4))
    later = after(state, "pass")
    assert not later.finished
    assert play(later, "pass").noble == "N01"
    final = after(later, "pass")  # after the visit, nothing can ever change again
    assert final.finished and final.winners() == ("bob",)


# -- questions people ask --------------------------------------------------------------------


def test_question_bought_cards_stay_only_tokens_are_paid() -> None:
    """Questions: bought cards stay in front of their owner for good; only tokens are paid."""
    state = seat(table(), tokens=tok("uuukkk"))
    state = after(state, "buy 1-06")
    assert state.players[0].cards == ("1-06",)
    state = after(state, "take w u g")
    state = after(state, "buy 1-09")
    ann = state.players[0]
    assert ann.cards == ("1-06", "1-09")
    assert ann.bonuses == Tokens.of(white=1, blue=1)
    assert ann.tokens == EMPTY
    assert state.bank == table().bank + tok("uuukkk") - tok("wug")


def test_question_fifteen_does_not_win_at_once() -> None:
    """Questions: reaching 15 does not win at once: the round is finished first, and the other
    player may still play (and overtake)."""
    state = seat(table(), points=15)
    state = after(state, "take w u g")
    assert state.last_round and not state.finished and state.winners() == ()
    assert {m.action for m in legal_moves(state)} >= {"take", "reserve"}


def test_a_draw_is_applied_by_name_and_judged_against_the_deck() -> None:
    """Refilling a slot: the event names the card drawn. Applying it takes that card out of its deck
    (a dealer could tell the draws); judging it on load insists on the top card of the open deck."""
    from splendor_cli.errors import CorruptLogError

    game = fresh(2)
    state = game.state
    event = play(state, f"reserve {state.board[0][0]}")
    other = state.decks[0][3]
    forged = attrs.evolve(event, drawn=other)
    after = evolve(state, forged)
    assert after.board[0][0] == other and other not in after.decks[0] and len(after.decks[0]) == len(state.decks[0]) - 1
    with pytest.raises(CorruptLogError, match="drawn"):
        game.apply(attrs.evolve(forged, seq=2))
