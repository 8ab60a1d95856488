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


def _first_event(path: Path) -> bytes:
    """The file cut after its first event (the setup)."""
    return b"\n[[events]]".join(path.read_bytes().split(b"\n[[events]]", 2)[:2])


def test_apply_brings_a_copy_that_is_behind_up_to_date(tmp_path: Path) -> None:
    """The error says "apply first": `apply` of the newer copy's block onto the copy behind is
    taken (exit 0), and the copy then plays on. A block that contradicts what was seen is not
    remembered over it: the next read is refused (exit 4)."""
    newer, older = tmp_path / "newer.toml", tmp_path / "older.toml"
    assert cli("new", "-g", newer, "--players", "ann,bob", "--seed", 1)[0] == 0
    older.write_bytes(newer.read_bytes())
    assert cli("take", "white", "blue", "green", "-g", newer)[0] == 0
    code, block, err = cli("export", "-g", newer)
    assert code == 0, err
    mail = tmp_path / "block.txt"
    mail.write_text(block)
    assert cli("take", "red", "red", "-g", older)[0] == 3
    code, out, err = cli("apply", "-g", older, mail)
    assert code == 0 and "applied #2" in out, err
    assert older.read_bytes() == newer.read_bytes()
    assert cli("take", "red", "red", "-g", older)[0] == 0
    backup = tmp_path / "backup.toml"  # a third copy at #1, where ann took something else
    backup.write_bytes(_first_event(older))
    no_memory = {"SPLENDOR_NO_MEMORY": "1"}
    assert cli("state", "-g", backup, "--json", env=no_memory)[0] == 0
    assert cli("take", "black", "black", "-g", backup, env=no_memory)[0] == 0
    code, block, _ = cli("export", "-g", backup, env=no_memory)
    mail.write_text(block)
    behind = tmp_path / "behind.toml"
    behind.write_bytes(_first_event(backup))
    assert cli("apply", "-g", behind, mail)[0] == 0  # applied: the copy was behind, the block reads
    code, _, err = cli("state", "-g", behind)
    assert code == 4 and "event #2 is not the event #2 you saw" in err, err
