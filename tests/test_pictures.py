"""The pictures the README shows (`games/*.svg`) are what the code draws now: a change to the
drawing goes with `python scripts/pictures.py`, which draws them again."""

from __future__ import annotations

import importlib.util

import pytest
from helpers import ROOT

_spec = importlib.util.spec_from_file_location("pictures", ROOT / "scripts" / "pictures.py")
assert _spec is not None and _spec.loader is not None
pictures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pictures)


@pytest.mark.parametrize("name", pictures.SAMPLES)
def test_the_committed_picture_is_current(name: str) -> None:
    """games/NAME.svg holds exactly what `show --svg` draws of games/NAME.toml (run scripts/pictures.py)."""
    committed = (ROOT / "games" / f"{name}.svg").read_text(encoding="utf-8")
    assert committed == pictures.picture(name), f"games/{name}.svg is stale: run python scripts/pictures.py"


def test_the_readme_shows_the_picture() -> None:
    """The README shows the picture of a sample game, from the repository (so its page shows the board)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](games/sample-3p.svg)" in readme
