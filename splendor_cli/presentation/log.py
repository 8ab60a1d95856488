"""The log as text for people: one line per event (`splendor log`)."""

from __future__ import annotations

from rich.text import Text

from ..projection.log import LogEntry
from .text import new_console, printed


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
    out = new_console(1000, color)  # never wrapped here: the terminal wraps a long line
    out.print(Text("\n").join(lines))
    return printed(out)
