"""The layout both games' tables share, drawn with the pieces of `svg`: the margins and the rows
of cards, the line heading the table, and a player's area (its mat, name and badge, points, the
columns of tokens and bonuses with the cards bought stacked edge-on under them, the reserved
cards, the tiles won). Each game's svg.py places these and draws what is its own.

Ids, whatever the game: `turn` (the headline), `player-ann` (and `player-ann-points`,
`player-ann-tokens-red`, `player-ann-bonus-red`, `player-ann-reserved`), `card-1-08` (a card
bought or reserved), `hidden-ann-2` (ann's second reserved card, face down in this view).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

from ..model import Card, Gem, Tokens
from ..projection.variant import State
from ..sealing.placeholders import is_placeholder, level_of
from .svg_elements import (
    CARD_H,
    CARD_W,
    INK,
    MAT,
    MAT_EDGE,
    MUTED,
    TO_MOVE,
    Element,
    badge,
    card_back,
    card_face,
    chip,
    el,
    empty_slot,
    piece,
    pile,
    strip,
    text,
    text_width,
    translate,
)

MARGIN = 16
"""Around the table, and the left of the headline."""
TOP = 56
"""Below the headline."""
COLUMN = CARD_W + 10
"""A card and the gap after it, across."""
ROW = CARD_H + 12
"""A row of cards and the gap under it."""
SCALE = 0.72
"""The reserved cards, against the face-up rows'."""


EVERY_SEAT = "\0every seat"
"""The `seat` of a view where every reserved card is face up (a finished game reviewed, `--all`):
no player's name (a name holds no NUL)."""


class Reserver(Protocol):
    """A player as `reserved_row` draws their reserved cards."""

    @property
    def name(self) -> str: ...

    @property
    def reserved(self) -> Sequence[str]: ...

    @property
    def blind(self) -> Collection[str]:
        """The reserved cards taken blind from a deck: only their owner knows them."""
        ...


# -- what changed ----------------------------------------------------------------------------------


def card_moved(card: str, *, drawn: str, blind: bool = False) -> set[str]:
    """The ids a card bought or reserved changes: the card (`card-1-08`); when it was taken `blind`
    from its deck, or another card was `drawn` into its place, its deck (`deck-1`: a sealed game's
    placeholder has a level too) and the card drawn."""
    ids = {f"card-{card}"}
    if blind or drawn:
        ids.add(f"deck-{level_of(card)}")
    if drawn:
        ids.add(f"card-{drawn}")
    return ids


# -- the headline ----------------------------------------------------------------------------------


def status(state: State, result: str) -> str:
    """`turn 5: bob to move`, or once the game is over `game over: ` and its `result` (what the
    picture is named after its game's title)."""
    if not state.finished:
        return f"turn {state.turn + 1}: {state.player.name} to move"
    return f"game over: {result}"


def headline(
    state: State, title: str, x: float, *, turn: str, note: str, result: str, seq: int, width: float
) -> list[Element]:
    """The line heading the table (`turn`): the game's `title`, then from `x` the `turn` (`turn 5`),
    the player to move with its badge and a `note` in the colour of the turn (what the turn still
    owes, the last round); once the game is over, its `result` instead, after how many turns. At
    the right, the number `seq` of the event drawn."""
    parts = [text(MARGIN, 32, title, size=22, bold=True)]
    if state.finished:
        parts += [
            badge(x, 25, "game over"),
            text(x + 92, 32, result, size=18, bold=True),
            text(x + 104 + text_width(result, 18, bold=True), 32, f"after {state.turn} turns", size=14, fill=MUTED),
        ]
    else:
        parts.append(text(x, 32, turn, size=16, fill=MUTED))
        x += text_width(turn, 16) + 12
        parts.append(text(x, 32, state.player.name, size=18, bold=True))
        x += text_width(state.player.name, 18, bold=True) + 8
        parts.append(badge(x, 25, "to move"))
        if note:
            parts.append(text(x + 80, 32, note, size=14, bold=True, fill=TO_MOVE))
    return [
        el("g", *parts, id="turn"),
        text(width - MARGIN, 32, f"event #{seq}", size=12, bold=False, fill=MUTED, anchor="end"),
    ]


# -- a player's area -------------------------------------------------------------------------------


def player_area(
    state: State, i: int, x: float, y: float, *, width: float, height: float, children: Iterable[Element | None]
) -> Element:
    """The area of the `i`th player (`player-ann`): a mat edged in the colour of the turn for the
    player to move (or a winner), their name and that badge (`to move`, `winner`), `children`."""
    name = state.players[i].name
    won = state.finished and name in state.winners()
    moving = not state.finished and i == state.to_move
    note = "winner" if won else "to move" if moving else ""
    parts: list[Element | None] = [
        el(
            "rect",
            width=width,
            height=height,
            rx=10,
            fill=MAT,
            stroke=TO_MOVE if note else MAT_EDGE,
            stroke_width=3 if note else 1.5,
        ),
        text(14, 26, name, size=18, bold=True),
        badge(14 + text_width(name, 18, bold=True) + 10, 20, note) if note else None,
        *children,
    ]
    return piece(x, y, width, height, parts, kind="player", id=f"player-{name}", radius=10)


def points_width(points: int) -> float:
    """How wide `points` draws a player's points."""
    return text_width(str(points), 26, bold=True) + 50


def points(count: int, right: float, me: str, marks: Collection[str]) -> Element:
    """A player's points (`player-ann-points`), large, ending at `right`, `points` before them."""
    key = f"{me}-points"
    width = points_width(count)
    return piece(
        right - width,
        6,
        width,
        28,
        [text(width, 25, str(count), size=26, bold=True, anchor="end"), text(0, 25, "points", size=12, fill=MUTED)],
        kind="points",
        id=key,
        changed=key in marks,
    )


def holdings_labels(tokens: Tokens, most: int, cards: int) -> list[Element]:
    """The labels left of the columns: `tokens` (how many of the `most` allowed) above `bonuses`
    (how many cards bought)."""
    return [
        text(14, 54, "tokens", size=12, fill=MUTED),
        text(14, 69, f"{tokens.total()} of {most}", size=11, fill=MUTED),
        text(14, 96, "bonuses", size=12, fill=MUTED),
        text(14, 111, f"{cards} cards", size=11, fill=MUTED),
    ]


def token_piles(
    gems: Iterable[Gem], tokens: Tokens, me: str, marks: Collection[str], *, x: float, step: float
) -> list[Element]:
    """A player's tokens (`player-ann-tokens-red`), a pile a column from `x` (an empty ring
    where they have none)."""
    parts = []
    for col, gem in enumerate(gems):
        key = f"{me}-tokens-{gem}"
        parts.append(pile(gem, tokens[gem], x + col * step, 43, r=13, id=key, changed=key in marks, hollow=True))
    return parts


def bonus(gem: Gem, count: int, x: float, me: str, marks: Collection[str]) -> Element:
    """A player's bonus of one colour (`player-ann-bonus-red`): a chip of the colour and the count."""
    key = f"{me}-bonus-{gem}"
    return piece(
        x,
        84,
        40,
        26,
        [
            chip(gem, 3, 0, width=20, height=26),
            text(28, 19, str(count), size=15, bold=True, fill=INK if count else MUTED),
        ],
        kind=f"bonus {gem}",
        id=key,
        changed=key in marks,
        radius=3,
    )


def stack(
    cards: Sequence[Card], gem: Gem | None, x: float, top: float, depth: float, marks: Collection[str]
) -> list[Element]:
    """The cards bought of one colour (`gem`; None: without a bonus), seen edge-on one under the
    other from `top`, closer together when more than `depth` allows; each card's tooltip says its
    id, colour, and what else it has (wild, points, crowns)."""
    step = min(6.5, depth / max(len(cards), 1))
    parts = []
    for k, card in enumerate(cards):
        about = [card.id, str(gem) if gem else "no bonus"]
        if card.wild:
            about.append("wild")
        if card.points:
            about.append(f"{card.points} points")
        if card.crowns:
            about.append(f"{card.crowns} crowns")
        key = f"card-{card.id}"
        parts.append(strip(gem, x, round(top + k * step, 1), 36, id=key, changed=key in marks, title=", ".join(about)))
    return parts


def reserved_left(right: float, places: int, *, scale: float = SCALE) -> int:
    """Where a row of `places` reserved cards (`reserved_row`) starts, to end at `right`."""
    return round(right - places * round(CARD_W * scale + 7))


def reserved_row(
    player: Reserver,
    seat: str | None,
    cards: Mapping[str, Card],
    marks: Collection[str],
    *,
    places: int,
    x: float,
    y: float,
    scale: float = SCALE,
) -> Element:
    """A player's reserved cards (`player-ann-reserved`), small: face up, but a blind one face down
    (its level only, and an id that does not name it) unless this is its owner's view (`seat`) or
    everyone's (`EVERY_SEAT`);
    an empty place for each card still allowed (`places` in all). A sealed game's placeholder (a
    blind reserve not opened in this view) is face down in every view."""
    parts: list[Element] = []
    for k in range(places):
        left = k * (CARD_W * scale + 7)
        if k >= len(player.reserved):
            parts.append(empty_slot(left, 0, "", scale=scale, kind="slot reserve"))
            continue
        card = player.reserved[k]
        key = f"card-{card}"
        if (card in player.blind and seat not in (player.name, EVERY_SEAT)) or is_placeholder(card):
            hidden = f"hidden-{player.name}-{k + 1}"
            parts.append(card_back(level_of(card), left, 0, id=hidden, changed=key in marks, scale=scale))
        else:
            parts.append(card_face(cards[card], left, 0, id=key, changed=key in marks, scale=scale))
    return el("g", *parts, id=f"player-{player.name}-reserved", class_="reserved", transform=translate(x, y))


def won_row(
    tiles: Sequence[tuple[str, list[Element | None]]],
    me: str,
    marks: Collection[str],
    *,
    kind: str,
    width: float,
    none: str,
    baseline: float,
    x: float,
    y: float,
) -> Element:
    """The tiles a player won (`player-ann-nobles`, `player-ann-royals`), small, side by side at
    (x, y): each `(id, drawing)` a piece of class `kind`, `width` across and 30 high; the words
    `none` (on `baseline`) while there is none."""
    parts = [
        piece(k * (width + 6), 0, width, 30, drawn, kind=kind, id=key, changed=key in marks, radius=4)
        for k, (key, drawn) in enumerate(tiles)
    ]
    label = None if tiles else text(0, baseline, none, size=12, fill=MUTED)
    return el("g", label, *parts, id=f"{me}-{kind}s", class_=f"{kind}s", transform=translate(x, y))


__all__ = [
    "COLUMN",
    "MARGIN",
    "ROW",
    "SCALE",
    "TOP",
    "Reserver",
    "bonus",
    "card_moved",
    "headline",
    "holdings_labels",
    "player_area",
    "points",
    "points_width",
    "reserved_left",
    "reserved_row",
    "stack",
    "status",
    "token_piles",
    "won_row",
]
