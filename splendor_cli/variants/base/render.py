"""The board of Splendor as text for people, drawn with rich (the presentation floor: imported
only when a board is printed, through `Variant.board_text`).

The board reads from top to bottom: whose turn (or the result), the bank (the line doubles as
the legend of the gem letters), the nobles, the cards by level with their decks, and the
players. What comes from the file (names, card and noble ids) is made `safe`.

The board lays itself out for the width it is given (`board_text` lists the layouts, widest
first): from 60 columns up no name, count, card or noble is cut or broken inside a word. A line
too long breaks between its parts; a table too wide puts its parts under one another.
"""

from __future__ import annotations

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ...model import COLOURS, GEMS
from ...presentation.text import (
    GEM_STYLE,
    card_bonus,
    card_cell,
    card_title,
    cost_text,
    gem_counts,
    gem_row,
    name_list,
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
from .cards import CARDS, NOBLES
from .state import WINNING_POINTS, GameState, PlayerState

# -- the board -------------------------------------------------------------------------------------


def board_text(game: Moment, *, width: int = 100, color: bool = False, ascii: bool = False) -> str:
    """The board as a player sees it: whose turn or the result, bank, nobles, cards, players.

    `width` is the terminal's, `color` adds ANSI colours, `ascii` draws frames without
    box-drawing characters (for snapshot tests). The players are laid out in the first of these
    that fits:

    - a table, one row each, every reserved card on one line (about 100 columns with names of a
      dozen letters, 120 with names of 32);
    - one under another, each under a heading line (name, whose turn, points, nobles won), the
      reserved cards on one line each beside the tokens and cards (80 columns);
    - the same with the reserved cards under the tokens and cards (50), each on two lines when
      even that is too wide.

    The market keeps its two-line cards down to 79 columns, then goes to three lines a card (id
    and points, bonus, cost) and wraps a long cost between two gems.
    """
    state: GameState = game.state
    frame = box.ASCII if ascii else box.ROUNDED
    out = new_console(width, color)
    market, market_width = _market(state, frame, width)
    players, players_width = _players(state, frame, width, out, color)
    # Both tables as wide as the wider one (or the terminal), so that the board reads as one block.
    market.width = players.width = min(width, max(market_width, players_width))
    out.print(Group(_headline(game, state, width), _bank(state, width), _nobles(state, width), market, players))
    return printed(out)


def _headline(game: Moment, state: GameState, width: int) -> Text:
    """Whose turn it is (turn and round numbers), or the result once the game is over."""
    seq = Text(f"(event #{game.seq})")
    if not state.finished:
        turn = state.turn + 1
        round_ = state.turn // len(state.players) + 1
        mover = Text.assemble((safe(state.player.name), "bold"), " to move")
        parts = [("", Text("Splendor", "bold")), ("  ", Text(f"turn {turn}, round {round_}:")), (" ", mover)]
        line = packed([*parts, ("  ", seq)], width, indent=2)
        if state.last_round:
            leaders = [p.name for p in state.players if p.points >= WINNING_POINTS]
            line.append("\n")
            line.append("LAST ROUND", style="bold reverse")
            line.append(
                f": {name_list(leaders)} reached {WINNING_POINTS} points;"
                f" the game ends after {safe(state.players[-1].name)}'s turn."
            )
        return line
    over = Text(f"game over after {plural(state.turn, 'turn')}")
    line = packed([("", Text("Splendor", "bold")), ("  ", over), ("  ", seq)], width, indent=2)
    return Text.assemble(line, "\n", *_result(state))


def _result(state: GameState) -> tuple[tuple[str, str] | str, ...]:
    """`Winner: ann, 16 points`, with the tie-break when it decided, or the shared victory."""
    winners = [p for p in state.players if p.name in state.winners()]
    best = winners[0]
    if len(winners) > 1:
        sharers = name_list([p.name for p in winners])
        head, text = "Shared victory", f"{sharers}, {best.points} points and {plural(len(best.cards), 'card')} each"
    else:
        head, text = "Winner", f"{safe(best.name)}, {best.points} points"
        tied = [p.name for p in state.players if p.points == best.points and p is not best]
        if tied:
            text += f" and fewer cards than {name_list(tied)}"
    if best.points < WINNING_POINTS:
        text += " (no one could play any more)"
    return (head, "bold reverse"), ": ", (text, "bold")


def _bank(state: GameState, width: int) -> Text:
    """The bank, colours spelt out: the line doubles as the legend of the letters."""
    parts = [("   ", Text.assemble((f"{gem.letter} {gem}", GEM_STYLE[gem]), f" {state.bank[gem]}")) for gem in GEMS]
    return packed([("", Text("Bank", "bold")), *_after(parts, "    ")], width, indent=len("Bank    "))


def _nobles(state: GameState, width: int) -> Text:
    """The nobles still on the table, each with the bonuses it asks for (3 points each, always)."""
    if not state.nobles:
        return Text.assemble(("Nobles", "bold"), "  (none left)")
    parts = [
        ("   ", Text.assemble((safe(noble), "bold"), " ", gem_counts(NOBLES[noble].requires, COLOURS)))
        for noble in state.nobles
    ]
    return packed([("", Text("Nobles", "bold")), *_after(parts, "  ")], width, indent=len("Nobles  "))


def _after(parts: list[tuple[str, Text]], sep: str) -> list[tuple[str, Text]]:
    """`parts` with the first one's separator replaced (what follows the label of a line)."""
    return [(sep, parts[0][1]), *parts[1:]]


def _market(state: GameState, frame: box.Box, width: int) -> tuple[Table, int]:
    """Level 3 on top, as on the table: the deck's count, then the four face-up cards, each on
    two lines (head, then cost), or on three when that is too wide (id and points, bonus, cost);
    and the width it needs.

    The cards' columns are as wide as one another: as wide as the widest card when that fits
    (else a long cost wraps between two gems).
    """
    columns = len(state.board[0])
    decks = [
        Text.assemble((f"Level {level}", "bold"), "\n", f"deck {len(state.decks[level - 1])}") for level in (3, 2, 1)
    ]
    for cell in (_card_cell, _tall_cell):
        cards = [[cell(card) for card in state.board[level - 1]] for level in (3, 2, 1)]
        widest = max(_widest(card) for row in cards for card in row)
        needed = max(_widest(deck) for deck in decks) + columns * (widest + 3) + 4  # padding, frame
        if needed <= width:
            break
    table = Table(box=frame, show_header=False, show_lines=True, padding=(0, 1))
    table.add_column("deck", no_wrap=True)
    for _ in range(columns):
        table.add_column(ratio=1, min_width=widest if needed <= width else None)
    for deck, row in zip(decks, cards):
        table.add_row(deck, *row)
    return table, needed


def _widest(text: Text) -> int:
    return max(line.cell_len for line in text.split())


def _card_cell(card_id: str | None) -> Text:
    return card_cell(card_id, CARDS)


def _tall_cell(card_id: str | None) -> Text:
    """A face-up card on three lines: `2-14 1pt`, `green`, `w3 g2 r3` (which wraps between gems)."""
    if card_id is None:
        return Text("(empty)", style="dim")
    if is_placeholder(card_id):  # a sealed game's card being revealed: face down
        return sealed_cell(card_id, tall=True)
    card = CARDS[card_id]
    return Text("\n").join([card_title(card), card_bonus(card), cost_text(card_id, CARDS)])


# -- the players -----------------------------------------------------------------------------------


def _players(state: GameState, frame: box.Box, width: int, out: Console, color: bool) -> tuple[Table, int]:
    """The players' table in the widest layout that fits `width` (see `board_text`), and its width."""
    table = _player_rows(state, frame, color)
    needed = natural_width(out, table)
    if needed <= width:
        return table, needed
    return _player_blocks(state, frame, width, color)


def _note(state: GameState, i: int) -> Text:
    """`to move` (the player whose turn it is) or `winner` (each winner); else nothing."""
    if state.finished:
        return Text("winner", style="bold reverse") if state.players[i].name in state.winners() else Text()
    return Text("to move", style="bold") if i == state.to_move else Text()


def _slot(state: GameState) -> int:
    """The width of a gem's place in the rows of tokens and cards: its letter and the longest count."""
    return 1 + max(len(str(n)) for p in state.players for n in (*p.tokens.counts, *p.bonuses.counts))


def _player_rows(state: GameState, frame: box.Box, color: bool) -> Table:
    """One row per player, in turn order, the one to move (or each winner) said under the name.

    Tokens and cards (bonuses) sit on two lines with the colours in fixed places, so that what a
    player can pay in each colour reads down a column; each total comes first (the ten-token
    limit, and the card count that breaks a tie on points). Reserved cards and nobles take one
    line each, the costs of the cards aligned. Nothing wraps: `_players` takes another layout
    when this one is too wide.
    """
    table = Table(box=frame, padding=(0, 1), show_lines=True)
    table.add_column("Player", no_wrap=True)
    table.add_column("Pts", justify="right", no_wrap=True)
    table.add_column("Tokens, cards (bonuses)", no_wrap=True)
    table.add_column("Reserved", no_wrap=True)
    table.add_column("Nobles", ratio=1, no_wrap=True)
    slot = _slot(state)
    for i, player in enumerate(state.players):
        note = _note(state, i)
        style = "bold" if note else ""
        name = Text(safe(player.name), style=style)
        if note:
            name.append("\n")
            name.append_text(note)
        table.add_row(
            name,
            Text(str(player.points), style=style),
            Text("\n").join(_holdings(player, slot, color=color)),
            Text("\n").join(_reserved(player, one_line=True)) if player.reserved else Text("-", style="dim"),
            "\n".join(safe(noble) for noble in player.nobles) or Text("-", style="dim"),  # one a line: narrower
        )
    return table


def _holdings(player: PlayerState, slot: int, label: int = 6, *, color: bool) -> list[Text]:
    """`tokens  7  w2 u1    r3    *1` over `cards   4  w1    g2 r1`: the colours in fixed places
    (the rows of every player as wide, the places of a 0 included: `gem_place`)."""
    return [
        Text(f"{'tokens':<{label}} ").append_text(gem_row("", player.tokens, GEMS, slot, color=color)),
        Text(f"{'cards':<{label}} ").append_text(gem_row("", player.bonuses, COLOURS, slot, color=color)),
    ]


def _reserved(player: PlayerState, one_line: bool) -> list[Text]:
    """The reserved cards, each on one line (or two, as on the market), `(blind)` when drawn face down."""
    cards = [reserved_card(c, c in player.blind, one_line, CARDS) for c in player.reserved]
    return [line for card in cards for line in card.split()]


def _player_blocks(state: GameState, frame: box.Box, width: int, color: bool) -> tuple[Table, int]:
    """The players one under another, for a narrow terminal, and the width that needs: each
    under a heading line (name, whose turn, points, nobles won), then the tokens and cards, and
    the reserved cards beside them when they fit (the costs on the same line), else under them
    (on two lines each when even that is too wide)."""
    inner = width - 4  # the frame and the padding
    slot = _slot(state)
    holdings = [_holdings(p, slot, color=color) for p in state.players]
    reserved = [_reserved(p, one_line=True) for p in state.players]
    held = max(row.cell_len for rows in holdings for row in rows)
    cards = max((line.cell_len for lines in reserved for line in lines), default=0)
    label = "reserved  "
    side = held + 2 + len(label) + cards <= inner
    if not side:  # the labels under one another, the values starting together
        label = "reserved "
        holdings = [_holdings(p, slot, len(label) - 1, color=color) for p in state.players]
        if len(label) + cards > inner:
            reserved = [_reserved(p, one_line=False) for p in state.players]
    table = Table(box=frame, show_header=False, show_lines=True, padding=(0, 1))
    table.add_column("player", ratio=1)
    needed = 0
    for i in range(len(state.players)):
        cards_of = [Text.assemble(label if n == 0 else " " * len(label), line) for n, line in enumerate(reserved[i])]
        if side:  # the reserved cards from the line of the tokens down, after the widest holdings
            body = [*holdings[i], *(Text() for _ in cards_of[2:])]
            for row, card in zip(body, cards_of):
                row.pad_right(held + 2 - row.cell_len)
                row.append_text(card)
        else:
            body = [*holdings[i], *cards_of]
        cell = Text("\n").join([_heading(state, i, inner), *body])
        needed = max(needed, *(line.cell_len for line in cell.split()))
        table.add_row(cell)
    return table, needed + 4


def _heading(state: GameState, i: int, width: int) -> Text:
    """`christabel  to move  12 points  nobles N06 N08`: broken between its parts when too long."""
    player = state.players[i]
    note = _note(state, i)
    parts = [("", Text(safe(player.name), style="bold" if note else ""))]
    if note:
        parts.append(("  ", note))
    parts.append(("  ", Text(plural(player.points, "point"))))
    if player.nobles:
        parts.append(("  ", Text("nobles " + " ".join(safe(noble) for noble in player.nobles))))
    return packed(parts, width, indent=2)
