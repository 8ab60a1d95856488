"""The notation of Splendor Duel's steps: what `moves` lists, `play` accepts and `log` shows.

A turn is written step by step (`parse_steps` reads several, separated by `;`)::

    privilege c3                   use a privilege on the token of c3
    replenish                      refill the board from the bag
    take b2 c3 d4                  a line of 1 to 3 tokens
    reserve 2-05 a1                reserve with the gold of a1 (the cell may be left out when
    reserve deck 2 a1              there is one gold on the board); blind from deck 2
    buy 1-07   buy 1-07 as red     a wild card joins a colour; `pay red gold` says the payment
    token d4   steal red   royal R2   return pearl   pass

Colours are written as in the base game's notation (common/notation.py), `p` for pearl.
"""

from __future__ import annotations

from typing import Any

from ...errors import InvalidMoveError
from ...model import EMPTY, Gem, Tokens
from ...patterns import LazyPattern
from ..common.notation import COLOUR_WORDS, DECK, gems, parse_card
from .cards import CARDS, ROYALS
from .state import CELL_INDEX, CELLS
from .step import STEP_KINDS, Step

_ROYAL = LazyPattern(r"^r(\d)$")


def _cell(word: str) -> int:
    if word not in CELL_INDEX:
        raise InvalidMoveError(f"{word!r} is not a board cell (a1 to e5)")
    return CELL_INDEX[word]


def _one_colour(words: list[str], step: str) -> Gem:
    if len(words) != 1 or words[0] not in COLOUR_WORDS:
        raise InvalidMoveError(f"'{step}' names one colour, as in '{step} red'")
    return COLOUR_WORDS[words[0]]


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
    if not steps:  # only separators: `play ';'` must not pass for a move
        raise InvalidMoveError("empty move: no step between the ';' (try 'take c3' or 'privilege c3; take b2 c3 d4')")
    return steps


def parse_step(text: str) -> Step:
    """Parse one Duel step. Raise InvalidMoveError naming the word that cannot be read."""
    words = text.lower().replace(",", " ").split()
    if not words:
        raise InvalidMoveError("empty step: try 'take c3', 'buy 1-07', 'reserve 2-05' or 'replenish'")
    step, *args = words
    if step not in STEP_KINDS:
        raise InvalidMoveError(f"unknown step {step!r}: use {', '.join(STEP_KINDS)}")
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
        deck = DECK.match(rest[0])
        if deck:
            return Step(step="reserve", cells=cells, deck=int(deck.group(1)))
        return Step(step="reserve", cells=cells, card=parse_card(rest[0], CARDS))
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
        payment = gems(clauses["pay"], "pay") if clauses["pay"] != ["nothing"] else EMPTY
    return Step(step="buy", card=parse_card(clauses[""][0], CARDS), wild=wild, payment=payment)


def format_step(step: Step) -> str:
    """The canonical notation of a step; `parse_step` reads it back to the same step (a
    replenish's drawn order aside: it is the outcome, not what the player says)."""
    words: list[str] = [step.step]
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
    """A step as an item of `moves --json` (docs/contract.md); `payment` for a buy's default payment."""
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
