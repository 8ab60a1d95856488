"""The SVG layer both games draw with (splendor_cli/presentation/svg_elements.py): elements, escaping, the
document, the shared pieces; every game's `board_svg` escapes what comes from a file, is pure
and is loaded only when asked for."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest
from helpers import BASE, ROOT, new_duel, new_game, step
from svg_helpers import SVG, outline
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from toy_game import VARIANT as TOY

from splendor_cli.model import Gem, Tokens
from splendor_cli.presentation import svg_elements as svg
from splendor_cli.projection import Game
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.projection.variant import name_problem
from splendor_cli.variants import find_variant
from splendor_cli.variants.base.cards import CARDS
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS

NASTY = "a<b & \"c\" 'd'>"


class SvgSnapshot(SingleFileSnapshotExtension):
    file_extension = "svg"
    _write_mode = WriteMode.TEXT


@pytest.fixture
def svg_snapshot(snapshot: Any) -> Any:
    return snapshot.with_defaults(extension_class=SvgSnapshot)


@attrs.frozen
class Moment:
    """A moment of a game as a board draws it (`seq`, `state`), here with a state no file could give."""

    seq: int
    state: Any


# -- escaping --------------------------------------------------------------------------------------


def test_escape() -> None:
    """The markup characters become entities; a control character is made visible as `safe` does
    for a terminal; what XML cannot hold at all becomes U+FFFD."""
    assert svg.escape(NASTY) == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
    assert svg.escape("\x1b[31m\x00") == "\\x1b[31m\\x00"
    assert svg.escape("a\ufffeb\ud800") == "a\ufffdb\ufffd"
    assert svg.escape("plain 1-08") == "plain 1-08"


def test_every_attribute_and_text_is_escaped() -> None:
    """What comes back from an XML parser is what went in: nothing of a value leaks into markup."""
    element = svg.el("g", svg.el("text", NASTY, x=1), id=NASTY, class_="player")
    parsed = ET.fromstring(element.xml())
    assert parsed.get("id") == NASTY and parsed.get("class") == "player"
    child = parsed.find("text")
    assert child is not None and child.text == NASTY


def test_elements() -> None:
    """Keywords name attributes (`class_`, `font_size`), None leaves one out, numbers lose their
    trailing zeros; an element without children closes itself; a bool is refused."""
    element = svg.el("rect", None, x=1.50, y=2.0, width=3, font_size=12, class_="a", fill=None)
    assert element.xml() == '<rect x="1.5" y="2" width="3" font-size="12" class="a"/>'
    with pytest.raises(TypeError):
        svg.el("rect", hidden=True).xml()


def test_a_name_no_rule_allows_is_still_escaped() -> None:
    """The name rule forbids `<`, `&` and quotes; a state made by hand with such a name is drawn
    escaped all the same, by both games (in the player's area, its ids and the accessible name)."""
    assert name_problem(NASTY)
    for game in (new_game(("ann", "bob"), seed=1), new_duel(seed=1)):
        state = game.state
        players = (attrs.evolve(state.players[0], name=NASTY), *state.players[1:])
        forged = Moment(seq=1, state=attrs.evolve(state, players=players))
        text = game.variant.board_svg(forged)
        assert NASTY not in text and "a&lt;b &amp; &quot;c&quot;" in text
        root = ET.fromstring(text)
        assert any(e.get("id") == f"player-{NASTY}" for e in root.iter())
        assert NASTY in (root.get("aria-label") or "")


# -- the document and the pieces -------------------------------------------------------------------


def test_a_document_is_self_contained() -> None:
    text = svg.document(100, 50, "a <table>", [svg.text(5, 20, "hi", size=12)], background=svg.FELT)
    assert text.startswith("<svg ") and text.endswith("</svg>\n")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert {k: root.get(k) for k in ("viewBox", "width", "height", "role", "aria-label", "font-family")} == {
        "viewBox": "0 0 100 50",
        "width": "100",
        "height": "50",
        "role": "img",
        "aria-label": "a <table>",
        "font-family": "sans-serif",
    }
    title = root.find(f"{SVG}title")
    background = root.find(f"{SVG}rect")
    assert title is not None and title.text == "a <table>"
    assert background is not None and (background.get("width"), background.get("fill")) == ("100", svg.FELT)


def test_every_gem_carries_its_letter() -> None:
    """Colour-blind safe: a token, a pile and a cost pill say their gem's letter."""
    for gem in Gem:
        pill = svg.el("g", *svg.cost_pill(gem, 3, 0, 0))
        for element in (svg.token(gem, 10, 10, 10), svg.pile(gem, 2, 0, 0, r=10), pill):
            texts = "".join(ET.fromstring(element.xml()).itertext())
            assert gem.letter in texts


def test_a_changed_piece_is_outlined() -> None:
    plain = svg.piece(10, 20, 30, 40, [svg.el("rect", width=30, height=40)], kind="card", id="card-1-01")
    marked = svg.piece(10, 20, 30, 40, [svg.el("rect", width=30, height=40)], kind="card", id="card-1-01", changed=True)
    assert ET.fromstring(plain.xml()).get("class") == "card"
    root = ET.fromstring(marked.xml())
    assert root.get("class") == "card changed" and root.get("transform") == "translate(10,20)"
    assert root[-1].get("stroke") == svg.HIGHLIGHT


def test_a_card_back_says_its_level_only() -> None:
    back = svg.card_back(2, 0, 0, id="hidden-ann-1")
    assert [t for t in ET.fromstring(back.xml()).itertext() if t.strip()] == ["II"]


def test_pieces(svg_snapshot: Any) -> None:
    """A base card, Duel cards (crowns, an ability, a double bonus, a wild one, no bonus), a noble,
    a deck and a face-down card, a changed token pile: side by side."""
    duel = [DUEL_CARDS[c] for c in ("1-04", "2-04", "1-26", "3-13", "3-05")]
    pieces = [
        svg.card_face(CARDS["3-15"], 10, 10, id="card-3-15"),
        *(svg.card_face(card, 110 + 100 * i, 10, id=f"duel-{card.id}") for i, card in enumerate(duel)),
        svg.noble_tile("N03", 3, Tokens.of(red=4, green=4), 10, 150, id="noble-N03"),
        svg.deck(1, 36, 110, 150, changed=True),
        svg.deck(3, 0, 210, 150),
        svg.card_back(2, 310, 150, scale=0.72),
        svg.pile(Gem.GOLD, 5, 400, 160, r=22, id="bank-gold", changed=True),
        svg.legend((*Gem,), 10, 290),
    ]
    assert svg.document(620, 310, "pieces", pieces, background=svg.FELT) == svg_snapshot


def test_the_outline_shows_what_a_person_sees() -> None:
    """What the games' snapshots hold (svg_helpers.outline) changes past its digest with a card, a
    token count, a name or a mark; a change of colour alone changes the digest only."""

    def seen(picture: str) -> str:
        digest, rest = outline(picture).split("\n", 1)
        assert digest.startswith("sha256 ")
        return rest

    game = new_game(("ann", "bob"), seed=1)
    fresh = BASE.board_svg(game)
    taken = step(game, "take w u g")
    others = [
        BASE.board_svg(new_game(("ann", "bob"), seed=2)),  # other cards
        BASE.board_svg(new_game(("ann", "cy"), seed=1)),  # another name
        BASE.board_svg(taken),  # the tokens moved
        BASE.board_svg(taken, event=taken.events[-1]),  # and marked
    ]
    views = [seen(picture) for picture in (fresh, *others)]
    assert len(set(views)) == len(views)
    recoloured = fresh.replace(svg.PALETTE[Gem.RED].fill, "#ff0000")
    assert recoloured != fresh and seen(recoloured) == seen(fresh) and outline(recoloured) != outline(fresh)


# -- every game -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["base", "duel"])
def test_every_game_draws_a_picture_purely(name: str) -> None:
    """The same moment draws the same text twice, whatever the game; the moment is not changed."""
    variant = find_variant(name)
    setup = variant.deal(variant.demo_players, RandomChance(random.Random(4)))
    game = Game(variant=variant).apply(setup)
    before = game.state
    assert variant.board_svg(game, event=setup) == variant.board_svg(game, event=setup)
    assert game.state == before


def test_the_toy_game_draws_a_picture_too() -> None:
    """The third game implements the protocol's `board_svg`: a tiny picture, the scorer marked."""
    game = Game(variant=TOY).apply(TOY.deal(("ann", "bob"), RandomChance(random.Random(1))))
    game = game.apply(attrs.evolve(game.decide("take"), seq=game.seq + 1))
    root = ET.fromstring(TOY.board_svg(game, seat="ann", event=game.events[-1]))
    assert root.get("role") == "img" and root.get("aria-label", "").startswith("Two cards")
    marked = [e.get("id") for e in root.iter() if "changed" in (e.get("class") or "").split()]
    assert marked == ["player-ann"]


def test_a_picture_is_loaded_only_when_asked_for() -> None:
    """Importing a game (and playing a turn) loads none of the SVG modules; drawing one loads its own."""
    code = (
        "import json, random, sys, attrs\n"
        "from splendor_cli.projection import Game\n"
        "from splendor_cli.projection.seeding import RandomChance\n"
        "from splendor_cli.variants import find_variant\n"
        "v = find_variant('base')\n"
        "game = Game(variant=v).apply(v.deal(('ann', 'bob'), RandomChance(random.Random(1))))\n"
        "game = game.apply(attrs.evolve(game.decide(v.parse_moves('take w u g')[0]), seq=2))\n"
        "pictures = lambda: sorted(m for m in sys.modules if 'svg' in m.rpartition('.')[2])\n"
        "before = pictures()\n"
        "game.variant.board_svg(game)\n"
        "after = pictures()\n"
        "print(json.dumps([before, after]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    before, after = json.loads(result.stdout.splitlines()[-1])
    assert before == []
    assert after == [
        "splendor_cli.presentation.svg_elements",
        "splendor_cli.presentation.svgtable",
        "splendor_cli.variants.base.svg",
    ]
