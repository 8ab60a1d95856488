"""Why a bot plays what it plays (`hint --why`, `bot --why`): its best few moves, each with its
estimate of the mover's chance of winning after it and one reason a player would give.

The chance is the one the bots search by, `Variant.chances` (each game's model fitted to self-play
games, in [0, 1]). For `expert` it is what its search found: the mean of the chances backed up
through the move over the samples of the hidden cards and the replies it walked (`expert.ranked`),
its moves ranked as it ranks them (the most visited first). For the other bots (and for `expert`
in a position it is sure to win, where it plays as `greedy` does) it is the model's chance read on
the position right after the move, every legal move ranked by it. Either way the bot's own move
comes first.

The reason is read off the move and the tables before and after it, as a game shows them
(`Variant.state_json`, `Variant.move_json`: the same for every game): the game won; a noble (a
Duel's royal card) gained; points scored; a card taken that an opponent could buy on their turn;
a card the move makes affordable on the mover's next turn, or within two (from the cards they can
see); else what the move keeps. Nothing here is seen that the mover may not see: the cards named
are those face up before the move or in the mover's own hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import attrs

from ..projection.seeding import RandomChance
from ..projection.variant import AnyVariant
from . import parse_spec

TOP = 3
"""How many moves `--why` lists by default."""
LOOKAHEAD = 40
"""The mover's next moves tried for a card within two turns (the first so many that take)."""


@attrs.frozen(kw_only=True)
class Option:
    """One of the bot's best moves: the move (its outcome drawn), the mover's chance of winning
    after it by the bot's estimate, in [0, 1], and one reason in words."""

    move: Any
    chance: float
    reason: str


def best_moves(
    variant: AnyVariant, spec: str, state: Any, rng: random.Random, played: Any, *, top: int = TOP
) -> tuple[Option, ...]:
    """The `top` best moves of the player to move in `state` by the bot of `spec` (its source
    `rng`, seeded as for the move it plays), the move it plays (`played`) first."""
    kind, iterations, seconds = parse_spec(spec)
    seat = state.to_move
    chance = RandomChance(rng)
    rows: list[tuple[Any, float]]
    if kind == "expert" and len(variant.legal_moves(state)) > 1 and variant.chances(state)[seat] < _sure():
        from .expert import grow, ranked

        found = ranked(grow(variant, state, rng, iterations=iterations, seconds=seconds))
        rows = [(variant.draw(state, move, chance), value) for move, _, value in found]
    else:
        rows = []
        for option in variant.legal_moves(state):
            move = variant.draw(state, option, chance)
            rows.append((move, variant.chances(variant.play(state, move))[seat]))
        rows.sort(key=lambda row: row[1], reverse=True)
    same = _same(variant, played)
    mine = next((row for row in rows if same(row[0])), None)
    if mine is None:
        mine = (played, variant.chances(variant.play(state, played))[seat])
    rows = [mine, *(row for row in rows if not same(row[0]))][:top]
    return tuple(Option(move=move, chance=value, reason=reason(variant, state, move)) for move, value in rows)


def _sure() -> float:
    from .expert import SURE

    return SURE


def _same(variant: AnyVariant, played: Any) -> Any:
    """Whether a move is `played`, by its notation (a drawn outcome, a default payment aside)."""
    text = variant.format_move(played)
    return lambda move: variant.format_move(move) == text


# -- the reason ------------------------------------------------------------------------------


def reason(variant: AnyVariant, state: Any, move: Any) -> str:
    """One reason for `move` of the player to move in `state`, in words (see the module)."""
    seat = state.to_move
    after = variant.play(state, move)
    item = variant.move_json(state, move)
    card = item.get("card")
    before_me, after_me = _me(variant, state, seat), _me(variant, after, seat)
    if after.finished and state.players[seat].name in after.winners():
        return "wins the game"
    gained = [n for key in ("nobles", "royals") for n in after_me.get(key, ()) if n not in before_me.get(key, ())]
    points = after_me.get("points", 0) - before_me.get("points", 0)
    if gained:
        return f"{' and '.join(gained)} {'visit' if len(gained) > 1 else 'visits'}: {_points(points)}"
    if points > 0:
        return f"buys {card}: {_points(points)}" if card else f"scores {_points(points)}"
    if card and _kind(item) in ("buy", "reserve"):
        rival = next((name for name, cards in _rivals(variant, state) if card in cards), None)
        if rival is not None:
            verb = "buys" if _kind(item) == "buy" else "reserves"
            return f"{verb} {card}, which {rival} could buy on their turn"
    if after.finished:
        return "ends the game"
    seen = _seen(variant, state, seat) | set(after_me.get("reserved", ()))
    soon = _new_buys(variant, state, after, seat, seen)
    if soon:
        return f"makes {_named(soon)} affordable next turn"
    later = _within_two(variant, state, after, seat, seen)
    if later:
        return f"brings {_named(later)} within two turns"
    if _kind(item) == "buy" and card:
        colours = [c for c, n in after_me.get("bonuses", {}).items() if n > before_me.get("bonuses", {}).get(c, 0)]
        return f"buys {card}: a lasting {' and '.join(colours) or 'wild'} bonus"
    if _kind(item) == "reserve":
        gold = after_me.get("tokens", {}).get("gold", 0) - before_me.get("tokens", {}).get("gold", 0)
        what = card or "a card from the deck"
        return f"keeps {what} for later" + (" and takes a gold" if gold > 0 else "")
    return "tokens toward later cards (none it can see is within two turns yet)"


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _kind(item: dict[str, Any]) -> str:
    """A move item's kind: a base turn's `action`, a Duel step's `step`."""
    return str(item.get("action") or item.get("step") or "")


def _me(variant: AnyVariant, state: Any, seat: int) -> dict[str, Any]:
    """Seat `seat`'s entry of the state as JSON (the contract's `players[]`)."""
    players: list[dict[str, Any]] = variant.state_json(0, state)["players"]
    return players[seat]


def _seen(variant: AnyVariant, state: Any, seat: int) -> set[str]:
    """The cards `seat` sees in `state`: face up on the table, and its own reserved ones."""
    shown = variant.state_json(0, state)
    table = shown.get("board") if isinstance(shown.get("board"), dict) and "1" in shown["board"] else None
    rows = table or shown.get("pyramid") or {}
    cards = {c for row in rows.values() for c in row if isinstance(c, str)}
    cards |= set(shown["players"][seat].get("reserved", ()))
    return {c for c in cards if "?" not in c}  # a placeholder is a card nobody sees yet


def _buys(variant: AnyVariant, state: Any, seat: int) -> set[str]:
    """The cards `seat` could buy in `state` were it their turn (none when that cannot be asked)."""
    try:
        table = attrs.evolve(state, to_move=seat) if state.to_move != seat else state
        moves: Iterable[Any] = variant.legal_moves(table)
        return {str(i["card"]) for i in (variant.move_json(table, m) for m in moves) if _kind(i) == "buy"}
    except Exception:  # a table on which another seat cannot be asked to move (mid-turn): nothing
        return set()


def _rivals(variant: AnyVariant, state: Any) -> list[tuple[str, set[str]]]:
    """Each other seat's name and the cards it could buy on its turn."""
    seat = state.to_move
    return [(p.name, _buys(variant, state, i)) for i, p in enumerate(state.players) if i != seat]


def _new_buys(variant: AnyVariant, state: Any, after: Any, seat: int, seen: set[str]) -> list[str]:
    """The cards `seat` sees that it could buy after the move and could not before."""
    return sorted((_buys(variant, after, seat) - _buys(variant, state, seat)) & seen)


def _within_two(variant: AnyVariant, state: Any, after: Any, seat: int, seen: set[str]) -> list[str]:
    """The cards `seat` sees that one more move of its own (a take) after this one would make
    affordable, and that it cannot buy now."""
    try:
        table = attrs.evolve(after, to_move=seat) if after.to_move != seat else after
        moves = [m for m in variant.legal_moves(table) if _kind(variant.move_json(table, m)) == "take"]
    except Exception:  # a table on which the seat cannot be asked to move (mid-turn): nothing
        return []
    now = _buys(variant, state, seat)
    found: set[str] = set()
    chance = RandomChance(random.Random(0))
    for move in moves[:LOOKAHEAD]:
        found |= _buys(variant, variant.play(table, variant.draw(table, move, chance)), seat)
    return sorted((found - now) & seen)


def _named(cards: list[str]) -> str:
    """One card, or the first of several and how many more."""
    return cards[0] if len(cards) == 1 else f"{cards[0]} (and {len(cards) - 1} more)"


def options_json(variant: AnyVariant, state: Any, options: tuple[Option, ...]) -> list[dict[str, Any]]:
    """`--why --json`: each option as a move item (docs/contract.md) with `chance` and `reason`."""
    return [{**variant.move_json(state, o.move), "chance": round(o.chance, 3), "reason": o.reason} for o in options]
