"""The small things of issue 32 (item 9), each through the real entry point (`entry.main`, in this
process, on a "machine" of its own: data folder and cache): a count of 0 on the board in colour,
and the turn `games` gives against the one `show` gives."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from app.test_sealed_cli import Machine, machines
from helpers import ROOT

from splendor_cli.sharing.gitmerge import merge

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


def test_games_gives_the_turn_show_gives(tmp_path: Path) -> None:
    """`games` says the turn under way as `show` heads the board with it (`turn 2, round 1`: 2; a
    Duel's `turn 1`: 1), where it said the turns played (`0` for a new game); a finished game the
    turns it took (`game over after N turns`); a sealed game being dealt, none (`dealing`)."""
    (ann,) = machines(tmp_path, "ann")
    folder = tmp_path / "games"
    ann.ok("new", "-g", folder / "a.toml", "--players", "ann,bob,cy", "--seed", "1")
    ann.ok("new", "-g", folder / "b.toml", "--players", "ann,bob", "--seed", "1")
    ann.ok("take", "white", "blue", "green", "-g", folder / "b.toml")
    ann.ok("new", "-g", folder / "c.toml", "--players", "ann,bob", "--seed", "1", "--variant", "duel")
    ann.ok("new", "-g", folder / "d.toml", "--players", "ann,bob", "--sealed")
    (folder / "e.toml").write_bytes((ROOT / "games" / "sample-3p.toml").read_bytes())
    listed = {line.split()[0]: line for line in ann.ok("games", folder).splitlines()[1:]}
    for name, turn, shown in (("a", "1", "turn 1, round 1:"), ("b", "2", "turn 2, round 1:"), ("c", "1", "turn 1:")):
        head = ann.ok("show", "-g", folder / f"{name}.toml").splitlines()[0]
        assert shown in head, head
        assert re.search(rf"p  {turn}  +(ann|bob) ", listed[f"{folder}/{name}.toml"]), listed
    head = ann.ok("show", "-g", folder / "e.toml").splitlines()[0]
    assert "game over after 78 turns" in head and re.search(r"3p  78  +over: cy", listed[f"{folder}/e.toml"])
    assert re.search(r"2p  +dealing", listed[f"{folder}/d.toml"]), listed


@pytest.mark.parametrize("variant", ["base", "duel"])
def test_a_race_of_joins_says_the_deal_was_under_way(tmp_path: Path, variant: str) -> None:
    """Two players join a sealed game from the same copy (a race during the deal): the forked
    file says the deal was under way and what it waited for, never that the game was over
    (issue 31 made the fork's standing replay the table protocol; the shuffles and the seed
    commitments are tested in test_setup_fork_message.py)."""
    ann, bob = (m.key() for m in machines(tmp_path, "ann", "bob"))
    base = tmp_path / "sealed.toml"
    ann.ok("new", "-g", base, "--players", "ann,bob", "--sealed", "--variant", variant)
    mine, theirs = tmp_path / "ann.toml", tmp_path / "bob.toml"
    shutil.copy(base, mine)
    shutil.copy(base, theirs)
    ann.ok("seal", "-g", mine, "--as", "ann")
    bob.ok("seal", "-g", theirs, "--as", "bob")
    merged = merge(base.read_bytes(), mine.read_bytes(), theirs.read_bytes())
    assert merged.conflict
    forked = tmp_path / "forked.toml"
    forked.write_bytes(merged.data)
    for command in (("show",), ("state", "--json"), ("seal",)):
        done = ann(*command, "-g", forked)
        assert done.code == 5 and "game forked after event #1" in done.err, (command, done)
        assert "the deal was under way (waiting for ann and bob to join" in done.err, (command, done)
        assert "was over" not in done.err, (command, done)


def test_the_readme_says_how_long_each_tier_takes() -> None:
    """The quick start says how long every tier (its command, CI's) and the fast tier take, on what
    machine, and the command of the fast tier (issue 32: "the README does not say how long the
    tests take")."""
    quick = (ROOT / "README.md").read_text(encoding="utf-8").split("## Quick start", 1)[1].split("\n## ", 1)[0]
    words = " ".join(quick.split())
    assert re.search(r"every tier of the tests, .*: \d+ to \d+ minutes on a two-core machine", words), words
    assert re.search(r"`\.venv/bin/python -m pytest` runs the fast tier alone, \d+ to \d+ minutes", words), words
