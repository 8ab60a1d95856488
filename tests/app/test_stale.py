"""Stale is not tampered: a copy behind what this user saw (a strict prefix of it: a clone not yet
pulled, a backup) is refused as stale (exit 3, saying to pull, sync or apply, or to `forget` to go
back to it), and only a copy that contradicts what was seen is damaged (exit 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli


@pytest.fixture(autouse=True)
def memory_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPLENDOR_NO_MEMORY")


def test_playing_in_a_copy_not_yet_pulled_says_it_is_behind(tmp_path: Path) -> None:
    """Two copies of one game on one machine: bob plays in the newer one, then tries to play in
    the one not yet brought up to date. Exit 3, one line naming the event reached and the one
    seen, and what to run; the file is unchanged."""
    newer, older = tmp_path / "a" / "g.toml", tmp_path / "b" / "g.toml"
    newer.parent.mkdir()
    older.parent.mkdir()
    assert cli("new", "-g", newer, "--players", "ann,bob", "--seed", 1)[0] == 0
    older.write_bytes(newer.read_bytes())
    assert cli("take", "white", "blue", "green", "-g", newer)[0] == 0
    assert cli("take", "red", "red", "-g", newer)[0] == 0
    before = older.read_bytes()
    code, _, err = cli("take", "white", "blue", "green", "-g", older)
    assert code == 3, err
    assert "this copy is behind (#1; you saw #3" in err and "pull, sync or apply first" in err
    assert "splendor forget" in err and "removed" not in err and err.count("\n") == 1
    assert older.read_bytes() == before
    assert cli("state", "-g", older, "--json")[0] == 3
    code, _, err = cli("moves", "-g", older, "--json")
    assert code == 3 and json.loads(err)["error"]["rule"] == "behind"
    older.write_bytes(newer.read_bytes())  # pulled: fine again
    assert cli("take", "white", "blue", "green", "-g", older)[0] == 0


def test_restoring_a_backup_on_purpose_is_forget(tmp_path: Path) -> None:
    """An older copy put back on purpose: `forget` accepts it, then it plays on."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    backup = path.read_bytes()
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    path.write_bytes(backup)
    assert cli("state", "-g", path)[0] == 3
    assert cli("forget", "-g", path)[0] == 0
    assert cli("take", "red", "red", "-g", path)[0] == 0


def test_a_copy_that_contradicts_what_was_seen_is_still_damaged(tmp_path: Path) -> None:
    """A copy that is not a prefix of what was seen (another second event): exit 4."""
    path, other = tmp_path / "g.toml", tmp_path / "other.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    other.write_bytes(path.read_bytes())
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    assert cli("take", "red", "red", "-g", other, env={"SPLENDOR_NO_MEMORY": "1"})[0] == 0
    code, _, err = cli("state", "-g", other)
    assert code == 4 and "event #2 is not the event #2 you saw" in err
