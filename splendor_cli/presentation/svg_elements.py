"""The pieces both games' pictures are drawn with, as SVG: a small typed element tree, escaping,
the gem palette, and the shared pieces (a card face up or down, a token, a noble tile). How both
tables lay these out the same way (the headline, a player's area) is in `svgtable`.

Pure: values in, text out (no file, no font, no clock). A picture is one self-contained SVG
document: no external font, image, script, link or `url(` (so no gradient, clip-path, filter
nor `<use>`), the font family generic, and an opaque background of its own so that it reads on
a light page and a dark one alike. Every string that comes from a game file (names, ids) goes
through `escape` on its way out: `Element.xml` escapes every attribute value and every text.

Colour-blind safe: every gem carries its letter wherever it is drawn (`w u g r k`, `*` for
gold, `p` for a Duel pearl, as `Gem.letter` gives them and the terminal boards print them).
What the event that led to the picture changed is drawn with a bright outline and carries
`class="changed"` (the replay page and the tests find it by that class).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping

import attrs

from ..errors import safe
from ..model import Card, Gem, Tokens
from ..sealing.placeholders import is_placeholder, level_of

Value = str | int | float
"""An attribute's value: numbers are written without trailing zeros."""


@attrs.frozen
class Element:
    """An SVG element: its tag, attributes (in order) and children (elements, or text)."""

    tag: str
    attributes: tuple[tuple[str, Value], ...] = ()
    children: tuple[Element | str, ...] = ()

    def xml(self) -> str:
        """The element as XML text, every attribute value and text escaped."""
        out: list[str] = []
        self._write(out)
        return "".join(out)

    def _write(self, out: list[str]) -> None:
        out.append(f"<{self.tag}")
        for name, value in self.attributes:
            out.append(f' {name}="{_value(value)}"')
        if not self.children:
            out.append("/>")
            return
        out.append(">")
        for child in self.children:
            if isinstance(child, Element):
                child._write(out)
            else:
                out.append(escape(child))
        out.append(f"</{self.tag}>")


def el(tag: str, *children: Element | str | None, **attributes: Value | None) -> Element:
    """An element: `el("text", "3", x=4, font_size=12, class_="points")`.

    A keyword's trailing `_` is dropped (`class_`) and its other `_` become `-` (`font-size`);
    attributes and children that are None are left out.
    """
    named = tuple((_attribute_name(k), v) for k, v in attributes.items() if v is not None)
    return Element(tag, named, tuple(c for c in children if c is not None))


def _attribute_name(keyword: str) -> str:
    return keyword.rstrip("_").replace("_", "-")


def _value(value: Value) -> str:
    if isinstance(value, bool):  # a bool is an int: never meant as an attribute
        raise TypeError("an SVG attribute is a string or a number, not a bool")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return escape(value)


_XML_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;", ord("'"): "&#39;"}
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")
"""What XML 1.0 cannot hold even escaped (besides the control characters `safe` makes visible)."""


def escape(text: str) -> str:
    """`text` (from a file, perhaps) safe inside an SVG attribute value or text: the markup
    characters `& < > " '` as entities, the control characters XML cannot hold made visible as
    `safe` does for a terminal (`\\x1b`), and what no XML can hold replaced by U+FFFD.

    >>> escape('a<b & "c"')
    'a&lt;b &amp; &quot;c&quot;'
    """
    return _NOT_XML.sub("\ufffd", safe(text)).translate(_XML_ESCAPES)


def document(width: int, height: int, label: str, children: Iterable[Element], *, background: str) -> str:
    """One self-contained SVG document: the size, its accessible name (`aria-label` and
    `<title>`), an opaque background, then `children`. Text is bold and of colour `INK` unless
    it says otherwise (the most frequent: `text` leaves them out)."""
    root = el(
        "svg",
        el("title", label),
        el("rect", width=width, height=height, fill=background),
        *children,
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width} {height}",
        width=width,
        height=height,
        role="img",
        aria_label=label,
        font_family="sans-serif",
        font_weight="bold",
        fill=INK,
    )
    return root.xml() + "\n"


# -- colours ---------------------------------------------------------------------------------------

FELT = "#123d2e"
"""The table: deep green, opaque."""
MAT = "#1a4f3c"
"""A player's area, and the table's centre."""
MAT_EDGE = "#2e7559"
INK = "#f3f1e7"
"""Text on the felt."""
MUTED = "#9fc2b2"
"""Quieter text on the felt."""
TO_MOVE = "#ffe27a"
"""The edge of the area of the player to move (or of the winner)."""
HIGHLIGHT = "#ff45d0"
"""What the last event changed: a thick outline of a hue no gem has."""
PAPER = "#fbf7ec"
PAPER_EDGE = "#b9ae92"
PAPER_INK = "#2a2a2a"
PAPER_MUTED = "#7d7566"


@attrs.frozen
class Paint:
    """How a gem is drawn: its fill, its edge, and the colour of its letter on it."""

    fill: str
    edge: str
    ink: str


PALETTE: dict[Gem, Paint] = {
    Gem.WHITE: Paint("#f5f5f2", "#8f8f86", "#222"),
    Gem.BLUE: Paint("#2563c9", "#143d80", "#fff"),
    Gem.GREEN: Paint("#1f9d55", "#0f5c31", "#fff"),
    Gem.RED: Paint("#d32f2f", "#861818", "#fff"),
    Gem.BLACK: Paint("#262626", "#9a9a9a", "#fff"),
    Gem.GOLD: Paint("#f4c430", "#9c7400", "#3b2c00"),
    Gem.PEARL: Paint("#eadcf0", "#95779f", "#4a2d57"),
}
"""The gem colours (the letters carry the colour too, for whoever cannot tell them apart)."""
NO_BONUS = Paint("#c9c2ae", "#8c846f", "#2a2a2a")
"""The band of a card with no bonus (Duel)."""
BACKS = {1: "#3b7a3f", 2: "#b0821a", 3: "#2b4f90"}
"""The backs of the three decks, as on the table: green, yellow, blue."""
ROMAN = {1: "I", 2: "II", 3: "III"}


# -- primitives ------------------------------------------------------------------------------------


def text(
    x: float,
    y: float,
    content: str,
    *,
    size: float,
    fill: str = INK,
    bold: bool = False,
    anchor: str | None = None,
) -> Element:
    """A line of text whose baseline is at `y` (`anchor`: "middle" or "end")."""
    return el(
        "text",
        content,
        x=x,
        y=y,
        font_size=size,
        fill=None if fill == INK else fill,  # the document's defaults: INK, bold (the most frequent)
        font_weight=None if bold else "normal",
        text_anchor=anchor,
    )


def centred(x: float, y: float, content: str, *, size: float, fill: str, bold: bool = True) -> Element:
    """Text centred on the point (x, y) (the baseline set by hand: no renderer need know
    `dominant-baseline`)."""
    return text(x, round(y + size * 0.36, 1), content, size=size, fill=fill, bold=bold, anchor="middle")


def outline(width: float, height: float, radius: float, *, pad: float = 4) -> Element:
    """The mark of what changed: a thick bright outline around a piece of this size."""
    return el(
        "rect",
        x=-pad,
        y=-pad,
        width=width + 2 * pad,
        height=height + 2 * pad,
        rx=radius + pad,
        fill="none",
        stroke=HIGHLIGHT,
        stroke_width=3,
    )


def piece(
    x: float,
    y: float,
    width: float,
    height: float,
    children: Iterable[Element | None],
    *,
    kind: str,
    id: str | None = None,
    changed: bool = False,
    scale: float = 1,
    radius: float = 6,
    pad: float = 4,
) -> Element:
    """A piece of the table at (x, y): a group of class `kind` (and `changed`, then outlined),
    drawn in its own coordinates (0, 0)-(width, height), scaled by `scale` (`pad`: how far out
    the outline of a change goes)."""
    where = translate(x, y, scale)
    drawn = [c for c in children if c is not None]
    if changed:
        drawn.append(outline(width, height, radius, pad=pad))
    return el("g", *drawn, id=id, class_=f"{kind} changed" if changed else kind, transform=where)


def translate(x: float, y: float, scale: float = 1) -> str:
    """A `transform` that moves a group to (x, y) (and scales it by `scale`)."""
    return f"translate({_value(x)},{_value(y)})" + (f" scale({_value(scale)})" if scale != 1 else "")


def token(gem: Gem, cx: float, cy: float, r: float) -> Element:
    """A token: a disc of the gem's colour (with a ring when large enough), and its letter."""
    return el("g", *token_parts(gem, cx, cy, r))


def token_parts(gem: Gem, cx: float, cy: float, r: float, *, faded: bool = False) -> list[Element]:
    """The elements of a token, to draw in a group of one's own (`faded`: see-through, as the
    bank's empty piles)."""
    paint = PALETTE[gem]
    parts = [el("circle", cx=cx, cy=cy, r=r, fill=paint.fill, stroke=paint.edge, stroke_width=2)]
    if r >= 20:  # the bank's: large enough for a ring
        parts.append(el("circle", cx=cx, cy=cy, r=round(r * 0.72), fill="none", stroke=paint.edge))
    parts.append(centred(cx, cy, gem.letter, size=round(r * 1.05), fill=paint.ink))
    return [el("g", *parts, opacity=0.35)] if faded else parts


def pile(
    gem: Gem,
    count: int,
    x: float,
    y: float,
    *,
    r: float,
    id: str | None = None,
    changed: bool = False,
    hollow: bool = False,
) -> Element:
    """A pile of tokens of one gem with its count to the right, its box at (x, y): a token of
    radius `r`; when there is none, faded (or, `hollow`, an empty ring with the gem's letter)."""
    size = round(r * 1.15)
    if count or not hollow:
        drawn = [
            *token_parts(gem, r, r, r, faded=not count),
            text(2 * r + 5, round(r + size * 0.36, 1), str(count), size=size, bold=True, fill=INK if count else MUTED),
        ]
    else:
        drawn = [
            el("circle", cx=r, cy=r, r=r - 1, fill="none", stroke=MUTED, stroke_dasharray="3 3"),
            centred(r, r, gem.letter, size=round(r * 1.05), fill=MUTED, bold=False),
        ]
    return piece(x, y, 2 * r + size * 1.4, 2 * r, drawn, kind=f"tokens {gem}", id=id, changed=changed, radius=r)


def chip(gem: Gem | None, x: float, y: float, *, width: float = 16, height: float = 21, label: str = "") -> Element:
    """A small card of a gem's colour with its letter (or `label`): a bonus, a noble's need."""
    paint = PALETTE[gem] if gem else NO_BONUS
    return el(
        "g",
        el("rect", x=x, y=y, width=width, height=height, rx=3, fill=paint.fill, stroke=paint.edge),
        centred(x + width / 2, y + height / 2, label or (gem.letter if gem else "-"), size=12, fill=paint.ink),
        class_="chip",
    )


# -- cards -----------------------------------------------------------------------------------------

CARD_W, CARD_H = 88, 120
"""A card's size, unscaled."""
_BAND = 30


def card_face(
    card: Card, x: float, y: float, *, id: str | None = None, changed: bool = False, scale: float = 1
) -> Element:
    """A card face up: a band of its bonus colour with its points (left) and bonus gem (right; a
    Duel double bonus twice, a wild one striped in every colour), its cost as pills of the gems'
    colours (letter and number: `r3`) at the bottom left, a Duel card's crowns and ability on
    the right, its id (what `buy` and `reserve` name it by) and its level's dots at the bottom."""
    paint = PALETTE[card.bonus] if card.bonus else NO_BONUS
    parts: list[Element | None] = [
        el("rect", width=CARD_W, height=CARD_H, rx=6, fill=PAPER, stroke=PAPER_EDGE),
        el("path", d=_band_path(), fill=paint.fill, stroke=paint.edge, stroke_width=0.8),
    ]
    if card.wild:
        parts += _wild_band()
    if card.points:
        ink = PAPER_INK if card.wild else paint.ink
        parts.append(text(8, 24, str(card.points), size=22, bold=True, fill=ink))
    if card.bonus:
        parts += token_parts(card.bonus, CARD_W - 16, 15, 10)
        if card.bonus_count == 2:
            parts += token_parts(card.bonus, CARD_W - 34, 15, 10)
    elif card.wild:
        parts.append(_wild_gem(CARD_W - 16, 15, 10))
    costs = reversed(list(card.cost.items()))
    pills = [part for i, (gem, n) in enumerate(costs) for part in cost_pill(gem, n, 5, CARD_H - 24 - i * 19)]
    parts.append(el("g", *pills, **_PILLS))
    if card.crowns:
        parts.append(crowns(card.crowns, CARD_W - 36, _BAND + 8))
    if card.ability and card.ability != "wild":
        parts.append(text(CARD_W - 5, _BAND + 42, card.ability, size=10, bold=True, fill=PAPER_INK, anchor="end"))
    parts.append(text(CARD_W - 5, CARD_H - 6, card.id, size=10, bold=True, fill=PAPER_MUTED, anchor="end"))
    parts.append(_dots(card.level, CARD_W - 10, CARD_H - 22, PAPER_MUTED))
    return piece(x, y, CARD_W, CARD_H, parts, kind="card", id=id, changed=changed, scale=scale)


def _band_path() -> str:
    r = 6
    return f"M0,{_BAND}V{r}Q0,0 {r},0H{CARD_W - r}Q{CARD_W},0 {CARD_W},{r}V{_BAND}Z"


def _wild_band() -> list[Element]:
    """A wild card's band: a thin stripe of each gem colour under its top."""
    width = (CARD_W - 12) / 5
    return [
        el("rect", x=round(6 + i * width, 1), y=_BAND - 6, width=round(width, 1), height=6, fill=PALETTE[gem].fill)
        for i, gem in enumerate((Gem.WHITE, Gem.BLUE, Gem.GREEN, Gem.RED, Gem.BLACK))
    ]


def _wild_gem(cx: float, cy: float, r: float) -> Element:
    """A wild bonus: a white disc ringed in the five colours, marked `?` (its colour is chosen
    when the card is bought)."""
    arcs = []
    for i, gem in enumerate((Gem.WHITE, Gem.BLUE, Gem.GREEN, Gem.RED, Gem.BLACK)):
        arcs.append(
            el(
                "path",
                d=_arc(cx, cy, r, i * 72 - 90, (i + 1) * 72 - 90),
                fill="none",
                stroke=PALETTE[gem].fill if gem is not Gem.WHITE else "#bdbdb5",
                stroke_width=3,
            )
        )
    return el(
        "g",
        el("circle", cx=cx, cy=cy, r=r, fill="#fff"),
        *arcs,
        centred(cx, cy, "?", size=12, fill=PAPER_INK),
        class_="wild",
    )


def _arc(cx: float, cy: float, r: float, start: float, end: float) -> str:
    def at(angle: float) -> str:
        rad = math.radians(angle)
        return f"{cx + r * math.cos(rad):.1f},{cy + r * math.sin(rad):.1f}"

    return f"M{at(start)}A{r},{r} 0 0 1 {at(end)}"


_PILLS: dict[str, Value | None] = {"font_size": 12, "text_anchor": "middle", "class_": "cost"}
"""What the pills of a cost share, said once on their group."""


def cost_pill(gem: Gem, count: int, x: float, y: float) -> tuple[Element, Element]:
    """`r3` on a pill of the gem's colour: part of a cost (drawn in a group of `_PILLS`)."""
    paint = PALETTE[gem]
    return (
        el("rect", x=x, y=y, width=30, height=17, rx=8.5, fill=paint.fill, stroke=paint.edge),
        el("text", f"{gem.letter}{count}", x=x + 15, y=y + 13, fill=paint.ink),
    )


def crowns(count: int, x: float, y: float, *, ink: str = PAPER_INK) -> Element:
    """A gold crown with the count after it."""
    return el(
        "g",
        el(
            "path",
            d=f"M{x},{y + 11}V{y + 2}l4,4 3.5,-6 3.5,6 4,-4V{y + 11}Z",
            fill=PALETTE[Gem.GOLD].fill,
            stroke=PALETTE[Gem.GOLD].edge,
        ),
        text(x + 18, y + 11, str(count), size=13, bold=True, fill=ink),
        class_="crowns",
    )


def _dots(level: int, x: float, y: float, fill: str) -> Element:
    """A card's level as 1 to 3 dots, right-aligned at x (one dashed line of round dots)."""
    return el(
        "path",
        d=f"M{_value(x - (level - 1) * 7)},{_value(y)}h{(level - 1) * 7}",
        stroke=fill,
        stroke_width=5,
        stroke_linecap="round",
        stroke_dasharray="0 7",
    )


def card_back(
    level: int,
    x: float,
    y: float,
    *,
    note: str = "",
    id: str | None = None,
    changed: bool = False,
    scale: float = 1,
    kind: str = "card back",
) -> Element:
    """A card face down: its level's colour, numeral and dots, and `note` under them (a deck's
    count). A face-down card says nothing else: no id anywhere."""
    parts = _back(level)
    if note:
        parts.append(centred(CARD_W / 2, 96, note, size=13, fill=INK))
    return piece(x, y, CARD_W, CARD_H, parts, kind=kind, id=id, changed=changed, scale=scale)


def _back(level: int) -> list[Element]:
    """The back of a card of `level`: its colour, numeral and dots."""
    return [
        el("rect", width=CARD_W, height=CARD_H, rx=6, fill=BACKS[level], stroke="#0b2219", stroke_width=1.5),
        el("rect", x=6, y=6, width=CARD_W - 12, height=CARD_H - 12, rx=4, fill="none", stroke=INK, opacity=0.5),
        centred(CARD_W / 2, 48, ROMAN[level], size=30, fill=INK),
        _dots(level, CARD_W / 2 + (level - 1) * 3.5, 74, INK),
    ]


def sealed_card(placeholder: str, x: float, y: float, *, changed: bool = False, scale: float = 1) -> Element:
    """A face-up place whose card is being revealed (a sealed game's placeholder, `2?07`): face
    down, its level, marked `being revealed`; of class `sealed`, its id the place's usual one
    (`card-2?07`: what an event that dealt it there names)."""
    parts = [
        *_back(level_of(placeholder)),
        centred(CARD_W / 2, 93, "being", size=11, fill=INK),
        centred(CARD_W / 2, 106, "revealed", size=11, fill=INK),
    ]
    return piece(
        x, y, CARD_W, CARD_H, parts, kind="card back sealed", id=f"card-{placeholder}", changed=changed, scale=scale
    )


def face_up_card(card_id: str, cards: Mapping[str, Card], x: float, y: float, *, marks: Collection[str]) -> Element:
    """A card of a face-up row (`card-1-08`, outlined when `marks` holds its id): face up, or face
    down when it is being revealed (a sealed game's placeholder: `sealed_card`)."""
    key = f"card-{card_id}"
    if is_placeholder(card_id):
        return sealed_card(card_id, x, y, changed=key in marks)
    return card_face(cards[card_id], x, y, id=key, changed=key in marks)


def deck(level: int, count: int, x: float, y: float, *, changed: bool = False) -> Element:
    """A deck (`deck-2`): its back with the cards left; once empty, a dashed place."""
    if count:
        return card_back(level, x, y, note=f"{count} left", id=f"deck-{level}", changed=changed, kind="deck")
    return piece(
        x, y, CARD_W, CARD_H, [empty_slot(0, 0, "no deck")], kind="deck empty", id=f"deck-{level}", changed=changed
    )


def empty_slot(x: float, y: float, note: str, *, scale: float = 1, kind: str = "slot empty") -> Element:
    """Where a card would be, when its deck ran out."""
    return piece(
        x,
        y,
        CARD_W,
        CARD_H,
        [
            el(
                "rect",
                width=CARD_W,
                height=CARD_H,
                rx=6,
                fill="none",
                stroke=MUTED,
                stroke_width=1.5,
                stroke_dasharray="6 4",
            ),
            centred(CARD_W / 2, CARD_H / 2, note, size=12, fill=MUTED, bold=False) if note else None,
        ],
        kind=kind,
        scale=scale,
    )


# -- tiles -----------------------------------------------------------------------------------------

TILE = 76
"""A noble's (or royal card's) side, unscaled."""


def noble_tile(
    noble_id: str,
    points: int,
    requires: Tokens,
    x: float,
    y: float,
    *,
    id: str | None = None,
    changed: bool = False,
    scale: float = 1,
) -> Element:
    """A noble: a square tile with its points, the bonuses it asks for (a chip per colour with
    its letter and the number: `r4`) and its id."""
    parts = [
        el("rect", width=TILE, height=TILE, rx=6, fill="#efe3c6", stroke="#9a8558", stroke_width=1.5),
        text(8, 26, str(points), size=22, bold=True, fill=PAPER_INK),
        text(TILE - 6, 16, noble_id, size=11, bold=True, fill=PAPER_MUTED, anchor="end"),
    ]
    needs = list(requires.items())
    for i, (gem, n) in enumerate(needs):
        parts.append(chip(gem, 6 + i * 22, TILE - 30, width=20, height=24, label=f"{gem.letter}{n}"))
    return piece(x, y, TILE, TILE, parts, kind="noble", id=id, changed=changed, scale=scale)


def legend(gems: Iterable[Gem], x: float, y: float) -> Element:
    """The key to the letters: `w white  u blue ...`, each on its token (y: the middle of the line)."""
    parts: list[Element] = []
    for gem in gems:
        parts.append(token(gem, x + 9, y, 9))
        parts.append(text(x + 22, y + 4.5, str(gem), size=12, bold=False, fill=MUTED))
        x += 34 + text_width(str(gem), 12)
    return el("g", *parts, class_="legend")


def badge(x: float, y: float, label: str, *, fill: str = TO_MOVE, ink: str = PAPER_INK) -> Element:
    """A small rounded label (`to move`, `winner`) whose left end is at x, centred on y."""
    width = 10 + len(label) * 7
    return el(
        "g",
        el("rect", x=x, y=y - 10, width=width, height=20, rx=10, fill=fill),
        text(x + width / 2, y + 4.5, label, size=12, bold=True, fill=ink, anchor="middle"),
        class_="badge",
    )


def text_width(content: str, size: float, *, bold: bool = False) -> float:
    """About how wide `content` is in a sans-serif font (no font is at hand to measure)."""
    return len(content) * size * (0.6 if bold else 0.52)


def strip(gem: Gem | None, x: float, y: float, width: float, *, id: str, changed: bool, title: str) -> Element:
    """A bought card seen edge-on in its colour's stack (`title`: its tooltip)."""
    paint = PALETTE[gem] if gem else NO_BONUS
    return el(
        "rect",
        el("title", title),
        id=id,
        class_="card owned changed" if changed else "card owned",
        x=x,
        y=y,
        width=width,
        height=5,
        rx=1.5,
        fill=paint.fill,
        stroke=HIGHLIGHT if changed else None,
        stroke_width=2.5 if changed else None,
    )


__all__ = [
    "BACKS",
    "CARD_H",
    "CARD_W",
    "FELT",
    "HIGHLIGHT",
    "INK",
    "MAT",
    "MAT_EDGE",
    "MUTED",
    "PALETTE",
    "TILE",
    "TO_MOVE",
    "Element",
    "Paint",
    "badge",
    "card_back",
    "card_face",
    "centred",
    "chip",
    "cost_pill",
    "crowns",
    "deck",
    "document",
    "el",
    "empty_slot",
    "escape",
    "face_up_card",
    "legend",
    "noble_tile",
    "outline",
    "piece",
    "pile",
    "sealed_card",
    "strip",
    "text",
    "text_width",
    "token",
    "token_parts",
    "translate",
]
