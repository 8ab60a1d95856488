"""The table of Splendor as an SVG picture (`Variant.board_svg`, the package's svg.py): well formed,
self-contained, its ids, what an event changed, blind reserves, its size; snapshotted as outlines
(tests/svg_helpers.py: what each piece says and which are marked, and a digest of the bytes)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from helpers import BASE, ROOT, new_game, random_game, step, undo
from svg_helpers import SVG, OutlineSnapshot, by_id, changed, checked, inside, outline

from splendor_cli import store
from splendor_cli.projection import Game
from splendor_cli.variants.base.cards import CARDS
from splendor_cli.variants.base.events import CardPurchased, CardReserved, TokensTaken


def picture(game: Game, seat: str | None = None, *, event: bool = True) -> ET.Element:
    """The picture of `game` (the last event highlighted unless `event` is false), parsed, after
    checking that it is one self-contained document."""
    return checked(BASE.board_svg(game, seat=seat, event=game.events[-1] if event else None))


def game_with_reserves() -> Game:
    """ann and bob take tokens (one take undone); bob reserves the top of deck 1 blind (1-38), ann
    buys 1-02 (1-33 dealt in its place), bob reserves 2-21 face up (2-05 dealt)."""
    game = new_game(("ann", "bob"), seed=1)
    for move in ("take w u g", "take r k w", "take g r k", "take w u g"):
        game = step(game, move)
    game = undo(game)
    for move in ("reserve deck 1", "buy 1-02", "reserve 2-21"):
        game = step(game, move)
    return game


# -- the document ----------------------------------------------------------------------------------


def test_a_fresh_table() -> None:
    """The root says what it is (namespace, viewBox, size, role, accessible name) and draws its own
    background; every piece of the table is there under its id."""
    game = new_game(("ann", "bob"), seed=1)
    root = picture(game)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == "Splendor, turn 1: ann to move"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert root.get("font-family") == "sans-serif"
    background = root.find(f"{SVG}rect")
    assert background is not None and background.get("width") == root.get("width")
    assert background.get("fill", "none") != "none"
    ids = by_id(root)
    cards = {i for i in ids if i.startswith("card-")}
    assert cards == {f"card-{c}" for row in game.state.board for c in row if c}
    assert len(cards) == 12
    assert {"deck-1", "deck-2", "deck-3", "turn", "player-ann", "player-bob"} <= set(ids)
    assert {f"bank-{gem}" for gem in ("white", "blue", "green", "red", "black", "gold")} <= set(ids)
    assert {f"noble-{n}" for n in game.state.nobles} <= set(ids)
    assert "to move" in "".join(ids["turn"].itertext())
    assert changed(root) == set()  # the setup changes nothing


def test_a_card_shows_what_a_player_needs() -> None:
    """A face-up card: its id, points, bonus letter, and its cost as letter-and-number pills."""
    root = picture(new_game(("ann", "bob"), seed=1))
    card = by_id(root)["card-3-15"]  # 4 points, red, costs u3 g6 r3
    texts = [t.text for t in card.iter(f"{SVG}text")]
    assert {"3-15", "4", "r", "u3", "g6", "r3"} <= set(texts)


def test_every_moment_of_the_sample_game() -> None:
    """Every table of games/sample-3p.toml, each with the event that led to it: well formed, ids
    unique, and each change the event made is drawn (the card bought or reserved, the one dealt,
    the bank's piles, the noble that visited)."""
    game = store.read(ROOT / "games" / "sample-3p.toml").game
    for seq in range(1, game.seq + 1):
        moment = game.at(seq)
        root = picture(moment)
        marks = changed(root)
        event = game.events[seq - 1]
        if isinstance(event, TokensTaken):
            assert {f"bank-{gem}" for gem in event.gems} <= marks
        if isinstance(event, CardPurchased | CardReserved):
            assert f"card-{event.card}" in marks or (isinstance(event, CardReserved) and event.blind)
            if event.drawn:
                assert {f"card-{event.drawn}", f"deck-{CARDS[event.card].level}"} <= marks
        if getattr(event, "noble", ""):
            assert inside(root, f"player-{event.player}", f"noble-{event.noble}")
            assert {f"noble-{event.noble}", f"player-{event.player}-points"} <= marks
        assert marks <= set(by_id(root))


# -- what an event changed -------------------------------------------------------------------------


def test_a_take_marks_the_piles_it_moved() -> None:
    game = step(new_game(("ann", "bob"), seed=1), "take w u g")
    marks = changed(picture(game))
    assert marks == {
        *(f"bank-{gem}" for gem in ("white", "blue", "green")),
        *(f"player-ann-tokens-{gem}" for gem in ("white", "blue", "green")),
    }
    assert changed(picture(game, event=False)) == set()


def test_a_buy_marks_the_card_the_card_dealt_and_the_payment() -> None:
    """ann buys 1-02 (white) with blue, green, red and black: the card (now in her white stack),
    1-33 dealt in its place from deck 1, the four piles and her tokens, her white bonus."""
    game = game_with_reserves().at(8)
    root = picture(game)
    assert changed(root) == {
        "card-1-02",
        "card-1-33",
        "deck-1",
        "player-ann-bonus-white",
        *(f"bank-{gem}" for gem in ("blue", "green", "red", "black")),
        *(f"player-ann-tokens-{gem}" for gem in ("blue", "green", "red", "black")),
    }
    assert inside(root, "player-ann", "card-1-02")


def test_a_blind_reserve_is_face_down_but_for_its_owner() -> None:
    """bob reserves the top of deck 1 (1-38) blind: a spectator and ann see a level-1 card back
    (its id nowhere in the picture), bob sees it face up; the deck and the gold moved are marked."""
    game = game_with_reserves().at(7)
    for seat in (None, "ann", "nobody"):
        root = picture(game, seat)
        assert "card-1-38" not in by_id(root)
        hidden = by_id(root)["hidden-bob-1"]
        assert "back" in (hidden.get("class") or "").split()
        assert "1-38" not in ET.tostring(root, encoding="unicode")
        assert changed(root) == {"hidden-bob-1", "deck-1", "bank-gold", "player-bob-tokens-gold"}
    root = picture(game, "bob")
    assert inside(root, "player-bob", "card-1-38")
    assert "hidden-bob-1" not in by_id(root)
    assert changed(root) == {"card-1-38", "deck-1", "bank-gold", "player-bob-tokens-gold"}


def test_a_face_up_reserve_marks_the_card_dealt() -> None:
    game = game_with_reserves()
    root = picture(game)
    assert changed(root) == {"card-2-21", "card-2-05", "deck-2", "bank-gold", "player-bob-tokens-gold"}
    assert inside(root, "player-bob-reserved", "card-2-21")
    assert "hidden-bob-1" in by_id(root)  # the blind one, still face down to a spectator


def test_a_noble_visit_is_marked_in_the_visited_players_area() -> None:
    """games/sample-3p.toml #70: ann buys 2-02 and N06 visits her."""
    game = store.read(ROOT / "games" / "sample-3p.toml").game.at(70)
    root = picture(game)
    assert {"noble-N06", "player-ann-points", "card-2-02", "card-2-03"} <= changed(root)
    assert inside(root, "player-ann", "noble-N06")


def test_an_undo_changes_nothing() -> None:
    game = undo(step(new_game(("ann", "bob"), seed=1), "take w u g"))
    assert changed(picture(game)) == set()


# -- the result, the size, snapshots ---------------------------------------------------------------


def test_the_result_heads_a_finished_game() -> None:
    game = store.read(ROOT / "games" / "sample-3p.toml").game
    root = picture(game)
    headline = " ".join("".join(by_id(root)["turn"].itertext()).split())
    assert "game over" in headline and "cy won with 17 points" in headline
    assert root.get("aria-label") == "Splendor, game over: cy won with 17 points"


@pytest.mark.parametrize("where", ["middle", "end"])
def test_a_table_is_small(where: str) -> None:
    """The sample game and a 4-player game, in their middle and at their end: under 60 KB each."""
    for game in (store.read(ROOT / "games" / "sample-3p.toml").game, random_game(3, players=4)):
        seq = game.seq // 2 if where == "middle" else game.seq
        svg = BASE.board_svg(game.at(seq), event=game.events[seq - 1])
        assert len(svg.encode()) < 60_000


def test_snapshot_fresh(snapshot: Any) -> None:
    """The outline of a fresh table (svg_helpers.outline: what each piece says, what is marked,
    and the digest of the bytes)."""
    assert outline(BASE.board_svg(new_game(("ann", "bob"), seed=1))) == snapshot(extension_class=OutlineSnapshot)


def test_snapshot_reserves(snapshot: Any) -> None:
    """bob's view after his face-up reserve: his blind reserve face up, the changes marked."""
    game = game_with_reserves()
    svg = BASE.board_svg(game, seat="bob", event=game.events[-1])
    assert outline(svg) == snapshot(extension_class=OutlineSnapshot)


def test_snapshot_four_players(snapshot: Any) -> None:
    """A spectator's view of four players late in a game: blind reserves face down, nobles won."""
    game = random_game(6, players=4, max_turns=100)
    assert outline(BASE.board_svg(game, event=game.events[-1])) == snapshot(extension_class=OutlineSnapshot)
