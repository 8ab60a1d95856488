"""Which game a command means without -g (app/services/locate.py), through the real entry point: a stray
copy beside games/ is never silently chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli


def test_a_stray_copy_beside_games_is_listed_not_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A backup `.toml` in the current folder and the table's game in games/: every command
    refuses to choose (exit 2, one line listing both), and the files are unchanged."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    assert cli("new", "-g", "games/b.toml", "--players", "ann,bob", "--seed", "1")[0] == 0
    assert cli("new", "-g", "a.toml", "--players", "ann,bob", "--seed", "2")[0] == 0
    before = {p: p.read_bytes() for p in (tmp_path / "a.toml", tmp_path / "games" / "b.toml")}
    for command in (("show",), ("state", "--json"), ("take", "red", "blue", "green")):
        code, _, err = cli(*command)
        assert code == 2, (command, err)
        assert "several games here: a.toml, games/b.toml: say which with -g" in err
        assert len(err.strip().splitlines()) == 1
    assert {p: p.read_bytes() for p in before} == before
    assert cli("show", "-g", "games/b.toml")[0] == 0


def test_one_game_in_either_folder_is_still_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The only game file of the current folder and games/ together is the game; several in
    games/ alone are listed as before."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    cli("new", "-g", "games/b.toml", "--players", "ann,bob")
    (tmp_path / "notes.toml").write_text("title = 'not a game'\n")
    assert cli("state", "--json")[0] == 0
    cli("new", "-g", "games/c.toml", "--players", "ann,bob")
    code, _, err = cli("show")
    assert code == 2 and "several games in games/: games/b.toml, games/c.toml" in err
