"""What Splendor shows as data: `state --json`, `moves --json` items and how the log writes its events."""

from __future__ import annotations

from typing import Any

import attrs

from ...model import Gem
from ...sealing.placeholders import is_placeholder
from .events import CardPurchased, CardReserved, GameStarted, TurnEvent
from .notation import format_move, move_json
from .rules import Move, choices, default_payment, move_of
from .state import GameState


def state_json(seq: int, state: GameState) -> dict[str, Any]:
    """The state after event `seq`, in the shape of docs/contract.md; beyond it, `last_round` and
    each player's `reserved_blind`."""
    return {
        "variant": "base",
        "seq": seq,
        "turn": state.turn,
        "to_move": None if state.finished else state.player.name,
        "finished": state.finished,
        "winners": list(state.winners()),
        "last_round": state.last_round,
        "bank": state.bank.to_dict(),
        "board": {str(level): list(row) for level, row in enumerate(state.board, start=1)},
        "decks": {str(level): len(deck) for level, deck in enumerate(state.decks, start=1)},
        "nobles": list(state.nobles),
        "players": [
            {
                "name": p.name,
                "tokens": p.tokens.to_dict(),
                "bonuses": p.bonuses.to_dict(),
                "points": p.points,
                "cards": list(p.cards),
                "reserved": list(p.reserved),
                "reserved_blind": list(p.blind),
                "nobles": list(p.nobles),
            }
            for p in state.players
        ],
    }


def moves_json(state: GameState) -> list[dict[str, Any]]:
    """Every legal turn of the player to move, as docs/contract.md's items (a buy with its default payment)."""
    player = state.player
    return [
        move_json(m, default_payment(player, m.card) if m.action == "buy" else None) for m in choices(state).moves()
    ]


def item_json(state: GameState, move: Move) -> dict[str, Any]:
    """One turn as an item of `moves --json`."""
    return move_json(move, default_payment(state.player, move.card) if move.action == "buy" else None)


def event_notation(event: GameStarted | TurnEvent) -> str:
    """How the log writes the setup or a turn (a turn in the move notation)."""
    if isinstance(event, GameStarted):
        if event.seq > 1:  # after a commit-then-reveal
            return f"the cards are dealt from the revealed seeds; nobles {' '.join(event.nobles)}"
        return f"new game: {', '.join(event.players)}; nobles {' '.join(event.nobles)}"
    return format_move(shown_move(event))


def shown_move(event: TurnEvent) -> Move:
    """The move as its player would write it: a default payment left unsaid.

    A payment without gold is the default one (the only exact payment that spends no gold).
    """
    move = move_of(event)
    if isinstance(event, CardPurchased) and Gem.GOLD not in event.payment:
        move = attrs.evolve(move, payment=None)
    return move


def shown(event: TurnEvent) -> tuple[str, ...]:
    """The hidden cards a turn showed: the card dealt into a slot, a card reserved blind."""
    cards = [event.drawn] if isinstance(event, CardPurchased | CardReserved) and event.drawn else []
    if isinstance(event, CardReserved) and event.blind:
        cards.append(event.card)
    return tuple(card for card in cards if not is_placeholder(card))  # a sealed card shows nothing
