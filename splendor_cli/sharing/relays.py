"""Relayed turns settle (issue 32, item 2): when two copies of a game took the same seat's turn at
the same point, one of them played for that seat by another player (`play --for`, the event's
`by`), nobody needs to choose between them.

- The same move on both sides is one move, whoever typed it: the side that holds nothing but its
  copy gives way to the other.
- Different moves for one seat: the seat's own move wins over one relayed for it; the side that
  holds nothing but the relayed move gives way.

The merge driver settles such a fork by itself (`gitmerge.merge`), the audit accepts a merge that
left out a side so superseded (`checker`), whoever made it, and the memory of seen games lets a
relayed move it saw give way so (`gate.memory`: it keeps each relayed move's `Mark`): the rule
chooses, not a person, so every clone settles it the same way. Pure.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import attrs

from ..events import Event, PlayEvent, actor

_ENVELOPE = frozenset({"seq", "parent", "sig", "by"})


@attrs.frozen
class Mark:
    """What the rule needs of a move on the side that may give way: its seat, the move itself
    (`key`: a digest of its type, player and payload) and who relayed it ("": its seat played it)."""

    seat: str
    key: str
    by: str = ""


def mark(event: Event) -> Mark | None:
    """The `Mark` of a move (None: `event` is no move)."""
    if not isinstance(event, PlayEvent):
        return None
    payload = [(f.name, repr(getattr(event, f.name))) for f in attrs.fields(type(event)) if f.name not in _ENVELOPE]
    key = hashlib.sha256(repr((event.TYPE, payload)).encode("utf-8")).hexdigest()
    return Mark(seat=actor(event), key=key, by=event.by)


def gives_way(left: Sequence[Mark | None], kept: Sequence[Event]) -> str:
    """Why the moves `left` give way to the events `kept`, both following the same event ("" when
    they do not): `left` holds only one seat's move (its steps), and `kept` opens with the same
    move, or with that seat's own move where `left` holds one relayed for it."""
    if not left or not kept or len(left) > len(kept) or any(m is None for m in left):
        return ""
    marks = [m for m in left if m is not None]
    first = mark(kept[0])
    seat = marks[0].seat
    if first is None or first.seat != seat or any(m.seat != seat for m in marks):
        return ""
    if all((k := mark(event)) is not None and k.key == m.key for m, event in zip(marks, kept, strict=False)):
        return f"the same move of {seat}'s on both sides: one move"
    if all(m.by for m in marks) and not first.by:
        by = ", ".join(sorted({m.by for m in marks}))
        return f"{seat} played their own move: the one {by} played for them gives way"
    return ""


def superseded(left: Sequence[Event], kept: Sequence[Event]) -> str:
    """Why the branch `left` gives way to `kept` (`gives_way`), both following the same event."""
    return gives_way([mark(event) for event in left], kept)


__all__ = ["Mark", "gives_way", "mark", "superseded"]
