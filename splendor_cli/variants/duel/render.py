"""The board of a Splendor Duel as text for people, drawn with rich like the base game's.

It is the presentation floor of the game, imported only when a board is printed (through
`Variant.board_text`), with the same options as the base game's board. The board reads from
top to bottom: the headline (whose turn, what the turn still owes, or the
result), the table (the token board with its coordinates, the bag, the privileges and the
royal cards), the pyramid of cards with the decks, and the two players side by side, each with
how far they are from each of the three victory conditions (rule 23). What comes from the file
(names, card and royal ids) is made `safe`.

From 60 columns up no name, count or card of the players is cut or broken inside a word: the
players go one under the other when they do not fit side by side whole (below about 70 columns,
or 85 with a name of 32 letters), and the table of the privileges gives only the supply's when
the players' do not fit in it (their table says them too).
"""

from __future__ import annotations

from rich import box
from rich.align import Align
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...model import COLOURS, DUEL_GEMS, Gem, Tokens
from ...presentation.text import (
    GEM_STYLE,
    card_bonus,
    card_extras,
    card_title,
    cost_text,
    gem_place,
    gem_row,
    natural_width,
    new_console,
    packed,
    plural,
    printed,
    reserved_card,
    safe,
    sealed_cell,
)
from ...projection.variant import Moment
from ...sealing.placeholders import is_placeholder
from .cards import CARDS, ROYALS
from .state import CELLS, MAX_TOKENS, SIZE, WIN_COLOUR, WIN_CROWNS, WIN_POINTS, DuelPlayer, DuelState

_HEAD_WIDTH = max(len(card_title(c)) + 1 + len(card_bonus(c)) for c in CARDS.values())
"""The widest head of a Duel card (`2-04 1pt white x2`): reserved cards on one line align their costs."""
_CARD_WIDTH = max(len(line) for c in CARDS.values() for line in (card_title(c), card_bonus(c), cost_text(c.id, CARDS)))
"""The width of a card in the pyramid: every card's lines fit it (an ability may wrap)."""


def board_text(game: Moment, *, width: int = 100, color: bool = False, ascii: bool = False) -> str:
    """The board of a Duel as a player sees it: the headline, the token board, bag, privileges and
    royal cards, the pyramid, and both players with their progress towards a victory.

    `width` is the terminal's, `color` adds ANSI colours, `ascii` draws frames without
    box-drawing characters (for snapshot tests). Everything but the pyramid is drawn as wide as
    the widest part (or the terminal), so that the board reads as one block.
    """
    state: DuelState = game.state
    frame = box.ASCII if ascii else box.ROUNDED
    out = new_console(width, color)
    table, pyramid = _table(state, frame), _pyramid(state, frame)
    table_width = natural_width(out, table)
    if table_width > width:  # the players' privileges are in their table too
        table = _table(state, frame, players=False)
        table_width = natural_width(out, table)
    # The pyramid stays as narrow as it is: its labels by its cards.
    common = min(width, max(table_width, natural_width(out, pyramid)))
    players, needed = _players(state, frame, width, common, color)
    table.width = players.width = min(width, max(common, needed))
    out.print(Group(_headline(game, state, width), table, pyramid, players))
    return printed(out)


# -- the headline ----------------------------------------------------------------------------------


def _headline(game: Moment, state: DuelState, width: int) -> Text:
    """Whose turn it is, then a line for each thing the turn still owes or that is known of it;
    or the result once the game is over."""
    seq = ("  ", Text(f"(event #{game.seq})"))
    title = ("", Text("Splendor Duel", "bold"))
    if state.finished:
        over = Text(f"game over after {plural(state.turn, 'turn')}")
        return Text.assemble(packed([title, ("  ", over), seq], width, indent=2), "\n", _result(state))
    mover = Text.assemble((safe(state.player.name), "bold"), " to move")
    line = packed([title, ("  ", Text(f"turn {state.turn + 1}:")), (" ", mover), seq], width, indent=2)
    notes = _turn_notes(state)
    if notes:
        line.append("\n")
        line.append_text(Text("\n").join(notes))
    return line


def _turn_notes(state: DuelState) -> list[Text]:
    """What the player to move must do now (a step the turn owes) and what is known of the turn."""
    name = safe(state.player.name)
    notes = []
    todo = _todo(state, state.phase)
    if todo:
        then = [_todo(state, owed) for owed in state.owed]
        text = f"{name} must {todo}" + "".join(f", then {t}" for t in then if t)
        notes.append(Text(text, style="bold"))
    elif state.replenished:
        notes.append(Text(f"{name} replenished the board this turn: no more privileges"))
    elif not state.fresh:  # the only other optional step
        notes.append(Text(f"{name} used a privilege this turn"))
    if state.again:
        notes.append(Text(f"{name} plays again after this turn"))
    if state.passes and state.fresh:
        notes.append(Text(f"{safe(state.opponent.name)} passed: if {name} passes too, the game ends in a draw"))
    return notes


def _todo(state: DuelState, phase: str) -> str:
    player = state.player
    match phase:
        case "token":
            colour = CARDS[player.cards[-1]].bonus
            return f"take a {colour} token from the board (the ability of {safe(player.cards[-1])})"
        case "steal":
            return f"steal a token from {safe(state.opponent.name)} (a gem or a pearl, not gold)"
        case "royal":
            return f"take a royal card ({plural(player.crowns, 'crown')})"
        case "return":
            held = player.tokens.total()
            return f"return {plural(held - MAX_TOKENS, 'token')} to the bag ({held} held, {MAX_TOKENS} at most)"
    return ""


def _result(state: DuelState) -> Text:
    """`Winner: ann, 21 points`, by the victory condition met; or a draw (both players passed)."""
    if not state.winner:
        return Text.assemble(
            ("Draw", "bold reverse"),
            ": ",
            ("both players passed, one after the other: no one can move any more", "bold"),
        )
    player = next(p for p in state.players if p.name == state.winner)
    if state.win_condition == "crowns":
        how = f"with {player.crowns} crowns ({WIN_CROWNS} crowns win)"
    elif state.win_condition == "colour":
        points, colour = _best_colour(player)
        how = f"with {points} points on {colour} cards ({WIN_COLOUR} points in one colour win)"
    else:
        how = f"with {player.points} points ({WIN_POINTS} points win)"
    return Text.assemble(("Winner", "bold reverse"), ": ", (f"{safe(player.name)}, {how}", "bold"))


def _best_colour(player: DuelPlayer) -> tuple[int, Gem]:
    """The colour with the most points on its cards (the first of a tie, in `COLOURS` order)."""
    points = max(player.colour_points)
    return points, COLOURS[player.colour_points.index(points)]


# -- the table: tokens, bag, privileges, royal cards -----------------------------------------------


def _table(state: DuelState, frame: box.Box, players: bool = True) -> Table:
    """The token board, the bag (whose lines double as the legend of the letters), the
    privileges (the supply's, and the players' unless not `players`: for a narrow terminal)
    and the royal cards still available."""
    table = Table(box=frame, padding=(0, 1))
    table.add_column("Board", no_wrap=True)
    table.add_column("Bag", no_wrap=True)
    table.add_column("Privileges", no_wrap=True)
    table.add_column("Royal cards", ratio=1)
    bag = Text("\n").join(
        Text.assemble(
            (f"{gem.letter} {gem:<6}", GEM_STYLE[gem]), (str(state.bag[gem]), "" if state.bag[gem] else "dim")
        )
        for gem in DUEL_GEMS
    )
    bag.append(f"\n{state.bag.total()} in all" if state.bag else "\n(empty)", style="" if state.bag else "dim")
    privileges = Text(f"supply {state.privileges}")
    if players:  # else said only in the players' table, below
        for player in state.players:
            privileges.append(f"\n{safe(player.name)} {player.privileges}")
    royals = (
        Text("\n").join(_royal(royal) for royal in state.royals) if state.royals else Text("(none left)", style="dim")
    )
    table.add_row(_token_board(state.board), bag, privileges, royals)
    return table


def _token_board(board: tuple[Gem | None, ...]) -> Text:
    """The 5 x 5 board: columns a to e across, rows 1 to 5 down (row 1 at the top); `.` when empty."""
    lines = [Text("   " + " ".join(cell[0] for cell in CELLS[:SIZE]), style="dim")]
    for row in range(SIZE):
        line = Text(f"{row + 1}  ", style="dim")
        for col in range(SIZE):
            gem = board[row * SIZE + col]
            if col:
                line.append(" ")
            line.append(gem.letter if gem else ".", style=GEM_STYLE[gem] if gem else "dim")
        lines.append(line)
    return Text("\n").join(lines)


def _royal(royal_id: str) -> Text:
    """`R1 2pt steal`."""
    royal = ROYALS[royal_id]
    text = Text.assemble((safe(royal.id), "bold"), (f" {royal.points}pt", "bold"))
    if royal.ability:
        text.append(f" {royal.ability}", style="italic")
    return text


# -- the pyramid -----------------------------------------------------------------------------------


def _pyramid(state: DuelState, frame: box.Box) -> Table:
    """Level 3 on top with 3 cards, then 4, then 5, centred as on the table; each level's label
    and the cards left in its deck on the left."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column("level", no_wrap=True)
    grid.add_column("cards", ratio=1)
    for level in (3, 2, 1):
        cards = Table(box=frame, show_header=False, padding=(0, 1))
        for _ in state.pyramid[level - 1]:
            cards.add_column(width=_CARD_WIDTH)
        cards.add_row(*(_card_cell(card) for card in state.pyramid[level - 1]))
        label = Text.assemble("\n", (f"Level {level}", "bold"), "\n", f"deck {len(state.decks[level - 1])}")
        grid.add_row(label, Align.center(cards))
    return grid


def _card_cell(card_id: str | None) -> Text:
    """A face-up card: id and points, bonus, cost, then crowns and ability when it has any;
    `(empty)` when its deck ran out."""
    if card_id is None:
        return Text("(empty)", style="dim")
    if is_placeholder(card_id):  # a sealed game's card being revealed: face down
        return sealed_cell(card_id, tall=True)
    card = CARDS[card_id]
    cell = Text("\n").join([card_title(card), card_bonus(card), cost_text(card_id, CARDS)])
    extras = card_extras(card)
    if extras:
        cell.append("\n")
        cell.append_text(extras)
    return cell


# -- the players -----------------------------------------------------------------------------------


def _players(state: DuelState, frame: box.Box, width: int, fill: int, color: bool) -> tuple[Table, int]:
    """The two players side by side, in turn order, the one to move (or the winner) said by the
    name; and the width the table needs, at least `fill` if that fits `width` (the cards bought
    are wrapped to it, nothing else wraps). When they do not fit side by side (a narrow
    terminal, a long name), one under the other.

    Tokens, bonuses and the points of each colour sit on lines with the colours in fixed
    places, so that what a player can pay in a colour reads down a column; each total comes
    first. Then the three victory conditions, each as far as the player has got; then the
    cards. Reserved cards take one line each when that fits `width`, else two.
    """
    players = state.players
    slot = 1 + max(len(str(n)) for p in players for n in (*p.tokens.counts, *p.bonuses.counts, *p.colour_points))
    holdings = [
        ("tokens", [_token_row(p.tokens, slot, color) for p in players]),
        ("bonuses", [_stripped(gem_row("", p.bonuses, COLOURS, slot, color=color)) for p in players]),
        (
            "points",
            [_stripped(gem_row("", _colour_points(p), COLOURS, slot, f"{p.points:>2}", color=color)) for p in players],
        ),
        ("privileges", [Text(f"{p.privileges:>2}") for p in players]),
    ]
    goals = [
        ("to win", [_progress("points", p.points, WIN_POINTS) for p in players]),
        ("", [_progress("crowns", p.crowns, WIN_CROWNS) for p in players]),
        ("", [_colour_progress(p) for p in players]),
    ]
    # A name is never broken: its column is at least as wide (what follows it may go under it).
    names = max(len(safe(p.name)) for p in players)
    for columns in (len(players), 1):  # side by side, else one under the other
        for one_line in (True, False):
            reserved = [
                _dash(Text("\n").join(reserved_card(c, c in p.blind, one_line, CARDS, _HEAD_WIDTH) for c in p.reserved))
                for p in players
            ]
            # Both players' columns as wide as the wider needs: side by side, they read alike.
            column = max(names, *(_widest(cell) for _, cells in (*holdings, *goals, ("", reserved)) for cell in cells))
            needed = _LABEL_WIDTH + columns * (column + 3) + 4
            if needed <= width:
                break
        if needed <= width:
            break
    if needed < fill <= width:
        column += (fill - needed) // columns
        needed = fill
    rest = [
        ("cards", [_cards(p, column) for p in players]),
        ("royals", [_dash(Text("\n").join(_royal(r) for r in p.royals)) for p in players]),
        ("reserved", reserved),
    ]
    sections = [holdings, goals, rest]
    table = Table(box=frame, padding=(0, 1), show_header=columns > 1)
    table.add_column("", no_wrap=True, min_width=_LABEL_WIDTH)
    if columns > 1:
        for i in range(len(players)):
            table.add_column(_player_header(state, i), ratio=1, min_width=column if needed <= width else None)
        for n, section in enumerate(sections):
            if n:
                table.add_section()
            for label, cells in section:
                table.add_row(label, *cells)
        return table, needed
    table.add_column("", ratio=1, min_width=column if needed <= width else None)
    for i in range(len(players)):
        if i:
            table.add_section()
        table.add_row("", _player_header(state, i))
        table.add_section()
        for label, cells in (*holdings, *goals, *rest):
            table.add_row(label, cells[i])
    return table, needed


_LABEL_WIDTH = len("privileges")


def _widest(text: Text) -> int:
    return max(line.cell_len for line in text.split())


def _token_row(tokens: Tokens, slot: int, color: bool) -> Text:
    """` 7  w2 u1    r3    p1 *1`: the colours in the places of the bonuses below, then pearls and gold."""
    row = gem_row("", tokens, COLOURS, slot, color=color)
    for gem in (Gem.PEARL, Gem.GOLD):
        row.append(" ")
        row.append_text(gem_place(gem, tokens[gem], 2, color=color))
    return _stripped(row)


def _stripped(text: Text) -> Text:
    text.rstrip()
    return text


def _player_header(state: DuelState, i: int) -> Text:
    """`ann  to move`, or `ann  winner`."""
    player = state.players[i]
    if state.finished:
        note = "winner" if player.name == state.winner else ""
    else:
        note = "to move" if i == state.to_move else ""
    header = Text(safe(player.name), style="bold" if note else "")
    if note:
        header.append("  ")
        header.append(note, style="bold reverse" if state.finished else "bold")
    return header


def _colour_points(player: DuelPlayer) -> Tokens:
    return Tokens.of(dict(zip(COLOURS, player.colour_points)))


def _progress(what: str | Text, have: int, need: int) -> Text:
    """`points 7/20`, bold once the condition is met."""
    return Text.assemble(what, " ", (f"{have}/{need}", "bold" if have >= need else ""))


def _colour_progress(player: DuelPlayer) -> Text:
    """`best colour red 4/10`: the colour with the most points on its cards."""
    points, colour = _best_colour(player)
    if not points:
        return _progress("best colour", 0, WIN_COLOUR)
    return _progress(Text.assemble("best colour ", (str(colour), GEM_STYLE[colour])), points, WIN_COLOUR)


def _cards(player: DuelPlayer, width: int) -> Text:
    """The cards bought, a line per colour group as on the table (rule 27): `r 1-22 1-26 (wild)`,
    a wild card in the group it was placed in; then the cards without a bonus. A group longer
    than `width` goes on under itself, indented."""
    if not player.cards:
        return Text("-", style="dim")
    groups: list[list[Text]] = []
    for colour in COLOURS:
        ids = [c for c in player.cards if player.colour_of(c) is colour]
        if ids:
            words = [Text(colour.letter, style=GEM_STYLE[colour])]
            words += [Text.assemble(safe(c), (" (wild)", "dim")) if CARDS[c].wild else Text(safe(c)) for c in ids]
            groups.append(words)
    none = [c for c in player.cards if player.colour_of(c) is None]
    if none:
        groups.append([Text("no bonus", style="dim"), *(Text(safe(c)) for c in none)])
    lines: list[Text] = []
    for words in groups:
        line = words[0].copy()
        for word in words[1:]:
            if len(line) + 1 + len(word) > width:
                lines.append(line)
                line = Text(" " * len(words[0]))
            line.append(" ")
            line.append_text(word)
        lines.append(line)
    return Text("\n").join(lines)


def _dash(text: Text) -> Text:
    return text if text else Text("-", style="dim")
