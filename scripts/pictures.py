"""Draw the pictures the README shows: the table of each sample game at its last event, as
`splendor show --svg` draws it (`games/sample-3p.svg`, `games/sample-duel.svg`).

Run from the project root after a change to the drawing: `python scripts/pictures.py`.
tests/test_pictures.py fails while a committed picture is not what the code draws now.
"""

from __future__ import annotations

import sys
from pathlib import Path

from splendor_cli import store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ("sample-3p", "sample-duel")


def picture(name: str) -> str:
    """The SVG of sample game `name` at its last event, a spectator's view."""
    game = store.read(ROOT / "games" / f"{name}.toml").game
    return game.variant.board_svg(game, event=game.events[-1])


def main() -> int:
    for name in SAMPLES:
        target = ROOT / "games" / f"{name}.svg"
        text = picture(name)
        if target.exists() and target.read_text(encoding="utf-8") == text:
            print(f"{target.relative_to(ROOT)}: current")
            continue
        target.write_text(text, encoding="utf-8")
        print(f"{target.relative_to(ROOT)}: drawn ({len(text.encode('utf-8')):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
