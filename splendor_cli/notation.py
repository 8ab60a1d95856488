"""The move notation: what `moves` lists, `play` accepts and `log` shows.

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

A Splendor Duel turn is written step by step (`parse_steps` reads several, separated by `;`)::

    privilege c3                   use a privilege on the token of c3
    replenish                      refill the board from the bag
    take b2 c3 d4                  a line of 1 to 3 tokens
    reserve 2-05 a1                reserve with the gold of a1 (the cell may be left out when
    reserve deck 2 a1              there is one gold on the board); blind from deck 2
    buy 1-07   buy 1-07 as red     a wild card joins a colour; `pay ...` as above
    token d4   steal red   royal R2   return pearl   pass
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .cards import CARDS, DUEL_CARDS, NOBLES, ROYALS
from .errors import InvalidMoveError
from .model import EMPTY, KINDS, STEPS, Gem, Move, Step, Tokens
from .projection.duel import CELL_INDEX, CELLS

_COLOUR_WORDS: dict[str, Gem] = {gem.value: gem for gem in KINDS} | {gem.letter: gem for gem in KINDS}
_COLOUR_WORDS |= {
    "diamond": Gem.WHITE,
    "sapphire": Gem.BLUE,
    "emerald": Gem.GREEN,
    "ruby": Gem.RED,
    "onyx": Gem.BLACK,
    "o": Gem.GOLD,
    "joker": Gem.GOLD,
}
_CARD = re.compile(r"^([123])-(\d{1,2})$")
_NOBLE = re.compile(r"^n(\d{1,2})$")
_DECK = re.compile(r"^d(?:eck)?([123])$")
_CLAUSES = ("return", "noble", "pay")


def _gems(words: list[str], what: str) -> Tokens:
    gems = []
    for word in words:
        gem = _COLOUR_WORDS.get(word)
        if gem is None:
            raise InvalidMoveError(f"{word!r} is not a colour (in {what})")
        gems.append(gem)
    if not gems:
        raise InvalidMoveError(f"{what} names no colour")
    return Tokens.from_gems(gems)


def parse_card(word: str, table: Mapping[str, object] = CARDS) -> str:
    """A card id from `2-14` or `2-4`. Raise InvalidMoveError when `table` has no such card.

    >>> parse_card("2-4")
    '2-04'
    """
    match = _CARD.match(word)
    card = f"{match.group(1)}-{int(match.group(2)):02d}" if match else word
    if card not in table:
        raise InvalidMoveError(f"{word!r} is not a card id (like 1-07 or 3-20)")
    return card


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
    returned = _gems(clauses["return"], "return") if "return" in clauses else None
    noble = None
    if "noble" in clauses:
        if len(clauses["noble"]) != 1:
            raise InvalidMoveError(f"'noble' takes one noble id, as in 'noble N04' (in {text!r})")
        noble = _noble(clauses["noble"][0])
    if "pay" in clauses and action != "buy":
        raise InvalidMoveError(f"'pay' goes with 'buy' only (in {text!r})")
    if action == "take":
        return Move(action="take", gems=_gems(args, "take"), returned=returned, noble=noble)
    if action == "reserve":
        if len(args) == 2 and args[0] == "deck":
            args = ["d" + args[1]]
        if len(args) != 1:
            raise InvalidMoveError(
                f"reserve one card or one deck, as in 'reserve 2-14' or 'reserve deck 2' (in {text!r})"
            )
        deck = _DECK.match(args[0])
        if deck:
            return Move(action="reserve", deck=int(deck.group(1)), returned=returned, noble=noble)
        return Move(action="reserve", card=parse_card(args[0]), returned=returned, noble=noble)
    if action == "buy":
        if len(args) != 1:
            raise InvalidMoveError(f"buy one card, as in 'buy 1-30' (in {text!r})")
        payment = None
        if "pay" in clauses:
            payment = _gems(clauses["pay"], "pay") if clauses["pay"] != ["nothing"] else EMPTY
        return Move(action="buy", card=parse_card(args[0]), payment=payment, returned=returned, noble=noble)
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
    words = [move.action]
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
    """A move as an item of `moves --json` (CONTRACT.md); `payment` for a buy's default payment."""
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


# -- Splendor Duel steps -----------------------------------------------------------------------

_ROYAL = re.compile(r"^r(\d)$")


def _cell(word: str) -> int:
    if word not in CELL_INDEX:
        raise InvalidMoveError(f"{word!r} is not a board cell (a1 to e5)")
    return CELL_INDEX[word]


def _one_colour(words: list[str], step: str) -> Gem:
    if len(words) != 1 or words[0] not in _COLOUR_WORDS:
        raise InvalidMoveError(f"'{step}' names one colour, as in '{step} red'")
    return _COLOUR_WORDS[words[0]]


def parse_steps(text: str) -> list[Step]:
    """Parse one Duel step or several separated by `;`. `return red blue` is two returns.

    >>> [format_step(s) for s in parse_steps("privilege c3; take B2 c3 d4")]
    ['privilege c3', 'take b2 c3 d4']
    """
    steps: list[Step] = []
    for part in text.split(";"):
        words = part.lower().replace(",", " ").split()
        if words and words[0] == "return" and len(words) > 2:
            steps += [parse_step(f"return {word}") for word in words[1:]]
        elif words or len(text.split(";")) == 1:
            steps.append(parse_step(part))
    return steps


def parse_step(text: str) -> Step:
    """Parse one Duel step. Raise InvalidMoveError naming the word that cannot be read."""
    words = text.lower().replace(",", " ").split()
    if not words:
        raise InvalidMoveError("empty step: try 'take c3', 'buy 1-07', 'reserve 2-05' or 'replenish'")
    step, *args = words
    if step not in STEPS:
        raise InvalidMoveError(f"unknown step {step!r}: use {', '.join(STEPS)}")
    if step in ("replenish", "pass"):
        if args:
            raise InvalidMoveError(f"{step!r} takes no argument (in {text!r})")
        return Step(step=step)
    if step in ("privilege", "token"):
        if len(args) != 1:
            raise InvalidMoveError(f"'{step}' names one cell, as in '{step} c3'")
        return Step(step=step, cells=(_cell(args[0]),))
    if step == "take":
        if not 1 <= len(args) <= 3:
            raise InvalidMoveError(f"take names 1 to 3 cells, as in 'take b2 c3 d4' (in {text!r})")
        return Step(step="take", cells=tuple(_cell(word) for word in args))
    if step in ("steal", "return"):
        return Step(step=step, colour=_one_colour(args, step))
    if step == "royal":
        match = _ROYAL.match(args[0]) if len(args) == 1 else None
        if not match or f"R{match.group(1)}" not in ROYALS:
            raise InvalidMoveError(f"'royal' names one royal card, {' '.join(ROYALS)} (in {text!r})")
        return Step(step="royal", card=f"R{match.group(1)}")
    if step == "reserve":
        cells = tuple(_cell(word) for word in args if word in CELL_INDEX)
        rest = [word for word in args if word not in CELL_INDEX and word != "gold"]
        if len(rest) == 2 and rest[0] == "deck":
            rest = ["d" + rest[1]]
        if len(rest) != 1 or len(cells) > 1:
            raise InvalidMoveError(f"reserve one card or deck with one gold, as in 'reserve 2-05 a1' (in {text!r})")
        deck = _DECK.match(rest[0])
        if deck:
            return Step(step="reserve", cells=cells, deck=int(deck.group(1)))
        return Step(step="reserve", cells=cells, card=parse_card(rest[0], DUEL_CARDS))
    # buy CARD [as COLOUR] [pay GEMS]
    clauses: dict[str, list[str]] = {"": []}
    current = ""
    for word in args:
        if word in ("as", "pay"):
            if word in clauses:
                raise InvalidMoveError(f"{word!r} is said twice in {text!r}")
            current = word
            clauses[current] = []
        else:
            clauses[current].append(word)
    if len(clauses[""]) != 1:
        raise InvalidMoveError(f"buy one card, as in 'buy 1-07' or 'buy 1-07 as red' (in {text!r})")
    wild = _one_colour(clauses["as"], "as") if "as" in clauses else None
    payment = None
    if "pay" in clauses:
        payment = _gems(clauses["pay"], "pay") if clauses["pay"] != ["nothing"] else EMPTY
    return Step(step="buy", card=parse_card(clauses[""][0], DUEL_CARDS), wild=wild, payment=payment)


def format_step(step: Step) -> str:
    """The canonical notation of a step; `parse_step` reads it back to the same step (a
    replenish's drawn order aside: it is the outcome, not what the player says)."""
    words = [step.step]
    if step.step in ("privilege", "token", "take"):
        words += [CELLS[c] for c in sorted(step.cells)]
    elif step.step == "reserve":
        words += ["deck", str(step.deck)] if step.deck else [step.card]
        words += [CELLS[c] for c in step.cells]
    elif step.step == "buy":
        words.append(step.card)
        if step.wild is not None:
            words += ["as", str(step.wild)]
        if step.payment is not None:
            words += ["pay", *(str(g) for g in step.payment.gems())] if step.payment else ["pay", "nothing"]
    elif step.step in ("steal", "return"):
        words.append(str(step.colour))
    elif step.step == "royal":
        words.append(step.card)
    return " ".join(words)


def step_json(step: Step, payment: Tokens | None = None) -> dict[str, Any]:
    """A step as an item of `moves --json` (CONTRACT.md); `payment` for a buy's default payment."""
    item: dict[str, Any] = {"notation": format_step(step), "step": step.step}
    if step.step in ("privilege", "token"):
        item["cell"] = CELLS[step.cells[0]]
    elif step.step == "take":
        item["cells"] = [CELLS[c] for c in sorted(step.cells)]
    elif step.step == "reserve":
        item["gold"] = CELLS[step.cells[0]] if step.cells else None
        if step.deck:
            item["deck"] = step.deck
        else:
            item["card"] = step.card
    elif step.step == "buy":
        item["card"] = step.card
        item["payment"] = (step.payment if step.payment is not None else payment or EMPTY).to_dict()
        if step.wild is not None:
            item["wild"] = str(step.wild)
    elif step.step in ("steal", "return"):
        item["colour"] = str(step.colour)
    elif step.step == "royal":
        item["card"] = step.card
    return item
