"""Sealed games, the protocol core (splendor_cli/sealing/, folded by projection/game.py).

Whole sealed games are played in memory by `sealed_helpers.Table`: every player joins, shuffles,
shows their decryption shares and publishes their keys at the end, each event signed; the
player to move chooses on their own view. Then: the file replays, the audit opens every card,
every reveal is the card an open game would have dealt, a blind reserve stays its owner's
secret, and every event that breaks the protocol is refused, naming it.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest
from sealed_helpers import Table, cards_in, strings, truth

from splendor_cli.crypto.elgamal import (
    Deck,
    card_point,
    combine,
    deck_from_text,
    deck_text,
    encrypt,
    reencrypt,
    share_point,
)
from splendor_cli.crypto.group import Scalar
from splendor_cli.errors import CorruptLogError, IllegalMoveError, VerificationError
from splendor_cli.events import Event, TurnUndone
from splendor_cli.events.codec import chained, format_record, parse
from splendor_cli.projection.game import replay
from splendor_cli.projection.seeding import SeededChance
from splendor_cli.sealing.audit import audit
from splendor_cli.sealing.duties import duties, reveal_own
from splendor_cli.sealing.events import CardsShown, DeckShuffled, KeysPublished, PlayerJoined, RewindAgreed
from splendor_cli.sealing.placeholders import LEVELS, is_placeholder, placeholder
from splendor_cli.sealing.reveal import blocked, exposed, owed, placeholders, substitute
from splendor_cli.sealing.signing import sign
from splendor_cli.sealing.table import learned
from splendor_cli.variants import event_types

GAMES = [
    pytest.param("base", 2, id="base-2p"),
    pytest.param("base", 4, id="base-4p", marks=pytest.mark.slow),
    pytest.param("duel", 2, id="duel"),
]
SEEDS = {("base", 2): 11, ("base", 4): 12, ("duel", 2): 13}
_FINISHED: dict[tuple[str, int], Table] = {}


def finished(variant: str, players: int) -> Table:
    """A whole sealed game of `variant` played to the end, every key published (played once)."""
    if (variant, players) not in _FINISHED:
        _FINISHED[variant, players] = Table.new(variant, players, SEEDS[variant, players]).deal().play_to_end()
    return _FINISHED[variant, players].fork()


def refused(table: Table, event: Event, match: str | None) -> CorruptLogError:
    """Fold `event` (sealed and signed already) after the table's log: refused, naming it."""
    with pytest.raises(CorruptLogError, match=match) as caught:
        table.game.apply(event)
    error = caught.value
    assert error.seq == table.game.seq + 1 and str(error).startswith(f"event #{error.seq}: ")
    assert error.exit_code == 4
    return error


def shuffled(seed: int = 21, players: int = 2) -> Table:
    """A base game whose players have joined and shuffled: the face-up cards are to be shown."""
    table = Table.new("base", players, seed)
    table.join()
    table.shuffle()
    return table


def dealt(seed: int = 21, players: int = 2) -> Table:
    return Table.new("base", players, seed).deal()


def play(table: Table, text: str) -> Event:
    """The player to move plays `text` (notation), their view's cards named."""
    (move,) = table.variant.parse_moves(text)
    return table.play(move)


def market_card(table: Table, level: int) -> str:
    return str(table.state.board[level - 1][0])


# -- 1. whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_whole_sealed_game_replays_from_its_text_and_the_audit_opens_every_card(variant: str, players: int) -> None:
    """Played to the end and written out, the file reads back as the same events, replays to the
    same states (every signature, share and deal checked again), and the audit re-makes every
    player's shuffle of each deck and opens every card, finding nothing."""
    table = finished(variant, players)
    text = format_record(table.record)
    record = parse(text, event_types)
    assert record == table.record
    game = replay(table.variant, record.events, table="sealed", payload_draws=True)
    assert game.state.finished and game.states == table.game.states
    assert game.sealing == table.sealing
    report = audit(game.sealing, game.state)
    assert report.problems == ()
    assert report.unpublished == ()
    assert report.shuffles_checked == players * 3
    assert report.cards_opened == sum(len(cards) for cards in game.sealing.cards.values())
    kinds = {type(event).__name__ for event in record.events}
    assert {"SealedAsked", "PlayerJoined", "DeckShuffled", "CardsShown", "KeysPublished"} <= kinds
    assert all(event.sig for event in record.events[1:] if not isinstance(event, table.variant.setup_type))  # type: ignore[attr-defined]


def test_before_the_keys_are_out_the_audit_checks_nothing_and_says_whose_keys_it_waits_for() -> None:
    table = dealt()
    report = audit(table.sealing, table.state)
    assert report.problems == () and report.unpublished == ("ann", "bob")
    assert report.shuffles_checked == 0 and report.cards_opened == 0


# -- 2. every reveal is the open engine's card -------------------------------------------------


def _payload(event: Any) -> dict[str, Any]:
    return {k: v for k, v in attrs.asdict(event, recurse=False).items() if k not in ("seq", "parent", "sig")}


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_every_reveal_is_the_card_the_open_engine_deals_and_plays(variant: str, players: int) -> None:
    """Open the final decks with every published card secret; put each card in place of its
    placeholder in the setup, and play the same events in an open game: each state is the sealed
    game's state with its placeholders opened, and each card revealed during the game (face up,
    or bought from a blind reserve) is the card its placeholder opens to."""
    table = finished(variant, players)
    game, cards = table.game, truth(table.sealing)
    assert set(cards.values()) == {card for deck in table.sealing.cards.values() for card in deck}
    assert table.sealing.revealed and all(cards[p] == card for p, card in table.sealing.revealed.items())

    setup = game.events[game.after[0] - 1]
    opened = substitute(table.sealing, setup, cards)
    for level in LEVELS:  # the open setup deals the decks as the shuffles left them
        deck = opened.decks[level - 1]
        assert deck == tuple(cards[placeholder(level, k)] for k in range(1, len(deck) + 1))
    state = table.variant.start(opened)
    assert not any(is_placeholder(s) for s in strings(state))
    assert state == substitute(table.sealing, game.states[0], cards)
    for index, seq in enumerate(game.after[1:], start=1):
        event = substitute(table.sealing, game.events[seq - 1], cards)
        assert _payload(table.variant.decide(state, table.variant.move_of(event))) == _payload(event)
        state = table.variant.evolve(state, event)
        assert state == substitute(table.sealing, game.states[index], cards), f"after event #{seq}"


# -- 3. hidden stays hidden --------------------------------------------------------------------


def test_a_blind_reserve_is_seen_by_its_owner_alone_until_it_is_bought() -> None:
    """ann reserves the top of deck 2 blind, and bob shows his share of it. With every card
    secret of the game but ann's, the card does not open; ann's view shows it; the public state
    and the file never name it until a move names it (ann buys it), and the audit opens it."""
    table = dealt(seed=32)
    play(table, "reserve deck 2")
    table.duty_round()
    _, reserved = placeholders(table.sealing, table.state)
    (hidden,) = reserved["ann"]
    assert set(table.sealing.shares[hidden]) == {"bob"}
    ciphertext = table.sealing.ciphertext(hidden)
    deck = Deck(table.sealing.cards[2])
    others = [table.card_secret(p) for p in table.players if p != "ann"]
    for points in ([share_point(ciphertext, x) for x in others], list(table.sealing.shares[hidden].values())):
        with pytest.raises(VerificationError):
            deck.card_of(combine(ciphertext, points))
    real = table.private("ann")[hidden]
    assert real in deck.cards and real in table.view("ann").players[0].reserved
    assert real not in set(strings(table.view("bob")))

    def shown() -> bool:
        return real in set(strings(table.state)) or re.search(f'"{real}"', format_record(table.record)) is not None

    assert not shown()
    bought = False
    while not table.state.finished:
        if table.state.player.name == "ann" and not bought:
            table.duty_round()
            view = table.view("ann")
            buys = [m for m in table.variant.legal_moves(view) if m.action == "buy" and m.card == real]
            if buys:
                assert not shown()
                table.play(buys[0])
                bought = True
                assert real in table.state.players[0].cards
                continue
        table.step()
        assert shown() == bought
    table.duty_round()
    assert bought and truth(table.sealing)[hidden] == real


def test_the_owner_never_shows_their_share_of_their_blind_reserve_unasked() -> None:
    """ann's duties never show her own blind reserve: she owes nothing for it, bob owes his share."""
    table = dealt(seed=33)
    play(table, "reserve deck 1")
    (hidden,) = placeholders(table.sealing, table.state)[1]["ann"]
    assert owed(table.sealing, table.state, "ann") == []
    assert owed(table.sealing, table.state, "bob") == [hidden]
    assert blocked(table.sealing, table.state, "bob") == ""
    table.duty_round()
    assert "ann" not in table.sealing.shares[hidden]
    assert hidden in table.state.players[0].reserved  # the public state: a placeholder
    assert hidden not in table.view("ann").players[0].reserved


# -- 4. refusals -------------------------------------------------------------------------------


def _shown(table: Table, player: str) -> CardsShown:
    (event,) = [e for e in table.duties(player) if isinstance(e, CardsShown)]
    return event


def test_a_share_made_with_another_secret_is_refused() -> None:
    """ann's share of a card replaced by bob's (a valid share of that card, with his secret)."""
    table = shuffled()
    event, theirs = _shown(table, "ann"), _shown(table, "bob")
    assert event.cards[0] == theirs.cards[0]
    bad = attrs.evolve(event, shares=(theirs.shares[0], *event.shares[1:]))
    card = re.escape(event.cards[0])
    refused(table, table.signed(bad, "ann"), f"ann's decryption share of {card} does not verify against their key")
    table.add(event, "ann")  # the honest one is taken


def test_a_valid_share_of_another_card_is_refused() -> None:
    table = shuffled()
    event = _shown(table, "ann")
    swapped = attrs.evolve(event, shares=(event.shares[1], event.shares[0], *event.shares[2:]))
    refused(table, table.signed(swapped, "ann"), "does not verify")


def test_the_same_share_shown_twice_is_refused() -> None:
    table = shuffled()
    event = _shown(table, "ann")
    twice = attrs.evolve(event, cards=(event.cards[0], event.cards[0]), shares=(event.shares[0], event.shares[0]))
    refused(table, table.signed(twice, "ann"), "names a card twice")
    table.add(event, "ann")
    again = attrs.evolve(event, cards=event.cards[:1], shares=event.shares[:1])
    refused(table, table.signed(again, "ann"), f"ann has shown their share of {re.escape(event.cards[0])} already")


def test_a_share_copied_from_another_game_is_refused() -> None:
    """The same players, the same keys, another game: its shares open nothing here."""
    table, other = shuffled(seed=21), Table.new("base", 2, 21, game="another-game")
    other.join()
    other.shuffle()
    event, copied = _shown(table, "ann"), _shown(other, "ann")
    assert event.cards == copied.cards and event.shares != copied.shares
    refused(table, table.signed(copied, "ann"), "does not verify")


def test_a_share_of_a_card_still_in_a_deck_is_refused() -> None:
    """A deck's card is never shown: a share of it would help open the deck."""
    table = dealt()
    deep = placeholder(1, 40)
    event = reveal_own(table.sealing, table.state, "ann", table.game_key("ann"), table.source.randbytes, [deep])
    refused(table, table.signed(event, "ann"), "a deck's card stays sealed")


def _next_play(table: Table) -> Event:
    """The event the player to move would sign now: their first legal move, unsigned, chained."""
    return table.signed(table.game.decide(table.variant.legal_moves(table.view())[0]), None)


def test_a_forged_signature_is_refused() -> None:
    table = dealt()
    event = table.signed(table.game.decide(table.random_move()), "ann")
    sig = event.sig  # type: ignore[attr-defined]
    flipped = sig[:10] + ("0" if sig[10] != "0" else "1") + sig[11:]
    refused(table, attrs.evolve(event, sig=flipped), "the signature is not ann's")
    table.add_chained(event)


def test_an_event_of_the_protocol_with_a_forged_signature_is_refused() -> None:
    table = shuffled()
    event = table.signed(_shown(table, "bob"), "bob")
    sig = event.sig  # type: ignore[attr-defined]
    refused(table, attrs.evolve(event, sig=sig[:-1] + ("a" if sig[-1] != "a" else "b")), "not bob's")


def test_a_missing_signature_is_refused() -> None:
    table = dealt()
    refused(table, _next_play(table), "by ann is not signed")
    other = shuffled()
    refused(other, other.signed(_shown(other, "ann"), None), "cards_shown by ann is not signed")


def test_an_event_signed_by_another_player_is_refused() -> None:
    """bob's event (his turn, his shares) signed with ann's key."""
    table = dealt()
    table.step()
    assert table.state.player.name == "bob"
    event = table.signed(table.game.decide(table.random_move()), "ann")
    refused(table, event, "the signature is not bob's")
    other = shuffled()
    refused(other, other.signed(_shown(other, "bob"), "ann"), "the signature is not bob's")


def test_a_signature_covers_the_event_before_it() -> None:
    """ann and bob show their shares at once, each signed after the same event: the second to
    come is refused after the first (its signature fixes another history), whether it keeps its
    signature or its new envelope drops it; signed again after the first, it is taken."""
    table = shuffled()
    ann, bob = table.signed(_shown(table, "ann"), "ann"), table.signed(_shown(table, "bob"), "bob")
    table.add_chained(ann)
    moved = chained(table.record, bob)  # a new envelope: the signature is dropped
    assert moved.seq == bob.seq + 1 and moved.sig == ""  # type: ignore[attr-defined]
    refused(table, moved, "cards_shown by bob is not signed")
    refused(table, attrs.evolve(moved, sig=bob.sig), "the signature is not bob's")  # type: ignore[attr-defined]
    table.add_chained(sign(moved, table.record.events[-1], table.keys["bob"]))


def _join(table: Table, player: str, seat: str, key: Any = None) -> PlayerJoined:
    """`player`'s join made as if for `seat` (with `key`: another player's secret key)."""
    keys = table.game_key(player, key)
    (event,) = duties(table.sealing, None, seat, keys, table.source.randbytes, finished=False)
    assert isinstance(event, PlayerJoined)
    return attrs.evolve(event, player=player)


def test_a_join_whose_possession_proof_was_made_for_another_seat_is_refused() -> None:
    table = Table.new("base", 2, 41)
    forged = _join(table, "ann", "bob")
    refused(table, table.signed(forged, "ann"), "possession")
    table.add(_join(table, "ann", "ann"), "ann")


def test_a_join_whose_possession_proof_was_made_for_another_game_is_refused() -> None:
    table, other = Table.new("base", 2, 41), Table.new("base", 2, 41, game="another-game")
    copied = _join(other, "ann", "ann")
    assert copied != _join(table, "ann", "ann")
    refused(table, table.signed(copied, "ann"), "possession")


def test_a_join_signed_by_another_key_than_the_one_it_brings_is_refused() -> None:
    table = Table.new("base", 2, 41)
    refused(table, table.signed(_join(table, "ann", "ann"), "bob"), "the signature is not ann's")


def test_a_second_join_and_a_second_shuffle_are_refused() -> None:
    table = Table.new("base", 2, 42)
    join = _join(table, "ann", "ann")
    table.add(join, "ann")
    refused(table, table.signed(join, "ann"), "ann has joined already")
    table.add(_join(table, "bob", "bob"), "bob")
    (shuffle,) = table.duties("ann")
    assert isinstance(shuffle, DeckShuffled)
    table.add(shuffle, "ann")
    refused(table, table.signed(shuffle, "ann"), "ann has shuffled the decks already")


def test_a_join_with_the_key_of_another_player_is_refused() -> None:
    """bob joins with ann's secret key: the same keys as hers, refused (a copied key)."""
    table = Table.new("base", 2, 42)
    table.add(_join(table, "ann", "ann"), "ann")
    copied = _join(table, "bob", "bob", table.keys["ann"])
    refused(table, table.signed(copied, None), "bob joins with a key another player holds")


def test_a_shuffle_before_every_player_has_joined_is_refused() -> None:
    table = Table.new("base", 3, 43)
    table.add(_join(table, "ann", "ann"), "ann")
    table.add(_join(table, "bob", "bob"), "bob")
    (shuffle,) = duties(
        attrs.evolve(
            table.sealing,
            keys={**table.sealing.keys, "cy": table.keys["cy"].public},
            nonces={**table.sealing.nonces, "cy": bytes(32)},
        ),
        None,
        "ann",
        table.game_key("ann"),
        table.source.randbytes,
        finished=False,
    )
    refused(table, table.signed(shuffle, "ann"), "only once every player has joined")


def test_a_turn_started_while_a_face_up_card_waits_for_a_share_is_refused() -> None:
    """ann reserves a market card: a sealed card fills its slot. bob may not move before every
    share of it is in; his own share first, then ann's (her duty)."""
    table = dealt(seed=44)
    card = market_card(table, 1)
    play(table, f"reserve {card}")
    (slot,) = placeholders(table.sealing, table.state)[0]
    assert blocked(table.sealing, table.state, "bob").startswith(f"the face-up card {slot} is not revealed")
    early = table.signed(table.game.decide(table.variant.legal_moves(table.state)[0]), "bob")
    refused(table, early, f"played too soon: the face-up card {re.escape(slot)} is not revealed yet")
    table.add(_shown(table, "bob"), "bob")
    early = table.signed(table.game.decide(table.variant.legal_moves(table.state)[0]), "bob")
    refused(table, early, "waits for ann's decryption share")
    table.add(_shown(table, "ann"), "ann")
    assert slot in table.sealing.revealed
    table.add(table.game.decide(table.variant.legal_moves(table.state)[0]), "bob")


def test_a_turn_of_a_player_whose_blind_reserve_waits_for_a_share_is_refused() -> None:
    table = dealt(seed=45)
    play(table, "reserve deck 3")
    table.add(table.game.decide(table.variant.legal_moves(table.view("bob"))[0]), "bob")  # bob owes, not blocked
    early = table.signed(table.game.decide(table.variant.legal_moves(table.view("ann"))[0]), "ann")
    (hidden,) = placeholders(table.sealing, table.state)[1]["ann"]
    refused(table, early, f"ann's blind reserve {re.escape(hidden)} waits for bob's decryption share")


def test_keys_published_before_the_game_is_over_are_refused() -> None:
    table = dealt()
    table.step()
    events = duties(table.sealing, table.state, "ann", table.game_key("ann"), table.source.randbytes, finished=True)
    (keys,) = [e for e in events if isinstance(e, KeysPublished)]
    refused(table, table.signed(keys, "ann"), "the keys are published only once the game is over")


def test_a_published_card_secret_that_is_not_the_players_is_refused() -> None:
    table = Table.new("base", 2, 46).deal()
    while not table.state.finished:
        table.step()
    (keys,) = [e for e in table.duties("ann") if isinstance(e, KeysPublished)]
    theirs = attrs.evolve(keys, card=table.card_secret("bob").to_hex())
    refused(table, table.signed(theirs, "ann"), "ann's published card secret is not the one of their key")
    identity = attrs.evolve(keys, card=table.keys["ann"].card.to_hex())  # her key, not the game's
    refused(table, table.signed(identity, "ann"), "not the one of their key")
    table.add(keys, "ann")
    refused(table, table.signed(keys, "ann"), "ann has published their keys already")


def test_a_setup_that_is_not_the_deal_the_shares_give_is_refused() -> None:
    table = shuffled()
    while table.duty_round():
        pass
    setup = table.game.deal()
    base: Any = setup
    one, two, three = base.decks
    for bad in (
        attrs.evolve(base, decks=((one[1], one[0], *one[2:]), two, three)),
        attrs.evolve(base, nobles=(*base.nobles[1:], "N10" if "N10" not in base.nobles else "N09")),
        attrs.evolve(base, decks=(one, (*two[:5], two[6], two[5], *two[7:]), three)),
    ):
        refused(table, table.signed(bad, None), "the deal is not the one the sealed decks and their shares give")
    table.add(setup)


def test_a_setup_before_every_face_up_card_is_shown_is_refused() -> None:
    table = shuffled()
    table.add(_shown(table, "ann"), "ann")
    decks = {level: table.sealing.cards[level] for level in LEVELS}
    early = table.sealing.game.deal(table.players, decks, SeededChance(b"early"))
    refused(table, table.signed(early, None), "the cards cannot be dealt yet")


# -- 5. a cheating shuffle ---------------------------------------------------------------------


def _cheat(table: Table, player: str, level: int, position: int, card: Any) -> DeckShuffled:
    """`player`'s honest shuffle with the ciphertext at `position` (0-based) of deck `level`
    replaced by `card(deck, joint)` (a ciphertext)."""
    (honest,) = table.duties(player)
    assert isinstance(honest, DeckShuffled)
    deck = list(deck_from_text(honest.decks[level - 1]))
    deck[position] = card(deck, table.sealing.joint_key())
    return attrs.evolve(
        honest, decks=tuple(deck_text(deck) if k == level else d for k, d in enumerate(honest.decks, 1))
    )


def _play_out(table: Table) -> CorruptLogError | None:
    """Play the game to its end (and publish the keys); or the refusal that stopped it."""
    try:
        table.play_to_end()
    except CorruptLogError as exc:
        return exc
    return None


CHEATS = {
    "doubled": lambda deck, joint: reencrypt(deck[-2], joint, Scalar.reduce(b"\x07" * 64)),
    "replaced": lambda deck, joint: encrypt(card_point("3-99"), joint, Scalar.reduce(b"\x05" * 64)),
}


def _stacked(table: Table, player: str) -> DeckShuffled:
    """The issue's first cheat: instead of permuting and re-encrypting the decks she receives,
    `player` writes fresh encryptions under the joint key of an order she chooses (each deck
    sorted: she knows every card), with the proofs of her honest shuffle copied, and signs it."""
    (honest,) = table.duties(player)
    assert isinstance(honest, DeckShuffled)
    joint = table.sealing.joint_key()
    decks = tuple(
        deck_text(
            [
                encrypt(card_point(card), joint, Scalar.reduce(bytes([level, k]) * 32))
                for k, card in enumerate(sorted(table.sealing.cards[level]))
            ]
        )
        for level in LEVELS
    )
    return attrs.evolve(honest, decks=decks)


@pytest.mark.parametrize("cheat", [*sorted(CHEATS), "stacked"])
def test_a_cheating_last_shuffle_is_refused_at_once(cheat: str) -> None:
    """bob, the last to shuffle, doubles or replaces the bottom card of deck 3, or stacks every
    deck in an order he chose: the shuffle's proof fails on the first read, exit 4 naming bob,
    before any card is dealt (no need to wait for the audit, nor for anyone's keys)."""
    table = Table.new("base", 2, 51)
    table.join()
    table.add(table.duties("ann")[0], "ann")
    cheating = _stacked(table, "bob") if cheat == "stacked" else _cheat(table, "bob", 3, 19, CHEATS[cheat])
    level = 1 if cheat == "stacked" else 3
    refused(table, table.signed(cheating, "bob"), f"bob's shuffle of deck {level} fails its proof")


def test_a_shuffle_without_its_proofs_is_refused() -> None:
    table = Table.new("base", 2, 51)
    table.join()
    (honest,) = table.duties("ann")
    refused(table, table.signed(attrs.evolve(honest, proofs=()), "ann"), "ann's shuffle carries no proof")
    moved = attrs.evolve(honest, proofs=(honest.proofs[1], honest.proofs[0], honest.proofs[2]))  # type: ignore[attr-defined]
    refused(table, table.signed(moved, "ann"), "ann's shuffle")


def _unchecked(table: Table, event: Event, by: str) -> None:
    """Fold `event` as a reader that did not check its proofs (`check=False`): the audit's case."""
    event = table.signed(event, by)
    table.game = table.game.apply(event, check=False)
    table.record = attrs.evolve(table.record, events=(*table.record.events, event))


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_the_audit_still_names_a_cheating_last_shuffle_taken_unchecked(cheat: str) -> None:
    """The second line: a reader that took bob's cheating shuffle without its proof (a fold with
    `check=False`) plays on; once every key is published, the audit names bob's shuffle of deck
    3, and nobody else's."""
    table = Table.new("base", 2, 51)
    table.join()
    table.add(table.duties("ann")[0], "ann")
    _unchecked(table, _cheat(table, "bob", 3, 19, CHEATS[cheat]), "bob")
    table.deal()
    assert _play_out(table) is None
    report = audit(table.sealing, table.state)
    shuffles = [p for p in report.problems if "shuffle of deck" in p]
    assert shuffles == [
        "bob's shuffle of deck 3 is not the shuffle their seed makes: a cheating shuffle (cards dropped, doubled or"
        " replaced)"
    ]
    assert report.shuffles_checked == 5
    if cheat == "replaced":
        assert "3?20 opens to no card of deck 3: a shuffle cheated" in report.problems


@pytest.mark.parametrize(("seed", "both_dealt"), [(54, False), (51, True)])
def test_a_cheating_first_shuffle_is_refused_at_once_or_named_by_the_audit(seed: int, both_dealt: bool) -> None:
    """ann, the first to shuffle, doubles a card of deck 1 (drops another): refused at once; a
    reader that took it unchecked sees the audit name ann's shuffle (or, when both copies are
    dealt, as in the game of seed 51, the share that reveals the second refused)."""
    table = Table.new("base", 2, seed)
    table.join()
    doubled = _cheat(table, "ann", 1, 0, lambda deck, joint: reencrypt(deck[1], joint, Scalar.reduce(b"\x03" * 64)))
    refused(table, table.signed(doubled, "ann"), "ann's shuffle of deck 1 fails its proof")
    _unchecked(table, doubled, "ann")
    table.add(table.duties("bob")[0], "bob")
    table.deal()
    stopped = _play_out(table)
    if both_dealt:  # the share that opens the second copy is refused
        assert stopped is not None and "is revealed twice in the sealed decks: a shuffle cheated" in str(stopped)
        return
    assert stopped is None
    report = audit(table.sealing, table.state)
    assert report.problems == (
        "ann's shuffle of deck 1 is not the shuffle their seed makes: a cheating shuffle (cards dropped, doubled or"
        " replaced)",
    )


def test_a_doubled_card_revealed_twice_is_refused_at_once() -> None:
    """bob, shuffling last, puts a copy of the first card of deck 1 in the second place: both are
    dealt face up, and the second share that opens the copy is refused."""
    table = Table.new("base", 2, 55)
    table.join()
    table.add(table.duties("ann")[0], "ann")
    _unchecked(
        table,
        _cheat(table, "bob", 1, 1, lambda deck, joint: reencrypt(deck[0], joint, Scalar.reduce(b"\x09" * 64))),
        "bob",
    )
    table.add(_shown(table, "ann"), "ann")
    refused(
        table, table.signed(_shown(table, "bob"), "bob"), "is revealed twice in the sealed decks: a shuffle cheated"
    )


# -- the undo after the keys are out ---------------------------------------------------------


def test_an_undo_after_a_player_published_their_keys_is_refused() -> None:
    """Once ann has published her card secret of the game (the game being over), bob holds every
    card secret: an undo that takes the game back before its end would let it go on with every
    deck open to him. It is refused, when decided and when folded from a file."""
    table = Table.new("base", 2, 61).deal()
    while not table.state.finished:
        table.step()
    (keys,) = [e for e in table.duties("ann") if isinstance(e, KeysPublished)]
    table.add(keys, "ann")
    last = table.game.events[table.game.after[-1] - 1]
    by = last.player  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match="keys are published"):
        table.game.decide_undo(by=by)
    undo = table.signed(TurnUndone(seq=0, parent="", by=by, to=table.game.after[-2]), by)
    refused(table, undo, "keys are published: it cannot be taken back")


def test_conservation_of_cards_in_a_finished_game() -> None:
    """Every card of every deck is in the final state exactly once, placeholders opened."""
    table = finished("base", 2)
    cards = cards_in(substitute(table.sealing, table.state, truth(table.sealing)))
    assert sorted(cards) == sorted(c for deck in table.sealing.cards.values() for c in deck)


@pytest.mark.parametrize("case", ["blind reserve", "market"])
def test_no_look_then_choose_by_undo(case: str) -> None:
    """The issue's reproduction: ann reserves a market card (the top of deck 1 fills the slot) or
    the top of deck 2 blind; bob's share comes in (his duty), so ann can open the new card. She
    may not take her move back, look, and choose again (reserve blind the card she now knows):
    refused when decided and when folded from a file, unless bob agrees (`undo --agree`)."""
    table = dealt(seed=71)
    if case == "blind reserve":
        play(table, "reserve deck 2")
    else:
        play(table, f"reserve {market_card(table, 1)}")
    to = table.game.after[-2]
    table.add(_shown(table, "bob"), "bob")
    assert [who for _, who in learned(table.sealing, ["ann"], to)] == ["ann"]
    with pytest.raises(IllegalMoveError, match=r"ann saw the card .* every player agrees \(bob: `splendor undo --to"):
        table.game.decide_undo(by="ann")
    undo = table.signed(TurnUndone(seq=0, parent="", by="ann", to=to), "ann")
    refused(table, undo, "ann saw the card")
    table.add(RewindAgreed(seq=0, parent="", player="bob", to=to), "bob")
    table.add(table.game.decide_undo(by="ann"), "ann")
    assert table.game.after[-1] == to


@pytest.mark.parametrize("case", ["blind reserve", "market"])
def test_an_undo_that_puts_a_shown_card_back_in_its_deck_reveals_it_to_all(case: str) -> None:
    """Blind: ann reserves the top of deck 2 blind, bob shows his share of it (his duty), ann
    sees it and takes her turn back (her own last turn, but one after which she saw a card: bob
    agrees first). Market: ann
    reserves a market card, the top of deck 1 fills the slot, ann shows her share of it, then
    takes her turn back. Either way the card is the top of its deck again with a share out, so
    one player could open it alone: as at the table a card seen stays seen, every player now
    owes their share of it (`exposed`), no turn starts before it is revealed to all, and then
    it is, in the deck."""
    table = dealt(seed=71)
    if case == "blind reserve":
        play(table, "reserve deck 2")
        table.add(_shown(table, "bob"), "bob")
    else:
        play(table, f"reserve {market_card(table, 1)}")
        table.add(_shown(table, "ann"), "ann")
    (card,) = [
        *placeholders(table.sealing, table.state)[0],
        *placeholders(table.sealing, table.state)[1].get("ann", []),
    ]
    if case == "blind reserve":
        table.add(RewindAgreed(seq=0, parent="", player="bob", to=table.game.after[-2]), "bob")
    table.add(table.game.decide_undo(by="ann"), "ann")
    assert card in table.state.decks[int(card[0]) - 1]
    assert exposed(table.sealing, table.state) == [card]
    late = table.sealing.missing(card)
    assert late == (["ann"] if case == "blind reserve" else ["bob"])
    why = blocked(table.sealing, table.state, table.state.player.name)
    assert card in why and "put back in its deck" in why
    move = table.variant.legal_moves(table.state)[0]
    refused(table, table.signed(table.game.decide(move), "ann"), "played too soon")
    assert owed(table.sealing, table.state, late[0]) == [card]
    table.add(_shown(table, late[0]), late[0])
    assert card in table.sealing.revealed
    revealed = table.sealing.revealed[card]
    assert revealed in table.state.decks[int(card[0]) - 1] and card not in table.state.decks[int(card[0]) - 1]
    assert blocked(table.sealing, table.state, table.state.player.name) == ""


# -- the encodings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("deck_2", lambda text: text[:-4], r"deck_2 is not the 30 ciphertexts of the deck \(base64 of 30 x 64 bytes"),
        ("deck_1", lambda text: "-" + text[1:], r"deck_1 is not the 40 ciphertexts"),
        ("deck_3", lambda text: "\n".join((text[:76], text[76:])), r"deck_3 is not the 20 ciphertexts"),
        # 0xff first: an odd (negative) encoding, never a ristretto255 point whatever the rest
        ("deck_1", lambda text: "////" + text[4:], r"deck_1 card 1: not a ristretto255 point"),
    ],
    ids=["short", "not-base64", "newline", "not-a-point"],
)
def test_a_malformed_deck_is_refused_in_one_line_naming_the_event_and_field(field: str, value: Any, said: str) -> None:
    """A deck is one base64 string of its ciphertexts: a wrong length, another alphabet, a line
    break, or bytes that are no point are refused, naming the event (and the deck)."""
    table = Table.new("base", 2, 42)
    table.add(_join(table, "ann", "ann"), "ann")
    table.add(_join(table, "bob", "bob"), "bob")
    (honest,) = table.duties("ann")
    assert isinstance(honest, DeckShuffled)
    at = int(field[-1]) - 1  # deck_N: the N-th of `decks`
    bad = attrs.evolve(honest, decks=tuple(value(d) if k == at else d for k, d in enumerate(honest.decks)))
    error = refused(table, table.signed(bad, "ann"), said)
    assert "\n" not in str(error)


def test_a_malformed_share_is_refused_in_one_line_naming_the_card() -> None:
    table = shuffled()
    event = _shown(table, "ann")
    for text, said in (
        (event.shares[0][:-4], r"share of 1\?\d\d: expected 128 base64 characters"),
        (event.shares[0].replace(event.shares[0][:4], "////", 1), r"share of 1\?\d\d: not a ristretto255 point"),
        (bytes.fromhex("00" * 96).hex(), r"share of 1\?\d\d: expected 128 base64 characters"),
    ):
        bad = attrs.evolve(event, shares=(text, *event.shares[1:]))
        error = refused(table, table.signed(bad, "ann"), said)
        assert "\n" not in str(error)


def test_a_move_played_for_another_seat_is_refused_even_signed_by_its_by() -> None:
    """At a sealed table each seat plays its own turns: a move of ann's with `by = "bob"`, signed
    by bob's key (the signature `by` asks for), is refused, naming the event."""
    table = Table.new("base", 2, 61).deal()
    (move,) = table.variant.parse_moves("take white blue green")
    claimed = table.game.decide(move, by="bob")
    refused(table, table.signed(claimed, "bob"), r"played by 'bob': at a sealed table each seat plays its own turns")
