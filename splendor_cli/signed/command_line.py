"""A signed game at the command line: the local key, the seat it plays, its part of the protocol.

In a signed game (`splendor new --signed`, splendor_cli/signed/) the player on this machine is the
seat whose key (`splendor key new`) joined the game: every event they write is signed with it, and
`--as` says nothing the key does not (`--as` another seat is refused, exit 2; `--for` too: each
seat plays its own turns). `part` stages what the protocol asks of them now (their join, their
share of the deal) and the deal when every share is in: `seal`, `play`, `undo`, `sync` and
`apply` all write it, so the first player's first move carries their share and the deal.

The commands reach this module through the protocol's part (`PART`, a `table_part.TablePart`),
imported by name only when a signed game is met. The key file is the sealed games' (one key per
user: `sealing.command_line.local_key`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..app.services.table_part import KeyPart
from ..errors import UsageError

if TYPE_CHECKING:
    from ..crypto.keys import SecretKey
    from ..projection import Game
    from ..store import Loaded
    from .protocol import SignedTable


def table_of(game: Game) -> SignedTable:
    """The signed table of `game` (AssertionError for a game of another protocol)."""
    from .protocol import SignedTable

    protocol = game.protocol
    assert isinstance(protocol, SignedTable), f"a game of the {protocol.name} protocol"
    return protocol


def local_key(*, required: bool = True) -> SecretKey | None:
    """This user's secret key (`splendor key new`); None when there is none and it is not `required`.

    Raises:
        UsageError: there is no key and it is `required`.
    """
    from ..sealing.command_line import local_key as key_file

    try:
        return key_file(required=required)
    except UsageError:
        raise UsageError(
            "a signed game signs every move: make your key first with `splendor key new`"
            " (kept in your data folder; back it up with `splendor key export --secret`)"
        ) from None


def seat_of(game: Game, secret: SecretKey) -> str | None:
    """The seat whose joined key is `secret`'s (None: it joined none): `key_history.seat_of_key`."""
    from ..app.services.key_history import seat_of_key

    return seat_of_key(game, secret)


def part(loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
    """`loaded` with what `seat` owes the protocol now staged (signed: their join, their share of
    the deal), and the deal once every share is in; nothing written."""
    from .. import store
    from ..app.services.key_history import game_key
    from .events import DealShared
    from .protocol import deal_share, join_event

    after = loaded
    while not after.game.states:
        table = table_of(after.game)
        if seat not in table.keys:
            mine = game_key(table, secret, joining=True)
            after = store.stage(after, join_event(table, seat, mine, os.urandom), secret=secret)
        elif table.joined and seat not in table.shares:
            share = deal_share(table, game_key(table, secret, joining=False).key, os.urandom)
            after = store.stage(after, DealShared(player=seat, share=share), secret=secret)
        elif not table.waiting_for()[0]:
            after = store.stage(after, after.game.deal())
        else:
            break
    return after


def write_part(loaded: Loaded, me: str | None) -> Loaded:
    """`loaded` with the local player's part written (their join, their share, the deal); as it is
    when there is no local key, or it plays no seat. Call it under the file's lock."""
    from ..app.services.gamefile import append

    secret = local_key(required=False)
    if secret is None:
        return loaded
    table = table_of(loaded.game)
    seat = seat_of(loaded.game, secret) or (me if me in table.seats and me not in table.keys else None)
    if seat is None:
        return loaded
    staged = part(loaded, seat, secret)
    if staged is loaded:
        return loaded
    return append(loaded, *staged.record.events[loaded.game.seq :])


def fingerprint_lines(game: Game) -> list[str]:
    """Each seat's fingerprint (of the signing key it joined with), to compare with what each
    player's `splendor key show` prints, by another channel."""
    prints = table_of(game).fingerprints()
    return [
        f"{seat} signs with {prints[seat]}" if seat in prints else f"{seat} has not joined" for seat in game.players
    ]


class SignedPart(KeyPart):
    """The signed protocol's part of the command line: the local key signs its seat's events and
    says who the user is (`--as` cannot say otherwise); the seat's part of the protocol (`part`)
    rides on every command that writes; every card is open, as in an open game."""

    __slots__ = ()

    kind = "signed"
    says_who = ": in a signed game the key says who you are"

    def key(self, *, required: bool = True) -> SecretKey | None:
        return local_key(required=required)

    def owed(self, loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
        return part(loaded, seat, secret)

    def show(self, loaded: Loaded, played: Game, who: str | None, every: bool, color: str) -> str | None:
        from ..app.services.boards import board, seen

        lines = fingerprint_lines(played)
        if not played.states:
            title = played.variant.title
            stage = table_of(played).stage()
            return f"{title}  the cards are not dealt yet: a signed game  (event #{played.seq})\n{stage}\n" + "\n".join(
                lines
            )
        return board(seen(played, who, every=every), color, played.variant) + "".join(f"\n{line}" for line in lines)

    def asker(self, loaded: Loaded, as_: str | None, agree: bool) -> str | None:
        """The asker is the seat of the key that signs."""
        if agree:
            raise UsageError(
                "--agree is for sealed games: in a signed game each player takes back only their own turns"
            )
        return super().asker(loaded, as_, agree)

    def write_part(self, loaded: Loaded, me: str | None) -> Loaded:
        return write_part(loaded, me)

    def waiting_lines(self, game: Game) -> list[str]:
        return ([] if game.states else [table_of(game).stage()]) + fingerprint_lines(game)


PART = SignedPart()
"""The signed protocol's part of the command line (`table_part.part`)."""
