"""The log's read model, whatever the game: one entry per event, undone moves marked (pure).

What `splendor log` prints and `log --json` gives (CONTRACT.md). The game writes its own
events (`Variant.event_notation`); the events every game shares are written here.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..events import (
    CardsShown,
    DeckShuffled,
    Event,
    KeysPublished,
    PlayerJoined,
    PlayEvent,
    RewindAgreed,
    SealedAsked,
    SeedCommitted,
    SeedRevealed,
    SeedsAsked,
    SeedsRestarted,
    TurnUndone,
    actor,
)
from .game import Game
from .variant import AnyVariant


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
    """For an undo: the cards its undone moves showed (dealt to the table, or reserved blind).
    Everyone has seen them, and taking the moves back does not hide them again."""

    def to_json(self) -> dict[str, Any]:
        out = attrs.asdict(self)
        if not self.drawn:
            del out["drawn"]
        if self.revealed:
            out["revealed"] = list(self.revealed)
        else:
            del out["revealed"]
        return out


def event_notation(variant: AnyVariant, event: Event, *, sealed: bool = False) -> str:
    """How the log writes an event: a move in its game's notation, the others in words (`sealed`:
    the event is a sealed game's, whose deal follows the players' shuffles and shares)."""
    if sealed and isinstance(event, variant.setup_type):
        return variant.event_notation(event).replace("from the revealed seeds", "from the sealed decks")
    match event:
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
        case SeedsRestarted():
            return f"restarts the deal without a reveal from {', '.join(event.without)}: all commit new seeds"
        case SealedAsked():
            return f"new sealed game: {', '.join(event.players)}; each joins, shuffles and reveals (`splendor seal`)"
        case PlayerJoined():
            return f"joins with their keys (signing {event.signing[:16]}...)"
        case DeckShuffled():
            return "shuffles and seals the decks"
        case CardsShown():
            cards = ", ".join(event.cards[:6]) + (", ..." if len(event.cards) > 6 else "")
            return f"shows decryption shares of {cards}"
        case RewindAgreed():
            return f"agrees to a rewind to just after #{event.to}"
        case KeysPublished():
            return "publishes their keys of the game: every shuffle and card can now be checked (`splendor verify`)"
    return variant.event_notation(event)


def log_entries(game: Game) -> list[LogEntry]:
    """Every event of the log, undone moves marked, with the turn number of each effective move."""
    variant = game.variant
    entries = []
    turn_of: dict[int, int] = {}
    effective: list[PlayEvent] = []
    fold = Game(variant=variant)
    for event in game.events:
        revealed: tuple[str, ...] = ()
        if isinstance(event, TurnUndone):
            taken_back = [e for e in effective if e.seq > event.to]
            effective = [e for e in effective if e.seq <= event.to]
            revealed = tuple(card for e in taken_back for card in variant.shown(e))
        elif isinstance(event, variant.play_types):
            turn_of[event.seq] = fold.table.turn + 1  # a Duel turn's steps share its number
            effective.append(event)
        fold = fold.apply(event, check=False)
        drawn = getattr(event, "drawn", "")
        entries.append(
            LogEntry(
                seq=event.seq,
                type=event.TYPE,
                player=actor(event) or None,
                notation=event_notation(variant, event, sealed=game.sealing is not None),
                turn=turn_of.get(event.seq),
                undone=event.seq in game.undone,
                drawn=drawn if isinstance(drawn, str) else "",
                revealed=revealed,
            )
        )
    return entries
