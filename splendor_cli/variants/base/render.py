"""The board of Splendor as text for people, drawn with rich (the presentation floor: imported
only when a board is printed, through `Variant.board_text`).

The board reads from top to bottom: whose turn (or the result), the bank (the line doubles as
the legend of the gem letters), the nobles, the cards by level with their decks, and the
players, one row each. What comes from the file (names, card and noble ids) is made `safe`.
"""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...model import COLOURS, GEMS
from ...presentation.text import (
    GEM_STYLE,
    card_cell,
    gem_counts,
    gem_row,
    name_list,
    natural_width,
    new_console,
    plural,
    printed,
    reserved_card,
    safe,
)
from ...projection.variant import Moment
from .cards import CARDS, NOBLES
from .state import WINNING_POINTS, GameState

# -- the board -------------------------------------------------------------------------------------


def _headline(game: Moment, state: GameState) -> Text:
    """Whose turn it is (turn and round numbers), or the result once the game is over."""
    seq = f"  (event #{game.seq})"
    if not state.finished:
        turn = state.turn + 1
        round_ = state.turn // len(state.players) + 1
        line = Text.assemble(
            ("Splendor", "bold"), f"  turn {turn}, round {round_}: ", (safe(state.player.name), "bold"), " to move", seq
        )
        if state.last_round:
            leaders = [p.name for p in state.players if p.points >= WINNING_POINTS]
            line.append("\n")
            line.append("LAST ROUND", style="bold reverse")
            line.append(
                f": {name_list(leaders)} reached {WINNING_POINTS} points;"
                f" the game ends after {safe(state.players[-1].name)}'s turn."
            )
        return line
    return Text.assemble(
        ("Splendor", "bold"), f"  game over after {plural(state.turn, 'turn')}", seq, "\n", *_result(state)
    )


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


def _bank(state: GameState) -> Text:
    """The bank, colours spelt out: the line doubles as the legend of the letters."""
    parts = [Text.assemble((f"{gem.letter} {gem}", GEM_STYLE[gem]), f" {state.bank[gem]}") for gem in GEMS]
    return Text.assemble(("Bank", "bold"), "    ", Text("   ").join(parts))


def _nobles(state: GameState) -> Text:
    """The nobles still on the table, each with the bonuses it asks for (3 points each, always)."""
    if not state.nobles:
        return Text.assemble(("Nobles", "bold"), "  (none left)")
    parts = [
        Text.assemble((safe(noble), "bold"), " ", gem_counts(NOBLES[noble].requires, COLOURS)) for noble in state.nobles
    ]
    return Text.assemble(("Nobles", "bold"), "  ", Text("   ").join(parts))


def _market(state: GameState, frame: box.Box) -> Table:
    """Level 3 on top, as on the table: the deck's count, then the four face-up cards."""
    table = Table(box=frame, show_header=False, show_lines=True, padding=(0, 1))
    table.add_column("deck", no_wrap=True)
    for _ in range(len(state.board[0])):
        table.add_column(ratio=1)
    for level in (3, 2, 1):
        deck = Text.assemble((f"Level {level}", "bold"), "\n", f"deck {len(state.decks[level - 1])}")
        table.add_row(deck, *(card_cell(card, CARDS) for card in state.board[level - 1]))
    return table


def _players(state: GameState, frame: box.Box, *, one_line: bool) -> Table:
    """One row per player, in turn order, the one to move (or each winner) said under the name.

    Tokens and cards (bonuses) sit on two lines with the colours in fixed places, so that what a
    player can pay in each colour reads down a column; each total comes first (the ten-token
    limit, and the card count that breaks a tie on points). Reserved cards take one line each
    when `one_line`, else two, as on the market: narrower, for a narrow terminal.
    """
    table = Table(box=frame, padding=(0, 1), show_lines=True)
    table.add_column("Player", overflow="fold")
    table.add_column("Pts", justify="right", no_wrap=True)
    table.add_column("Tokens, cards (bonuses)", no_wrap=True)
    table.add_column("Reserved", no_wrap=True)
    table.add_column("Nobles", ratio=1)
    winners = state.winners()
    slot = 1 + max(len(str(n)) for p in state.players for n in (*p.tokens.counts, *p.bonuses.counts))
    for i, player in enumerate(state.players):
        if state.finished:
            note = "winner" if player.name in winners else ""
        else:
            note = "to move" if i == state.to_move else ""
        style = "bold" if note else ""
        name = Text(safe(player.name), style=style)
        if note:
            name.append("\n")
            name.append(note, style="bold reverse" if state.finished else "bold")
        holdings = Text.assemble(
            gem_row("tokens", player.tokens, GEMS, slot), "\n", gem_row("cards", player.bonuses, COLOURS, slot)
        )
        held = Text("\n").join(reserved_card(c, c in player.blind, one_line, CARDS) for c in player.reserved)
        table.add_row(
            name,
            Text(str(player.points), style=style),
            holdings,
            held if player.reserved else Text("-", style="dim"),
            safe(" ".join(player.nobles)) or Text("-", style="dim"),
        )
    return table


def board_text(game: Moment, *, width: int = 100, color: bool = False, ascii: bool = False) -> str:
    """The board as a player sees it: whose turn or the result, bank, nobles, cards, players.

    `width` is the terminal's, `color` adds ANSI colours, `ascii` draws frames without
    box-drawing characters (for snapshot tests).
    """
    state: GameState = game.state
    frame = box.ASCII if ascii else box.ROUNDED
    out = new_console(width, color)
    market, players = _market(state, frame), _players(state, frame, one_line=True)
    if natural_width(out, players) > width:
        players = _players(state, frame, one_line=False)
    # Both tables as wide as the wider one when they fit, so that the board reads as one block.
    common = max(natural_width(out, market), natural_width(out, players))
    if common <= width:
        market.width = players.width = common
    out.print(Group(_headline(game, state), _bank(state), _nobles(state), market, players))
    return printed(out)
