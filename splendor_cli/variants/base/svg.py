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
from ...presentation.svg_elements import (
    FELT,
    MAT,
    MUTED,
    TILE,
    Element,
    centred,
    deck,
    document,
    el,
    empty_slot,
    face_up_card,
    legend,
    noble_tile,
    pile,
    text,
)
from ...presentation.svgtable import (
    COLUMN,
    MARGIN,
    ROW,
    TOP,
    bonus,
    card_moved,
    headline,
    holdings_labels,
    player_area,
    points,
    reserved_left,
    reserved_row,
    stack,
    status,
    token_piles,
    won_row,
)
from ...projection.variant import Moment
from .cards import CARDS, NOBLES
from .events import CardPurchased, CardReserved, TokensTaken, TurnPassed
from .state import MAX_RESERVED, MAX_TOKENS, WINNING_POINTS, GameState, PlayerState

MARKET_Y = TOP + TILE + 14
LEGEND_Y = MARKET_Y + 3 * ROW + 8
"""The middle of the line of the key to the letters, under the market."""
BANK_X = MARGIN + 5 * COLUMN + 8
LEFT_WIDTH = BANK_X + 84
PANEL_W, PANEL_H, PANEL_GAP = 590, 176, 10


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
        *_headline(state, game.seq, width),
        *_nobles(state, marks),
        *_market(state, marks),
        *_bank(state, marks),
        legend(GEMS, MARGIN, LEGEND_Y),
        *(
            _player(state, i, LEFT_WIDTH, TOP + i * (PANEL_H + PANEL_GAP), seat, marks)
            for i in range(len(state.players))
        ),
    ]
    label = status(state, _result(state) if state.finished else "")
    return document(width, height, f"Splendor, {label}", parts, background=FELT)


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
            ids |= card_moved(event.card, drawn=event.drawn, blind=event.blind)
        case CardPurchased():
            card = CARDS[event.card]
            moved = event.payment
            ids |= card_moved(event.card, drawn=event.drawn) | {f"{me}-bonus-{card.bonus}"}
            if card.points:
                ids.add(f"{me}-points")
    for gem in moved:
        ids |= {f"bank-{gem}", f"{me}-tokens-{gem}"}
    if event.noble:
        ids |= {f"noble-{event.noble}", f"{me}-points"}
    return frozenset(ids)


# -- the headline ----------------------------------------------------------------------------------


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


def _headline(state: GameState, seq: int, width: int) -> list[Element]:
    """Whose turn (turn and round) and the last round's warning; or the result."""
    note = ""
    if state.last_round:
        leaders = " and ".join(p.name for p in state.players if p.points >= WINNING_POINTS)
        note = f"last round: {leaders} reached {WINNING_POINTS} points"
    return headline(
        state,
        "Splendor",
        MARGIN + 116,
        turn=f"turn {state.turn + 1}, round {state.turn // len(state.players) + 1}",
        note=note,
        result=_result(state) if state.finished else "",
        seq=seq,
        width=width,
    )


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
    parts = [
        points(player.points, PANEL_W - 14, me, marks),
        *_holdings(player, me, marks),
        reserved_row(player, seat, CARDS, marks, places=MAX_RESERVED, x=_RESERVED_X, y=40),
        _nobles_won(player, me, marks),
    ]
    return player_area(state, i, x, y, width=PANEL_W, height=PANEL_H, children=parts)


def _holdings(player: PlayerState, me: str, marks: frozenset[str]) -> list[Element]:
    """Tokens (gold last) above bonuses, a column a colour, each bonus with its cards under it."""
    parts = holdings_labels(player.tokens, MAX_TOKENS, len(player.cards))
    parts += token_piles(GEMS, player.tokens, me, marks, x=_COLS_X, step=_COL)
    for col, gem in enumerate(COLOURS):
        x = _COLS_X + col * _COL
        parts.append(bonus(gem, player.bonuses[gem], x, me, marks))
        parts += stack([CARDS[c] for c in player.cards if CARDS[c].bonus is gem], gem, x + 1, 116, 50, marks)
    return parts


_RESERVED_X = reserved_left(PANEL_W - 14, MAX_RESERVED)


def _nobles_won(player: PlayerState, me: str, marks: frozenset[str]) -> Element:
    """The nobles won, small tiles with their id and points."""
    tiles: list[tuple[str, list[Element | None]]] = [
        (
            f"noble-{noble}",
            [
                el("rect", width=54, height=30, rx=4, fill="#efe3c6", stroke="#9a8558"),
                text(6, 21, str(NOBLES[noble].points), size=16, bold=True, fill="#2a2a2a"),
                centred(36, 15, noble, size=11, fill="#7d7566"),
            ],
        )
        for noble in player.nobles
    ]
    return won_row(tiles, me, marks, kind="noble", width=54, none="nobles: none", baseline=21, x=_RESERVED_X, y=134)


__all__ = ["board_svg", "changed"]
