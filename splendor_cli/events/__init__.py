"""The log, whatever the game: the envelope every event carries, and the events all games share.

Every event carries the envelope `seq` (its 1-based position in the log) and `parent` (the
digest of the event before it; for the first event, of the file header), which chains the
log as git chains commits. Payloads are flat: scalars and arrays of scalars, so that one
event is one `[[events]]` block of the file. Never rename a TYPE or a field: old files
must stay readable (change the schema by adding an upcaster keyed on the format number).

Each game declares its own events (its setup and its turns or steps) in its package
(`splendor_cli.variants.<game>.events`); the events here are the ones every game's log may
hold: an undo, and the commit-then-reveal deal.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, TypeVar

import attrs


class Event(Protocol):
    """What every event is: a frozen attrs class with a stable `TYPE` tag and the envelope."""

    TYPE: ClassVar[str]

    @property
    def seq(self) -> int: ...

    @property
    def parent(self) -> str: ...


class PlayEvent(Event, Protocol):
    """An event a player makes by playing: a turn, or a step of a turn."""

    @property
    def player(self) -> str: ...


@attrs.frozen(kw_only=True)
class TurnUndone:
    """The game goes back to how it was just after event `to`; the turns after it are undone.

    `by` names who asked for it ("" when not said); `forced` marks an agreed rewind over other
    players' turns (written only when true). Nothing is removed from the file.
    """

    TYPE: ClassVar[str] = "turn_undone"
    seq: int
    parent: str
    by: str
    to: int
    forced: bool = False


@attrs.frozen(kw_only=True)
class SeedsAsked:
    """The players deal by commit-then-reveal: each commits to a secret, then reveals it, and the
    shuffle follows from all the secrets together, so that nobody alone chooses it."""

    TYPE: ClassVar[str] = "seeds_asked"
    seq: int
    parent: str
    variant: str
    players: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SeedCommitted:
    """A player's commitment: the SHA-256 of their name and their secret, which stays hidden."""

    TYPE: ClassVar[str] = "seed_committed"
    seq: int
    parent: str
    player: str
    commitment: str


@attrs.frozen(kw_only=True)
class SeedRevealed:
    """A player's secret, revealed once every player has committed; it must match the commitment."""

    TYPE: ClassVar[str] = "seed_revealed"
    seq: int
    parent: str
    player: str
    secret: str


@attrs.frozen(kw_only=True)
class SeedsRestarted:
    """The deal starts over: every player had committed, `by` had revealed, and the players in
    `without` (in turn order) had not. Every commitment and secret before it stops counting: each
    player commits a new secret (see `splendor_cli.projection.seeding`)."""

    TYPE: ClassVar[str] = "seeds_restarted"
    seq: int
    parent: str
    by: str
    without: tuple[str, ...]


E = TypeVar("E", bound=Event)


def enveloped(event: E, *, seq: int, parent: str) -> E:
    """`event` with this envelope (every event is a frozen attrs class)."""
    changed: E = attrs.evolve(_attrs(event), seq=seq, parent=parent)
    return changed


def _attrs(event: Event) -> Any:
    return event


SHARED_TYPES: tuple[type[Event], ...] = (TurnUndone, SeedsAsked, SeedCommitted, SeedRevealed, SeedsRestarted)
"""The events any game's log may hold, besides the game's own."""


def actor(event: Event) -> str:
    """Who made the event: the player of a turn or a seed step, who asked for an undo; "" for a
    setup and for an undo nobody signed; who asked for a restart of the deal."""
    if isinstance(event, TurnUndone | SeedsRestarted):
        return event.by
    player = getattr(event, "player", "")
    return player if isinstance(player, str) else ""


__all__ = [
    "SHARED_TYPES",
    "Event",
    "PlayEvent",
    "SeedCommitted",
    "SeedRevealed",
    "SeedsAsked",
    "SeedsRestarted",
    "TurnUndone",
    "actor",
    "enveloped",
]
