"""`splendor sync` through the real entry point, in real clones of a bare remote: a game named
with -g before it arrived, a folder that is no repository, and games both here and in games/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli
from sharing.gitrepos import remote_and_clones


def _in(monkeypatch: pytest.MonkeyPatch, folder: Path, *args: object) -> tuple[int, str, str]:
    monkeypatch.chdir(folder)
    return cli(*args)


def test_sync_g_fetches_a_game_that_has_not_arrived_yet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob names the game ann just pushed, before his clone has it (nor its folder): sync fetches
    and merges first, then reads it."""
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    (ann / "games").mkdir()
    assert _in(monkeypatch, ann, "new", "-g", "games/new.toml", "--players", "ann,bob", "--seed", "3")[0] == 0
    code, out, err = _in(monkeypatch, ann, "sync", "--as", "ann")
    assert code == 0, err
    code, out, err = _in(monkeypatch, bob, "sync", "-g", "games/new.toml", "--as", "bob", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["games"][0]["path"] == "games/new.toml" and report["games"][0]["to_move"] == "ann"
    assert (bob / "games" / "new.toml").read_bytes() == (ann / "games" / "new.toml").read_bytes()


def test_sync_g_of_a_game_nowhere_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that neither the clone nor the remote has: one line naming it and the remote."""
    _, (ann,) = remote_and_clones(tmp_path, "ann")
    code, _, err = _in(monkeypatch, ann, "sync", "-g", "games/none.toml")
    assert code == 4, err
    assert err.strip().splitlines()[-1] == "splendor: games/none.toml: no such game file, here nor in origin/main"
    assert not (ann / "games").exists()


def test_sync_outside_a_repository_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No repository: exit 2, naming this folder (not `_`) and how to get one."""
    folder = tmp_path / "plain"
    folder.mkdir()
    code, _, err = _in(monkeypatch, folder, "sync")
    assert code == 2
    assert f"this folder ({folder}) is not in a git repository" in err
    assert "git init" in err and "git clone" in err and "_ is not" not in err


def test_sync_refuses_games_both_here_and_in_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stray copy at the top of the clone beside games/: sync commits nothing and lists both."""
    _, (ann,) = remote_and_clones(tmp_path, "ann")
    (ann / "games").mkdir()
    _in(monkeypatch, ann, "new", "-g", "games/a.toml", "--players", "ann,bob")
    (ann / "backup.toml").write_bytes((ann / "games" / "a.toml").read_bytes())
    code, _, err = _in(monkeypatch, ann, "sync")
    assert code == 2 and "several games here: backup.toml, games/a.toml: say which with -g" in err
    assert cli("sync", "-g", "games/a.toml", "--as", "ann")[0] == 0
