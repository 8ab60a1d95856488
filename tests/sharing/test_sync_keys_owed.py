"""`splendor sync` of a finished sealed game whose keys are not all published: one line names who
owes them (the line `show` and `verify` say), and the sync does not fail; the local player's own
keys are published by the sync itself (their part), so once they were the last, nothing is owed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import cli, git
from sealed_helpers import Table

from splendor_cli.events.codec import format_record
from splendor_cli.sealing.events import KeysPublished

pytestmark = pytest.mark.usefixtures("git_installed")

OWED = (
    "the game is over, but the keys of ann are not published: the audit cannot open the sealed cards"
    " nor re-make their shuffles (`splendor seal` publishes them)"
)


@pytest.fixture(autouse=True)
def bob_commits(quiet_git: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits are bob's (git sees no user or system configuration: conftest.py)."""
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "bob")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "bob@example.org")


def _finished(repo: Path) -> tuple[Table, Path]:
    """A 2-player sealed game played to the end, bob's keys published and ann's not, committed."""
    table = Table.new("base", 2, 3).deal()
    while not table.state.finished:
        table.step()
    table.add(next(e for e in table.duties("bob") if isinstance(e, KeysPublished)), "bob")
    path = repo / "games" / "g.toml"
    path.parent.mkdir(parents=True)
    path.write_text(format_record(table.record), encoding="utf-8")
    git(repo, "init", "-q", "-b", "main", who="bob")
    git(repo, "add", "-A", who="bob")
    git(repo, "commit", "-q", "--no-verify", "-m", "the game", who="bob")
    return table, path


def test_sync_names_who_owes_the_keys_of_a_finished_sealed_game(tmp_path: Path) -> None:
    table, path = _finished(tmp_path)
    # bob's machine: his keys are out, ann's are owed
    table.install_keys("bob", Path(os.environ["XDG_DATA_HOME"]) / "splendor-cli" / "keys")
    code, out, err = cli("sync", "-g", path, "--as", "bob")
    assert code == 0, err
    assert [line for line in out.splitlines() if "keys of" in line] == [OWED]
    code, out, err = cli("sync", "-g", path, "--as", "bob", "--json")
    assert code == 0, err
    (game,) = json.loads(out)["games"]
    assert game["finished"] is True and game["keys_owed"] == ["ann"]

    # ann's machine: her sync publishes her keys
    table.install_keys("ann", Path(os.environ["XDG_DATA_HOME"]) / "splendor-cli" / "keys")
    code, out, err = cli("sync", "-g", path, "--as", "ann")
    assert code == 0, err
    assert "keys of" not in out and "committed" in out
    code, out, _ = cli("sync", "-g", path, "--as", "ann", "--json")
    assert json.loads(out)["games"][0]["keys_owed"] == []


def test_sync_of_a_sealed_game_under_way_owes_no_keys(tmp_path: Path) -> None:
    """Before the end nobody publishes: no line, and `keys_owed` is empty."""
    table = Table.new("base", 2, 3).deal()
    table.step()
    path = tmp_path / "games" / "g.toml"
    path.parent.mkdir(parents=True)
    path.write_text(format_record(table.record), encoding="utf-8")
    git(tmp_path, "init", "-q", "-b", "main", who="bob")
    code, out, err = cli("sync", "-g", path, "--as", "bob", "--json")
    assert code == 0, err
    assert json.loads(out)["games"][0]["keys_owed"] == []
    code, out, _ = cli("sync", "-g", path, "--as", "bob")
    assert code == 0 and "keys of" not in out
