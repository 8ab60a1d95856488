"""The game file: TOML text <-> header and events, the hash chain, and the rules checked on replay.

The reader is strict: whatever is wrong with a file, it is refused with a GameFileError whose
message is one line naming the event (`event #N`) or the header. A file that reads well but
breaks a rule is refused by `replay`, with a CorruptLogError carrying the event's `seq`.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest
from helpers import BASE, EVENT_TYPES, started, step
from strategies import sealed

from splendor_cli.errors import CorruptLogError, GameFileError
from splendor_cli.events import (
    Event,
    SeedCommitted,
    SeedRevealed,
    SeedsAsked,
    SeedsRestarted,
    TurnUndone,
)
from splendor_cli.events.codec import (
    FORMAT,
    Header,
    Record,
    event_digest,
    event_to_dict,
    format_event,
    format_header,
    format_record,
    header_digest,
)
from splendor_cli.model import COLOURS, Gem
from splendor_cli.projection import Game, replay
from splendor_cli.records import parse_text
from splendor_cli.sealing.events import CardsShown, DeckShuffled, KeysPublished, PlayerJoined, RewindAgreed, SealedAsked
from splendor_cli.signed.events import DealShared, SignedAsked, SignerJoined
from splendor_cli.variants.base.events import CardPurchased, CardReserved, GameStarted, TokensTaken, TurnPassed
from splendor_cli.variants.duel.events import (
    STEP_TYPES,
    BoardReplenished,
    BonusTokenTaken,
    DuelCardBought,
    DuelPassed,
    DuelStarted,
    GoldReserved,
    LineTaken,
    PrivilegeUsed,
    RoyalTaken,
    TokenReturned,
    TokenStolen,
)

HEADER = Header(game="codec-demo", variant="base", players=("ann", "bob"), created="2026-01-01T12:00:00Z")


def short_game() -> Game:
    """Seven events: three takes, a blind reserve undone by bob, a face-up reserve, a buy."""
    game = started(
        ("ann", "bob"),
        ["1-23", "1-09", "1-17", "1-08", "1-31", "1-35"],
        ["2-01", "2-02", "2-03", "2-04", "2-05"],
        ["3-01", "3-02", "3-03", "3-04", "3-05"],
        ["N01", "N06", "N03"],
    )
    for move in ("take w u g", "take r r", "take w u k", "reserve deck 2"):
        game = step(game, move)
    game = game.apply(attrs.evolve(game.decide_undo(by="bob"), seq=game.seq + 1))
    for move in ("reserve 1-09", "buy 1-23"):
        game = step(game, move)
    return game


def short_record() -> Record:
    return sealed(short_game().events, HEADER)


def short_text() -> str:
    return format_record(short_record())


def refused(text: str) -> GameFileError:
    with pytest.raises(GameFileError) as info:
        parse_text(text)
    message = str(info.value)
    assert "\n" not in message and message, message
    return info.value


def resealed(events: list[Event]) -> Record:
    """The events, chained again after a hand edit: only the rules can catch the edit now."""
    return sealed(tuple(events), HEADER)


def replace_once(text: str, old: str, new: str, *, last: bool = False) -> str:
    at = text.rindex(old) if last else text.index(old)
    return text[:at] + new + text[at + len(old) :]


def block(text: str, n: int) -> tuple[int, int]:
    """The span of event #n's `[[events]]` block in `text`."""
    starts = [m.start() for m in re.finditer(r"\n\[\[events\]\]\n", text)]
    return starts[n - 1], starts[n] if n < len(starts) else len(text)


# -- writing and reading back ----------------------------------------------------------------


def test_round_trip() -> None:
    """Writing a record and reading it back gives the same header and events, and writing
    what was read gives the same bytes (a strict writer)."""
    record = short_record()
    text = format_record(record)
    assert parse_text(text) == record
    assert format_record(parse_text(text)) == text
    assert replay(BASE, parse_text(text).events).state == short_game().state


def test_snapshot_of_a_short_game(toml_snapshot: Any) -> None:
    """The TOML written for a short deterministic game (reviewed in diffs: never rename a key)."""
    assert short_text() == toml_snapshot


def test_events_are_appended_one_block_each() -> None:
    """The file is the header then one `[[events]]` block per event, in order: appending an
    event never changes the bytes written before it."""
    record = short_record()
    text = format_record(record)
    assert text == format_header(HEADER) + "".join(format_event(e) for e in record.events)
    for n in range(len(record.events)):
        assert text.startswith(format_record(attrs.evolve(record, events=record.events[:n])))
    assert text.count("\n[[events]]\n") == len(record.events)


def test_the_chain_links_every_event_to_the_one_before() -> None:
    """`seq` counts from 1 and each `parent` is the digest of the previous event (of the header
    for the first): a hash chain, as in git."""
    record = short_record()
    assert [e.seq for e in record.events] == list(range(1, 9))
    assert record.events[0].parent == header_digest(HEADER)
    for before, event in zip(record.events, record.events[1:]):
        assert event.parent == event_digest(before)
    assert record.head == event_digest(record.events[-1])
    assert re.fullmatch(r"[0-9a-f]{16}", record.head)


def _one_of_each() -> list[Event]:
    events = list(short_game().events)
    events.append(TurnPassed(seq=9, parent="", player="bob", noble="N01"))
    events.append(SeedsAsked(seq=10, parent="", variant="base", players=("ann", "bob")))
    events.append(SeedCommitted(seq=11, parent="", player="ann", commitment="0" * 64))
    events.append(SeedRevealed(seq=12, parent="", player="ann", secret="1" * 64))
    events.append(SeedsRestarted(seq=12, parent="", by="ann", without=("bob",)))
    red, pearl = Gem.RED, Gem.PEARL
    board = (Gem.GOLD,) * 3 + (Gem.PEARL,) * 2 + tuple(g for g in COLOURS for _ in range(4))
    events += [
        DuelStarted(seq=13, parent="", players=("ann", "bob"), decks=(("1-01",), (), ()), board=board),
        PrivilegeUsed(seq=14, parent="", player="ann", cell="c3", gem=red),
        BoardReplenished(seq=15, parent="", player="ann", cells=("c3", "c4"), tokens=(red, pearl)),
        LineTaken(seq=16, parent="", player="ann", cells=("a1", "b2"), gems=(red, pearl)),
        GoldReserved(seq=17, parent="", player="bob", gold="e5", card="2-05", blind=False, drawn="2-11"),
        DuelCardBought(seq=18, parent="", player="ann", card="1-07", payment=(red,), wild="red", drawn=""),
        BonusTokenTaken(seq=19, parent="", player="ann", cell="d4", gem=red),
        TokenStolen(seq=20, parent="", player="ann", gem=pearl),
        RoyalTaken(seq=21, parent="", player="ann", royal="R2"),
        TokenReturned(seq=22, parent="", player="ann", gem=red),
        DuelPassed(seq=23, parent="", player="bob"),
        SealedAsked(seq=24, parent="", variant="base", players=("ann", "bob")),
        PlayerJoined(seq=25, parent="", player="ann", signing="a" * 64, card="b" * 64, possession="c" * 256, sig="d"),
        DeckShuffled(seq=26, parent="", player="ann", decks=("e" * 88, "", ""), sig="f"),
        CardsShown(seq=27, parent="", player="bob", cards=("1?05",), shares=("0" * 192,), sig="1"),
        KeysPublished(seq=28, parent="", player="bob", card="2" * 64, seeds=("3" * 64,) * 3, sig="4"),
        RewindAgreed(seq=29, parent="", player="bob", to=12, sig="5"),
        SignedAsked(seq=30, parent="", variant="base", players=("ann", "bob")),
        SignerJoined(seq=31, parent="", player="ann", signing="a" * 64, card="b" * 64, possession="c" * 256, sig="d"),
        DealShared(seq=32, parent="", player="bob", share="0" * 128, sig="6"),
    ]
    return events


def test_every_event_type_is_covered() -> None:
    """The examples below cover every event type of the registry."""
    assert {type(e) for e in _one_of_each()} == set(EVENT_TYPES.values())


def test_every_event_is_flat() -> None:
    """The tables as written stay flat: scalars and arrays of scalars, so that one event is one
    block. The rule is the written form's, not the class's fields': a class with a `FORM` may hold
    arrays of arrays (a setup's `decks`), which its form writes one key each (`deck_1` ...)."""
    scalar = (str, int, bool)
    for event in _one_of_each():
        raw = event_to_dict(event)
        assert next(iter(raw)) == "type"
        for key, value in raw.items():
            if isinstance(value, list):
                assert all(isinstance(v, scalar) for v in value), (event.TYPE, key)
            else:
                assert isinstance(value, scalar), (event.TYPE, key)
        assert {"seq", "parent"} <= set(raw)


def test_every_event_type_has_a_stable_tag() -> None:
    """Every event type has an explicit TYPE written to the file; these never change."""
    assert {tag: cls.__name__ for tag, cls in EVENT_TYPES.items()} == {
        "game_started": "GameStarted",
        "tokens_taken": "TokensTaken",
        "card_reserved": "CardReserved",
        "card_purchased": "CardPurchased",
        "turn_passed": "TurnPassed",
        "turn_undone": "TurnUndone",
        "seeds_asked": "SeedsAsked",
        "seed_committed": "SeedCommitted",
        "seed_revealed": "SeedRevealed",
        "sealed_asked": "SealedAsked",
        "player_joined": "PlayerJoined",
        "deck_shuffled": "DeckShuffled",
        "cards_shown": "CardsShown",
        "keys_published": "KeysPublished",
        "rewind_agreed": "RewindAgreed",
        "signed_asked": "SignedAsked",
        "signer_joined": "SignerJoined",
        "deal_shared": "DealShared",
        "seeds_restarted": "SeedsRestarted",
        "duel_started": "DuelStarted",
        "privilege_used": "PrivilegeUsed",
        "board_replenished": "BoardReplenished",
        "line_taken": "LineTaken",
        "gold_reserved": "GoldReserved",
        "duel_card_bought": "DuelCardBought",
        "bonus_token_taken": "BonusTokenTaken",
        "token_stolen": "TokenStolen",
        "royal_taken": "RoyalTaken",
        "token_returned": "TokenReturned",
        "duel_passed": "DuelPassed",
    }
    for tag, cls in EVENT_TYPES.items():
        assert tag == cls.TYPE
        assert "TYPE" not in {f.name for f in attrs.fields(cls)}
    assert [event_to_dict(e)["type"] for e in _one_of_each()] == [
        "game_started",
        "tokens_taken",
        "tokens_taken",
        "tokens_taken",
        "card_reserved",
        "turn_undone",
        "card_reserved",
        "card_purchased",
        "turn_passed",
        "seeds_asked",
        "seed_committed",
        "seed_revealed",
        "seeds_restarted",
        *(cls.TYPE for cls in (DuelStarted, *STEP_TYPES)),
        "sealed_asked",
        "player_joined",
        "deck_shuffled",
        "cards_shown",
        "keys_published",
        "rewind_agreed",
        "signed_asked",
        "signer_joined",
        "deal_shared",
    ]


def test_the_header_comes_first_with_the_format() -> None:
    """The file has a top-level `format = 2` before any event (a header made in code is of the
    newest format; `splendor new` writes the oldest that reads the game the same: store.py)."""
    text = short_text()
    assert FORMAT == 4  # format 4: the table declared in the header; a header made in code is of format 2
    assert text.index("format = 2\n") < text.index("[[events]]")
    assert parse_text(text).header == HEADER


# -- refusals --------------------------------------------------------------------------------


def test_garbled_toml_is_refused_naming_the_event() -> None:
    """Text that is not TOML is refused, naming the event where it breaks."""
    text = short_text()
    start, end = block(text, 3)
    garbled = text[:start] + text[start:end].replace('gems = ["red", "red"]', 'gems = [["red", "red"]') + text[end:]
    error = refused(garbled)
    assert str(error).startswith("event #3: not valid TOML")


def test_a_key_written_twice_is_refused_naming_the_event() -> None:
    """A key written twice (a bad merge) is not valid TOML; the message names the event."""
    text = replace_once(short_text(), 'drawn = "1-31"\n', 'drawn = "1-31"\ndrawn = "1-35"\n')
    assert str(refused(text)).startswith("event #7: not valid TOML")


def test_a_file_cut_in_the_middle_of_a_line_is_refused() -> None:
    """A truncated file (cut inside a value) names the event it cuts."""
    text = short_text()
    cut = text[: text.rindex('payment = ["white"') + len('payment = ["wh')]
    assert str(refused(cut)).startswith("event #8: not valid TOML")


def test_a_file_cut_after_a_key_line_is_refused_naming_the_missing_fields() -> None:
    """A truncated file (cut at the end of a line) lacks the event's last fields."""
    text = short_text()
    cut = text[: text.rindex('card = "1-23"\n') + len('card = "1-23"\n')]
    error = refused(cut)
    assert str(error) == "event #8 (card_purchased): missing 'payment', 'drawn', 'noble'"


def test_an_unknown_event_type_is_refused() -> None:
    """An event type this program does not know is refused, not guessed."""
    text = replace_once(short_text(), 'type = "card_purchased"', 'type = "card_stolen"')
    assert str(refused(text)) == "event #8: unknown event type 'card_stolen'"


def test_an_unknown_key_is_refused() -> None:
    """A key the event does not have (a typo, a field of a newer version) is refused."""
    text = replace_once(short_text(), 'noble = ""\n', 'noble = ""\nnobel = "N01"\n', last=True)
    assert str(refused(text)) == "event #8 (card_purchased): unknown 'nobel'"


def test_a_missing_key_is_refused() -> None:
    """Every field of an event is required."""
    text = replace_once(short_text(), 'drawn = "1-31"\n', "")
    assert str(refused(text)) == "event #7 (card_reserved): missing 'drawn'"


@pytest.mark.parametrize(
    ("old", "new", "where", "key"),
    [
        ("seq = 3\n", 'seq = "3"\n', "event #3 (tokens_taken)", "seq"),
        ("seq = 8\n", "seq = 8.0\n", "event #8 (card_purchased)", "seq"),
        ('player = "bob"\ncard = "1-09"', 'player = 2\ncard = "1-09"', "event #7 (card_reserved)", "player"),
        ("blind = false", "blind = 0", "event #7 (card_reserved)", "blind"),
        ('gold = true\ndrawn = "1-31"', 'gold = 1\ndrawn = "1-31"', "event #7 (card_reserved)", "gold"),
        ("to = 4", 'to = "4"', "event #6 (turn_undone)", "to"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(old: str, new: str, where: str, key: str) -> None:
    """A value of the wrong TOML type is refused, even one that Python finds equal (1 == true,
    8.0 == 8) or that cattrs would coerce ("3" -> 3)."""
    text = replace_once(short_text(), old, new)
    assert str(refused(text)) == f"{where}: wrong type for {key!r}"


@pytest.mark.parametrize(
    ("old", "new"),
    [('gems = ["red", "red"]', 'gems = "red"'), ('gems = ["red", "red"]', 'gems = ["red", "ruby"]')],
)
def test_a_bad_array_is_refused(old: str, new: str) -> None:
    """Arrays of gems hold gem names only."""
    text = replace_once(short_text(), old, new)
    assert str(refused(text)).startswith("event #3 (tokens_taken): ")


def test_an_edited_past_event_breaks_the_chain() -> None:
    """Editing an event changes its digest, so the next event's `parent` no longer matches."""
    text = replace_once(short_text(), 'gems = ["red", "red"]', 'gems = ["black", "black"]')
    error = refused(text)
    assert str(error).startswith("event #4: parent is ")
    assert "edited" in str(error)


def test_an_edited_header_breaks_the_chain() -> None:
    """The first event's parent is the header's digest: the header cannot be edited either."""
    text = replace_once(short_text(), 'game = "codec-demo"', 'game = "other"')
    assert str(refused(text)).startswith("event #1: parent is ")


def test_a_removed_event_is_refused() -> None:
    """Removing an event leaves a gap in `seq`."""
    text = short_text()
    start, end = block(text, 4)
    assert str(refused(text[:start] + text[end:])) == "event #4: seq is 5, expected 4 (events removed or reordered?)"


def test_reordered_events_are_refused() -> None:
    """Swapping two events puts `seq` out of order."""
    text = short_text()
    s3, e3 = block(text, 3)
    s4, e4 = block(text, 4)
    swapped = text[:s3] + text[s4:e4] + text[s3:e3] + text[e4:]
    assert str(refused(swapped)).startswith("event #3: seq is 4, expected 3")


def test_a_newer_format_is_refused() -> None:
    """A file of a newer format is refused with a hint to upgrade, not misread."""
    error = refused(short_text().replace("format = 2\n", f"format = {FORMAT + 1}\n"))
    assert "newer" in str(error) and "upgrade" in str(error)


@pytest.mark.parametrize("text", ["", 'game = "x"\n', '[[events]]\ntype = "turn_passed"\n'])
def test_a_file_without_format_is_refused(text: str) -> None:
    """A TOML file without `format` is not a game file."""
    assert "no 'format' key" in str(refused(text))


def test_a_header_with_an_unknown_key_is_refused() -> None:
    """The header is read as strictly as the events."""
    text = short_text().replace("format = 2\n", "format = 2\nrated = true\n")
    assert str(refused(text)) == "header: unknown 'rated'"


# -- rules checked on replay -----------------------------------------------------------------


def _rule_broken(events: list[Event], seq: int) -> CorruptLogError:
    """The edited log reads well (the chain is sealed again) but replay refuses event `seq`."""
    record = parse_text(format_record(resealed(events)))
    with pytest.raises(CorruptLogError) as info:
        replay(BASE, record.events)
    assert info.value.seq == seq
    assert str(info.value).startswith(f"event #{seq}: ")
    assert "\n" not in str(info.value)
    return info.value


def test_replay_refuses_tokens_the_bank_did_not_have() -> None:
    """A hand-edited take of a colour the bank had run out of is refused, naming the seq."""
    game = started(("ann", "bob"), [], [], [], ["N01", "N02", "N03"])
    for move in ("take r r", "take r u g", "take r w k", "take w u g"):
        game = step(game, move)
    events = list(game.events)
    assert game.states[-2].bank[Gem.RED] == 0
    events[4] = attrs.evolve(events[4], gems=(Gem.BLUE, Gem.GREEN, Gem.RED))
    error = _rule_broken(events, 5)
    assert "the bank has no red" in str(error)


def test_replay_refuses_a_card_that_was_not_on_the_board() -> None:
    """A hand-edited reserve of a card still inside the deck is refused, naming the seq."""
    events = list(short_game().events)
    assert isinstance(events[6], CardReserved)
    events[6] = attrs.evolve(events[6], card="1-40")
    assert "not face up" in str(_rule_broken(events, 7))


def test_replay_refuses_a_drawn_card_that_was_not_on_top_of_the_deck() -> None:
    """The card dealt into an emptied slot must be the top of the deck."""
    events = list(short_game().events)
    events[6] = attrs.evolve(events[6], drawn="1-40")
    assert "drawn is '1-40', the rules give '1-31'" in str(_rule_broken(events, 7))


def test_replay_refuses_a_wrong_payment() -> None:
    """A buy paid with other tokens than the card costs is refused."""
    events = list(short_game().events)
    assert isinstance(events[7], CardPurchased)
    events[7] = attrs.evolve(events[7], payment=(Gem.WHITE, Gem.BLUE, Gem.BLUE))
    assert "needs 1 blue after bonuses, not 2" in str(_rule_broken(events, 8))


def test_replay_refuses_a_turn_out_of_order() -> None:
    """An event played by the player who was not to move is refused."""
    events = list(short_game().events)
    assert isinstance(events[1], TokensTaken)
    events[1] = attrs.evolve(events[1], player="bob")
    assert "ann's turn" in str(_rule_broken(events, 2))


def test_replay_refuses_an_unearned_noble() -> None:
    """A noble written into a turn whose player does not qualify is refused."""
    events = list(short_game().events)
    events[1] = attrs.evolve(events[1], noble="N01")
    assert "N01" in str(_rule_broken(events, 2))


def test_replay_refuses_an_undo_to_nowhere() -> None:
    """An undo must name an effective earlier event."""
    events = list(short_game().events)
    assert isinstance(events[5], TurnUndone)
    events[5] = attrs.evolve(events[5], to=99)
    assert "cannot undo" in str(_rule_broken(events, 6))


def test_replay_refuses_a_second_setup() -> None:
    """There is one game_started event, the first."""
    events = list(short_game().events)
    assert isinstance(events[0], GameStarted)
    events.append(attrs.evolve(events[0], seq=9))
    _rule_broken(events, 9)


def test_without_resealing_the_chain_catches_the_same_edit() -> None:
    """The rule check is a second line: an edit that is not sealed again breaks the chain first."""
    record = short_record()
    events = list(record.events)
    events[6] = attrs.evolve(events[6], card="1-40")
    with pytest.raises(GameFileError, match=r"^event #8: parent is "):
        parse_text(format_record(attrs.evolve(record, events=tuple(events))))
