"""What the commands show, as plain data: the state JSON and log entries of CONTRACT.md (pure)."""

from __future__ import annotations

from typing import Any, cast

import attrs

from .events import (
    PLAY_TYPES,
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
from .events.duel import (
    BoardReplenished,
    BonusTokenTaken,
    DuelCardBought,
    DuelStarted,
    GoldReserved,
    LineTaken,
    PrivilegeUsed,
    StepEvent,
)
from .model import COLOURS, Gem, Move, Step
from .notation import format_move, format_step, move_json, step_json
from .projection import Game, duel
from .projection.duel import CELLS, DuelState
from .projection.game import PlayEvent, State
from .projection.rules import choices, default_payment, move_of


def state_json(game: Game) -> dict[str, Any]:
    """The state after the last event of `game`, in the shape of CONTRACT.md."""
    state = game.state
    if isinstance(state, DuelState):
        return duel_state_json(game.seq, state)
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


def duel_state_json(seq: int, state: DuelState) -> dict[str, Any]:
    """A Duel's state in the shape of CONTRACT.md (Splendor Duel), with some additions: `owed`
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


def moves_json(state: State) -> list[dict[str, Any]]:
    """Every legal turn (base) or next step (Duel) of the player to move, as CONTRACT.md's items."""
    if isinstance(state, DuelState):
        holder = state.player
        return [
            step_json(
                step,
                duel.default_payment_of(holder, step.card) if step.step == "buy" else None,
            )
            for step in duel.legal_steps(state)
        ]
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
    """How the log writes an event: a turn or a step in its notation, the others in words."""
    match event:
        case DuelStarted():
            if event.seq > 1:  # after a commit-then-reveal
                return "the cards and the board are dealt from the revealed seeds"
            return f"new Duel: {', '.join(event.players)}"
        case BoardReplenished():
            return "replenish: " + (", ".join(f"{c} {g}" for c, g in zip(event.cells, event.tokens)) or "nothing")
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
    if isinstance(event, TURN_TYPES):
        return format_move(_shown_move(event))
    return _step_notation(cast(StepEvent, event))


def _shown_move(event: TurnEvent) -> Move:
    """The move as its player would write it: a default payment left unsaid.

    A payment without gold is the default one (the only exact payment that spends no gold).
    """
    move = move_of(event)
    if isinstance(event, CardPurchased) and Gem.GOLD not in event.payment:
        move = attrs.evolve(move, payment=None)
    return move


def _step_notation(event: StepEvent) -> str:
    """A Duel step as its player would write it, and what it took or paid in brackets."""
    step: Step = duel.move_of(event)
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


def log_entries(game: Game) -> list[LogEntry]:
    """Every event of the log, undone turns marked, with the turn number of each effective turn."""
    entries = []
    turn_of: dict[int, int] = {}
    effective: list[PlayEvent] = []
    fold = Game()
    for event in game.events:
        revealed: tuple[str, ...] = ()
        if isinstance(event, TurnUndone):
            taken_back = [e for e in effective if e.seq > event.to]
            effective = [e for e in effective if e.seq <= event.to]
            revealed = tuple(card for e in taken_back for card in _shown(e))
        elif isinstance(event, PLAY_TYPES):
            turn_of[event.seq] = fold.state.turn + 1  # a Duel turn's steps share its number
            effective.append(event)
        fold = fold.apply(event, check=False)
        player = actor(event) or None
        entries.append(
            LogEntry(
                seq=event.seq,
                type=event.TYPE,
                player=player,
                notation=event_notation(event),
                turn=turn_of.get(event.seq),
                undone=event.seq in game.undone,
                drawn=event.drawn
                if isinstance(event, CardPurchased | CardReserved | DuelCardBought | GoldReserved)
                else "",
                revealed=revealed,
            )
        )
    return entries


def _shown(event: PlayEvent) -> tuple[str, ...]:
    """The hidden cards a turn showed its player or the table: a card dealt, a blind reserve."""
    dealt = isinstance(event, CardPurchased | CardReserved | DuelCardBought | GoldReserved)
    cards = [event.drawn] if dealt and event.drawn else []  # type: ignore[union-attr]
    if isinstance(event, CardReserved | GoldReserved) and event.blind:
        cards.append(event.card)
    return tuple(cards)
