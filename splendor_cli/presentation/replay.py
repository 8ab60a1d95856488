"""`splendor replay --html`: one self-contained HTML page that steps through a whole game.

The page holds the table after every event (each game's `board_svg`, as `show --svg` draws it),
the log beside it, and a small script: first / previous / next / last buttons, the arrow keys
(Home and End too), a slider, a click on a log line to jump there, and a permalink per event
(`page.html#12`). Plain HTML, CSS and script, no framework, nothing fetched: a Content Security
Policy forbids every request, so the page works offline, opened from disk.

Pure: a game in, text out. Every string from the file (names, ids, notation) is escaped for
HTML; the pictures travel as JSON in a `<script type="application/json">` block, escaped so
that no `</script>` can close it.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from ..projection.game import Game
from ..projection.log import log_entries
from .marks import bot_move

_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

_STYLE = """
:root { color-scheme: light dark; --bg: #f4f1ea; --fg: #1d1d1d; --muted: #6b6b6b; --line: #d6d0c4;
        --pick: #ffe08a; --undone: #9a9a9a; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181c; --fg: #e8e6e1; --muted: #9a9a9a; --line: #33363c; --pick: #5a4a12; --undone: #6d6d6d; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.1rem; margin: 0; }
header p { margin: .2rem 0 0; color: var(--muted); }
main { display: flex; flex-wrap: wrap; gap: 1rem; padding: 1rem; align-items: flex-start; }
#table { flex: 1 1 640px; min-width: 320px; }
#table svg { width: 100%; height: auto; display: block; }
#table .dealing { padding: 2rem; border: 1px dashed var(--line); }
aside { flex: 0 1 360px; max-height: 85vh; overflow: auto; border: 1px solid var(--line); }
#log { list-style: none; margin: 0; padding: 0; font: 13px/1.5 ui-monospace, monospace; }
#log li a { display: block; padding: .1rem .5rem; color: inherit; text-decoration: none; }
#log li a:hover, #log li a:focus { background: var(--line); outline: none; }
#log li.current a { background: var(--pick); }
#log li.undone a { color: var(--undone); text-decoration: line-through; }
#log .seq { color: var(--muted); display: inline-block; min-width: 3.2em; }
nav { display: flex; gap: .5rem; align-items: center; padding: 0 1rem 1rem; flex-wrap: wrap; }
nav button { font-size: 1rem; min-width: 2.6rem; padding: .3rem .6rem; }
nav input[type=range] { flex: 1 1 240px; }
#where { font-variant-numeric: tabular-nums; min-width: 9rem; }
#status { padding: 0 1rem 1rem; font-weight: 600; }
"""

_SCRIPT = """
(function () {
  "use strict";
  const frames = JSON.parse(document.getElementById("frames").textContent);
  const last = frames.length;
  const table = document.getElementById("table");
  const slider = document.getElementById("slider");
  const where = document.getElementById("where");
  const status = document.getElementById("status");
  const items = Array.from(document.querySelectorAll("#log li"));
  let at = last;
  function show(seq, push) {
    seq = Math.max(1, Math.min(last, seq | 0));
    at = seq;
    const frame = frames[seq - 1];
    table.innerHTML = frame.svg || "";
    if (!frame.svg) {
      const note = document.createElement("p");
      note.className = "dealing";
      note.textContent = frame.status;
      table.appendChild(note);
    }
    slider.value = String(seq);
    where.textContent = "event " + seq + " of " + last;
    status.textContent = frame.status;
    document.body.dataset.seq = String(seq);
    items.forEach(function (li) { li.classList.toggle("current", Number(li.dataset.seq) === seq); });
    const current = items[seq - 1];
    if (current && current.scrollIntoView) { current.scrollIntoView({block: "nearest"}); }
    const hash = "#" + seq;
    if (location.hash !== hash) {
      if (push) { history.pushState(null, "", hash); } else { history.replaceState(null, "", hash); }
    }
  }
  function fromHash() {
    const n = parseInt(location.hash.slice(1), 10);
    show(Number.isFinite(n) ? n : last, false);
  }
  document.getElementById("first").onclick = function () { show(1, true); };
  document.getElementById("prev").onclick = function () { show(at - 1, true); };
  document.getElementById("next").onclick = function () { show(at + 1, true); };
  document.getElementById("last").onclick = function () { show(last, true); };
  slider.oninput = function () { show(Number(slider.value), false); };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    const moves = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 1, End: last, PageUp: at - 10, PageDown: at + 10};
    if (e.key in moves) { e.preventDefault(); show(moves[e.key], false); }
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
"""


def _script_json(value: Any) -> str:
    """JSON that may sit inside a `<script>` element: no `</` or `<!--` can end or bend it."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def frames(game: Game, *, seat: str | None = None, seen: Callable[[Game], Any] | None = None) -> list[dict[str, Any]]:
    """The table after each event: its SVG (empty while a commit-then-reveal or sealed deal is
    under way) and a line of status (whose turn, the result, or who the deal waits for). `seen`
    turns each moment into what `seat` knew then (a sealed game's seat view); default: as it is."""
    variant = game.variant
    out: list[dict[str, Any]] = []
    fold = Game(variant=variant, declared=game.declared)  # the table its header declares
    for event in game.events:
        fold = fold.apply(event, check=False)
        if not fold.states:
            out.append({"svg": "", "status": f"the deal is under way: {fold.dealing()}"})
            continue
        svg = variant.board_svg(seen(fold) if seen else fold, seat=seat, event=event)
        out.append({"svg": svg, "status": variant.whose_turn(fold.state)})
    return out


def replay_html(
    game: Game, *, title: str, subtitle: str, seat: str | None = None, seen: Callable[[Game], Any] | None = None
) -> str:
    """The whole page for `game` (see the module docstring). `title` and `subtitle` are plain
    text (escaped here); `seat` is whose view the tables show (None: a spectator's), `seen` how
    (see `frames`)."""
    entries = log_entries(game)
    rows = []
    for entry in entries:
        who = f"{entry.player} " if entry.player else ""
        drawn = (" (bot)" if bot_move(entry) else "") + (f" (drew {entry.drawn})" if entry.drawn else "")
        undone = " (undone)" if entry.undone else ""
        css = ' class="undone"' if entry.undone else ""
        text = html.escape(f"{who}{entry.notation}{drawn}{undone}")
        rows.append(
            f'<li id="e{entry.seq}" data-seq="{entry.seq}"{css}><a href="#{entry.seq}">'
            f'<span class="seq">#{entry.seq}</span>{text}</a></li>'
        )
    count = len(entries)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="splendor-cli">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body data-seq="{count}">
<header><h1>{html.escape(title)}</h1><p>{html.escape(subtitle)}</p></header>
<main>
<section id="table" aria-live="polite" aria-label="the table"></section>
<aside aria-label="the log"><ol id="log">
{chr(10).join(rows)}
</ol></aside>
</main>
<nav aria-label="steps">
<button id="first" type="button" title="first (Home)" aria-label="first">|&#x25C0;</button>
<button id="prev" type="button" title="previous (left arrow)" aria-label="previous">&#x25C0;</button>
<input id="slider" type="range" min="1" max="{count}" value="{count}" aria-label="event">
<button id="next" type="button" title="next (right arrow)" aria-label="next">&#x25B6;</button>
<button id="last" type="button" title="last (End)" aria-label="last">&#x25B6;|</button>
<span id="where">event {count} of {count}</span>
</nav>
<p id="status"></p>
<script id="frames" type="application/json">{_script_json(frames(game, seat=seat, seen=seen))}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
