"""The notation of Splendor's turns: what `moves` lists, `play` accepts and `log` shows.

A turn is an action, then optional clauses::

    take white blue green          take red red            take w u g
    reserve 2-14                   reserve deck 3          (blind, from the top of deck 3)
    buy 1-30                       buy 1-30 pay red gold   (explicit payment; default: colours first)
    pass                           (only when nothing else is legal)
    ... return black               tokens given back to end the turn with 10
    ... noble N04                  the noble that visits, when several could

Colours may be written in full (`white`), by letter (`w u g r k`, `*` or `o` for gold, `p` for
pearl) or by gem (`diamond sapphire emerald ruby onyx`). Card ids are those of the reference
tables (`2-4` means `2-04`). `format_move(parse_move(text))` is the canonical spelling of `text`.
"""

from __future__ import annotations

from typing import Any

from ...errors import InvalidMoveError
from ...model import EMPTY, Tokens
from ...patterns import LazyPattern
from ..common.notation import DECK, gems, parse_card
from .cards import CARDS, NOBLES
from .rules import Move

_NOBLE = LazyPattern(r"^n(\d{1,2})$")
_CLAUSES = ("return", "noble", "pay")


def _noble(word: str) -> str:
    match = _NOBLE.match(word)
    noble = f"N{int(match.group(1)):02d}" if match else word
    if noble not in NOBLES:
        raise InvalidMoveError(f"{word!r} is not a noble id (like N04)")
    return noble


def parse_move(text: str) -> Move:
    """Parse a turn. Raise InvalidMoveError naming the word that cannot be read.

    >>> parse_move("take w u g").gems
    Tokens.of(white=1, blue=1, green=1)
    >>> format_move(parse_move("buy 1-3 pay red gold noble n2"))
    'buy 1-03 pay red gold noble N02'
    """
    words = text.lower().replace(",", " ").split()
    if not words:
        raise InvalidMoveError("empty move: try 'take white blue green', 'reserve 2-14', 'buy 1-30' or 'pass'")
    action, *rest = words
    clauses: dict[str, list[str]] = {"": []}
    current = ""
    for word in rest:
        if word in _CLAUSES:
            if word in clauses:
                raise InvalidMoveError(f"{word!r} is said twice in {text!r}")
            current = word
            clauses[current] = []
        else:
            clauses[current].append(word)
    args = clauses[""]
    returned = gems(clauses["return"], "return") if "return" in clauses else None
    noble = None
    if "noble" in clauses:
        if len(clauses["noble"]) != 1:
            raise InvalidMoveError(f"'noble' takes one noble id, as in 'noble N04' (in {text!r})")
        noble = _noble(clauses["noble"][0])
    if "pay" in clauses and action != "buy":
        raise InvalidMoveError(f"'pay' goes with 'buy' only (in {text!r})")
    if action == "take":
        return Move(action="take", gems=gems(args, "take"), returned=returned, noble=noble)
    if action == "reserve":
        if len(args) == 2 and args[0] == "deck":
            args = ["d" + args[1]]
        if len(args) != 1:
            raise InvalidMoveError(
                f"reserve one card or one deck, as in 'reserve 2-14' or 'reserve deck 2' (in {text!r})"
            )
        deck = DECK.match(args[0])
        if deck:
            return Move(action="reserve", deck=int(deck.group(1)), returned=returned, noble=noble)
        return Move(action="reserve", card=parse_card(args[0], CARDS), returned=returned, noble=noble)
    if action == "buy":
        if len(args) != 1:
            raise InvalidMoveError(f"buy one card, as in 'buy 1-30' (in {text!r})")
        payment = None
        if "pay" in clauses:
            payment = gems(clauses["pay"], "pay") if clauses["pay"] != ["nothing"] else EMPTY
        return Move(action="buy", card=parse_card(args[0], CARDS), payment=payment, returned=returned, noble=noble)
    if action == "pass":
        if args:
            raise InvalidMoveError(f"'pass' takes no argument (in {text!r})")
        return Move(action="pass", returned=returned, noble=noble)
    raise InvalidMoveError(f"unknown action {action!r}: use take, reserve, buy or pass")


def format_move(move: Move) -> str:
    """The canonical notation of a move; `parse_move` reads it back to the same move.

    >>> format_move(Move(action="reserve", deck=3))
    'reserve deck 3'
    """
    words: list[str] = [move.action]
    if move.action == "take":
        words += [str(g) for g in move.gems.gems()]
    elif move.action == "reserve":
        words += ["deck", str(move.deck)] if move.deck else [move.card]
    elif move.action == "buy":
        words.append(move.card)
        if move.payment is not None:
            words += ["pay", *(str(g) for g in move.payment.gems())] if move.payment else ["pay", "nothing"]
    if move.returned:
        words += ["return", *(str(g) for g in move.returned.gems())]
    if move.noble:
        words += ["noble", move.noble]
    return " ".join(words)


def move_json(move: Move, payment: Tokens | None = None) -> dict[str, Any]:
    """A move as an item of `moves --json` (docs/contract.md); `payment` for a buy's default payment."""
    item: dict[str, Any] = {"notation": format_move(move), "action": move.action}
    if move.action == "take":
        item["gems"] = move.gems.to_dict()
    elif move.action == "reserve":
        if move.deck:
            item["deck"] = move.deck
        else:
            item["card"] = move.card
    elif move.action == "buy":
        item["card"] = move.card
        item["payment"] = (move.payment if move.payment is not None else payment or EMPTY).to_dict()
    if move.returned:
        item["return"] = move.returned.to_dict()
    if move.noble:
        item["noble"] = move.noble
    return item
