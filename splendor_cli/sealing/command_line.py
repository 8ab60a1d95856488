"""A sealed game at the command line: the local player's key, their part of the protocol, their view.

In a sealed game (`splendor new --sealed`, splendor_cli/sealing/) the player on this machine is
the seat whose key (`splendor key new`) joined the game: their moves are signed with it, and
only they can open their blind reserves. `part` stages whatever the protocol asks of them now
(join, shuffle, the decryption shares they owe, their keys at the end) and the deal when it is
due: `seal`, `play`, `sync` and `apply` all call it, so a two-player game needs no extra message.
No command is here (seal.py has `seal`): the commands reach these through the sealed protocol's
part of the command line (`PART`, a `tables.TablePart`: `tables.part(game)`), without an import
circle. The game's sealed table is reached through its protocol (`sealing.protocol.sealing_of`).

Cryptography is imported only here and below: open games never load it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..app.services.table_part import KeyPart
from ..errors import IllegalMoveError, UsageError

if TYPE_CHECKING:
    from ..crypto.keys import SecretKey
    from ..forks import Fork
    from ..projection import Game
    from ..store import Loaded
    from .table import Sealing


def sealing_of(game: Game) -> Sealing:
    """The sealed table of `game`, through its protocol (`sealing.protocol.sealing_of`: imported
    when asked, so that `splendor --help` loads no fold)."""
    from .protocol import sealing_of as table

    return table(game)


def local_key(*, required: bool = True) -> SecretKey | None:
    """This user's secret key (`splendor key new`); None when there is none and it is not `required`.

    Raises:
        UsageError: there is no key and it is `required`.
        GameFileError: the key file is unsafe or malformed.
    """
    from ..app.services.keyfile import keys_folder, read_key

    try:
        return read_key(keys_folder())
    except UsageError:
        if required:
            raise UsageError(
                "a sealed game signs every move: make your key first with `splendor key new`"
                " (kept in your data folder; back it up with `splendor key export --secret`)"
            ) from None
        return None


def seat_of(game: Game, secret: SecretKey) -> str | None:
    """The seat whose joined key is `secret`'s (None: it joined none): `key_history.seat_of_key`."""
    from ..app.services.key_history import seat_of_key

    return seat_of_key(game, secret)


def replayed(game: Game, seat: str) -> bool:
    """Whether this user published their keys of this game (by its first event) while this copy
    has no such event of `seat`'s: an older copy, or a finished game replayed to make the same
    keys play again, whose secrets are out. Nothing is signed or shown in it."""
    from ..app.services.keyfile import published_before
    from .events import KeysPublished

    if not published_before(sealing_of(game).root.hex()):
        return False
    return not any(isinstance(e, KeysPublished) and e.player == seat for e in game.events)


def part(loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
    """`loaded` with everything `seat` owes the protocol now staged (signed), and the deal when
    every face-up card of the setup is revealed; nothing written.

    Raises:
        IllegalMoveError: this user published their keys of this game already (`replayed`).
    """
    from .. import store
    from ..app.services.key_history import game_key
    from .duties import duties
    from .events import DeckShuffled

    if replayed(loaded.game, seat):
        raise IllegalMoveError(
            "you published your keys of this game already, and this copy does not have them: an older"
            " copy, or a finished game replayed; your keys of it are out, nothing is signed in it again",
            rule="sealed",
        )
    after = loaded
    while True:
        game = after.game
        sealing = sealing_of(game)
        state = game.states[-1] if game.states else None
        finished = bool(state is not None and state.finished)
        keys = game_key(sealing, secret, joining=seat not in sealing.keys)
        events = duties(sealing, state, seat, keys, os.urandom, finished=finished)
        for event in events:
            if isinstance(event, DeckShuffled):
                _check_shuffle_once(after, seat)
            after = store.stage(after, event, secret=secret)
        game = after.game
        sealing = sealing_of(game)
        if not game.states and sealing.shuffled and all(card in sealing.revealed for card in sealing.face_up):
            after = store.stage(after, game.deal())
            continue
        if not events:
            return after


def _check_shuffle_once(loaded: Loaded, seat: str) -> None:
    """Refuse to shuffle in a copy that is behind a shuffle this user wrote in this game (it does
    not reach that event yet: `sync` or `apply` first), which would fork the game. A copy that
    holds another event there is one where a `resolve` dropped that shuffle: shuffling again is
    safe, a shuffle being bound to its input (crypto/shuffle.py), and it is what the protocol
    needs (exit 3)."""
    from ..app.services.keyfile import shuffles_made

    for seq in shuffles_made(sealing_of(loaded.game).root.hex()):
        if loaded.game.seq < seq:
            raise IllegalMoveError(
                f"{seat} shuffled this game's decks as event #{seq}, and this copy ends at #{loaded.game.seq}:"
                " it is behind; `splendor sync` or `apply` first (shuffling here would fork the game)",
                rule="sealed",
            )


def note_written(loaded: Loaded, after: Loaded, secret: SecretKey | None) -> None:
    """What this user must remember of the events `after` adds to `loaded` (signed by `secret`'s
    seat): a shuffle of theirs, by the decks it started from (`_check_shuffle_once`); keys of
    theirs published, the game noted as one whose keys are out (`replayed`)."""
    from .events import DeckShuffled, KeysPublished

    if secret is None:
        return
    seat = seat_of(after.game, secret)
    if seat is None:
        return
    root = sealing_of(after.game).root.hex()
    for seq in range(loaded.game.seq + 1, after.game.seq + 1):
        event = after.record.events[seq - 1]
        if isinstance(event, DeckShuffled) and event.player == seat:
            from ..app.services.keyfile import note_shuffled

            note_shuffled(root, seq)
        if isinstance(event, KeysPublished) and event.player == seat:
            from ..app.services.keyfile import remember_published

            remember_published(root)


def dropped_lines(fork: Fork, dropped: str) -> list[str]:
    """What a `resolve` that drops the side `dropped` of a sealed game's `fork` does to the
    protocol: one line a shuffle dropped, saying that its player shuffles again."""
    from .events import DeckShuffled

    return [
        f"{event.player}'s shuffle (#{event.seq}) is dropped: {event.player} shuffles again from the decks kept"
        " (`splendor seal` or `sync`); bound to its new input, it shares nothing with the dropped one"
        for event in fork.branch(dropped).events
        if isinstance(event, DeckShuffled)
    ]


def private(game: Game, seat: str, secret: SecretKey) -> dict[str, str]:
    """The sealed cards `seat` sees alone now (their blind reserves...), by placeholder."""
    from ..app.services.key_history import game_key
    from .reveal import private_cards

    sealing = sealing_of(game)
    if not game.states or sealing.keys.get(seat) is None:
        return {}
    return private_cards(sealing, game.state, seat, game_key(sealing, secret, joining=False).key.card)


def view(game: Game, seat: str | None, secret: SecretKey | None = None) -> Any:
    """The table as `seat` may know it: with the cards only they can open when their key
    (`secret`, default: this machine's) is here (else as any spectator sees it)."""
    from .reveal import substitute

    state = game.state
    if seat is None:
        return state
    secret = secret or local_key(required=False)
    if secret is None or seat_of(game, secret) != seat:
        return state
    return substitute(sealing_of(game), state, private(game, seat, secret))


def reveal_for(loaded: Loaded, seat: str, secret: SecretKey, event: Any) -> Loaded:
    """`loaded` with `seat`'s shares of their own blind reserves that `event` (decided on their
    view) names staged first: buying a card reserved blind shows it to all."""
    from .. import store
    from ..app.services.key_history import game_key
    from ..events.codec import event_to_dict
    from .duties import reveal_own

    cards = private(loaded.game, seat, secret)
    named = {str(v) for v in event_to_dict(event).values() if isinstance(v, str)}
    mine = [card for card, real in cards.items() if real in named]
    if not mine:
        return loaded
    sealing = sealing_of(loaded.game)
    keys = game_key(sealing, secret, joining=False)
    shown = reveal_own(sealing, loaded.game.state, seat, keys, os.urandom, mine)
    return store.stage(loaded, shown, secret=secret)


def waiting_lines(game: Game) -> list[str]:
    """What `show` says of a sealed game: the stage of the setup, or each card that waits for shares."""
    from .reveal import waiting

    sealing = sealing_of(game)
    if not game.states:
        return [sealing.stage()]
    return [f"{card} waits for {', '.join(late)}'s decryption share" for card, late in waiting(sealing, game.state)]


def check_turn(game: Game, seat: str) -> None:
    """Refuse (exit 3) a turn that must wait for other players' shares, saying for whom."""
    from .reveal import blocked

    if not game.states or not game.variant.at_turn_start(game.state):
        return
    why = blocked(sealing_of(game), game.state, seat)
    if why:
        raise IllegalMoveError(f"your move waits: {why} (they run `splendor seal` or `splendor sync`)", rule="sealed")


def write_part(loaded: Loaded, me: str | None) -> Loaded:
    """In a sealed game, `loaded` with the local player's part of the protocol written (their
    join, shuffle, shares owed, keys at the end: `splendor seal`); `loaded` as it is when there is
    no local key, or it plays no seat. The player is the seat the local key joined, else `me` to
    join it. Call it under the file's lock (through `part(game).write_part`)."""
    from ..app.services.gamefile import append

    sealing = sealing_of(loaded.game)
    secret = local_key(required=False)
    if secret is None:
        return loaded
    seat = seat_of(loaded.game, secret) or (me if me in sealing.players and me not in sealing.keys else None)
    if seat is None or replayed(loaded.game, seat):
        return loaded  # an older copy (a sync brings the newer), or a replay: `seal` says why
    staged = part(loaded, seat, secret)
    if staged is loaded:
        return loaded
    return append(loaded, *staged.record.events[loaded.game.seq :])


class SealedPart(KeyPart):
    """The sealed protocol's part of the command line: the local key signs its seat's events and
    says who the user is; a seat sees what its key opens; the seat's part of the protocol (`part`)
    rides on every command that writes."""

    __slots__ = ()

    kind = "sealed"

    def key(self, *, required: bool = True) -> SecretKey | None:
        return local_key(required=required)

    def owed(self, loaded: Loaded, seat: str, secret: SecretKey) -> Loaded:
        return part(loaded, seat, secret)

    def note_written(self, loaded: Loaded, after: Loaded, secret: SecretKey | None) -> None:
        note_written(loaded, after, secret)

    def viewer(self, game: Game) -> str | None:
        secret = local_key(required=False)
        return seat_of(game, secret) if secret is not None else None

    def view(self, game: Game, seat: str | None, secret: SecretKey | None = None) -> Any:
        return view(game, seat, secret)

    def mover_view(self, game: Game, as_: str | None) -> Any | None:
        secret = local_key(required=False)
        seat = as_ or (seat_of(game, secret) if secret is not None else None)
        return view(game, seat, secret) if seat == game.table.player.name else game.state

    def show(self, loaded: Loaded, played: Game, who: str | None, every: bool, color: str) -> str | None:
        from ..app.services.boards import board, keys_owed, keys_owed_line, seen
        from .protocol import fingerprints

        prints = fingerprints(sealing_of(played))
        seats = [
            f"{seat} signs with {prints[seat]}" if seat in prints else f"{seat} has not joined"
            for seat in played.players
        ]
        lines = waiting_lines(played)
        if not played.states:
            title = played.variant.title
            return f"{title}  the cards are not dealt yet: a sealed game  (event #{played.seq})\n{lines[0]}" + "".join(
                f"\n{line}" for line in seats
            )
        lines += seats
        owed = keys_owed(loaded.game) if played.state.finished else ()
        if owed:
            lines.append(keys_owed_line(owed))
        return board(seen(played, who, every=every), color, played.variant) + "".join(f"\n{line}" for line in lines)

    def before_step(self, loaded: Loaded, seat: str, secret: SecretKey, move: Any) -> Loaded:
        """Refuse `move` while it must wait for others' shares, and show to all the card reserved
        blind that it buys (decided on the seat's view)."""
        game = loaded.game
        if game.table.finished or game.table.player.name != seat:
            return loaded  # `decide` says why not
        check_turn(game, seat)
        seen = view(game, seat, secret)
        event = game.variant.decide(seen, game.variant.draw(seen, move, game.chance()))
        return reveal_for(loaded, seat, secret, event)

    def write_part(self, loaded: Loaded, me: str | None) -> Loaded:
        return write_part(loaded, me)

    def waiting_lines(self, game: Game) -> list[str]:
        return waiting_lines(game)

    def dropped_lines(self, fork: Fork, dropped: str) -> list[str]:
        return dropped_lines(fork, dropped)


PART = SealedPart()
"""The sealed protocol's part of the command line (`tables.part`)."""
