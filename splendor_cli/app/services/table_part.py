"""The command line's part of a table protocol (`projection/table_protocol.py`): what the commands do
that depends on how a table keeps its cards and proves its moves. `part(game)` is the part of
the game's protocol (`TableProtocol.command_line` names its module, imported only when asked
for: a sealed game's is `sealing/command_line.py`); `TablePart` is the open protocol's, which the others
override where they differ. Standard library only at import.
"""

from __future__ import annotations

import importlib

from ...errors import IllegalMoveError, UsageError, excerpt

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any

    from ...crypto.keys import SecretKey
    from ...forks import Fork
    from ...projection.game import Game
    from ...store import Loaded


class TablePart:
    """The open protocol's part of the command line: nothing signed, nothing owed, every card of
    the table as the file shows it (but the others' blind reserves, which every board turns face
    down)."""

    __slots__ = ()

    def secret(self, loaded: Loaded) -> SecretKey | None:
        """The key this user signs the game's new events with (None: nothing is signed)."""
        return None

    def note_written(self, loaded: Loaded, after: Loaded, secret: SecretKey | None) -> None:
        """Remember what the events `after` adds to `loaded` (signed by `secret`) tell of this user."""

    def me(self, game: Game) -> tuple[str | None, str] | None:
        """The seat the user plays when nothing says (--as), and what says so; None: the header's
        e-mails say (`players.me`)."""
        return None

    def viewer(self, game: Game) -> str | None:
        """Whose view a board shows when no seat is said (`boards.viewer`)."""
        return file_viewer(game)

    def view(self, game: Game, seat: str | None, secret: SecretKey | None = None) -> Any:
        """The table as `seat` may know it (the others' blind reserves are turned face down after)."""
        return game.state

    def mover_view(self, game: Game, as_: str | None) -> Any | None:
        """The table as the seat to move sees it, when the moves are theirs alone (None: the
        file's moves, the same for every reader)."""
        return None

    def show(self, loaded: Loaded, played: Game, who: str | None, every: bool, color: str) -> str | None:
        """What `show` prints of `played` beyond the board (None: the board alone)."""
        return None

    def asker(self, loaded: Loaded, as_: str | None, agree: bool) -> str | None:
        """Who asks for an undo, by what the protocol says (`as_`: what the user said).

        Raises:
            UsageError: `agree` in a protocol whose undos are not signed.
        """
        if agree:
            raise UsageError("--agree is for sealed games, whose undos are signed (`splendor new --sealed`)")
        return as_

    def seat_to_play(self, loaded: Loaded, as_: str | None, for_: str | None) -> tuple[Loaded, str, SecretKey] | None:
        """For `play`: the game with what the seat owes before moving, the seat and its key,
        when the protocol decides them (None: `play` does, by --as, --for and the e-mails)."""
        return None

    def before_step(self, loaded: Loaded, seat: str, secret: SecretKey, move: Any) -> Loaded:
        """Before `seat` plays `move`: what the protocol stages first (refusing what must wait)."""
        return loaded

    def write_part(self, loaded: Loaded, me: str | None) -> Loaded:
        """`loaded` with the local player's part of the protocol written (none in an open game)."""
        return loaded

    def settle(self, loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
        """`loaded` with what `seat` owes the protocol now staged (nothing in an open game)."""
        return loaded

    def seat_part(self, loaded: Loaded, as_: str | None) -> tuple[str, Loaded]:
        """For `seal`: the seat of the local key (`as_`: the seat it joins) and `loaded` with all
        that seat owes the protocol now staged.

        Raises:
            UsageError: the protocol owes nothing (an open game), or there is no key.
        """
        raise UsageError("this game's table owes nothing: `splendor seal` is for sealed and signed games")

    def waiting_lines(self, game: Game) -> list[str]:
        """What the protocol waits for, in lines (`seal`, `show`)."""
        return []

    def dropped_lines(self, fork: Fork, dropped: str) -> list[str]:
        """What a `resolve` that drops the side `dropped` of `fork` does to the protocol, in lines."""
        return []


class KeyPart(TablePart):
    """The part of a table of keys (sealed, signed): the local key signs its seat's events and
    says who the user is; the seat's part of the protocol rides on every command that writes. A
    protocol's part says how it finds the key (`key`), the seat the key plays (`seat`) and what
    the seat owes (`owed`)."""

    __slots__ = ()

    kind = "keyed"
    """The table's name in messages and rules ("sealed", "signed")."""
    says_who = ""
    """What the refusal of `--as` another seat than the key's adds (the signed table's reminder)."""

    def key(self, *, required: bool = True) -> SecretKey | None:
        """This user's secret key (None: none, and it is not `required`)."""
        raise NotImplementedError

    def seat(self, game: Game, secret: SecretKey, as_: str | None) -> str:
        """The seat the local key plays: the one it joined, else `as_` (to join it).

        Raises:
            UsageError: `as_` is another seat than the key's, or the key joined none and `as_` is not said.
            IllegalMoveError: `as_` is no player of the game, or joined with another key.
        """
        from .key_history import seat_of_key

        seat = seat_of_key(game, secret)
        seats = ", ".join(game.protocol.players)
        if seat is not None:
            if as_ and as_ != seat:
                raise UsageError(f"your key plays {seat} in this game, not {excerpt(as_)}{self.says_who}")
            return seat
        if not as_:
            raise UsageError(f"your key has not joined this game: say which seat is yours with --as NAME ({seats})")
        if as_ not in game.protocol.players:
            raise IllegalMoveError(f"{excerpt(as_)} does not play in this game ({seats})", rule=self.kind)
        if as_ in game.protocol.signers().keys:
            raise IllegalMoveError(f"{as_} joined this game with another key than yours", rule=self.kind)
        return as_

    def owed(self, loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
        """`loaded` with what `seat` owes the protocol now staged, signed; nothing written."""
        raise NotImplementedError

    def secret(self, loaded: Loaded) -> SecretKey | None:
        return self.key(required=False)

    def me(self, game: Game) -> tuple[str | None, str] | None:
        from .key_history import seat_of_key

        secret = self.key(required=False)
        seat = seat_of_key(game, secret) if secret is not None else None
        return seat, "your key" if seat else ""

    def asker(self, loaded: Loaded, as_: str | None, agree: bool) -> str | None:
        """The asker is the seat of the key that signs."""
        return self.seat(loaded.game, self._required(), as_)

    def seat_to_play(self, loaded: Loaded, as_: str | None, for_: str | None) -> tuple[Loaded, str, SecretKey] | None:
        """Signed by the local key, for its seat, after what it owes the protocol before moving."""
        if for_:
            raise UsageError(
                f"a {self.kind} game: each seat plays its own turns, signed by its key (--for is for open games)"
            )
        secret = self._required()
        seat = self.seat(loaded.game, secret, as_)
        return self.owed(loaded, seat, secret), seat, secret

    def settle(self, loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
        return self.owed(loaded, seat, secret)

    def seat_part(self, loaded: Loaded, as_: str | None) -> tuple[str, Loaded]:
        secret = self._required()
        seat = self.seat(loaded.game, secret, as_)
        return seat, self.owed(loaded, seat, secret)

    def _required(self) -> SecretKey:
        secret = self.key()
        assert secret is not None  # `key` raises when there is none
        return secret


PART = TablePart()
"""The open protocol's part."""


def go_on_from(loaded: Loaded) -> None:
    """The copy this user settled on (`resolve`, `forget`, a race settled by its rule) is the
    history their key goes on in: at a table that hides cards, the last event by which the local
    key revealed something in the copy is noted as where it stands (`key_history.anchor`), so
    that it reveals cards in this copy, and in no other branch."""
    if not loaded.game.protocol.hidden:
        return
    from .key_history import anchor

    secret = part(loaded.game).secret(loaded)
    if secret is not None:
        anchor(loaded, secret)


def part(game: Game) -> TablePart:
    """The command line's part of `game`'s table protocol."""
    module = game.protocol.command_line
    if module == __name__:
        return PART
    found: TablePart = importlib.import_module(module).PART
    return found


def file_viewer(game: Game) -> str | None:
    """Whose view a board shows when the file alone says (what `state --json` caches): the one
    person of an open game against bots; else None, a spectator's."""
    if game.protocol.hidden:
        return None
    people = people_of(game)
    return people[0] if len(people) == 1 else None


def people_of(game: Game) -> list[str]:
    """The seats of `game` that are no bot's."""
    from ...projection.undo_policy import is_bot_seat

    return [name for name in game.players if not is_bot_seat(name)]
