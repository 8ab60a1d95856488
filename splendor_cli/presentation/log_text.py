"""The log as text for people: one line per event (`splendor log`)."""

from __future__ import annotations

from rich.text import Text

from ..projection.log import LogEntry
from .marks import bot_move
from .text import new_console, printed, safe


def log_text(entries: list[LogEntry], *, color: bool = False) -> str:
    """One line per event: seq, turn number, player, notation; undone turns marked and struck,
    a bot seat's move marked `(bot)`, a turn played for its player by another `(played by X)`.

    What an event says (names, notation, cards) comes from the file: each is made `safe`, so that
    a line is one line and holds no terminal escape."""
    seq_w = max((len(str(e.seq)) for e in entries), default=1) + 1
    turn_w = max((len(f"turn {e.turn}") for e in entries if e.turn is not None), default=0)
    names = [safe(e.player or "") for e in entries]
    name_w = max((len(name) for name in names), default=0)
    lines = []
    for e, name in zip(entries, names):
        turn = f"turn {e.turn}" if e.turn is not None else ""
        line = Text.assemble((f"{f'#{e.seq}':>{seq_w}}", "dim"), "  ", f"{turn:<{turn_w}}  ")
        body = Text.assemble((f"{name:<{name_w}}", "bold"), "  ", safe(e.notation))
        if bot_move(e):
            body.append("  (bot)", style="dim")  # its bot's move, which every reader computes again
        if e.drawn:
            body.append(f"  (drew {safe(e.drawn)})", style="dim")
        if e.revealed:
            body.append(f"  (already seen: {safe(', '.join(e.revealed))})", style="bold")
        if e.undone:
            body.stylize("strike dim")
        line.append_text(body)
        if e.undone:
            line.append("  (undone)", style="bold")
        lines.append(line)
    out = new_console(1000, color)  # never wrapped here: the terminal wraps a long line
    out.print(Text("\n").join(lines))
    return printed(out)
