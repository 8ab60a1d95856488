"""Table protocols: how a table keeps its cards and proves its moves, plug-ins of the fold.

The fold (`projection/game.py`: events, envelope, chain, undo, views) knows no protocol. A
protocol is a package registered here by name, like a game (`variants/__init__.py`): `open`
(the cards on the table, nothing signed: this module's `OPEN`), `sealed` (every event signed,
decks nobody alone knows: `splendor_cli.sealing.protocol`) and `signed` (every event signed, no
hidden card: `splendor_cli.signed.protocol`).

A game's protocol is declared once, in its file's header (`Header.table`, format 4 on; an older
file's is the one whose event opens its log), and chosen as the file is read (`Game.declared`):
that protocol's fold handlers (`TableProtocol.handlers`) take in its own events, its opening
event (`SealedAsked` for a sealed game) makes the game's protocol state, held as
`Game.protocol`, and any other protocol's event is refused. An open game's header says nothing:
its bytes are as they were.

`TableProtocol` is the protocol's state in one game (frozen, folded event by event by its
handlers), with the operations the fold and its callers need instead of asking which protocol
it is: what the deal under way waits for (`stage`), the deal the protocol makes (`deal`), the
undo's conditions, what a player signs (`sign`), the cards revealed so far (`revealing`), who
owes the protocol what (`keys_owed`, `waiting`), its audit (`audit`) and its command-line part
(`command_line`: a module of the command line, imported by name only when asked for). The
class itself is the open protocol: a protocol overrides what differs.

Pure: no I/O.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import UsageError, excerpt

if TYPE_CHECKING:
    from ..crypto.keys import SecretKey
    from ..events import Event

Handler = Callable[[Any, Any, bool, bool], None]
"""How the fold takes in an event of one type: `handler(fold, event, check, verify)` (the fold
is `projection.game`'s: its `events`, `states`, `after`, `variant` and `protocol`)."""


class TableProtocol:
    """How one game's table keeps its cards and proves its moves, as far as its log goes: the
    open protocol (nothing signed, nothing hidden, nothing owed); a protocol overrides what differs."""

    __slots__ = ()

    name: ClassVar[str] = "open"
    """The protocol's name in the registry (`find_protocol`)."""
    signed: ClassVar[bool] = False
    """Every event is signed by its author's key: their signatures, not a commit's author, say
    who moved; a merge may leave out a player's events by that player's signed consent."""
    hidden: ClassVar[bool] = False
    """Some cards are hidden from whoever reads the file: a seat's view is its own (never
    cached), and a bot seat's move cannot be computed again by another reader."""
    duties: ClassVar[bool] = False
    """The players owe the protocol events of its own (join, shuffle, shares, keys: `splendor seal`)."""
    first_format: ClassVar[int] = 1
    """The oldest file format a game of this protocol is read in (an older file is refused)."""
    watches: ClassVar[bool] = False
    """The fold asks the protocol about every event (`check_event`) and every play (`check_play`)."""
    command_line: ClassVar[str] = "splendor_cli.app.services.table_part"
    """The module of the command line that holds the protocol's part (its `PART`)."""
    dealt_by: ClassVar[str] = ""
    """What the protocol's deal follows from, in words (`deal`)."""

    @classmethod
    def handlers(cls) -> Mapping[type, Handler]:
        """The fold's handler of each event type the protocol owns (the open protocol owns none)."""
        return {}

    @classmethod
    def remade(cls, event: Event) -> bool:
        """Whether `event` is a step its player owes the protocol that is made again when it is
        left out (a join, a shuffle, a share: `splendor seal` writes what is owed), not a choice
        of theirs (a consent): a race of such steps settles by itself (app/services/races.py)."""
        return False

    @classmethod
    def notation(cls, event: Event) -> str:
        """How the log writes an event the protocol owns, in words ("": not one of its own)."""
        return ""

    @property
    def players(self) -> tuple[str, ...]:
        """The seats, known before the deal (empty: the setup names them)."""
        return ()

    def stage(self) -> str:
        """What the protocol's deal under way waits for, in words ("": none is, or it is done)."""
        return ""

    def deal(self) -> Event | None:
        """The setup the protocol's deal gives (None: the protocol deals nothing; IllegalMoveError
        before it can)."""
        return None

    def dealt(self) -> TableProtocol:
        """The protocol once the setup is folded."""
        return self

    def session(self) -> bytes | None:
        """The game's session id, which the draws after the deal are bound to (`Game.chance`);
        None: the game is named by its first event (an open game, or one older than format 4)."""
        return None

    # -- the fold's hooks (called only when the protocol `watches`)

    def check_event(self, fold: Any, event: Event, verify: bool) -> None:
        """Refuse (CorruptLogError) `event` before it is folded (`verify`: its cryptography checked)."""

    def check_play(self, fold: Any, event: Event, state: Any) -> None:
        """Refuse (CorruptLogError) a play event on `state` that the protocol does not let follow."""

    # -- undo

    def undo_refused(self) -> str:
        """Why no undo may be taken now ("": it may)."""
        return ""

    def check_agreed(self, game: Any, actors: Sequence[str], *, to: int, by: str, forced: bool) -> None:
        """Refuse (IllegalMoveError) an undo to `to` that the players it must have agreed to have not."""

    def after_undo(self, state: Any) -> Any:
        """The state an undo goes back to, as the protocol keeps it (cards revealed since stay revealed)."""
        return state

    # -- what callers ask

    def revealing(self) -> Callable[[Any], Any]:
        """What puts every card revealed by now in a table or a move (nothing in an open game)."""
        return _same

    def sign(self, event: Event, previous: Event, secret: SecretKey) -> Event:
        """`event`, signed by `secret` when it is theirs to sign (an open game's: as it is)."""
        return event

    def reveals(self, event: Event) -> bool:
        """Whether `event` gives away a secret of its author's key in this game (a share that opens
        a card, the keys at the end): a key does so in one history of a game only
        (app/services/key_history.py). Nothing in an open game."""
        return False

    def signers(self) -> Any:
        """What checks a player's signature outside the log (a merge's consent to leave out their
        events: sharing/withdrawals.py): an object with the game's `root` and each seat's public
        `keys`; None when nothing is signed."""
        return None

    def keys_owed(self, finished: bool) -> tuple[str, ...] | None:
        """The players who owe their keys of a game (`finished`: over); None: the protocol has no keys."""
        return None

    def waiting(self, game: Any) -> tuple[tuple[str, ...], str, str | None] | None:
        """Who the game waits for, where it stands and who is to move, when the protocol says
        more than the table (None: the table says it all). `game` is the fold's `Game`
        (projection/game.py, which this module is below: not named here)."""
        return None

    def audit(self, game: Any) -> dict[str, Any] | None:
        """What `verify` says of the protocol (None: nothing beyond the rules)."""
        return None


def _same(value: Any) -> Any:
    return value


class refused_at:
    """Within it, a refusal of a protocol's fold handler (IllegalMoveError, or the crypto's
    GameFileErrors) becomes the CorruptLogError of the event `seq`, on one line."""

    __slots__ = ("seq",)

    def __init__(self, seq: int) -> None:
        self.seq = seq

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        from ..errors import CorruptLogError, SplendorError, one_line

        if isinstance(exc, SplendorError) and not isinstance(exc, CorruptLogError):
            raise CorruptLogError(one_line(exc), seq=self.seq) from None


OPEN = TableProtocol()
"""The open protocol's state (the same in every open game)."""

_BUILT_IN: dict[str, str] = {
    "open": "splendor_cli.projection.table_protocol",
    "sealed": "splendor_cli.sealing.protocol",
    "signed": "splendor_cli.signed.protocol",
}
"""The protocols, by name: the module that holds each (its `PROTOCOL`)."""
_TAGS: dict[str, str] = dict.fromkeys(
    ("sealed_asked", "player_joined", "deck_shuffled", "cards_shown", "keys_published", "rewind_agreed"), "sealed"
) | dict.fromkeys(("signed_asked", "signer_joined", "deal_shared"), "signed")
"""The type tag of each protocol's own events, by protocol (its `handlers`' classes: a test holds
them together): what a log's events declare is known before any protocol is imported, so an open
game's commands never load a protocol they do not play."""
_LATER: tuple[str, ...] = ()
"""Protocols declared, not yet available (none now)."""
_FOUND: dict[str, type[TableProtocol]] = {}
_EVERY: dict[type, Handler] = {}
_OWNERS: dict[type, type[TableProtocol]] = {}

PROTOCOL = TableProtocol
"""The open protocol (`find_protocol("open")`)."""


def protocol_names() -> tuple[str, ...]:
    """The protocols this program plays."""
    return tuple(_BUILT_IN)


def find_protocol(name: str) -> type[TableProtocol]:
    """The protocol of that name. Raise UsageError when this program has none (or not yet)."""
    found = _FOUND.get(name)
    if found is not None:
        return found
    if name in _LATER:
        raise UsageError(f"the {name} table protocol is not available yet")
    where = _BUILT_IN.get(name) if isinstance(name, str) else None
    if where is None:
        raise UsageError(f"unknown table protocol {excerpt(name)}: this version has {', '.join(_BUILT_IN)}")
    found = importlib.import_module(where).PROTOCOL
    assert isinstance(found, type) and issubclass(found, TableProtocol)
    _FOUND[name] = found
    return found


def protocol_of(tag: str) -> str | None:
    """The protocol whose own event has type tag `tag` (None: no protocol's; nothing imported)."""
    return _TAGS.get(tag)


def is_protocol_event(event: object) -> bool:
    """Whether `event` is a table protocol's own (a sealed or a signed game's join, shuffle, share,
    keys...), not a move of the game nor a step every game shares (nothing imported)."""
    return _TAGS.get(getattr(event, "TYPE", "")) is not None


def protocol_event_type(tag: str) -> type | None:
    """The class of a protocol's own event of type tag `tag` (its protocol imported then); None
    when it is no protocol's."""
    name = _TAGS.get(tag)
    if name is None:
        return None
    return next((cls for cls in find_protocol(name).handlers() if getattr(cls, "TYPE", None) == tag), None)


def protocol_handlers() -> Mapping[type, Handler]:
    """The fold's handlers of every registered protocol's events: a protocol's first event makes
    a game's protocol state, its others refuse a game of another protocol."""
    if not _EVERY:
        for name in _BUILT_IN:
            _EVERY.update(find_protocol(name).handlers())
    return _EVERY


def protocol_notation(event: Event) -> str:
    """How the log writes `event` when it is a table protocol's own ("" when it is not)."""
    if _TAGS.get(getattr(event, "TYPE", "")) is None:
        return ""
    if not _OWNERS:
        for name in _BUILT_IN:
            found = find_protocol(name)
            _OWNERS.update(dict.fromkeys(found.handlers(), found))
    owner = _OWNERS.get(type(event))
    return owner.notation(event) if owner is not None else ""


__all__ = [
    "OPEN",
    "PROTOCOL",
    "Handler",
    "TableProtocol",
    "find_protocol",
    "is_protocol_event",
    "protocol_event_type",
    "protocol_handlers",
    "protocol_names",
    "protocol_notation",
    "protocol_of",
    "refused_at",
]
