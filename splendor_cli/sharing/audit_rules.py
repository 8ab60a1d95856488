"""The rules the audit holds each change of a game file to (`verify`), as reasons for a person:
a commit only appends (`rewrite_reason`), one person's move at most and by its player's e-mail
(`moves_reason`), and a settled fork leaves out one player's own moves only (`resolved_fork`,
`withdrawal_fault`), by the author of the commits that carried them in a game without e-mails
(`carrier_fault`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots import seat_spec
from ..events import Event, SeedsRestarted, TurnUndone, actor
from ..events.codec import Header
from ..projection.table_protocol import is_protocol_event
from .history import Carrier
from .versions import Version


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def rewrite_reason(old: bytes, new: bytes, *, parent: str | None = None) -> str:
    """Where `new` stops extending `old`, for a person: the line, and the event it belongs to;
    `parent` names the merge's parent whose file `old` is."""
    at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    line = old[:at].count(b"\n") + 1
    blocks = sum(1 for row in old[:at].split(b"\n")[:-1] if row.strip() == b"[[events]]")
    where = f"event #{blocks}" if blocks else "the header"
    if parent is None:
        if at == len(new):
            return f"cuts the file at line {line} ({where}): a commit may only append events"
        return f"changes line {line} ({where}) of the file before it: a commit may only append events"
    if at == len(new):
        return f"cuts the file of {parent} at line {line} ({where}): a merge may only combine its parents' events"
    return f"changes line {line} ({where}) of the file of {parent}: a merge may only combine its parents' events"


def _describe(event: Event, stepwise: bool) -> str:
    if isinstance(event, TurnUndone):
        return f"#{event.seq} an undo{f' by {event.by}' if event.by else ''}"
    if isinstance(event, SeedsRestarted):
        return f"#{event.seq} a restart of the deal by {event.by}"
    if is_protocol_event(event):
        return f"#{event.seq} {actor(event) or 'nobody'}'s {event.TYPE.replace('_', ' ')}"
    return f"#{event.seq} {actor(event) or 'the setup'}'s {'step' if stepwise else 'turn'}"


def events_listed(events: tuple[Event, ...] | list[Event], stepwise: bool, most: int = 3) -> str:
    """`#2 ann's turn, #3 bob's turn`: the first `most` events, then `...`."""
    return ", ".join(_describe(e, stepwise) for e in events[:most]) + (", ..." if len(events) > most else "")


def _is_bot(event: Event) -> bool:
    """Whether the event is a bot seat's turn (or step): an undo is always a person's move."""
    return not isinstance(event, TurnUndone) and bool(seat_spec(actor(event)))


def _own_move(moves: list[Event], stepwise: bool, play_types: tuple[type[Any], ...]) -> list[Event] | None:
    """The person's move among the events a commit appends (its events: one turn, one undo, or one
    player's consecutive steps), [] when they are all bot seats' turns; None when there are the
    moves of more than one person."""
    people = [i for i, event in enumerate(moves) if not _is_bot(event)]
    if not people:
        return []
    first = end = people[0]
    end += 1
    lead = moves[first]
    if stepwise and isinstance(lead, play_types):
        while end < len(moves) and isinstance(moves[end], play_types) and actor(moves[end]) == actor(lead):
            end += 1
    return None if people[-1] >= end else moves[first:end]


SPLIT_ADVICE = "commit one turn (or one undo) per commit: `splendor sync` commits each turn on its own"
"""How to split a staged change that holds several moves."""


def resolved_fork(dropped: Version, kept: Version) -> bool:
    """Whether `dropped` is a branch that forked from `kept`'s history and was left out by
    `splendor resolve`: both logs agree up to an event after which each has its own, different
    event with the same seq and parent."""
    ours, theirs = dropped.record.events, kept.record.events
    common = 0
    while common < min(len(ours), len(theirs)) and ours[common] == theirs[common]:
        common += 1
    return (
        common < len(ours)
        and common < len(theirs)
        and ours[common].seq == theirs[common].seq
        and ours[common].parent == theirs[common].parent
    )


def withdrawal_fault(left: tuple[Event, ...], header: Header, email: str, setup_type: type[Any]) -> str | None:
    """Why a merge authored by `email` may not leave out `left`, a forked branch; None when they
    are all one player's (their turns, undos they asked for, and bot seats' turns) and, in a game
    with e-mails, that player is the merge's author."""
    rule = "settling a forked game may leave out one player's own moves, by that player"
    if any(isinstance(event, setup_type) for event in left):
        return f"{rule}, never a deal"
    emails = any(header.emails)
    owners = dict.fromkeys(actor(event) for event in left if not _is_bot(event))
    if not emails:
        owners.pop("", None)  # without e-mails nobody is checked: an undo that names nobody joins the player's moves
    if len(owners) > 1:
        return f"{rule}: these are {' and '.join(possessive(who) for who in owners)}"
    if not owners or not emails:
        return None
    who = next(iter(owners))
    if not who:
        unsigned = next(e for e in left if isinstance(e, TurnUndone))
        return f"{rule}: undo #{unsigned.seq} names nobody"
    address = dict(zip(header.players, header.emails)).get(who, "")
    if address and address.casefold() != email.casefold():
        return f"{rule}: they are {who}'s ({address}), but the merge's author is {email or 'unknown'}"
    return None


def carrier_fault(carriers: Sequence[Carrier], email: str) -> str | None:
    """Why a merge authored by `email` may not leave out, in a game without e-mails, the events
    that the commits `carriers` carried (`history.carried_by_others`: commits by others than the
    merge's author); None when there is none. The header cannot say whose a move is, so the
    commit that carried it does: only its author may withdraw it."""
    if not carriers:
        return None
    first = carriers[0]
    more = f" and {plural(len(carriers) - 1, 'more commit')}" if len(carriers) > 1 else ""
    return (
        "settling a forked game may leave out one player's own moves, by that player: commit"
        f" {first.commit[:12]}{more} by {first.author} <{first.email}> carried them, but the merge's"
        f" author is {email or 'unknown'}"
    )


def possessive(who: str) -> str:
    return f"{who}'s" if who else "nobody's"


def moves_reason(version: Version, known: int, *, created: bool, email: str, staged: bool = False) -> str | None:
    """What is wrong with the events after the first `known` of `version`: the moves of more than
    one person, or a person's move that is not the author's."""
    # a second setup never replays, so every new event is a move or an undo
    variant = version.game.variant
    moves = [e for e in version.record.events[known:] if not isinstance(e, variant.setup_type)]
    if version.game.protocol.duties:  # one player's turn rides with their shares of the protocol
        moves = [e for e in moves if not is_protocol_event(e)] or moves[:1]
    own = _own_move(moves, variant.stepwise, variant.play_types)
    if own is None:
        verb = "creates the game with" if created else "appends"
        undos = sum(isinstance(e, TurnUndone) for e in moves)
        noun = "step" if variant.stepwise else "turn"
        counts = [plural(n, word) for n, word in ((len(moves) - undos, noun), (undos, "undo")) if n]
        rule = SPLIT_ADVICE if staged else "a commit may append one turn, or one undo"
        return f"{verb} {' and '.join(counts)} ({events_listed(moves, variant.stepwise)}): {rule}"
    header = version.record.header
    if not own or not any(header.emails) or version.game.protocol.signed:
        return None  # a sealed game's events are signed: the signatures say who moved, not the commit's author
    move = own[0]
    if isinstance(move, TurnUndone) and not move.by:
        return f"undo #{move.seq} names nobody: who asked cannot be checked"
    who = actor(move)
    addresses = dict(zip(header.players, header.emails))
    address = addresses.get(who, "")
    by = getattr(move, "by", "")  # played for its player on purpose: their commit, or the one who played it
    if by and not isinstance(move, TurnUndone) and addresses.get(by, "").casefold() == email.casefold():
        return None
    if address and address.casefold() != email.casefold():
        what = (
            f"undo #{move.seq} was asked by {who}" if isinstance(move, TurnUndone) else f"turn #{move.seq} is {who}'s"
        )
        return f"{what} ({address}), but the commit's author is {email or 'unknown'}"
    return None
