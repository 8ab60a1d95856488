"""The table of a Splendor Duel as an SVG picture (`Variant.board_svg`, the package's svg.py): well
formed, self-contained, its ids (the 25 cells, the bag, the privileges, the royal cards), what a
step changed, blind reserves, its size; snapshotted as outlines (tests/svg_helpers.py: what each
piece says and which are marked, and a digest of the bytes)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest
from helpers import DUEL, ROOT, new_duel
from svg_helpers import SVG, OutlineSnapshot, by_id, changed, checked, inside, outline

from splendor_cli import store
from splendor_cli.model import Gem
from splendor_cli.projection import Game
from splendor_cli.variants.duel.cards import CARDS
from splendor_cli.variants.duel.events import DuelCardBought, GoldReserved, LineTaken, RoyalTaken
from splendor_cli.variants.duel.state import CELLS
from splendor_cli.variants.duel.step import Step

SAMPLE = ROOT / "games" / "sample-duel.toml"


def picture(game: Game, seat: str | None = None) -> ET.Element:
    """The picture of `game`, its last event highlighted, parsed after checking that it is one
    self-contained document with unique ids."""
    return checked(DUEL.board_svg(game, seat=seat, event=game.events[-1]))


def play(game: Game, text: str | Step) -> Game:
    """One step as the CLI plays it: parsed, decided (a replenish drawn from the log), folded."""
    step = DUEL.parse_moves(text)[0] if isinstance(text, str) else text
    return game.apply(attrs.evolve(game.decide(step), seq=game.seq + 1))


def sample(seq: int) -> Game:
    return store.read(SAMPLE).game.at(seq)


# -- the document ----------------------------------------------------------------------------------


def test_a_fresh_table() -> None:
    """The root says what it is; the 25 cells with the tokens the setup drew, the bag, the
    supply of privileges, the pyramid and its decks, the royal cards and both players are there."""
    game = new_duel(seed=1)
    root = picture(game)
    assert root.get("role") == "img" and root.get("aria-label") == "Splendor Duel, turn 1: ann to move"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    ids = by_id(root)
    assert {f"cell-{cell}" for cell in CELLS} <= set(ids)
    for cell, gem in zip(CELLS, game.state.board):
        assert gem is not None
        assert gem.letter in {t.text for t in ids[f"cell-{cell}"].iter(f"{SVG}text")}
    cards = {i for i in ids if i.startswith("card-")}
    assert cards == {f"card-{c}" for row in game.state.pyramid for c in row if c}
    assert len(cards) == 12
    assert {"bag", "privileges", "turn", "deck-1", "deck-2", "deck-3", "player-ann", "player-bob"} <= set(ids)
    assert {f"royal-R{n}" for n in (1, 2, 3, 4)} <= set(ids)
    assert {"a", "b", "c", "d", "e", "1", "2", "3", "4", "5"} <= {t.text for t in ids["board"].iter(f"{SVG}text")}
    assert len(list(ids["player-bob-privileges"].iter(f"{SVG}circle"))) == 1  # bob starts with one
    assert changed(root) == set()


def test_a_card_shows_crowns_ability_and_wild() -> None:
    """A Duel card: crowns (a crown and the count), its ability in words, a wild bonus marked."""
    game = new_duel(seed=1)
    root = picture(game)
    shown = [c for row in game.state.pyramid for c in row if c]
    for card_id in shown:
        card = CARDS[card_id]
        element = by_id(root)[f"card-{card_id}"]
        texts = {t.text for t in element.iter(f"{SVG}text")}
        assert card_id in texts
        if card.crowns:
            assert str(card.crowns) in texts and element.find(f".//{SVG}g[@class='crowns']") is not None
        if card.ability and card.ability != "wild":
            assert card.ability in texts
        if card.wild:
            assert element.find(f".//{SVG}g[@class='wild']") is not None
        for gem, n in card.cost.items():
            assert f"{gem.letter}{n}" in texts


def test_every_moment_of_the_sample_duel() -> None:
    """Every table of games/sample-duel.toml, each with the step that led to it: well formed, ids
    unique, each change of the step drawn."""
    game = store.read(SAMPLE).game
    for seq in range(1, game.seq + 1):
        root = picture(game.at(seq))
        marks = changed(root)
        event = game.events[seq - 1]
        if isinstance(event, LineTaken):
            assert {f"cell-{cell}" for cell in event.cells} <= marks
        if isinstance(event, GoldReserved | DuelCardBought):
            assert f"card-{event.card}" in marks
            if event.drawn:
                assert {f"card-{event.drawn}", f"deck-{CARDS[event.card].level}"} <= marks
        if isinstance(event, RoyalTaken):
            assert inside(root, f"player-{event.player}", f"royal-{event.royal}")
        assert marks <= set(by_id(root))


# -- what a step changed ---------------------------------------------------------------------------


def test_a_take_marks_the_cells_and_the_tokens() -> None:
    """games/sample-duel.toml #2: ann takes c2 d2 e2 (white white red)."""
    root = picture(sample(2))
    assert changed(root) == {"cell-c2", "cell-d2", "cell-e2", "player-ann-tokens-white", "player-ann-tokens-red"}
    assert "empty" in (by_id(root)["cell-c2"].get("class") or "").split()


def test_a_replenish_marks_the_cells_filled_the_bag_and_the_privilege() -> None:
    """#13: ann replenishes seven cells from the bag; bob takes a privilege from the supply."""
    root = picture(sample(13))
    cells = {f"cell-{c}" for c in ("c3", "c4", "b3", "b2", "c2", "d2", "d3")}
    assert changed(root) == cells | {"bag", "privileges", "player-bob-privileges"}


def test_a_royal_card_is_marked_in_its_new_owners_area() -> None:
    """#43: bob takes R2 (again): it leaves the table for his area."""
    root = picture(sample(43))
    assert changed(root) == {"royal-R2", "player-bob-points"}
    assert inside(root, "player-bob-royals", "royal-R2")
    assert {"royal-R1", "royal-R3", "royal-R4"} <= set(by_id(root))


def test_a_steal_marks_both_players_tokens() -> None:
    """#76: bob steals a white token from ann."""
    assert changed(picture(sample(76))) == {"player-bob-tokens-white", "player-ann-tokens-white"}


def test_a_blind_reserve_is_face_down_but_for_its_owner() -> None:
    """ann takes the gold of the board and the top of deck 2: face down (its level only, its id
    nowhere) to a spectator and to bob, face up to ann; the gold's cell and the deck are marked."""
    game = new_duel(seed=1)
    gold = CELLS[game.state.board.index(Gem.GOLD)]
    game = play(game, f"reserve deck 2 {gold}")
    card = game.state.players[0].reserved[0]
    for seat in (None, "bob"):
        root = picture(game, seat)
        assert f"card-{card}" not in by_id(root) and card not in ET.tostring(root, encoding="unicode")
        assert changed(root) == {f"cell-{gold}", "deck-2", "hidden-ann-1", "player-ann-tokens-gold"}
    root = picture(game, "ann")
    assert inside(root, "player-ann-reserved", f"card-{card}")
    assert changed(root) == {f"cell-{gold}", "deck-2", f"card-{card}", "player-ann-tokens-gold"}


def test_a_privilege_used_goes_back_to_the_supply() -> None:
    """bob spends his privilege on a cell: the cell, his token, his privileges and the supply."""
    game = new_duel(seed=1)
    first = next(c for c, gem in zip(CELLS, game.state.board) if gem is not Gem.GOLD)
    game = play(game, f"take {first}")
    cell = next(c for c, gem in zip(CELLS, game.state.board) if gem not in (None, Gem.GOLD))
    game = play(game, f"privilege {cell}")
    gem = game.events[-1].gem
    assert changed(picture(game)) == {f"cell-{cell}", f"player-bob-tokens-{gem}", "player-bob-privileges", "privileges"}


# -- the result, the size, snapshots ---------------------------------------------------------------


def test_the_result_heads_a_finished_duel() -> None:
    root = picture(store.read(SAMPLE).game)
    assert root.get("aria-label") == "Splendor Duel, game over: bob won with 21 points"
    assert "winner" in "".join(by_id(root)["player-bob"].itertext())


@pytest.mark.parametrize("where", ["middle", "end"])
def test_a_table_is_small(where: str) -> None:
    game = store.read(SAMPLE).game
    seq = game.seq // 2 if where == "middle" else game.seq
    assert len(DUEL.board_svg(game.at(seq), event=game.events[seq - 1]).encode()) < 60_000


def test_snapshot_fresh(snapshot: Any) -> None:
    """The outline of a fresh Duel (svg_helpers.outline: what each piece says, what is marked, and
    the digest of the bytes)."""
    assert outline(DUEL.board_svg(new_duel(seed=1))) == snapshot(extension_class=OutlineSnapshot)


def test_snapshot_sample_end(snapshot: Any) -> None:
    """ann's view of the end of games/sample-duel.toml: bob the winner, royal cards won."""
    game = store.read(SAMPLE).game
    svg = DUEL.board_svg(game, seat="ann", event=game.events[-1])
    assert outline(svg) == snapshot(extension_class=OutlineSnapshot)
