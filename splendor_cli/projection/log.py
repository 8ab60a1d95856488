"""The log's read model, whatever the game: one entry per event, undone moves marked (pure).

What `splendor log` prints and `log --json` gives (docs/contract.md). The game writes its own
events (`Variant.event_notation`), a table protocol its own (`TableProtocol.notation`); the events
every game shares are written here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..events import Event, PlayEvent, SeedCommitted, SeedRevealed, SeedsAsked, SeedsRestarted, TurnUndone, actor
from .game import Game
from .table_protocol import protocol_notation
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
    said = protocol_notation(event)  # a table protocol's own event (a sealed game's)
    if said:
        return said
    by = getattr(event, "by", "")  # a turn played for its player on purpose (hot-seat, relayed)
    return variant.event_notation(event) + (f" (played by {by})" if by else "")


def log_entries(game: Game) -> list[LogEntry]:
    """Every event of the log, undone moves marked, with the turn number of each effective move."""
    variant = game.variant
    sealed = game.protocol.hidden
    turn_of = _turns(game)
    entries = []
    effective: list[PlayEvent] = []
    for event in game.events:
        revealed: tuple[str, ...] = ()
        if isinstance(event, TurnUndone):
            taken_back = [e for e in effective if e.seq > event.to]
            effective = [e for e in effective if e.seq <= event.to]
            revealed = tuple(card for e in taken_back for card in variant.shown(e))
        elif isinstance(event, variant.play_types):
            effective.append(event)
        drawn = getattr(event, "drawn", "")
        entries.append(
            LogEntry(
                seq=event.seq,
                type=event.TYPE,
                player=actor(event) or None,
                notation=event_notation(variant, event, sealed=sealed),
                turn=turn_of.get(event.seq),
                undone=event.seq in game.undone,
                drawn=drawn if isinstance(drawn, str) else "",
                revealed=revealed,
            )
        )
    return entries


def _turns(game: Game) -> dict[int, int]:
    """The turn number of each play event (undone ones too): one more than the turn of the table
    it was played on (a Duel turn's steps share its number).

    Taken from the folded `game`, not by folding its events again: the table a move was played on
    is the one after the move before it in the effective history of the time (`stack`, as the fold
    keeps `after`), and `game.states` holds the table after every move still effective (a reveal
    since puts cards in it, which changes no turn). Only a move that was undone and then followed
    by another has its table made again, from the one it was played on; in a sealed game, with
    every card revealed by now put in both the table and the move (the table kept may hold some
    that the move names by placeholder)."""
    variant = game.variant
    kept = {seq: state for seq, state in zip(game.after, game.states, strict=True)}
    made: dict[int, Any] = {}  # the table after an undone move that another followed, made again
    below: dict[int, int] = {}  # each undone move: the move it was played after
    events = game.events
    reveal = _revealing(game)

    def after(seq: int) -> Any:
        if seq in kept:
            return kept[seq]
        if seq not in made:
            made[seq] = variant.evolve(reveal(after(below[seq])), reveal(events[seq - 1]))
        return made[seq]

    turn_of: dict[int, int] = {}
    stack: list[int] = []
    for event in events:
        if isinstance(event, variant.play_types):
            turn_of[event.seq] = after(stack[-1]).turn + 1
            if event.seq not in kept:
                below[event.seq] = stack[-1]
            stack.append(event.seq)
        elif isinstance(event, TurnUndone):
            del stack[stack.index(event.to) + 1 :]
        elif isinstance(event, variant.setup_type):
            stack = [event.seq]
    return turn_of


def _revealing(game: Game) -> Callable[[Any], Any]:
    """What puts every card a sealed game revealed by now in a table or a move (its protocol's
    `revealing`); in an open game, or before a card is revealed, nothing."""
    return game.protocol.revealing()


def played_for_others(game: Any) -> list[dict[str, Any]]:
    """The turns (steps) of a game played for their player by another on purpose (`play --for`,
    the event's `by`): each `{"seq", "player", "by"}`, in the log's order (`verify` and
    `verify --git` report them)."""
    found = []
    for event in game.events:
        by = getattr(event, "by", "")
        if by and isinstance(by, str) and not isinstance(event, TurnUndone | SeedsRestarted):
            found.append({"seq": event.seq, "player": actor(event), "by": by})
    return found


def played_for_line(played: list[dict[str, Any]]) -> str:
    """`played_for_others` in one line for a person ("" when there is none)."""
    if not played:
        return ""
    shown = ", ".join(f"#{p['seq']} {p['player']}'s by {p['by']}" for p in played[:10])
    more = f" and {len(played) - 10} more" if len(played) > 10 else ""
    return f"played for another player on purpose: {shown}{more}"
