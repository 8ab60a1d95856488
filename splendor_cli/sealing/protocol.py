"""The sealed table protocol (`projection.protocol`): a sealed game's state in the fold, its
fold handlers, and the operations the fold and its callers ask of it.

`SealedTable` holds the game's `Sealing` (table.py: keys, shuffles, shares, revealed cards); the
handlers here fold the protocol's events (`SEALED_TYPES`: the first, `SealedAsked`, makes the
table; the others refuse a game that is not sealed). Whatever the command line does for a
sealed game is its part (`command_line`: `splendor_cli.sealing.command_line`).

`sealing_of(game)` is how code that is only about sealed games reaches the table (the game's
protocol must be this one).

Pure: the cryptography is imported inside the functions that use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ..errors import CorruptLogError, IllegalMoveError
from ..projection.table_protocol import Handler, TableProtocol, refused_at
from .events import CardsShown, DeckShuffled, KeysPublished, PlayerJoined, RewindAgreed, SealedAsked

if TYPE_CHECKING:
    from ..crypto.keys import SecretKey
    from ..events import Event
    from ..projection.game import Game
    from .table import Sealing


@attrs.frozen(kw_only=True)
class SealedTable(TableProtocol):
    """A sealed game's protocol state: its `Sealing`, folded event by event."""

    name: ClassVar[str] = "sealed"
    first_format: ClassVar[int] = 2  # format 1 wrote shuffles without their proofs
    signed: ClassVar[bool] = True
    hidden: ClassVar[bool] = True
    duties: ClassVar[bool] = True
    watches: ClassVar[bool] = True
    command_line: ClassVar[str] = "splendor_cli.sealing.command_line"
    dealt_by: ClassVar[str] = "sealed decks and their shares"

    sealing: Sealing

    def session(self) -> bytes | None:
        return self.sealing.session if self.sealing.keyed else None

    @classmethod
    def handlers(cls) -> Mapping[type, Handler]:
        return {
            SealedAsked: _asked,
            PlayerJoined: _joined,
            DeckShuffled: _shuffled,
            CardsShown: _shown,
            RewindAgreed: _agreed,
            KeysPublished: _published,
        }

    @classmethod
    def remade(cls, event: Event) -> bool:
        return isinstance(event, (PlayerJoined, DeckShuffled, CardsShown, KeysPublished))

    @classmethod
    def notation(cls, event: Event) -> str:
        match event:
            case SealedAsked():
                return (
                    f"new sealed game: {', '.join(event.players)}; each joins, shuffles and reveals (`splendor seal`)"
                )
            case PlayerJoined():
                from ..crypto.keys import fingerprint

                try:
                    return f"joins with their keys (fingerprint {fingerprint(bytes.fromhex(event.signing))})"
                except ValueError:
                    return "joins with their keys"
            case DeckShuffled():
                return "shuffles and seals the decks"
            case CardsShown():
                cards = ", ".join(event.cards[:6]) + (", ..." if len(event.cards) > 6 else "")
                return f"shows decryption shares of {cards}"
            case RewindAgreed():
                return f"agrees to a rewind to just after #{event.to}"
            case KeysPublished():
                return "publishes their keys of the game: every shuffle and card can now be checked (`splendor verify`)"
        return ""

    @property
    def players(self) -> tuple[str, ...]:
        return self.sealing.players

    def stage(self) -> str:
        return self.sealing.stage()

    def deal(self) -> Event:
        from .deal import deal

        return deal(self.sealing)

    def dealt(self) -> SealedTable:
        return SealedTable(sealing=attrs.evolve(self.sealing, dealt=True))

    def check_event(self, fold: Any, event: Event, verify: bool) -> None:
        """Every event but the setup (signed by nobody) and a join (checked by the key it brings)
        is signed by its author."""
        if verify and not isinstance(event, (fold.variant.setup_type, PlayerJoined)):
            try:
                self.sealing.check_signature(event, fold.events[-1])
            except IllegalMoveError as exc:
                raise CorruptLogError(str(exc), seq=event.seq) from None

    def check_play(self, fold: Any, event: Event, state: Any) -> None:
        """A turn starts only when the cards its player must see are revealed (`reveal.blocked`)."""
        if fold.variant.at_turn_start(state):
            from .reveal import blocked

            why = blocked(self.sealing, state, state.player.name)
            if why:
                raise CorruptLogError(f"{event.TYPE} played too soon: {why}", seq=event.seq)

    def undo_refused(self) -> str:
        return "the game's keys are published: it cannot be taken back" if self.sealing.published else ""

    def check_agreed(self, game: Any, actors: Sequence[str], *, to: int, by: str, forced: bool) -> None:
        """Refuse an undo to `to` unless the players it must have agreed to it (`RewindAgreed`,
        since the last move) have: when a card was revealed after `to` to a player whose moves it
        takes back (look, then choose again), every other player; else, for a forced rewind,
        every other player whose turns it takes back."""
        from ..projection.undo_policy import others_of, possessives
        from .table import learned

        since = [e for e in game.events[game.after[-1] :] if isinstance(e, RewindAgreed) and e.to == to]
        agreed = {e.player for e in since}
        seen = learned(self.sealing, actors, to)
        if seen:
            late = [name for name in game.players if name != by and name not in agreed]
            if late:
                card, who = seen[0]
                raise IllegalMoveError(
                    f"{who} saw the card {card} after event #{to}: in a sealed game a move after which a card was"
                    f" revealed to its player is taken back only if every player agrees ({', '.join(late)}: "
                    f"`splendor undo --to {to} --agree`, then sync or mail it)",
                    rule="undo",
                )
            return
        if not forced:
            return
        late = [name for name in others_of(actors, by) if name not in agreed]
        if late:
            raise IllegalMoveError(
                f"this rewind takes back {possessives(late)} turns: in a sealed game each of them agrees first,"
                f" with `splendor undo --to {to} --agree` (then sync or mail it)",
                rule="undo",
            )

    def after_undo(self, state: Any) -> Any:
        from .reveal import substitute

        return substitute(self.sealing, state, self.sealing.revealed)

    def revealing(self) -> Callable[[Any], Any]:
        sealing = self.sealing
        if not sealing.revealed:
            return super().revealing()
        from .reveal import substitute

        revealed = sealing.revealed
        return lambda value: substitute(sealing, value, revealed)

    def sign(self, event: Event, previous: Event, secret: SecretKey) -> Event:
        from .signing import sign
        from .table import signer_of

        if signer_of(self.sealing, event) == secret.public.signing:
            return sign(event, previous, secret)
        return event

    def reveals(self, event: Event) -> bool:
        return isinstance(event, CardsShown | KeysPublished)

    def signers(self) -> Sealing:
        return self.sealing

    def keys_owed(self, finished: bool) -> tuple[str, ...]:
        if not finished:
            return ()
        return tuple(player for player in self.sealing.players if player not in self.sealing.published)

    def waiting(self, game: Game) -> tuple[tuple[str, ...], str, str | None] | None:
        """Who a sealed game waits for, where it stands, and who is to move: while a card the
        player to move must see waits for shares, the players who owe them (not the player to
        move). None once the game is over."""
        from .reveal import blocked, waiting

        sealing = self.sealing
        if not game.states:
            return sealing.waiting_for()[1], sealing.stage(), None
        state = game.table
        if state.finished:
            return None
        mover = state.player.name
        why = blocked(sealing, game.state, mover) if game.variant.at_turn_start(game.state) else ""
        if not why:
            return (mover,), game.variant.whose_turn(game.state), mover
        late = [name for _, names in waiting(sealing, game.state) for name in names if name != mover]
        owing = tuple(name for name in sealing.players if name in late)
        return owing or (mover,), f"{mover} to move, once {why}", str(mover)

    def audit(self, game: Game) -> dict[str, Any]:
        """Every event signed (the read checked each signature and share), and, once keys are
        published, the audit of every shuffle and card."""
        from ..events import signature
        from .audit import audit

        sealing = self.sealing
        state = game.states[-1] if game.states else None
        found = audit(sealing, state)
        return {
            "signed": sum(1 for event in game.events if signature(event)),
            "revealed": len(sealing.revealed),
            "unpublished": list(found.unpublished),
            "shuffles_checked": found.shuffles_checked,
            "cards_opened": found.cards_opened,
            "problems": list(found.problems),
            "blind_reserves": {owner: list(cards) for owner, cards in found.reserves.items()},
            "fingerprints": fingerprints(sealing),
        }


PROTOCOL = SealedTable
"""The sealed protocol (`projection.protocol.find_protocol("sealed")`)."""


def fingerprints(sealing: Sealing) -> dict[str, str]:
    """The fingerprint of the signing key each seat joined with (`crypto.keys.fingerprint`), by
    seat, in turn order: what players compare out of band with `splendor key show`."""
    from ..crypto.keys import fingerprint

    return {seat: fingerprint(sealing.keys[seat].signing) for seat in sealing.players if seat in sealing.keys}


def sealing_of(game: Any) -> Sealing:
    """The sealed table of `game` (a `Game`, or a fold under way), whose protocol is this one
    (AssertionError otherwise: ask `game.protocol` first)."""
    protocol = game.protocol
    assert isinstance(protocol, SealedTable), f"a game of the {protocol.name} protocol"
    return protocol.sealing


# -- the fold's handlers of the protocol's events -------------------------------------------------


def _asked(fold: Any, event: SealedAsked, check: bool, verify: bool) -> None:
    """The first event of a sealed game: it makes the game's sealed table."""
    from ..projection.game import check_opening
    from .table import Sealing

    seq, variant = event.seq, fold.variant
    check_opening(fold, event)
    with refused_at(seq):
        fold.protocol = SealedTable(sealing=Sealing.start(variant, event))


def _table(fold: Any, event: Event) -> Sealing:
    """The sealed table of the game being folded; refuse `event` in a game that is not sealed."""
    protocol = fold.protocol
    if not isinstance(protocol, SealedTable):
        raise CorruptLogError(f"{event.TYPE} in a game that is not sealed", seq=event.seq)
    return protocol.sealing


def _joined(fold: Any, event: PlayerJoined, check: bool, verify: bool) -> None:
    """A player's keys (the join is signed by the key it brings)."""
    sealing = _table(fold, event)
    with refused_at(event.seq):
        sealing = sealing.join(event, verify=verify)
        fold.protocol = SealedTable(sealing=sealing)
        if verify:
            sealing.check_signature(event, fold.events[-1])


def _shuffled(fold: Any, event: DeckShuffled, check: bool, verify: bool) -> None:
    """A player's shuffle of the decks; after the last, the face-up cards of the setup are known."""
    from .deal import face_up_cards

    sealing = _table(fold, event)
    with refused_at(event.seq):
        sealing = sealing.shuffle(event, verify=verify)
        if sealing.shuffled:
            sealing = sealing.with_face_up(face_up_cards(fold.variant, sealing))
        fold.protocol = SealedTable(sealing=sealing)


def _shown(fold: Any, event: CardsShown, check: bool, verify: bool) -> None:
    """A player's decryption shares; a card every share opens is put in place of its placeholder."""
    from .reveal import may_show, substitute

    sealing = _table(fold, event)
    with refused_at(event.seq):
        if not sealing.shuffled:
            raise IllegalMoveError("no card is shown before every player has shuffled", rule="sealed")
        state = fold.states[-1] if fold.states else None
        sealing, revealed = sealing.show(event, may_show(sealing, state, event.player), verify=verify)
        fold.protocol = SealedTable(sealing=sealing)
        if revealed and fold.states:
            fold.states[-1] = substitute(sealing, fold.states[-1], revealed)


def _agreed(fold: Any, event: RewindAgreed, check: bool, verify: bool) -> None:
    """A player's agreement to a rewind (the undo that follows checks it)."""
    sealing = _table(fold, event)
    with refused_at(event.seq):
        sealing.check_player(event.player)
        if event.to not in fold.after[:-1]:
            raise IllegalMoveError(f"there is no rewind to event #{event.to} to agree to", rule="undo")


def _published(fold: Any, event: KeysPublished, check: bool, verify: bool) -> None:
    """A player's keys of the game, once it is over."""
    sealing = _table(fold, event)
    with refused_at(event.seq):
        finished = bool(fold.states) and bool(fold.states[-1].finished)
        fold.protocol = SealedTable(sealing=sealing.publish(event, finished))


__all__ = ["PROTOCOL", "SealedTable", "fingerprints", "sealing_of"]
