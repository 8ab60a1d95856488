"""The table of a Splendor Duel as one SVG picture (the presentation floor: imported only when a
picture is asked for, through `Variant.board_svg`).

The centre of the table on top: the 5 x 5 token board with its coordinates (columns a-e, rows
1-5, row 1 on top as `show` prints it) with the bag and the privileges of the supply under it;
the pyramid (level 3 on top, each row behind its deck); the royal cards and the three victory
conditions. Under it, the two players side by side in turn order: name, whose turn, privileges,
crowns and points; tokens and bonuses in columns of the same colour, with the points of each
colour and the cards bought stacked under their bonus (a wild card in the colour it joined, the
cards without a bonus beside); the reserved cards (a blind one face down but for its owner's
view) and the royal cards won; how far each is from each victory. Whose turn it is, what the
turn still owes, or the result heads the picture. What the event that led here changed is
outlined and of class `changed`. Ids: `cell-c3`, `bag`, `privileges`, `card-1-08`, `deck-1`,
`royal-R2`, `player-ann` (and `player-ann-tokens-red`, `player-ann-bonus-red`,
`player-ann-points`, `player-ann-crowns`, `player-ann-privileges`, `player-ann-reserved`,
`player-ann-royals`; a blind reserve shown face down is `hidden-ann-2`), `turn`. In a sealed
game a pyramid card being revealed is a card back of class `sealed` (`card-1?05`, its
placeholder), and a reserve holding a placeholder is face down in every view.
"""

from __future__ import annotations

from ...events import Event
from ...model import COLOURS, DUEL_GEMS, Gem
from ...presentation.svg_elements import (
    FELT,
    INK,
    MAT,
    MAT_EDGE,
    MUTED,
    PALETTE,
    TILE,
    TO_MOVE,
    Element,
    centred,
    crowns,
    deck,
    document,
    el,
    empty_slot,
    face_up_card,
    legend,
    piece,
    pile,
    text,
    text_width,
    token,
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
    points_width,
    reserved_left,
    reserved_row,
    stack,
    status,
    token_piles,
    won_row,
)
from ...projection.variant import Moment
from .cards import CARDS, ROYALS
from .events import (
    BoardReplenished,
    BonusTokenTaken,
    DuelCardBought,
    GoldReserved,
    LineTaken,
    PrivilegeUsed,
    RoyalTaken,
    TokenReturned,
    TokenStolen,
)
from .state import (
    CELLS,
    MAX_RESERVED,
    MAX_TOKENS,
    PRIVILEGES,
    SIZE,
    WIN_COLOUR,
    WIN_CROWNS,
    WIN_POINTS,
    DuelPlayer,
    DuelState,
)

CELL = 52
BOARD_X, BOARD_Y = MARGIN + 22, TOP + 22
PYRAMID_X = MARGIN + 290 + 40
ROYALS_X = PYRAMID_X + 6 * COLUMN + 40
PANEL_W, PANEL_H, PANEL_GAP = 598, 214, 12
LEGEND_Y = TOP + 3 * ROW + 14
"""The middle of the line of the key to the letters, under the pyramid."""
PANELS_Y = LEGEND_Y + 30
WIDTH = 2 * PANEL_W + PANEL_GAP + 2 * MARGIN
HEIGHT = PANELS_Y + PANEL_H + MARGIN
ROYAL_FILL, ROYAL_EDGE = "#e6dcf0", "#7b5e91"
SCROLL_FILL, SCROLL_EDGE, SEAL = "#efe3c6", "#9a8558", "#b3261e"


def board_svg(game: Moment, *, seat: str | None = None, event: Event | None = None) -> str:
    """The table at `game` as one SVG document. `seat`: whose view it is (their blind reserves
    face up); None: a spectator's (every blind reserve face down). `event`: the step that led
    here, whose changes are outlined (None: nothing is)."""
    state: DuelState = game.state
    marks = changed(state, event)
    parts = [
        el("rect", x=8, y=TOP - 8, width=WIDTH - 16, height=PANELS_Y - TOP - 4, rx=12, fill=MAT, class_="centre"),
        *_headline(state, game.seq),
        _board(state, marks),
        _bag(state, marks),
        _supply(state, marks),
        *_pyramid(state, marks),
        *_royals(state, marks),
        _goals(),
        legend(DUEL_GEMS, PYRAMID_X, LEGEND_Y),
        *(_player(state, i, MARGIN + i * (PANEL_W + PANEL_GAP), PANELS_Y, seat, marks) for i in range(2)),
    ]
    label = status(state, _result(state) if state.finished else "")
    return document(WIDTH, HEIGHT, f"Splendor Duel, {label}", parts, background=FELT)


# -- what changed ----------------------------------------------------------------------------------


def changed(state: DuelState, event: Event | None) -> frozenset[str]:
    """The ids of what the step `event` changed: the board's cells emptied or filled, the tokens
    that moved (the player's, the opponent's, the bag's), the card bought or reserved and the one
    dealt in its place (or the deck drawn from), the royal card taken, the privileges that changed
    hands (from the supply, as far as the state after the step tells), the points, crowns and
    bonus gained. Nothing for no event, an undo or the setup."""
    player = getattr(event, "player", None)
    if player not in state.names():
        return frozenset()
    me = f"player-{player}"
    other = f"player-{next(name for name in state.names() if name != player)}"
    ids: set[str] = set()
    gained = ""  # who gained a privilege
    match event:
        case PrivilegeUsed():
            ids |= {f"cell-{event.cell}", f"{me}-tokens-{event.gem}", f"{me}-privileges", "privileges"}
        case BoardReplenished():
            ids |= {f"cell-{cell}" for cell in event.cells} | {"bag"}
            gained = other
        case LineTaken():
            ids |= {f"cell-{cell}" for cell in event.cells} | {f"{me}-tokens-{gem}" for gem in event.gems}
            if (len(event.gems) == 3 and len(set(event.gems)) == 1) or event.gems.count(Gem.PEARL) == 2:
                gained = other  # rule 14
        case GoldReserved():
            ids |= {f"cell-{event.gold}", f"{me}-tokens-gold"}
            ids |= card_moved(event.card, drawn=event.drawn, blind=event.blind)
        case DuelCardBought():
            card = CARDS[event.card]
            ids |= card_moved(event.card, drawn=event.drawn) | {f"{me}-tokens-{gem}" for gem in event.payment}
            if event.payment:
                ids.add("bag")
            colour = event.wild or card.bonus
            if colour:
                ids.add(f"{me}-bonus-{colour}")
            if card.points:
                ids.add(f"{me}-points")
            if card.crowns:
                ids.add(f"{me}-crowns")
            if card.ability == "privilege":
                gained = me
        case BonusTokenTaken():
            ids |= {f"cell-{event.cell}", f"{me}-tokens-{event.gem}"}
        case TokenStolen():
            ids |= {f"{me}-tokens-{event.gem}", f"{other}-tokens-{event.gem}"}
        case RoyalTaken():
            ids |= {f"royal-{event.royal}", f"{me}-points"}
            if ROYALS[event.royal].ability == "privilege":
                gained = me
        case TokenReturned():
            ids |= {f"{me}-tokens-{event.gem}", "bag"}
    if gained:
        ids |= {f"{gained}-privileges", "privileges"}
    return frozenset(ids)


# -- the headline ----------------------------------------------------------------------------------


def _result(state: DuelState) -> str:
    if not state.winner:
        return "a draw (both players passed, one after the other)"
    player = next(p for p in state.players if p.name == state.winner)
    if state.win_condition == "crowns":
        return f"{player.name} won with {player.crowns} crowns"
    if state.win_condition == "colour":
        points, colour = _best_colour(player)
        return f"{player.name} won with {points} points of {colour}"
    return f"{player.name} won with {player.points} points"


def _best_colour(player: DuelPlayer) -> tuple[int, Gem]:
    """The colour with the most points on its cards (the first of a tie, in `COLOURS` order)."""
    points = max(player.colour_points)
    return points, COLOURS[player.colour_points.index(points)]


def _todo(state: DuelState) -> str:
    """What the turn still owes, or what is known of it."""
    player, name = state.player, state.player.name
    owed = {
        "token": f"take a {CARDS[player.cards[-1]].bonus if player.cards else ''} token from the board",
        "steal": f"steal a token from {state.opponent.name}",
        "royal": "take a royal card",
        "return": f"return {player.tokens.total() - MAX_TOKENS} tokens to the bag",
    }
    notes = []
    if state.phase in owed:
        then = "".join(f", then {owed[step]}" for step in state.owed if step in owed)
        notes.append(f"{name} must {owed[state.phase]}{then}")
    elif state.replenished:
        notes.append("board replenished: no more privileges this turn")
    elif not state.fresh:
        notes.append("a privilege used this turn")
    if state.again:
        notes.append(f"{name} plays again")
    if state.passes and state.fresh:
        notes.append(f"{state.opponent.name} passed: a second pass ends the game in a draw")
    return "; ".join(notes)


def _headline(state: DuelState, seq: int) -> list[Element]:
    """Whose turn and what it still owes; or the result."""
    return headline(
        state,
        "Splendor Duel",
        MARGIN + 170,
        turn=f"turn {state.turn + 1}",
        note="" if state.finished else _todo(state),
        result=_result(state) if state.finished else "",
        seq=seq,
        width=WIDTH,
    )


# -- the centre: board, bag, privileges, pyramid, royal cards --------------------------------------


def _board(state: DuelState, marks: frozenset[str]) -> Element:
    """The 5 x 5 board: a cell a token (or empty), the columns a-e across and rows 1-5 down."""
    parts: list[Element] = [
        el("rect", x=MARGIN, y=TOP, width=290, height=290, rx=10, fill="#0e3226", stroke=MAT_EDGE),
    ]
    for k in range(SIZE):
        parts.append(centred(BOARD_X + k * CELL + CELL / 2, TOP + 11, "abcde"[k], size=13, fill=MUTED))
        parts.append(centred(MARGIN + 11, BOARD_Y + k * CELL + CELL / 2, str(k + 1), size=13, fill=MUTED))
    for index, name in enumerate(CELLS):
        row, col = divmod(index, SIZE)
        gem = state.board[index]
        key = f"cell-{name}"
        parts.append(
            piece(
                BOARD_X + col * CELL,
                BOARD_Y + row * CELL,
                CELL - 4,
                CELL - 4,
                [
                    el("rect", width=CELL - 4, height=CELL - 4, rx=8, fill="#174a38", stroke="#2a6a52"),
                    token(gem, (CELL - 4) / 2, (CELL - 4) / 2, 19) if gem else None,
                ],
                kind=f"cell {gem}" if gem else "cell empty",
                id=key,
                changed=key in marks,
                radius=8,
                pad=0,  # cells are close: each outline on its own cell's edge
            )
        )
    return el("g", *parts, id="board", class_="board")


def _bag(state: DuelState, marks: frozenset[str]) -> Element:
    """The bag: how many tokens of each kind went back into it (what a replenish draws from)."""
    total = state.bag.total()
    parts: list[Element] = [
        el("rect", width=290, height=70, rx=10, fill="#0e3226", stroke=MAT_EDGE),
        text(10, 20, "bag", size=13, bold=True, fill=MUTED),
        text(
            280,
            20,
            f"{total} token{'' if total == 1 else 's'}" if total else "empty",
            size=13,
            fill=MUTED,
            anchor="end",
        ),
    ]
    for k, gem in enumerate(DUEL_GEMS):
        parts.append(pile(gem, state.bag[gem], 8 + k * 40, 30, r=11))
    return piece(MARGIN, TOP + 300, 290, 70, parts, kind="bag", id="bag", changed="bag" in marks, radius=10)


def scroll(x: float, y: float, *, held: bool = True) -> Element:
    """A privilege: a parchment scroll with a red seal (an empty place when not `held`)."""
    if not held:
        return el("rect", x=x, y=y, width=30, height=20, rx=4, fill="none", stroke=MUTED, stroke_dasharray="4 3")
    return el(
        "g",
        el("rect", x=x, y=y, width=30, height=20, rx=4, fill=SCROLL_FILL, stroke=SCROLL_EDGE),
        el("line", x1=x + 6, y1=y + 6, x2=x + 16, y2=y + 6, stroke=SCROLL_EDGE),
        el("line", x1=x + 6, y1=y + 11, x2=x + 14, y2=y + 11, stroke=SCROLL_EDGE),
        el("circle", cx=x + 22, cy=y + 13, r=4.5, fill=SEAL),
        class_="privilege",
    )


def _supply(state: DuelState, marks: frozenset[str]) -> Element:
    """The privileges left in the common supply, out of 3."""
    parts: list[Element] = [
        text(0, 22, "privileges", size=13, bold=True, fill=MUTED),
        text(0, 38, f"{state.privileges} in the supply", size=11, fill=MUTED),
    ]
    parts += [scroll(120 + k * 38, 10, held=k < state.privileges) for k in range(PRIVILEGES)]
    return piece(
        MARGIN + 6, TOP + 380, 240, 44, parts, kind="privileges", id="privileges", changed="privileges" in marks
    )


def _pyramid(state: DuelState, marks: frozenset[str]) -> list[Element]:
    """Level 3 on top with 3 cards, then 4, then 5, centred as on the table; each row's deck on
    its left."""
    parts: list[Element] = []
    for row, level in enumerate((3, 2, 1)):
        y = TOP + row * ROW
        parts.append(deck(level, len(state.decks[level - 1]), PYRAMID_X, y, changed=f"deck-{level}" in marks))
        cards = state.pyramid[level - 1]
        left = PYRAMID_X + COLUMN + (5 - len(cards)) * COLUMN / 2
        for slot, card in enumerate(cards):
            x = left + slot * COLUMN
            if card is None:
                parts.append(empty_slot(x, y, "(empty)"))
            else:
                parts.append(face_up_card(card, CARDS, x, y, marks=marks))
    return parts


def royal_tile(royal_id: str, x: float, y: float, *, changed: bool = False, scale: float = 1) -> Element:
    """A royal card: its points, a crown, its ability and its id."""
    royal = ROYALS[royal_id]
    parts = [
        el("rect", width=TILE, height=TILE, rx=6, fill=ROYAL_FILL, stroke=ROYAL_EDGE, stroke_width=1.5),
        text(8, 26, str(royal.points), size=22, bold=True, fill="#2a2a2a"),
        text(TILE - 6, 16, royal.id, size=11, bold=True, fill="#5d4a6b", anchor="end"),
        el(
            "path",
            d="M26,46V32l7,7 5,-10 5,10 7,-7V46Z",
            fill=PALETTE[Gem.GOLD].fill,
            stroke=PALETTE[Gem.GOLD].edge,
        ),
        centred(TILE / 2, TILE - 13, royal.ability or "points", size=11, fill="#2a2a2a"),
    ]
    return piece(x, y, TILE, TILE, parts, kind="royal", id=f"royal-{royal_id}", changed=changed, scale=scale)


def _royals(state: DuelState, marks: frozenset[str]) -> list[Element]:
    """The royal cards still to be won (at 3 and 6 crowns), two by two."""
    parts: list[Element] = [text(ROYALS_X, TOP + 14, "royal cards", size=13, bold=True, fill=MUTED)]
    if not state.royals:
        parts.append(text(ROYALS_X, TOP + 44, "none left", size=13, fill=MUTED))
    for k, royal in enumerate(state.royals):
        x = ROYALS_X + (k % 2) * (TILE + 10)
        y = TOP + 24 + (k // 2) * (TILE + 10)
        parts.append(royal_tile(royal, x, y, changed=f"royal-{royal}" in marks))
    return parts


def _goals() -> Element:
    """The three victory conditions (rule 23), as a reminder."""
    lines = [f"{WIN_POINTS} points", f"{WIN_CROWNS} crowns", f"{WIN_COLOUR} points of one colour"]
    return el(
        "g",
        text(0, 0, "to win, reach", size=13, bold=True, fill=MUTED),
        *(text(0, 20 + 18 * k, line, size=13, fill=INK) for k, line in enumerate(lines)),
        text(0, 92, "at the end of your turn", size=11, fill=MUTED),
        class_="goals",
        transform=f"translate({ROYALS_X},{TOP + 24 + 2 * (TILE + 10) + 24})",
    )


# -- the players -----------------------------------------------------------------------------------

_COLS_X = 66
_COL = 42


def _player(state: DuelState, i: int, x: int, y: int, seat: str | None, marks: frozenset[str]) -> Element:
    """One player's area: name, whose turn, privileges, crowns and points; tokens and bonuses in
    colour columns with the points of each colour and the cards bought under them; reserved
    cards and royal cards won; the three victory conditions as far as reached."""
    player = state.players[i]
    me = f"player-{player.name}"
    parts = [
        *_counters(player, me, marks),
        *_holdings(player, me, marks),
        _progress(player),
        reserved_row(player, seat, CARDS, marks, places=MAX_RESERVED, x=_RESERVED_X, y=42),
        _royals_won(player, me, marks),
    ]
    return player_area(state, i, x, y, width=PANEL_W, height=PANEL_H, children=parts)


def _counters(player: DuelPlayer, me: str, marks: frozenset[str]) -> list[Element]:
    """Points (right), crowns, and the privileges held, along the top of the area."""
    width = points_width(player.points)
    crowned = piece(
        PANEL_W - 14 - width - 60,
        6,
        46,
        28,
        [crowns(player.crowns, 4, 10, ink=INK)],
        kind="crowns",
        id=f"{me}-crowns",
        changed=f"{me}-crowns" in marks,
    )
    held = player.privileges * 36 - 6 if player.privileges else text_width("no privilege", 11)
    privileges = piece(
        PANEL_W - 14 - width - 74 - held,
        10,
        held,
        20,
        [scroll(k * 36, 0) for k in range(player.privileges)] or [text(0, 15, "no privilege", size=11, fill=MUTED)],
        kind="privileges",
        id=f"{me}-privileges",
        changed=f"{me}-privileges" in marks,
        radius=4,
    )
    return [privileges, crowned, points(player.points, PANEL_W - 14, me, marks)]


def _holdings(player: DuelPlayer, me: str, marks: frozenset[str]) -> list[Element]:
    """Tokens (pearls and gold last) above bonuses, a column a colour; under each bonus the
    points of its colour and its cards; the cards without a bonus in the pearls' column."""
    parts = holdings_labels(player.tokens, MAX_TOKENS, len(player.cards))
    parts.append(text(14, 127, "points", size=11, fill=MUTED))
    parts += token_piles(DUEL_GEMS, player.tokens, me, marks, x=_COLS_X, step=_COL)
    for col, gem in enumerate((*COLOURS, None)):
        x = _COLS_X + col * _COL
        if gem:
            parts.append(bonus(gem, player.bonuses[gem], x, me, marks))
            if player.colour_points[col]:
                parts.append(text(x + 4, 127, f"{player.colour_points[col]} pt", size=11, bold=True, fill=INK))
        parts += stack([CARDS[c] for c in player.cards if player.colour_of(c) is gem], gem, x + 1, 136, 44, marks)
    return parts


def _progress(player: DuelPlayer) -> Element:
    """How far the player is from each victory condition (bold once met)."""
    points, colour = _best_colour(player)
    goals = [
        (f"{player.points}/{WIN_POINTS} points", player.points >= WIN_POINTS),
        (f"{player.crowns}/{WIN_CROWNS} crowns", player.crowns >= WIN_CROWNS),
        (f"{points}/{WIN_COLOUR} {colour if points else 'in a colour'}", points >= WIN_COLOUR),
    ]
    parts = [text(14, 0, "to win", size=12, fill=MUTED)]
    x: float = 72
    for label, met in goals:
        parts.append(text(x, 0, label, size=12, bold=met, fill=TO_MOVE if met else INK))
        x += text_width(label, 12, bold=met) + 18
    return el("g", *parts, class_="progress", transform=f"translate(0,{PANEL_H - 12})")


_RESERVED_X = reserved_left(PANEL_W - 14, MAX_RESERVED)


def _royals_won(player: DuelPlayer, me: str, marks: frozenset[str]) -> Element:
    """The royal cards won, small, with their points and ability."""
    tiles: list[tuple[str, list[Element | None]]] = []
    for royal_id in player.royals:
        royal = ROYALS[royal_id]
        drawn = [
            el("rect", width=56, height=30, rx=4, fill=ROYAL_FILL, stroke=ROYAL_EDGE),
            text(5, 20, str(royal.points), size=15, bold=True, fill="#2a2a2a"),
            text(51, 13, royal.id, size=10, bold=True, fill="#5d4a6b", anchor="end"),
            text(51, 25, royal.ability, size=9, fill="#2a2a2a", anchor="end") if royal.ability else None,
        ]
        tiles.append((f"royal-{royal_id}", drawn))
    none = "royal cards: none"
    return won_row(tiles, me, marks, kind="royal", width=56, none=none, baseline=20, x=_RESERVED_X, y=136)


__all__ = ["board_svg", "changed", "royal_tile", "scroll"]
