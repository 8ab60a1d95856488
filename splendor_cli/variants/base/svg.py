"""The table of Splendor as one SVG picture (the presentation floor: imported only when a picture
is asked for, through `Variant.board_svg`).

The centre of the table on the left: the nobles, the cards by level (level 3 on top) each row
behind its deck, and the bank. The players on the right, one area each in turn order (four fit):
name, points and whose turn; tokens and bonuses in columns of the same colour (what a player can
pay in a colour reads down a column), the bought cards stacked edge-on under their bonus, the
reserved cards (a blind one face down but for its owner's view) and the nobles won. Whose turn
it is (or the result) heads the picture. What the event that led here changed is outlined and
of class `changed`. Ids: `card-1-08`, `deck-1`, `bank-white`, `noble-N03`, `player-ann` (and
`player-ann-tokens-red`, `player-ann-bonus-red`, `player-ann-points`, `player-ann-reserved`,
`player-ann-nobles`; a blind reserve shown face down is `hidden-ann-2`, the second reserved
card of ann), `turn`. In a sealed game a market card being revealed is a card back of class
`sealed` (`card-1?05`, its placeholder), and a reserve holding a placeholder is face down in
every view.
"""

from __future__ import annotations

from ...events import Event
from ...model import COLOURS, GEMS, Gem
from ...presentation.svg import (
    CARD_H,
    CARD_W,
    FELT,
    INK,
    MAT,
    MAT_EDGE,
    MUTED,
    TILE,
    TO_MOVE,
    Element,
    badge,
    centred,
    chip,
    deck,
    document,
    el,
    empty_slot,
    face_up_card,
    legend,
    noble_tile,
    piece,
    pile,
    reserved_row,
    strip,
    text,
    text_width,
)
from ...projection.sealed import level_of
from ...projection.variant import Moment
from .cards import CARDS, NOBLES
from .events import CardPurchased, CardReserved, TokensTaken, TurnPassed
from .state import MAX_RESERVED, MAX_TOKENS, WINNING_POINTS, GameState, PlayerState

MARGIN = 16
TOP = 56
"""Below the headline."""
COLUMN = CARD_W + 10
ROW = CARD_H + 12
MARKET_Y = TOP + TILE + 14
LEGEND_Y = MARKET_Y + 3 * ROW + 8
"""The middle of the line of the key to the letters, under the market."""
BANK_X = MARGIN + 5 * COLUMN + 8
LEFT_WIDTH = BANK_X + 84
PANEL_W, PANEL_H, PANEL_GAP = 590, 176, 10
SCALE = 0.72
"""Reserved cards, against the market's."""


def board_svg(game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
    """The table at `game` as one SVG document. `seat`: whose view it is (their blind reserves
    face up); None: a spectator's (every blind reserve face down). `event`: the event that led
    here, whose changes are outlined (None: nothing is)."""
    state: GameState = game.state
    marks = changed(state, event)
    players_height = len(state.players) * (PANEL_H + PANEL_GAP) - PANEL_GAP
    height = max(LEGEND_Y + 16, TOP + players_height) + MARGIN
    width = LEFT_WIDTH + PANEL_W + MARGIN
    parts = [
        el("rect", x=8, y=TOP - 8, width=LEFT_WIDTH - 4, height=height - TOP, rx=12, fill=MAT, class_="centre"),
        _headline(state),
        text(width - MARGIN, 32, f"event #{game.seq}", size=12, bold=False, fill=MUTED, anchor="end"),
        *_nobles(state, marks),
        *_market(state, marks),
        *_bank(state, marks),
        legend(GEMS, MARGIN, LEGEND_Y),
        *(
            _player(state, i, LEFT_WIDTH, TOP + i * (PANEL_H + PANEL_GAP), seat, marks)
            for i in range(len(state.players))
        ),
    ]
    return document(width, height, f"Splendor, {_status(state)}", parts, background=FELT)


# -- what changed ----------------------------------------------------------------------------------


def changed(state: GameState, event: Event | None) -> frozenset[str]:
    """The ids of what `event` changed on the table: the bank's piles and the player's tokens it
    moved, the card bought or reserved and the one dealt in its place (or the deck drawn from),
    the bonus and points gained, the noble that visited. Nothing for no event, an undo or the setup."""
    if not isinstance(event, (TokensTaken, CardReserved, CardPurchased, TurnPassed)):
        return frozenset()
    me = f"player-{event.player}"
    ids: set[str] = set()
    moved: tuple[Gem, ...] = ()
    match event:
        case TokensTaken():
            moved = (*event.gems, *event.returned)
        case CardReserved():
            moved = ((Gem.GOLD,) if event.gold else ()) + event.returned
            ids.add(f"card-{event.card}")
            if event.blind or event.drawn:
                ids.add(f"deck-{level_of(event.card)}")  # a sealed game's placeholder has a level too
            if event.drawn:
                ids.add(f"card-{event.drawn}")
        case CardPurchased():
            card = CARDS[event.card]
            moved = event.payment
            ids |= {f"card-{event.card}", f"{me}-bonus-{card.bonus}"}
            if card.points:
                ids.add(f"{me}-points")
            if event.drawn:  # bought from the market, and its deck dealt another
                ids |= {f"card-{event.drawn}", f"deck-{card.level}"}
    for gem in moved:
        ids |= {f"bank-{gem}", f"{me}-tokens-{gem}"}
    if event.noble:
        ids |= {f"noble-{event.noble}", f"{me}-points"}
    return frozenset(ids)


# -- the headline ----------------------------------------------------------------------------------


def _status(state: GameState) -> str:
    """`turn 5: bob to move`, or `game over: ann won with 16 points`."""
    if not state.finished:
        return f"turn {state.turn + 1}: {state.player.name} to move"
    return f"game over: {_result(state)}"


def _result(state: GameState) -> str:
    winners = [p for p in state.players if p.name in state.winners()]
    best = winners[0]
    if len(winners) > 1:
        names = " and ".join(p.name for p in winners)
        return f"{names} won together with {best.points} points"
    text = f"{best.name} won with {best.points} points"
    if any(p.points == best.points for p in state.players if p is not best):
        text += " and fewer cards"
    return text


def _headline(state: GameState) -> Element:
    """Whose turn (turn and round) and the last round's warning; or the result."""
    parts = [text(MARGIN, 32, "Splendor", size=22, bold=True)]
    x: float = MARGIN + 116
    if state.finished:
        parts += [
            badge(x, 25, "game over"),
            text(x + 92, 32, _result(state), size=18, bold=True),
            text(
                x + 92 + text_width(_result(state), 18, bold=True) + 12,
                32,
                f"after {state.turn} turns",
                size=14,
                fill=MUTED,
            ),
        ]
    else:
        turn = f"turn {state.turn + 1}, round {state.turn // len(state.players) + 1}"
        parts.append(text(x, 32, turn, size=16, fill=MUTED))
        x += text_width(turn, 16) + 12
        parts.append(text(x, 32, state.player.name, size=18, bold=True))
        x += text_width(state.player.name, 18, bold=True) + 8
        parts.append(badge(x, 25, "to move"))
        if state.last_round:
            leaders = " and ".join(p.name for p in state.players if p.points >= WINNING_POINTS)
            note = f"last round: {leaders} reached {WINNING_POINTS} points"
            parts.append(text(x + 80, 32, note, size=14, bold=True, fill=TO_MOVE))
    return el("g", *parts, id="turn")


# -- the centre ------------------------------------------------------------------------------------


def _nobles(state: GameState, marks: frozenset[str]) -> list[Element]:
    if not state.nobles:
        return [text(MARGIN + 4, TOP + TILE / 2 + 5, "no noble left", size=14, fill=MUTED)]
    return [
        noble_tile(n, NOBLES[n].points, NOBLES[n].requires, MARGIN + i * (TILE + 10), TOP, id=f"noble-{n}")
        for i, n in enumerate(state.nobles)
    ]


def _market(state: GameState, marks: frozenset[str]) -> list[Element]:
    """Level 3 on top, as on the table: each row's deck, then its face-up cards."""
    parts: list[Element] = []
    for row, level in enumerate((3, 2, 1)):
        y = MARKET_Y + row * ROW
        parts.append(deck(level, len(state.decks[level - 1]), MARGIN, y, changed=f"deck-{level}" in marks))
        for slot, card in enumerate(state.board[level - 1]):
            x = MARGIN + (slot + 1) * COLUMN
            if card is None:
                parts.append(empty_slot(x, y, "(empty)"))
            else:
                parts.append(face_up_card(card, CARDS, x, y, marks=marks))
    return parts


def _bank(state: GameState, marks: frozenset[str]) -> list[Element]:
    parts = [text(BANK_X, MARKET_Y - 8, "bank", size=13, bold=True, fill=MUTED)]
    for i, gem in enumerate(GEMS):
        key = f"bank-{gem}"
        parts.append(pile(gem, state.bank[gem], BANK_X, MARKET_Y + i * 62, r=22, id=key, changed=key in marks))
    return parts


# -- the players -----------------------------------------------------------------------------------

_COLS_X = 72
_COL = 44


def _player(state: GameState, i: int, x: int, y: int, seat: str | None, marks: frozenset[str]) -> Element:
    """One player's area: name, points and whose turn; tokens and bonuses in colour columns with
    the cards bought stacked under their bonus; reserved cards; nobles won."""
    player = state.players[i]
    me = f"player-{player.name}"
    if state.finished:
        note = "winner" if player.name in state.winners() else ""
    else:
        note = "to move" if i == state.to_move else ""
    parts: list[Element | None] = [
        el(
            "rect",
            width=PANEL_W,
            height=PANEL_H,
            rx=10,
            fill=MAT,
            stroke=TO_MOVE if note else MAT_EDGE,
            stroke_width=3 if note else 1.5,
        ),
        text(14, 26, player.name, size=18, bold=True),
        badge(14 + text_width(player.name, 18, bold=True) + 10, 20, note) if note else None,
        _points(player, me, marks),
        *_holdings(player, me, marks),
        _reserved(player, me, seat, marks),
        _nobles_won(player, me, marks),
    ]
    return piece(x, y, PANEL_W, PANEL_H, parts, kind="player", id=me, radius=10)


def _points(player: PlayerState, me: str, marks: frozenset[str]) -> Element:
    key = f"{me}-points"
    number = str(player.points)
    width = text_width(number, 26, bold=True)
    return piece(
        PANEL_W - 14 - width - 50,
        6,
        width + 50,
        28,
        [
            text(width + 50, 25, number, size=26, bold=True, anchor="end"),
            text(0, 25, "points", size=12, fill=MUTED),
        ],
        kind="points",
        id=key,
        changed=key in marks,
    )


def _holdings(player: PlayerState, me: str, marks: frozenset[str]) -> list[Element]:
    """Tokens (gold last) above bonuses, a column a colour, each bonus with its cards under it."""
    parts = [
        text(14, 54, "tokens", size=12, fill=MUTED),
        text(14, 69, f"{player.tokens.total()} of {MAX_TOKENS}", size=11, fill=MUTED),
        text(14, 96, "bonuses", size=12, fill=MUTED),
        text(14, 111, f"{len(player.cards)} cards", size=11, fill=MUTED),
    ]
    for col, gem in enumerate(GEMS):
        key = f"{me}-tokens-{gem}"
        parts.append(
            pile(gem, player.tokens[gem], _COLS_X + col * _COL, 43, r=13, id=key, changed=key in marks, hollow=True)
        )
    for col, gem in enumerate(COLOURS):
        key = f"{me}-bonus-{gem}"
        count = player.bonuses[gem]
        parts.append(
            piece(
                _COLS_X + col * _COL,
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
        )
        owned = [c for c in player.cards if CARDS[c].bonus is gem]
        step = min(6.5, 50 / max(len(owned), 1))
        for k, card in enumerate(owned):
            points = CARDS[card].points
            title = f"{card}, {gem}" + (f", {points} points" if points else "")
            parts.append(
                strip(
                    gem,
                    _COLS_X + col * _COL + 1,
                    round(116 + k * step, 1),
                    36,
                    id=f"card-{card}",
                    changed=f"card-{card}" in marks,
                    title=title,
                )
            )
    return parts


_RESERVED_X = PANEL_W - 14 - MAX_RESERVED * round(CARD_W * SCALE + 7)


def _reserved(player: PlayerState, me: str, seat: str | None, marks: frozenset[str]) -> Element:
    """The reserved cards (`reserved_row`): a blind one face down unless this is its owner's view."""
    return reserved_row(
        player.reserved,
        player.blind,
        player.name,
        seat,
        CARDS,
        marks,
        places=MAX_RESERVED,
        id=f"{me}-reserved",
        x=_RESERVED_X,
        y=40,
        scale=SCALE,
    )


def _nobles_won(player: PlayerState, me: str, marks: frozenset[str]) -> Element:
    """The nobles won, small tiles with their id and points."""
    parts: list[Element] = []
    for k, noble in enumerate(player.nobles):
        key = f"noble-{noble}"
        parts.append(
            piece(
                k * 60,
                0,
                54,
                30,
                [
                    el("rect", width=54, height=30, rx=4, fill="#efe3c6", stroke="#9a8558"),
                    text(6, 21, str(NOBLES[noble].points), size=16, bold=True, fill="#2a2a2a"),
                    centred(36, 15, noble, size=11, fill="#7d7566"),
                ],
                kind="noble",
                id=key,
                changed=key in marks,
                radius=4,
            )
        )
    label = text(0, 21, "nobles: none", size=12, fill=MUTED) if not player.nobles else None
    return el("g", label, *parts, id=f"{me}-nobles", class_="nobles", transform=f"translate({_RESERVED_X},{40 + 94})")


__all__ = ["board_svg", "changed"]
