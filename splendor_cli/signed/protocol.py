"""The signed table protocol (`projection.table_protocol`): a signed game's state in the fold, its
fold handlers, and what the fold and its callers ask of it.

A signed game is an open game whose every event is signed by its author (Ed25519 over the event
and the full SHA-256 of the event before it, as a sealed game signs: sealing/signing.py), so
that who moved is proven, not claimed: a move is signed by its player's key, or, when it says it
was played for them (`by = "X"`), by X's. Each player joins with their key (`SignerJoined`, a
proof of possession bound to this game and seat, as a sealed game's join).

**The deal.** Once every player has joined, each shows their share of the deal (`DealShared`):
their card key of this game times a point that every player's key fixes (`deal_point`), with its
Chaum-Pedersen proof: one value per key, which its owner cannot vary, and which nobody can
compute without that key. The last share deals the cards from SHA-256 of every share (the
ordinary open deal, seeded). So nobody chooses the deal: not the last to join (the point depends
on their key, but the others' shares of it are out of their reach), not the last to share (their
share is fixed; they see the deal a moment early and can only stall); a player who stops
answering stalls the game, as at a real table.

Pure: the cryptography is imported inside the functions that use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ..errors import CorruptLogError, IllegalMoveError, excerpt
from ..projection.table_protocol import Handler, TableProtocol, protocol_of, refused_at
from .events import DealShared, SignedAsked, SignerJoined

if TYPE_CHECKING:
    from ..crypto.group import Point
    from ..crypto.keys import PublicKey, SecretKey
    from ..events import Event
    from ..projection.game import Game
    from ..projection.variant import AnyVariant
    from ..sealing.signing import GameKey

RULE = "signed"
"""The rule an `IllegalMoveError` of the signed protocol names."""


def _refuse(message: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule=RULE)


@attrs.frozen(kw_only=True)
class SignedTable(TableProtocol):
    """A signed game's protocol state: its seats, their keys, their shares of the deal."""

    name: ClassVar[str] = "signed"
    first_format: ClassVar[int] = 4  # a signed game's header declares it (codec.TABLE_FORMAT)
    signed: ClassVar[bool] = True
    duties: ClassVar[bool] = True
    watches: ClassVar[bool] = True
    command_line: ClassVar[str] = "splendor_cli.signed.command_line"
    dealt_by: ClassVar[str] = "players' shares of the deal"

    seats: tuple[str, ...]
    root: bytes
    """SHA-256 of the first event (`SignedAsked`): what binds the joins to this game."""
    header: bytes
    """The full SHA-256 of the header the first event names (a signed game is of format 4 on)."""
    variant: AnyVariant = attrs.field(eq=False, repr=False)
    keys: Mapping[str, PublicKey] = attrs.Factory(dict)
    nonces: Mapping[str, bytes] = attrs.Factory(dict)
    """Each joined player's nonce, which the session id hashes (`session`)."""
    shares: Mapping[str, Point] = attrs.Factory(dict)
    """Each player's verified share of the deal (`DealShared`)."""
    is_dealt: bool = False

    @classmethod
    def handlers(cls) -> Mapping[type, Handler]:
        return {SignedAsked: _asked, SignerJoined: _joined, DealShared: _shared}

    @classmethod
    def remade(cls, event: Event) -> bool:
        return isinstance(event, (SignerJoined, DealShared))

    @classmethod
    def notation(cls, event: Event) -> str:
        from ..crypto.keys import fingerprint

        match event:
            case SignedAsked():
                return f"new signed game: {', '.join(event.players)}; each joins with their key (`splendor seal`)"
            case SignerJoined():
                try:
                    return f"joins with their key (fingerprint {fingerprint(bytes.fromhex(event.signing))})"
                except ValueError:
                    return "joins with their key"
            case DealShared():
                return "shows their share of the deal"
        return ""

    @property
    def players(self) -> tuple[str, ...]:
        return self.seats

    # -- where it stands

    @property
    def joined(self) -> bool:
        return len(self.keys) == len(self.seats)

    @property
    def keyed(self) -> bool:
        """Its header names a digest (format 4 on, as every signed game): its joins carry nonces."""
        return bool(self.header)

    def session(self) -> bytes:
        """The game's session id (`sealing.signing.session_id`), once every player has joined:
        what the deal and the draws are bound to."""
        from ..sealing.signing import session_id

        if not self.joined:
            raise _refuse(f"the game has no session id before every player joins: {self.stage()}")
        return session_id(self.header, self.root, [self.nonces[p] for p in self.seats])

    def waiting_for(self) -> tuple[str, tuple[str, ...]]:
        """What the deal waits for ("join", "share"; "" once it can deal) and whom."""
        if not self.joined:
            return "join", tuple(p for p in self.seats if p not in self.keys)
        late = tuple(p for p in self.seats if p not in self.shares)
        return ("share", late) if late else ("", ())

    def stage(self) -> str:
        if self.is_dealt:
            return ""
        step, late = self.waiting_for()
        if not step:
            return "every share of the deal is in: the cards can be dealt"
        what = "join with their keys" if step == "join" else "show their share of the deal"
        return f"waiting for {_in_words(late)} to {what} (`splendor seal --as NAME`)"

    def deal(self) -> Event:
        """The open deal that every player's share gives (IllegalMoveError before they are all in)."""
        from ..projection.seeding import SeededChance

        step, _ = self.waiting_for()
        if step:
            raise _refuse(f"the cards are not dealt yet: {self.stage()}")
        return self.variant.deal(self.seats, SeededChance(deal_seed(self)))

    def dealt(self) -> SignedTable:
        return attrs.evolve(self, is_dealt=True)

    def fingerprints(self) -> dict[str, str]:
        """The fingerprint of the signing key each seat joined with (`crypto.keys.fingerprint`),
        by seat, in turn order: what players compare out of band with `splendor key show`."""
        from ..crypto.keys import fingerprint

        return {seat: fingerprint(self.keys[seat].signing) for seat in self.seats if seat in self.keys}

    # -- the fold's hooks

    def check_event(self, fold: Any, event: Event, verify: bool) -> None:
        """Every event but the setup (signed by nobody: it must be the deal the shares give) and
        a join (checked by the key it brings) is signed by its author."""
        if protocol_of(event.TYPE) not in (None, self.name):
            return  # another protocol's event: the fold refuses it, naming it
        if verify and not isinstance(event, (fold.variant.setup_type, SignerJoined)):
            try:
                check_signature(self.keys, event, fold.events[-1])
            except IllegalMoveError as exc:
                raise CorruptLogError(str(exc), seq=event.seq) from None

    def check_agreed(self, game: Any, actors: Sequence[str], *, to: int, by: str, forced: bool) -> None:
        """A signed game takes back only the asker's own turns: another player's signed move is
        never taken back by someone else's word (a forced rewind is refused)."""
        from ..projection.undo_policy import others_of, possessives

        if forced:
            late = others_of(actors, by)
            raise IllegalMoveError(
                f"this rewind takes back {possessives(late) if late else 'other players'} turns: in a signed game"
                " each player takes back only their own",
                rule="undo",
            )

    def sign(self, event: Event, previous: Event, secret: SecretKey) -> Event:
        from ..sealing.signing import author, sign

        if isinstance(event, SignerJoined):
            signer: bytes | None = bytes.fromhex(event.signing)
        else:
            key = self.keys.get(author(event))
            signer = key.signing if key is not None else None
        return sign(event, previous, secret) if signer == secret.public.signing else event

    def signers(self) -> SignedTable:
        return self

    def waiting(self, game: Game) -> tuple[tuple[str, ...], str, str | None] | None:
        """While the deal is under way, who it waits for (after it, the table says it all)."""
        if game.states:
            return None
        return self.waiting_for()[1], self.stage(), None

    def audit(self, game: Game) -> dict[str, Any]:
        """Every event signed (the read checked each signature) and each seat's fingerprint."""
        from ..events import signature

        return {
            "signed": sum(1 for event in game.events if signature(event)),
            "fingerprints": self.fingerprints(),
            "problems": [],
        }


PROTOCOL = SignedTable
"""The signed protocol (`projection.table_protocol.find_protocol("signed")`)."""


def check_signature(keys: Mapping[str, PublicKey], event: Event, previous: Event) -> None:
    """Refuse `event` (IllegalMoveError) unless it is signed by its author's key (`sealing.signing.check_signature`)."""
    from ..sealing.signing import check_signature as checked

    checked(keys, event, previous, rule=RULE)


def deal_point(table: SignedTable) -> Point:
    """The point every player's share of the deal is a multiple of: hashed from the game (its
    session id) and every player's card key, in turn order, so that it is fixed only once all
    have joined and nobody knows its logarithm."""
    from ..crypto.group import hash_to_point

    return hash_to_point("signed-deal", table.session(), *(table.keys[p].card.data for p in table.seats))


def deal_context(table: SignedTable) -> bytes:
    """What a share's proof is bound to: the game and the deal."""
    from ..sealing.signing import context

    return context(table.session(), "deal")


def deal_seed(table: SignedTable) -> bytes:
    """The seed of the deal: SHA-256 of the game (its session id) and every player's share, in turn order."""
    import hashlib

    from ..crypto.group import framed

    shares = (table.shares[p].data for p in table.seats)
    return hashlib.sha256(framed(b"splendor-cli/signed-deal/v1", table.session(), *shares)).digest()


def deal_share(table: SignedTable, secret: SecretKey, source: Any) -> str:
    """`secret`'s share of the deal (a player's key of this game: `sealing.signing.GameKey.key`), proved, as written."""
    from ..crypto.elgamal import Ciphertext, decryption_share

    point = deal_point(table)
    return decryption_share(Ciphertext(a=point, b=point), secret.card, deal_context(table), source).to_text()


def join_event(table: SignedTable, seat: str, mine: GameKey, source: Any) -> SignerJoined:
    """`seat`'s join with `mine`, the player's keys of this game, and a fresh nonce from `source`."""
    from ..sealing.signing import NONCE_BYTES, context

    key = mine.key
    possession = key.possession(context(table.root, "join", seat), source)
    return SignerJoined(
        player=seat,
        signing=key.public.signing.hex(),
        card=key.public.card.to_hex(),
        possession=possession.to_hex(),
        nonce=source(NONCE_BYTES).hex(),
    )


def _in_words(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else ""


# -- the fold's handlers of the protocol's events -------------------------------------------------


def _asked(fold: Any, event: SignedAsked, check: bool, verify: bool) -> None:
    """The first event of a signed game: it makes the game's signed table."""
    from ..projection.game import check_opening
    from ..sealing.signing import full_digest, header_digest

    check_opening(fold, event)
    fold.protocol = SignedTable(
        seats=event.players, root=full_digest(event), header=header_digest(event), variant=fold.variant
    )


def _table(fold: Any, event: Event) -> SignedTable:
    """The signed table of the game being folded; refuse `event` in a game that is not signed,
    or once the cards are dealt."""
    protocol = fold.protocol
    if not isinstance(protocol, SignedTable):
        raise CorruptLogError(f"{event.TYPE} in a game that is not signed", seq=event.seq)
    if protocol.is_dealt:
        raise CorruptLogError(f"{event.TYPE} after the deal", seq=event.seq)
    player = getattr(event, "player", "")
    if player not in protocol.seats:
        raise CorruptLogError(f"{excerpt(player)} does not play in this game", seq=event.seq)
    return protocol


def _joined(fold: Any, event: SignerJoined, check: bool, verify: bool) -> None:
    """A player's keys (the join is signed by the key it brings, and proves it holds both secrets)."""
    table = _table(fold, event)
    with refused_at(event.seq):
        from ..sealing.signing import joined_key

        public, nonce = joined_key(table.keys, event, table.root, keyed=table.keyed, verify=verify, rule=RULE)
        table = attrs.evolve(
            table, keys={**table.keys, event.player: public}, nonces={**table.nonces, event.player: nonce}
        )
        if verify:
            check_signature(table.keys, event, fold.events[-1])
        fold.protocol = table


def _shared(fold: Any, event: DealShared, check: bool, verify: bool) -> None:
    """A player's share of the deal, once every player has joined."""
    table = _table(fold, event)
    with refused_at(event.seq):
        from ..crypto.elgamal import Ciphertext, Share, verify_share

        if not table.joined:
            raise _refuse(f"the deal is shared only once every player has joined: {table.stage()}")
        if event.player in table.shares:
            raise _refuse(f"{event.player} has shown their share of the deal already")
        share = Share.from_text(event.share, "share of the deal")
        point = deal_point(table)
        if verify and not verify_share(
            Ciphertext(a=point, b=point), share, table.keys[event.player].card, deal_context(table)
        ):
            raise _refuse(f"{event.player}'s share of the deal does not verify against their key")
        fold.protocol = attrs.evolve(table, shares={**table.shares, event.player: share.point})


__all__ = [
    "PROTOCOL",
    "RULE",
    "SignedTable",
    "check_signature",
    "deal_point",
    "deal_seed",
    "deal_share",
    "join_event",
]
