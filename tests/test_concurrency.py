"""Two writers at once: exactly one move lands, the other is refused, the file stays valid."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from splendor_cli import store
from splendor_cli.app.cli import app
from splendor_cli.app.services.folders import lock_folder

pytestmark = pytest.mark.slow  # real processes racing, again and again


def _splendor(*args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "splendor_cli", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SPLENDOR_NO_CACHE": "1"},
    )


def _new(path: Path) -> None:
    result = CliRunner().invoke(app, ["new", "-g", str(path), "--players", "ann,bob", "--seed", "1"])
    assert result.exit_code == 0, result.output


def test_a_held_lock_refuses_a_second_writer(tmp_path: Path) -> None:
    """While one writer holds the game, another `play` exits 5 at once and writes nothing."""
    path = tmp_path / "g.toml"
    _new(path)
    before = path.read_bytes()
    with store.writing(path, Path(lock_folder())):  # where the other process locks too
        second = _splendor("play", "-g", path, "take red red")
        _, err = second.communicate(timeout=60)
    assert second.returncode == 5 and "another splendor is writing" in err
    assert path.read_bytes() == before


def test_two_players_moving_at_once_land_exactly_one_turn(tmp_path: Path) -> None:
    """Two real processes play for ann at the same moment, again and again: each time exactly one
    lands; the other is refused (5: the file is busy or changed; 3: it is no longer ann's turn)."""
    for round_ in range(4):
        path = tmp_path / f"g{round_}.toml"
        _new(path)
        before = store.read(path)
        first = _splendor("play", "-g", path, "--as", "ann", "take red red")
        second = _splendor("play", "-g", path, "--as", "ann", "take blue blue")
        done = sorted((p.wait(timeout=60), p.communicate()[1]) for p in (first, second))
        after = store.read(path)  # always a valid game
        (landed, _), (refused, err) = done
        assert landed == 0, done
        # which refusal depends on the timing; each must give its own reason
        if refused == 5:
            assert "another splendor is writing" in err or "changed while this move was being made" in err, done
        else:
            assert refused == 3 and "it is bob's turn, not ann's" in err, done
        assert after.game.seq == before.game.seq + 1
        assert after.data.startswith(before.data)
