"""`splendor replay`: the whole game as one HTML page to step through (presentation/replay.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .gamefile import load
from .output import write_out
from .params import GAME, SEAT, Param, command

if TYPE_CHECKING:
    from ..projection import Game


@command(
    "replay",
    GAME,
    Param("html", "--html", kind="flag", help="An HTML page (the only format, and the default)."),
    Param("output", "--output", "-o", kind="path", metavar="FILE", help="Where to write it (- : standard output)."),
    SEAT,
)
def replay(*, game: str | None = None, html: bool = False, output: str | None = None, seat: str | None = None) -> None:
    """Write the whole game as one HTML page: the table after every event, the log beside it.

    Step with the buttons, the arrow keys (Home, End) or the slider; click a log line to jump
    there; each event has its permalink (page.html#12). The page is one file that works offline,
    opened from disk: nothing is fetched.

    Default FILE: the game file's name with .html, beside it.

    Examples:

    splendor replay --html -g games/sample-3p.toml -o sample.html

    splendor replay -g games/friday.toml --as bob -o - > friday.html
    """
    import os

    from ..presentation.replay import replay_html

    loaded = load(game)
    header = loaded.record.header
    if seat is not None and seat not in header.players:
        raise UsageError(f"{seat!r} does not play in this game (players: {', '.join(header.players)})")
    target = output if output is not None else os.path.splitext(loaded.path)[0] + ".html"
    title = f"{loaded.game.variant.title}: {header.game}"
    subtitle = f"{', '.join(header.players)}; {loaded.game.seq} events" + (f"; as {seat} saw it" if seat else "")
    seen = None
    if loaded.game.sealing is not None and seat is not None:  # each table as the seat's key here opens it
        from .boards import seen as seen_by

        def seen(moment: Game) -> Any:
            return seen_by(moment, seat)

    write_out(target, replay_html(loaded.game, title=title, subtitle=subtitle, seat=seat, seen=seen))
