"""What Splendor Duel shows as data: `state --json`, `moves --json` items, and how the log writes its events."""

from __future__ import annotations

from typing import Any

import attrs

from ...model import COLOURS, Gem
from ...sealing.placeholders import is_placeholder
from .events import (
    BoardReplenished,
    BonusTokenTaken,
    DuelCardBought,
    DuelStarted,
    GoldReserved,
    LineTaken,
    PrivilegeUsed,
    StepEvent,
)
from .notation import format_step, step_json
from .rules import default_payment_of, move_of
from .state import CELLS, DuelState
from .step import Step


def state_json(seq: int, state: DuelState) -> dict[str, Any]:
    """A Duel's state in the shape of docs/contract.md (Splendor Duel), with some additions: `owed`
    (steps owed after the current phase), `again`, `replenished`, `reserved_blind`."""
    return {
        "variant": "duel",
        "seq": seq,
        "turn": state.turn,
        "phase": state.phase,
        "to_move": None if state.finished else state.player.name,
        "finished": state.finished,
        "winners": list(state.winners()),
        "win_condition": state.win_condition or None,
        "board": {cell: (str(gem) if gem else None) for cell, gem in zip(CELLS, state.board)},
        "bag": state.bag.to_dict(),
        "privileges": state.privileges,
        "pyramid": {str(level): list(row) for level, row in enumerate(state.pyramid, start=1)},
        "decks": {str(level): len(deck) for level, deck in enumerate(state.decks, start=1)},
        "royals": list(state.royals),
        "owed": list(state.owed),
        "again": state.again,
        "replenished": state.replenished,
        "players": [
            {
                "name": p.name,
                "tokens": p.tokens.to_dict(),
                "bonuses": p.bonuses.to_dict(),
                "points": p.points,
                "crowns": p.crowns,
                "colour_points": {str(gem): n for gem, n in zip(COLOURS, p.colour_points)},
                "cards": list(p.cards),
                "wild": {card: str(gem) for card, gem in p.wild},
                "reserved": list(p.reserved),
                "reserved_blind": list(p.blind),
                "royals": list(p.royals),
                "privileges": p.privileges,
            }
            for p in state.players
        ],
    }


def item_json(state: DuelState, step: Step) -> dict[str, Any]:
    """One step as an item of `moves --json` (a buy with its default payment)."""
    return step_json(step, default_payment_of(state.player, step.card) if step.step == "buy" else None)


def event_notation(event: DuelStarted | StepEvent) -> str:
    """A Duel step as its player would write it, and what it took or paid in brackets; the setup in words."""
    if isinstance(event, DuelStarted):
        if event.seq > 1:  # after a commit-then-reveal
            return "the cards and the board are dealt from the revealed seeds"
        return f"new Duel: {', '.join(event.players)}"
    if isinstance(event, BoardReplenished):
        return "replenish: " + (", ".join(f"{c} {g}" for c, g in zip(event.cells, event.tokens)) or "nothing")
    step: Step = move_of(event)
    if isinstance(event, DuelCardBought):
        if Gem.GOLD in event.payment:
            return format_step(step)  # the payment is said, as it spent gold
        paid = " ".join(str(g) for g in event.payment) or "nothing"
        return f"{format_step(attrs.evolve(step, payment=None))} (paid {paid})"
    if isinstance(event, LineTaken):
        return f"{format_step(step)} ({' '.join(str(g) for g in event.gems)})"
    if isinstance(event, PrivilegeUsed | BonusTokenTaken):
        return f"{format_step(step)} ({event.gem})"
    return format_step(step)


def shown(event: StepEvent) -> tuple[str, ...]:
    """The hidden cards a step showed: the card dealt into the pyramid, a card reserved blind."""
    cards = [event.drawn] if isinstance(event, DuelCardBought | GoldReserved) and event.drawn else []
    if isinstance(event, GoldReserved) and event.blind:
        cards.append(event.card)
    return tuple(card for card in cards if not is_placeholder(card))  # a sealed card shows nothing
