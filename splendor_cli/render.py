"""Text for people: the board and the log, drawn with rich (imported lazily by the commands that print them).

Both functions return plain strings: rich renders into a string buffer, with ANSI colour only
when `color` is true. Gems are written with one letter each (`w u g r k`, `*` for gold), as
`Gem.letter` gives them (`p` for a Duel pearl); the bank line spells the colours out once, as the
legend. A Splendor Duel board is drawn by render_duel.py, from the pieces below: `board_text`
hands a Duel over to it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping

from rich import box
from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .cards import CARDS, NOBLES
from .model import COLOURS, DUEL_GEMS, GEMS, Card, Gem, Tokens
from .projection import Game, GameState
from .projection.duel import DuelState
from .projection.state import WINNING_POINTS
from .views import LogEntry

GEM_STYLE = {
    Gem.WHITE: "bright_white",
    Gem.BLUE: "blue",
    Gem.GREEN: "green",
    Gem.RED: "red",
    Gem.BLACK: "bright_black",
    Gem.GOLD: "yellow",
    Gem.PEARL: "magenta",
}
"""The colour each gem is printed in when colour is on."""


# -- small pieces ------------------------------------------------------------------------------


def _gem_counts(tokens: Tokens, gems: tuple[Gem, ...] = GEMS) -> Text:
    """`w3 g2 r3`: the positive counts, each in its gem's colour; `-` when there are none."""
    parts = [Text(f"{gem.letter}{tokens[gem]}", style=GEM_STYLE[gem]) for gem in gems if tokens[gem]]
    return Text(" ").join(parts) if parts else Text("-", style="dim")


def _card_head(card_id: str, cards: Mapping[str, Card] = CARDS) -> Text:
    """`2-14 1pt green`: the id to buy or reserve it by, its points (left out when 0), its bonus.

    `cards` is the table the id is looked up in: a Duel card's id may be a base card's too.
    """
    card = cards[card_id]
    return Text.assemble(_card_title(card), " ", _card_bonus(card))


def _card_title(card: Card) -> Text:
    """`2-14 1pt`: the id and the points, left out when 0."""
    title = Text(card.id, style="bold")
    if card.points:
        title.append(f" {card.points}pt", style="bold")
    return title


def _card_bonus(card: Card) -> Text:
    """`green`, `red x2` (a Duel double bonus), `wild` or `no bonus` (Duel cards both)."""
    if card.bonus is not None:
        return Text(f"{card.bonus}{' x2' if card.bonus_count == 2 else ''}", style=GEM_STYLE[card.bonus])
    return Text("wild" if card.wild else "no bonus", style="bold" if card.wild else "dim")


def _card_extras(card: Card) -> Text:
    """`2 crowns`, `steal`: what a Duel card has besides points and bonus (nothing in the base game).

    A wild card's `wild` ability is its bonus, said by `_card_bonus` already.
    """
    parts = [Text(_plural(card.crowns, "crown"), style="bold")] if card.crowns else []
    if card.ability and card.ability != "wild":
        parts.append(Text(card.ability, style="italic"))
    return Text(", ").join(parts)


def _cost(card_id: str, cards: Mapping[str, Card] = CARDS) -> Text:
    """`w3 g2 r3`, pearls too (`p1`) for a Duel card."""
    return _gem_counts(cards[card_id].cost, DUEL_GEMS)


def _card_cell(card_id: str | None) -> Text:
    """A face-up card on two lines (head, then cost), or `(empty)` when its deck ran out."""
    if card_id is None:
        return Text("(empty)", style="dim")
    return Text.assemble(_card_head(card_id), "\n", _cost(card_id))


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- the board -------------------------------------------------------------------------------------


def _headline(game: Game, state: GameState) -> Text:
    """Whose turn it is (turn and round numbers), or the result once the game is over."""
    seq = f"  (event #{game.seq})"
    if not state.finished:
        turn = state.turn + 1
        round_ = state.turn // len(state.players) + 1
        line = Text.assemble(
            ("Splendor", "bold"), f"  turn {turn}, round {round_}: ", (state.player.name, "bold"), " to move", seq
        )
        if state.last_round:
            leaders = [p.name for p in state.players if p.points >= WINNING_POINTS]
            line.append("\n")
            line.append("LAST ROUND", style="bold reverse")
            line.append(
                f": {_names(leaders)} reached {WINNING_POINTS} points;"
                f" the game ends after {state.players[-1].name}'s turn."
            )
        return line
    return Text.assemble(
        ("Splendor", "bold"), f"  game over after {_plural(state.turn, 'turn')}", seq, "\n", *_result(state)
    )


def _result(state: GameState) -> tuple[tuple[str, str] | str, ...]:
    """`Winner: ann, 16 points`, with the tie-break when it decided, or the shared victory."""
    winners = [p for p in state.players if p.name in state.winners()]
    best = winners[0]
    if len(winners) > 1:
        names = _names([p.name for p in winners])
        head, text = "Shared victory", f"{names}, {best.points} points and {_plural(len(best.cards), 'card')} each"
    else:
        head, text = "Winner", f"{best.name}, {best.points} points"
        tied = [p.name for p in state.players if p.points == best.points and p is not best]
        if tied:
            text += f" and fewer cards than {_names(tied)}"
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
        Text.assemble((noble, "bold"), " ", _gem_counts(NOBLES[noble].requires, COLOURS)) for noble in state.nobles
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
        table.add_row(deck, *(_card_cell(card) for card in state.board[level - 1]))
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
        name = Text(player.name, style=style)
        if note:
            name.append("\n")
            name.append(note, style="bold reverse" if state.finished else "bold")
        holdings = Text.assemble(
            _gem_row("tokens", player.tokens, GEMS, slot), "\n", _gem_row("cards", player.bonuses, COLOURS, slot)
        )
        reserved = Text("\n").join(_reserved(c, c in player.blind, one_line) for c in player.reserved)
        table.add_row(
            name,
            Text(str(player.points), style=style),
            holdings,
            reserved if player.reserved else Text("-", style="dim"),
            " ".join(player.nobles) or Text("-", style="dim"),
        )
    return table


def _gem_row(label: str, tokens: Tokens, gems: tuple[Gem, ...], slot: int, total: str | None = None) -> Text:
    """`tokens  7  w2 u1    r3    *1`: the total, then each gem in its own place, blank when none.

    `total` replaces the count of the tokens (a Duel's `points` row shows `9/20` there); `label`
    may be "" (then the row starts with the total).
    """
    total = f"{tokens.total():>2}" if total is None else total
    row = Text(f"{label:<6} {total} " if label else f"{total} ")
    for gem in gems:
        count = tokens[gem]
        row.append(" ")
        row.append(f"{gem.letter}{count}".ljust(slot) if count else " " * slot, style=GEM_STYLE[gem])
    return row


def _reserved(
    card_id: str, blind: bool, one_line: bool, cards: Mapping[str, Card] = CARDS, head_width: int | None = None
) -> Text:
    """A reserved card, marked `(blind)` when it came face down from a deck: the other players
    at a real table would not know it (the file, an open record, does say it). A Duel card's
    crowns and ability follow its cost."""
    mark = Text("  (blind)" if blind else "", style="dim italic")
    extras = _card_extras(cards[card_id])
    if extras:
        extras = Text.assemble("  ", extras)
    if one_line:
        return Text.assemble(_reserved_line(card_id, cards, head_width or _HEAD_WIDTH), extras, mark)
    return Text.assemble(_card_head(card_id, cards), mark, "\n", _cost(card_id, cards), extras)


def _reserved_line(card_id: str, cards: Mapping[str, Card] = CARDS, head_width: int | None = None) -> Text:
    """`2-14 1pt green  w3 g2 r3`: a reserved card on one line, the costs of a hand aligned."""
    head = _card_head(card_id, cards)
    head.pad_right((head_width or _HEAD_WIDTH) - len(head))
    return Text.assemble(head, "  ", _cost(card_id, cards))


_HEAD_WIDTH = len("3-09 3pt green")


def board_text(game: Game, *, width: int = 100, color: bool = False, ascii: bool = False) -> str:
    """The board as a player sees it: whose turn or the result, bank, nobles, cards, players.

    A Splendor Duel is drawn by `render_duel.duel_board_text`, with the same options.
    """
    state = game.state
    if isinstance(state, DuelState):
        from .render_duel import duel_board_text

        return duel_board_text(game, width=width, color=color, ascii=ascii)
    frame = box.ASCII if ascii else box.ROUNDED
    console = _console(width, color)
    market, players = _market(state, frame), _players(state, frame, one_line=True)
    if _natural_width(console, players) > width:
        players = _players(state, frame, one_line=False)
    # Both tables as wide as the wider one when they fit, so that the board reads as one block.
    common = max(_natural_width(console, market), _natural_width(console, players))
    if common <= width:
        market.width = players.width = common
    console.print(Group(_headline(game, state), _bank(state), _nobles(state), market, players))
    return _text(console)


def _natural_width(console: Console, table: Table) -> int:
    """How wide `table` is when nothing wraps (rich clamps a measure to the width it is given)."""
    return Measurement.get(console, console.options.update_width(1000), table).maximum


# -- the log ---------------------------------------------------------------------------------------


def log_text(entries: list[LogEntry], *, color: bool = False) -> str:
    """One line per event: seq, turn number, player, notation; undone turns marked and struck."""
    seq_w = max((len(str(e.seq)) for e in entries), default=1) + 1
    turn_w = max((len(f"turn {e.turn}") for e in entries if e.turn is not None), default=0)
    name_w = max((len(e.player or "") for e in entries), default=0)
    lines = []
    for e in entries:
        turn = f"turn {e.turn}" if e.turn is not None else ""
        line = Text.assemble((f"{f'#{e.seq}':>{seq_w}}", "dim"), "  ", f"{turn:<{turn_w}}  ")
        body = Text.assemble((f"{e.player or '':<{name_w}}", "bold"), "  ", e.notation)
        if e.drawn:
            body.append(f"  (drew {e.drawn})", style="dim")
        if e.revealed:
            body.append(f"  (already seen: {', '.join(e.revealed)})", style="bold")
        if e.undone:
            body.stylize("strike dim")
        line.append_text(body)
        if e.undone:
            line.append("  (undone)", style="bold")
        lines.append(line)
    console = _console(1000, color)  # never wrapped here: the terminal wraps a long line
    console.print(Text("\n").join(lines))
    return _text(console)


def _console(width: int, color: bool) -> Console:
    return Console(
        file=io.StringIO(),
        width=width,
        color_system="standard" if color else None,
        emoji=False,
        highlight=False,
        force_terminal=color,
        no_color=not color,  # `--color always` wins over NO_COLOR: cli.py alone decides
    )


def _text(console: Console) -> str:
    """What was printed, without the spaces at the ends of lines (colour codes may follow them)."""
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(_TRAILING.sub(r"\1", line) for line in text.splitlines())


_TRAILING = re.compile(r"\s+((?:\x1b\[[0-9;]*m)*)$")
