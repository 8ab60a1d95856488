"""What the commands show, as plain data: the state JSON and log entries of CONTRACT.md (pure)."""

from __future__ import annotations

from typing import Any

import attrs

from .events import (
    TURN_TYPES,
    CardPurchased,
    CardReserved,
    Event,
    GameStarted,
    SeedCommitted,
    SeedRevealed,
    SeedsAsked,
    TurnEvent,
    TurnUndone,
    actor,
)
from .model import Gem, Move
from .notation import format_move, move_json
from .projection import Game, GameState
from .projection.rules import choices, default_payment, move_of


def state_json(game: Game) -> dict[str, Any]:
    """The state after the last event of `game`, in the shape of CONTRACT.md."""
    state = game.state
    return {
        "variant": "base",
        "seq": game.seq,
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
    """Every legal turn of the player to move, as CONTRACT.md's move items."""
    player = state.player
    return [
        move_json(m, default_payment(player, m.card) if m.action == "buy" else None) for m in choices(state).moves()
    ]


@attrs.frozen(kw_only=True)
class LogEntry:
    """One line of `splendor log`."""

    seq: int
    type: str
    player: str | None
    notation: str
    turn: int | None
    undone: bool
    drawn: str = ""
    revealed: tuple[str, ...] = ()
    """For an undo: the cards its undone turns showed (dealt to the board, or reserved blind).
    Everyone has seen them, and taking the turns back does not hide them again."""

    def to_json(self) -> dict[str, Any]:
        out = attrs.asdict(self)
        if not self.drawn:
            del out["drawn"]
        if self.revealed:
            out["revealed"] = list(self.revealed)
        else:
            del out["revealed"]
        return out


def event_notation(event: Event) -> str:
    """How the log writes an event: a turn in move notation, the others in words."""
    match event:
        case GameStarted():
            if event.seq > 1:  # after a commit-then-reveal
                return f"the cards are dealt from the revealed seeds; nobles {' '.join(event.nobles)}"
            return f"new game: {', '.join(event.players)}; nobles {' '.join(event.nobles)}"
        case TurnUndone():
            notes = [f"asked by {event.by}"] if event.by else []
            notes += ["an agreed rewind"] if event.forced else []
            return f"undo: back to just after #{event.to}" + (f" ({', '.join(notes)})" if notes else "")
        case SeedsAsked():
            return f"new game: {', '.join(event.players)}; the cards are dealt by commit-then-reveal"
        case SeedCommitted():
            return f"commits to a seed ({event.commitment[:16]}...)"
        case SeedRevealed():
            return f"reveals the seed ({event.secret[:16]}...)"
    return format_move(_shown_move(event))


def _shown_move(event: TurnEvent) -> Move:
    """The move as its player would write it: a default payment left unsaid.

    A payment without gold is the default one (the only exact payment that spends no gold).
    """
    move = move_of(event)
    if isinstance(event, CardPurchased) and Gem.GOLD not in event.payment:
        move = attrs.evolve(move, payment=None)
    return move


def log_entries(game: Game) -> list[LogEntry]:
    """Every event of the log, undone turns marked, with the turn number of each effective turn."""
    entries = []
    turn = 0
    turn_of: dict[int, int] = {}
    effective: list[TurnEvent] = []
    for event in game.events:
        revealed: tuple[str, ...] = ()
        if isinstance(event, TurnUndone):
            turn = turn_of.get(event.to, 0)
            taken_back = [e for e in effective if e.seq > event.to]
            effective = [e for e in effective if e.seq <= event.to]
            revealed = tuple(card for e in taken_back for card in _shown(e))
        elif isinstance(event, TURN_TYPES):
            turn += 1
            turn_of[event.seq] = turn
            effective.append(event)
        player = actor(event) or None
        entries.append(
            LogEntry(
                seq=event.seq,
                type=event.TYPE,
                player=player,
                notation=event_notation(event),
                turn=turn_of.get(event.seq),
                undone=event.seq in game.undone,
                drawn=event.drawn if isinstance(event, CardPurchased | CardReserved) else "",
                revealed=revealed,
            )
        )
    return entries


def _shown(event: TurnEvent) -> tuple[str, ...]:
    """The hidden cards a turn showed its player or the table: a card dealt, a blind reserve."""
    cards = [event.drawn] if isinstance(event, CardPurchased | CardReserved) and event.drawn else []
    if isinstance(event, CardReserved) and event.blind:
        cards.append(event.card)
    return tuple(cards)
