"""`show --svg` and `sync --picture` through the real command line."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import ROOT, cli

SAMPLE = ROOT / "games" / "sample-3p.toml"
SVG = "{http://www.w3.org/2000/svg}"


def test_show_svg_prints_the_table_at_any_event_and_for_a_seat(tmp_path: Path) -> None:
    """The picture is well-formed SVG; `--at` draws that moment (its label says whose turn it
    was); `-o` writes a file; `--as` takes only a player of the game; --svg excludes --json."""
    code, out, err = cli("show", "--svg", "-g", SAMPLE, "--at", "2")
    assert code == 0, err
    root = ET.fromstring(out)
    assert root.tag == f"{SVG}svg" and root.get("aria-label") == "Splendor, turn 2: bob to move"
    changed = [e for e in root.iter() if "changed" in (e.get("class") or "").split()]
    assert len(changed) == 6  # ann's take: three piles of the bank and three of her tokens, outlined
    target = tmp_path / "t.svg"
    code, _, err = cli("show", "--svg", "-g", SAMPLE, "--as", "cy", "-o", target)
    assert code == 0 and "wrote" in err
    assert ET.fromstring(target.read_text()).get("aria-label", "").startswith("Splendor, game over")
    assert cli("show", "--svg", "-g", SAMPLE, "--as", "zed")[0] == 2
    assert cli("show", "--svg", "--json", "-g", SAMPLE)[0] == 2
    assert cli("show", "-g", SAMPLE, "-o", target)[0] == 2  # -o is for pictures


@pytest.mark.slow
def test_sync_picture_keeps_a_picture_beside_the_game(tmp_path: Path) -> None:
    """`sync --picture` draws games/friday.svg after the merge and commits it on its own; the
    game's history still verifies; a second sync with nothing new draws nothing."""
    from scenarios.table import GAME, table

    _, (alice,) = table(tmp_path, ("alice",), rebase=False)
    (alice.home / "games").mkdir()
    alice.splendor("new", "--players", "alice,bob", "--seed", "2", "-g", GAME)
    alice.splendor("take", "white", "blue", "green")
    first = alice.splendor("sync", "--picture").stdout
    assert "drew games/friday.svg" in first
    assert alice.git("log", "-1", "--format=%s", "--", "games/friday.svg").startswith(
        "Splendor: the table after event #2"
    )
    assert alice.git("show", "origin/main:games/friday.svg").startswith("<svg")
    assert "drew" not in alice.splendor("sync", "--picture").stdout
    assert alice.splendor("verify", "--git", "-g", GAME).returncode == 0
