"""`splendor replay`: the whole game as one HTML page to step through (presentation/replay.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import UsageError
from ..output import write_out
from ..params import GAME, SEAT, Param, command
from ..services.gamefile import load

if TYPE_CHECKING:
    from ...projection import Game


@command(
    "replay",
    GAME,
    Param("html", "--html", kind="flag", help="An HTML page (the only format, and the default)."),
    Param("output", "--output", "-o", kind="path", metavar="FILE", help="Where to write it (- : standard output)."),
    SEAT,
    Param(
        "every",
        "--all",
        kind="flag",
        help="Every blind reserve face up: once the game is over, or in a game against bots alone.",
    ),
)
def replay(
    *,
    game: str | None = None,
    html: bool = False,
    output: str | None = None,
    seat: str | None = None,
    every: bool = False,
) -> None:
    """Write the whole game as one HTML page: the table after every event, the log beside it.

    Step with the buttons, the arrow keys (Home, End) or the slider; click a log line to jump
    there; each event has its permalink (page.html#12). The page is one file that works offline,
    opened from disk: nothing is fetched.

    Default FILE: the game file's name with .html, beside it.

    Other players' blind reserves are face down, as `show` draws them (--as, $SPLENDOR_PLAYER,
    your key's seat, the one person against bots, else a spectator); --all: all face up, once the
    game is over or against bots alone.

    Examples:

    splendor replay --html -g games/sample-3p.toml -o sample.html

    splendor replay -g games/friday.toml --as bob -o - > friday.html
    """
    import os

    from ...presentation.replay import replay_html
    from ...presentation.svgtable import EVERY_SEAT
    from ..services.boards import check_all, viewer
    from ..services.boards import seen as seen_by

    loaded = load(game)
    header = loaded.record.header
    if seat is not None and seat not in header.players and seat != os.environ.get("SPLENDOR_PLAYER"):
        raise UsageError(f"{seat!r} does not play in this game (players: {', '.join(header.players)})")
    if every:
        check_all(loaded.game)
    who = None if every else viewer(loaded.game, seat)
    target = output if output is not None else os.path.splitext(loaded.path)[0] + ".html"
    title = f"{loaded.game.variant.title}: {header.game}"
    saw = "; every card face up" if every else (f"; as {who} saw it" if who else "")
    subtitle = f"{', '.join(header.players)}; {loaded.game.seq} events{saw}"

    def seen(moment: Game) -> Any:  # each table as the viewer saw it (a sealed game: as their key opens it)
        return seen_by(moment, who, every=every)

    shown = EVERY_SEAT if every else who
    private = loaded.game.protocol.hidden and who is not None  # a sealed seat's view (docs/security.md)
    write_out(target, replay_html(loaded.game, title=title, subtitle=subtitle, seat=shown, seen=seen), private=private)
