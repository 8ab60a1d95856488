"""The signed table protocol in the fold (splendor_cli/signed/protocol.py), in memory: joins bound
to the game and seat, every event signed by its author (a move claiming `by` by its `by`), the
deal from every player's share, which nobody can vary, and what it refuses (exit 4 at a read:
CorruptLogError naming the event).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import attrs
import pytest

from splendor_cli.crypto.keys import SecretKey, fingerprint
from splendor_cli.errors import CorruptLogError, IllegalMoveError
from splendor_cli.events import Event, TurnUndone
from splendor_cli.events.codec import FORMAT, Header, Record, chained, header_full_digest
from splendor_cli.projection.game import Game, replay
from splendor_cli.sealing.signing import GameKey, sign
from splendor_cli.signed.events import DealShared, SignedAsked
from splendor_cli.signed.protocol import SignedTable, deal_share, join_event
from splendor_cli.variants import find_variant

NAMES = ("ann", "bob", "cy")


@attrs.define
class Table:
    """A signed game in memory: every player's key, the record, the game folded from it."""

    keys: dict[str, SecretKey]
    record: Record
    game: Game
    source: random.Random

    @classmethod
    def new(cls, players: tuple[str, ...] = NAMES[:2], seed: int = 1) -> Table:
        variant = find_variant("base")
        header = Header(game=f"signed-{seed}", variant="base", players=players, created="2026-01-01T00:00:00Z")
        header = attrs.evolve(header, format=FORMAT, table="signed")
        keys = {p: SecretKey.generate(p, random.Random(f"key:{seed}:{p}").randbytes) for p in players}
        table = cls(keys, Record(header=header, events=()), replay(variant, [], table="signed"), random.Random(seed))
        table.add(SignedAsked(variant="base", players=players, header=header_full_digest(header)))
        return table

    @property
    def protocol(self) -> SignedTable:
        protocol = self.game.protocol
        assert isinstance(protocol, SignedTable)
        return protocol

    def signed(self, event: Event, by: str | None) -> Event:
        event = chained(self.record, event)
        return sign(event, self.record.events[-1], self.keys[by]) if by else event

    def add(self, event: Event, by: str | None = None) -> Event:
        event = self.signed(event, by) if not event.parent else event
        self.game = self.game.apply(event)
        self.record = attrs.evolve(self.record, events=(*self.record.events, event))
        return event

    def game_key(self, seat: str) -> GameKey:
        """`seat`'s keys of this game, from randomness kept for it (here: the seat and the root)."""
        kept = hashlib.sha256(f"kept:{seat}".encode() + self.protocol.root).digest()
        return GameKey(self.keys[seat], self.protocol.root, kept)

    def join(self, seat: str) -> Event:
        return self.add(join_event(self.protocol, seat, self.game_key(seat), self.source.randbytes), seat)

    def share(self, seat: str) -> Event:
        secret = self.game_key(seat).key
        return self.add(DealShared(player=seat, share=deal_share(self.protocol, secret, self.source.randbytes)), seat)

    def deal(self) -> Table:
        for seat in self.protocol.seats:
            self.join(seat)
        for seat in self.protocol.seats:
            self.share(seat)
        self.add(self.game.deal())
        return self

    def refused(self, event: Event) -> str:
        """Why the fold refuses `event` (chained already) after the record: the message."""
        with pytest.raises(CorruptLogError) as caught:
            replay(self.game.variant, (*self.record.events, event), table="signed")
        assert caught.value.seq == event.seq
        return str(caught.value)


def test_a_signed_game_is_joined_shared_dealt_and_played() -> None:
    table = Table.new(NAMES)
    assert table.game.dealing() == "waiting for ann, bob and cy to join with their keys (`splendor seal --as NAME`)"
    table.deal()
    assert table.game.states and table.game.table.player.name == "ann"
    assert table.protocol.fingerprints() == {p: fingerprint(k.public.signing) for p, k in table.keys.items()}
    (move,) = table.game.variant.parse_moves("take white blue green")
    table.add(table.game.decide(move), "ann")
    again = replay(table.game.variant, table.record.events, table="signed")  # every signature checked again
    assert again.seq == table.game.seq and again.protocol.signed and not again.protocol.hidden


def test_the_deal_follows_from_the_shares_alone() -> None:
    """The same joins deal the same cards (a share is one value per key and session: its proof's
    randomness changes nothing); other keys, or other nonces, deal other cards."""
    one, two = Table.new(seed=1).deal(), Table.new(seed=1)
    for event in one.record.events[1 : 1 + len(one.protocol.seats)]:  # the same joins (nonces too)
        two.add(event)
    two.source = random.Random(99)  # other proofs, same shares
    for seat in two.protocol.seats:
        two.share(seat)
    two.add(two.game.deal())
    three = Table.new(seed=1)
    three.source = random.Random(98)  # the same keys, other nonces: another session
    three.deal()

    def unchained(table: Table) -> object:
        event: Any = table.record.events[-1]
        return attrs.evolve(event, parent="")  # the chain differs: other proofs before it

    assert two.protocol.session() == one.protocol.session() != three.protocol.session()
    assert unchained(one) == unchained(two)
    assert unchained(three) != unchained(one)
    assert unchained(Table.new(seed=2).deal()) != unchained(one)


def test_nobody_can_vary_their_share_or_deal_another_setup() -> None:
    table = Table.new()
    for seat in ("ann", "bob"):
        table.join(seat)
    table.share("ann")
    # bob's share of another point (a value he would choose): its proof does not verify
    from splendor_cli.crypto.elgamal import Ciphertext, decryption_share
    from splendor_cli.crypto.group import hash_to_point
    from splendor_cli.sealing.signing import context

    point = hash_to_point("chosen", b"bob")
    secret = table.game_key("bob").key
    chosen = decryption_share(
        Ciphertext(a=point, b=point), secret.card, context(table.protocol.root, "deal"), random.randbytes
    )
    bad = table.signed(DealShared(player="bob", share=chosen.to_text()), "bob")
    assert "bob's share of the deal does not verify against their key" in table.refused(bad)
    table.share("bob")
    # a setup that is not the deal the shares give (another shuffle)
    from splendor_cli.projection.seeding import SeededChance

    other = table.game.variant.deal(("ann", "bob"), SeededChance(b"chosen"))
    assert "the deal is not the one the players' shares of the deal give" in table.refused(chained(table.record, other))


@pytest.mark.parametrize("step", ["share before all joined", "share twice", "join twice", "a stranger"])
def test_the_deal_refuses_steps_out_of_order(step: str) -> None:
    table = Table.new()
    table.join("ann")
    if step == "share before all joined":
        event = DealShared(player="ann", share="A" * 128)
        assert "only once every player has joined" in table.refused(table.signed(event, "ann"))
    elif step == "join twice":
        assert "ann has joined already" in table.refused(
            table.signed(join_event(table.protocol, "ann", table.game_key("ann"), random.randbytes), "ann")
        )
    elif step == "share twice":
        table.join("bob")
        table.share("ann")
        secret = table.game_key("ann").key
        event = DealShared(player="ann", share=deal_share(table.protocol, secret, random.randbytes))
        assert "ann has shown their share of the deal already" in table.refused(table.signed(event, "ann"))
    else:
        eve = SecretKey.generate("eve", random.Random("eve").randbytes)
        eves = GameKey(eve, table.protocol.root, bytes(32))
        stranger = chained(table.record, join_event(table.protocol, "eve", eves, random.randbytes))
        assert "'eve' does not play in this game" in table.refused(sign(stranger, table.record.events[-1], eve))


def test_a_join_is_bound_to_its_game_seat_and_key() -> None:
    """A join made for bob's seat cannot take ann's (the proof is bound to the seat), nor be
    signed by another key; ann cannot join with bob's key."""
    table = Table.new()
    made = join_event(table.protocol, "bob", table.game_key("bob"), random.randbytes)
    moved = attrs.evolve(made, player="ann")
    signed_by_bob = sign(chained(table.record, moved), table.record.events[-1], table.keys["bob"])
    assert "does not verify" in table.refused(signed_by_bob)
    mine = join_event(table.protocol, "ann", table.game_key("ann"), random.randbytes)
    assert "the signature is not ann's" in table.refused(table.signed(mine, "bob"))
    table.join("bob")
    copied = attrs.evolve(made, player="ann")
    assert "a key another player holds" in table.refused(
        sign(chained(table.record, copied), table.record.events[-1], table.keys["bob"])
    )


def test_every_move_is_signed_by_its_author_and_by_by_its_by() -> None:
    """A move unsigned, signed by another key, or claiming `by` but signed by its player (or
    anybody but `by`) is refused naming the event; so is a move signed by its `by`: at a table of
    keys each seat plays its own turns (the command line never writes one: `--for` is refused)."""
    table = Table.new(NAMES).deal()
    (move,) = table.game.variant.parse_moves("take white blue green")
    event = table.game.decide(move)
    assert "take" in table.game.variant.event_notation(event)
    assert "is not signed" in table.refused(table.signed(event, None))
    assert "the signature is not ann's" in table.refused(table.signed(event, "bob"))
    claimed = table.game.decide(move, by="bob")
    assert "the signature is not bob's" in table.refused(table.signed(claimed, "ann"))
    assert "the signature is not bob's" in table.refused(table.signed(claimed, "cy"))
    assert "played by 'bob': at a signed table each seat plays its own turns" in table.refused(
        table.signed(claimed, "bob")
    )


def test_an_undo_is_the_askers_own_and_signed() -> None:
    """A player takes back their own turn (the undo signed by them); a forced rewind over another
    player's turn is refused: nobody's word takes back another's signed move."""
    table = Table.new().deal()
    (move,) = table.game.variant.parse_moves("take white blue green")
    table.add(table.game.decide(move), "ann")
    undo = table.game.decide_undo(by="ann")
    assert "is not signed" in table.refused(table.signed(undo, None))
    table.add(undo, "ann")
    table.add(table.game.decide(move), "ann")
    (answer,) = table.game.variant.parse_moves("take red red")
    table.add(table.game.decide(answer), "bob")
    forced = TurnUndone(by="bob", to=table.game.after[-3], forced=True)
    assert "in a signed game each player takes back only their own" in table.refused(table.signed(forced, "bob"))


def test_a_signed_game_refuses_another_protocols_events_and_an_open_header() -> None:
    """A sealed game's join in a signed game is refused, naming it; a signed game's events in an
    open game's log too."""
    from splendor_cli.sealing.events import PlayerJoined

    table = Table.new()
    made = join_event(table.protocol, "ann", table.game_key("ann"), random.randbytes)
    sealed = PlayerJoined(player="ann", signing=made.signing, card=made.card, possession=made.possession)
    assert "not sealed" in table.refused(table.signed(sealed, "ann"))
    with pytest.raises(CorruptLogError, match=r"signed_asked in a game that is not signed"):
        replay(table.game.variant, table.record.events, table="open")


def test_the_deal_is_not_made_before_every_share() -> None:
    table = Table.new()
    table.join("ann")
    table.join("bob")
    table.share("ann")
    with pytest.raises(IllegalMoveError, match="waiting for bob to show their share of the deal"):
        table.game.deal()


def test_a_players_join_and_share_ride_in_one_commit_as_a_sealed_players_do() -> None:
    """Over git, one player's steps of the protocol in a row go in one commit with them (what
    `verify --git` checks: their signatures say who made them), in a signed game as in a sealed one."""
    from splendor_cli.sharing.gitsync import groups

    table = Table.new(NAMES[:2])
    table.join("ann")
    table.join("bob")
    table.share("bob")  # bob joins and shares in a row: one commit
    events = table.record.events
    cut = groups(table.game.variant, events[1:])
    assert [[e.TYPE for e in group] for group in cut] == [["signer_joined"], ["signer_joined", "deal_shared"]]
