"""The move notation: parse/format round trips, spellings, and the three kinds of move error.

As in python-chess: text that cannot be read is *invalid* (InvalidMoveError), a move that
leaves a choice unsaid (which tokens to return, which noble) is *ambiguous*
(AmbiguousMoveError), and one the rules forbid is *illegal* (IllegalMoveError).
"""

from __future__ import annotations

import doctest

import attrs
import pytest
from helpers import started

import splendor_cli.variants.base.notation
from splendor_cli.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from splendor_cli.model import EMPTY, Gem, Tokens
from splendor_cli.variants.base.cards import CARDS
from splendor_cli.variants.base.notation import format_move, move_json, parse_move
from splendor_cli.variants.base.rules import Move, decide, legal_moves
from splendor_cli.variants.base.state import GameState
from splendor_cli.variants.common import notation as common_notation
from splendor_cli.variants.common.notation import parse_card


def table() -> GameState:
    """2 players; 1-06 (white, 3 blue) and 1-09 (blue, 3 black) face up; nobles N01, N06, N03."""
    return started(("ann", "bob"), ["1-06", "1-09", "1-17", "1-08"], [], [], ["N01", "N06", "N03"]).state


def holding(state: GameState, **changes: object) -> GameState:
    players = (attrs.evolve(state.players[0], **changes), *state.players[1:])
    return attrs.evolve(state, players=players)


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("take white blue green", "take white blue green"),
        ("take green white blue", "take white blue green"),
        ("take red red", "take red red"),
        ("take black", "take black"),
        ("reserve 2-14", "reserve 2-14"),
        ("reserve deck 3", "reserve deck 3"),
        ("reserve d3", "reserve deck 3"),
        ("reserve deck3", "reserve deck 3"),
        ("buy 1-30", "buy 1-30"),
        ("buy 1-30 pay gold red", "buy 1-30 pay red gold"),
        ("buy 1-30 pay nothing", "buy 1-30 pay nothing"),
        ("pass", "pass"),
        ("take w u g return k k", "take white blue green return black black"),
        ("reserve 1-07 return gold", "reserve 1-07 return gold"),
        ("buy 3-01 noble n4", "buy 3-01 noble N04"),
        ("take r u g return r noble N10", "take blue green red return red noble N10"),
        ("pass noble N02", "pass noble N02"),
        ("  TAKE White, Blue, Green  ", "take white blue green"),
    ],
)
def test_parse_then_format_gives_the_canonical_spelling(text: str, canonical: str) -> None:
    """`format_move(parse_move(text))` is the canonical spelling of `text`, and the canonical
    spelling parses back to the same move."""
    assert format_move(parse_move(text)) == canonical
    assert parse_move(canonical) == parse_move(text)


@pytest.mark.parametrize(
    "move",
    [
        Move(action="take", gems=Tokens.of(white=1, red=1, black=1)),
        Move(action="take", gems=Tokens.of(blue=2), returned=Tokens.of(gold=1)),
        Move(action="reserve", card="2-04", noble="N01"),
        Move(action="reserve", deck=1, returned=Tokens.of(red=1)),
        Move(action="buy", card="3-20"),
        Move(action="buy", card="1-01", payment=Tokens.of(red=2, gold=1)),
        Move(action="buy", card="1-01", payment=EMPTY),
        Move(action="pass"),
    ],
)
def test_format_then_parse_gives_the_move_back(move: Move) -> None:
    """`parse_move(format_move(move)) == move` for moves whose unsaid parts are None."""
    assert parse_move(format_move(move)) == move


def test_letters_and_gem_names() -> None:
    """Colours may be written in full, by letter (w u g r k, * or o for gold) or by gem name
    (diamond sapphire emerald ruby onyx, joker)."""
    full = parse_move("buy 1-01 pay white blue green red black gold")
    assert parse_move("buy 1-01 pay w u g r k *") == full
    assert parse_move("buy 1-01 pay w u g r k o") == full
    assert parse_move("buy 1-01 pay diamond sapphire emerald ruby onyx joker") == full
    assert full.payment == Tokens.of(white=1, blue=1, green=1, red=1, black=1, gold=1)
    assert [g.letter for g in Gem] == ["w", "u", "g", "r", "k", "*", "p"]


@pytest.mark.parametrize(("word", "card"), [("2-4", "2-04"), ("2-04", "2-04"), ("1-3", "1-03"), ("3-20", "3-20")])
def test_short_card_ids(word: str, card: str) -> None:
    """Card ids are those of the reference tables; `2-4` means `2-04`."""
    assert parse_card(word, CARDS) == card
    assert parse_move(f"reserve {word}").card == card
    assert format_move(parse_move(f"buy {word}")) == f"buy {card}"


def test_doctests_of_the_notation_module() -> None:
    """The examples in the notation module's docstrings hold."""
    results = [doctest.testmod(module) for module in (splendor_cli.variants.base.notation, common_notation)]
    assert sum(r.attempted for r in results) >= 4 and not any(r.failed for r in results)


# -- invalid ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "dance",
        "take",
        "take purple",
        "take w u x",
        "reserve",
        "reserve 4-01",
        "reserve 1-41",
        "reserve 2-0",
        "reserve deck 4",
        "reserve 1-01 1-02",
        "buy",
        "buy xyz",
        "buy 1-01 1-02",
        "buy 1-01 pay",
        "buy 1-01 pay nothing gold",
        "take w u g pay r",
        "pass now",
        "take w u g return",
        "take w u g return purple",
        "take w u g noble",
        "take w u g noble N11",
        "take w u g noble N01 N02",
        "take w u g return r return g",
        "buy 1-06 reserve 1-09",
    ],
)
def test_garbage_is_invalid(text: str) -> None:
    """Text that cannot be read raises InvalidMoveError (exit code 2), quoting the bad part."""
    with pytest.raises(InvalidMoveError) as info:
        parse_move(text)
    assert info.value.exit_code == 2
    assert str(info.value)


def test_error_kinds_are_distinct() -> None:
    """Invalid and ambiguous moves are usage errors (2), illegal ones are rule errors (3)."""
    assert (InvalidMoveError.exit_code, AmbiguousMoveError.exit_code, IllegalMoveError.exit_code) == (2, 2, 3)
    assert not issubclass(AmbiguousMoveError, IllegalMoveError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)


# -- ambiguous, and filled in when there is one choice ---------------------------------------


def test_unsaid_returns_with_several_choices_are_ambiguous() -> None:
    """Over 10 tokens with several ways back to 10: the move must say which to return."""
    state = holding(table(), tokens=Tokens.of(white=2, blue=2, green=2, red=2, black=1))
    with pytest.raises(AmbiguousMoveError) as info:
        decide(state, parse_move("take white blue green"))
    assert "return" in str(info.value)
    assert decide(state, parse_move("take white blue green return w u")).returned == (Gem.WHITE, Gem.BLUE)


def test_a_single_return_is_filled_in() -> None:
    """Over 10 tokens with one way back to 10: the move need not say it."""
    state = holding(table(), tokens=Tokens.of(red=9))
    assert decide(state, parse_move("take red red")).returned == (Gem.RED,)
    assert decide(state, parse_move("take red red return red")).returned == (Gem.RED,)


def test_unsaid_noble_with_several_choices_is_ambiguous() -> None:
    """Several nobles qualify: the move must name the one that visits."""
    state = holding(table(), bonuses=Tokens.of(white=4, blue=3, green=3), tokens=Tokens.of(black=3))
    with pytest.raises(AmbiguousMoveError) as info:
        decide(state, parse_move("buy 1-09"))
    assert "N01" in str(info.value) and "N06" in str(info.value)
    assert decide(state, parse_move("buy 1-09 noble n6")).noble == "N06"


def test_a_single_noble_is_filled_in() -> None:
    """One noble qualifies: it visits without being named."""
    state = holding(table(), bonuses=Tokens.of(white=4, blue=3), tokens=Tokens.of(black=3))
    assert decide(state, parse_move("buy 1-09")).noble == "N01"


def test_every_listed_notation_is_unambiguous() -> None:
    """Each notation `moves` lists plays exactly that move, even where choices abound."""
    state = holding(
        table(),
        tokens=Tokens.of(white=2, blue=2, green=1, red=2, black=3),
        bonuses=Tokens.of(white=4, blue=3, green=3),
    )
    moves = legal_moves(state)
    notations = [format_move(m) for m in moves]
    assert len(set(notations)) == len(notations)
    assert {"buy 1-09 noble N01", "buy 1-09 noble N06"} <= set(notations)
    assert "take white blue green return white blue red noble N06" in notations
    for move, notation in zip(moves, notations):
        assert decide(state, parse_move(notation)) == decide(state, move)


def test_move_json_shapes() -> None:
    """CONTRACT (Move JSON): the action, gems, card or deck, payment, return and noble."""
    state = holding(table(), tokens=Tokens.of(blue=3, gold=1))
    assert move_json(parse_move("take w u g")) == {
        "notation": "take white blue green",
        "action": "take",
        "gems": {"white": 1, "blue": 1, "green": 1},
    }
    assert move_json(parse_move("take r r return k")) == {
        "notation": "take red red return black",
        "action": "take",
        "gems": {"red": 2},
        "return": {"black": 1},
    }
    assert move_json(parse_move("reserve deck 3 noble N04")) == {
        "notation": "reserve deck 3 noble N04",
        "action": "reserve",
        "deck": 3,
        "noble": "N04",
    }
    buy = next(m for m in legal_moves(state) if m.action == "buy")
    payment = Tokens.from_gems(decide(state, buy).payment)
    assert move_json(buy, payment) == {"notation": "buy 1-06", "action": "buy", "card": "1-06", "payment": {"blue": 3}}
    assert move_json(parse_move("pass")) == {"notation": "pass", "action": "pass"}
