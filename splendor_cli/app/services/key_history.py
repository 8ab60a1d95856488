"""What this user's key revealed in each sealed game, and the copies it will reveal nothing more in:
a twin of the game, or a branch of it other than the one the key went on.

Every key, proof and signature of a game of keys hangs off the game's root (the digest of its
first event, which names the whole header from format 4 on). A file is only a copy: whoever holds
one can make another with the same root (the same header and first events) and a history of their
choosing after the point where they copied it, then ask the key to go on in both: a card share
shown in one opens a card the other still hides, and keys published at the end of one open every
card of the other. So, as a party to a protocol keeps one session per session id (Canetti 2001;
Barak, Lindell and Rabin 2004), the key keeps one history per root: the last event by which it
revealed something in each game (`TableProtocol.reveals`: a sealed game's shares and keys;
`keyfile.last_acted`: its seq, full digest and the game's id), and writes in a copy of that root
only if the copy holds that very event, under the same game id. A copy that does not reach it yet
is behind (exit 3: sync or apply first); one that holds another event there, or names another
game, is refused (exit 4, naming both): a twin, or a fork nobody settled. So a key reveals in one
branch of a game only. Kept with the key, not in the memory of seen games (which
`SPLENDOR_NO_MEMORY` turns off): it guards what the key gives away.

A settled fork that left out this user's shares (`resolve`, `forget`) moves the note to their last
such event in the copy kept (`anchor`): they said so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import GameFileError, IllegalMoveError

if TYPE_CHECKING:
    from ...crypto.keys import SecretKey
    from ...projection.game import Game
    from ...sealing.signing import GameKey
    from ...store import Loaded


def seat_of_key(game: Game, secret: SecretKey) -> str | None:
    """The seat that joined `game` with the signing key of `secret` (None: none did, or nothing is
    signed in this game)."""
    signers = game.protocol.signers()
    keys = getattr(signers, "keys", None) or {}
    mine = secret.public.signing
    return next((seat for seat, public in keys.items() if public.signing == mine), None)


def game_key(table: Any, secret: SecretKey, *, joining: bool) -> GameKey:
    """This user's keys of the game of `table` (a table of keys: its `root`, and `keyed`, format 4
    on): from the randomness kept for it in the keys folder (`keyfile.game_secret`, made when
    `joining`), or, in an older game, derived from `secret` and the root.

    Raises:
        UsageError: the game is of format 4, this user joined it, and the keys folder keeps nothing for it.
    """
    from ...errors import UsageError
    from ...sealing.signing import GameKey
    from .keyfile import GAMES_FILE, game_secret, keys_folder

    if not table.keyed:
        return GameKey(secret, table.root)
    kept = game_secret(table.root.hex(), make=joining)
    if kept is None:
        raise UsageError(
            f"your key of this game (made when you joined it) is not in {keys_folder()}/{GAMES_FILE}: play it"
            " from the machine you joined it on, or copy that file's line for it here"
        )
    return GameKey(secret, table.root, kept)


def check(loaded: Loaded, secret: SecretKey) -> None:
    """Refuse to write with `secret` in `loaded`, a sealed game, when it is not the history the key
    revealed cards in (see the module).

    Raises:
        IllegalMoveError: the copy is behind the key's last event in it (exit 3).
        GameFileError: the copy is another game of the same root, or another branch (exit 4).
    """
    from .keyfile import last_acted

    record = loaded.record
    if not record.events or not loaded.game.protocol.hidden:
        return
    root = record.digests[0]
    noted = last_acted(root)
    if noted is None:
        return
    seq, digest, game = noted
    here = record.header.game
    if game != here:
        raise GameFileError(
            f"this file is game {here!r}, but your key played its first events as game {game!r}: a twin of"
            " that game (its log copied under another id); nothing is signed in it"
        )
    if seq > len(record.events):
        raise IllegalMoveError(
            f"your key revealed cards at event #{seq} of this game, and this copy ends at #{len(record.events)}:"
            " it is behind (`splendor sync` or `apply` first), or another branch of the game (a twin, or a"
            " fork not settled); nothing is revealed in it",
            rule="behind",
        )
    if record.digests[seq - 1] != digest:
        raise GameFileError(
            f"your key revealed cards at event #{seq} of game {here!r} ({digest[:12]}...), and this copy holds"
            f" another #{seq}: a twin of the game, or a fork that is not settled (`splendor resolve`); nothing"
            " is signed in it"
        )


def anchor(after: Loaded, secret: SecretKey) -> None:
    """Note the last event of `after` by which the key's seat revealed something, as the history
    the key goes on in this game (the note forgotten when there is none)."""
    from ...events import actor
    from .keyfile import last_acted, set_acted

    record, protocol = after.record, after.game.protocol
    if not record.events or not protocol.hidden:
        return
    seat = seat_of_key(after.game, secret)
    if seat is None:
        return
    last = next(
        (
            seq
            for seq in range(len(record.events), 0, -1)
            if protocol.reveals(record.events[seq - 1]) and actor(record.events[seq - 1]) == seat
        ),
        None,
    )
    root = record.digests[0]
    entry = None if last is None else (last, record.digests[last - 1], record.header.game)
    if entry != last_acted(root):
        set_acted(root, entry)
