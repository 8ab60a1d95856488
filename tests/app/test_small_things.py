"""The small things of issue 32 (item 9), each through the real entry point (`entry.main`, in this
process, on a "machine" of its own: data folder and cache): a count of 0 on the board in colour,
and the turn `games` gives against the one `show` gives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from app.test_sealed_cli import Machine, machines

ESCAPE = re.compile(r"\x1b\[([0-9;]*)m")
EMPTY_BLOCK = re.compile(r"\x1b\[[0-9;]*(?<![0-9])4[0-7](?:;[0-9;]*)?m +\x1b\[0m")
"""Spaces printed on a coloured ground: a block of colour with nothing in it."""


def _new(tmp_path: Path, *args: str) -> tuple[Machine, Path]:
    (ann,) = machines(tmp_path, "ann")
    path = tmp_path / "g.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--seed", "1", *args)
    return ann, path


def _players(board: str) -> str:
    """The players' part of a board: from the line of its headings down."""
    lines = board.splitlines()
    start = next(i for i, line in enumerate(lines) if "Player" in line) - 1
    return "\n".join(lines[start:])


def test_a_count_of_zero_reads_as_zero_in_colour(
    tmp_path: Path, snapshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show --color always`: a gem nobody holds is a dim `·` in its place, never a block of
    colour with nothing in it (white and gold are drawn on a ground of their own); in every theme.
    Without colour (`--color never`, NO_COLOR) the place stays blank, as it always was; the
    snapshot is the players' part as a person reads it (colour codes taken out)."""
    ann, path = _new(tmp_path)
    ann.ok("take", "white", "blue", "green", "-g", path)
    plain = ann.ok("show", "-g", path)
    assert plain == ann.ok("show", "-g", path, "--color", "never")
    assert "·" not in plain
    assert "│ tokens  0                    │" in plain  # bob: blank places
    for theme in ("auto", "light", "dark"):
        monkeypatch.setenv("SPLENDOR_THEME", theme)
        coloured = ann.ok("show", "-g", path, "--color", "always")
        assert not EMPTY_BLOCK.search(coloured), (theme, EMPTY_BLOCK.search(coloured))
    monkeypatch.delenv("SPLENDOR_THEME")
    coloured = ann.ok("show", "-g", path, "--color", "always")
    seen = ESCAPE.sub("", coloured)
    assert seen.replace("·", " ") == plain
    assert "tokens  0  ·  ·  ·  ·  ·  ·" in seen and "tokens  3  w1 u1 g1 ·  ·  ·" in seen
    assert _players(seen) == snapshot


def test_a_count_of_zero_in_a_duel(tmp_path: Path, snapshot: Any) -> None:
    """The Duel's rows of tokens (pearls and gold too), bonuses and points alike."""
    ann, path = _new(tmp_path, "--variant", "duel")
    coloured = ann.ok("show", "-g", path, "--color", "always")
    assert not EMPTY_BLOCK.search(coloured), EMPTY_BLOCK.search(coloured)
    seen = ESCAPE.sub("", coloured)
    assert seen.replace("·", " ") == ann.ok("show", "-g", path)
    rows = [line for line in seen.splitlines() if line.startswith(("│ tokens", "│ bonuses", "│ points"))]
    assert len(rows) == 3 and all("·" in row for row in rows)
    assert rows == snapshot
