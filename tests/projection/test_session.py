"""A game's session id (issue 31, item 1): from format 4 each join carries a fresh nonce, and the
session id hashes the header, the first event and every nonce (`sealing.signing.session_id`).
The shuffles, the shares and the deal are bound to it, so that two games with the same header
and the same keys (the same id twice, the memory of seen games off) share no proof; a player's
card key of the game comes from randomness of their own (`GameKey.kept`), not from the root,
which the asker chose."""

from __future__ import annotations

import attrs
import pytest
from sealed_helpers import Table

from splendor_cli.errors import CorruptLogError, IllegalMoveError
from splendor_cli.events.codec import TABLE_FORMAT
from splendor_cli.sealing.events import CardsShown, DeckShuffled, PlayerJoined
from splendor_cli.sealing.signing import GameKey, session_id


def refused(table: Table, event: object, match: str) -> None:
    with pytest.raises(CorruptLogError, match=match):
        table.game.apply(event)  # type: ignore[arg-type]


def test_every_join_carries_its_own_nonce_and_the_session_hashes_them_all() -> None:
    table = Table.new("base", 3, 11)
    table.join()
    joins = [e for e in table.record.events if isinstance(e, PlayerJoined)]
    nonces = [bytes.fromhex(e.nonce) for e in joins]
    assert len(set(nonces)) == 3 and all(len(n) == 32 for n in nonces)
    sealing = table.sealing
    assert sealing.session == session_id(sealing.header, sealing.root, nonces)
    assert sealing.session not in (sealing.root, sealing.header)


def test_the_same_header_and_keys_joined_twice_make_two_sessions_that_share_no_proof() -> None:
    """Two games of the same id and header (the same first event: one root), joined by the same
    keys with the same kept randomness, differ by their joins' nonces: a shuffle or a share of
    one is refused in the other, though every key and every signature is right."""
    one, two = Table.new("base", 2, 12), Table.new("base", 2, 12)
    two.source.seed("other nonces")
    one.join()
    two.join()
    assert one.root == two.root and one.sealing.joint_key() == two.sealing.joint_key()
    assert one.sealing.session != two.sealing.session
    (shuffle,) = one.duties("ann")
    assert isinstance(shuffle, DeckShuffled)
    refused(two, two.signed(shuffle, "ann"), "ann's shuffle of deck 1 fails its proof")
    two.add(two.duties("ann")[0], "ann")  # its own shuffle goes in


def test_a_share_made_for_another_session_does_not_verify() -> None:
    """A decryption share proved in one session fails in the other, against the very same decks."""
    one, two = Table.new("base", 2, 13), Table.new("base", 2, 13)
    two.source.seed("other nonces")
    for table in (one, two):
        table.join()
        table.shuffle()
    (shown,) = (e for e in one.duties("ann") if isinstance(e, CardsShown))
    moved = attrs.evolve(two.sealing, shuffles=one.sealing.shuffles)  # the very decks of one, in two
    with pytest.raises(IllegalMoveError, match="does not verify against their key"):
        moved.show(attrs.evolve(shown, seq=9), lambda card: "")


def test_a_card_key_comes_from_the_players_kept_randomness_not_from_the_root() -> None:
    table = Table.new("base", 2, 14)
    table.join()
    (ann,) = (e for e in table.record.events if isinstance(e, PlayerJoined) and e.player == "ann")
    kept = table.game_key("ann")
    assert kept.kept is not None
    assert ann.card == kept.key.public.card.to_hex()
    derived = GameKey(table.keys["ann"], table.root)  # as a game before format 4 makes it
    assert derived.key.public.card.to_hex() != ann.card
    assert kept.seed(table.sealing.session, "ann", 1) != derived.seed(table.sealing.session, "ann", 1)


def test_a_join_without_a_nonce_in_format_4_or_with_one_before_is_refused() -> None:
    table = Table.new("base", 2, 15)
    (join,) = table.duties("ann")
    refused(table, table.signed(attrs.evolve(join, nonce=""), "ann"), "ann's join carries no nonce")
    refused(table, table.signed(attrs.evolve(join, nonce="zz" * 32), "ann"), "nonce")
    old = Table.new("base", 2, 15, fmt=TABLE_FORMAT - 1)
    (join,) = old.duties("ann")
    assert join.nonce == "" and not old.sealing.keyed and old.sealing.session == old.root
    refused(old, old.signed(attrs.evolve(join, nonce="ab" * 32), "ann"), "a game before format 4 has none")
