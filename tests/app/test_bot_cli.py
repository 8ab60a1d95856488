"""Bot seats in game files: `new` with bot:SPEC seats, `bot`, `play --bots`, `hint`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli, state


def _new(path: Path, players: str, *extra: object) -> None:
    code, _, err = cli("new", "-g", path, "--players", players, "--seed", 3, *extra)
    assert code == 0, err


def test_new_checks_bot_seats(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    code, _, err = cli("new", "-g", path, "--players", "ann,bot:wizard")
    assert code == 2 and "unknown bot 'wizard'" in err and not path.exists()
    code, _, err = cli("new", "-g", path, "--players", "ann,bot:greedy,bot:greedy")
    assert code == 2 and "bot:greedy#2" in err and not path.exists()
    code, out, err = cli("new", "--players", "ann,bot:greedy#1,bot:greedy#2", "--seed", 1, "--json", "-g", path)
    assert code == 0, err
    assert json.loads(out)["players"] == ["ann", "bot:greedy#1", "bot:greedy#2"]


def test_default_file_name_has_no_colon(tmp_path: Path, monkeypatch: object) -> None:
    monkeypatch.chdir(tmp_path)  # type: ignore[attr-defined]
    code, out, err = cli("new", "--players", "ann,bot:mcts:50", "--seed", 1, "--json")
    assert code == 0, err
    name = Path(json.loads(out)["path"]).name
    assert ":" not in name and "bot-mcts-50" in name


def test_bot_plays_every_bot_turn_and_stops_at_a_person(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    _new(path, "bot:greedy,bot:random,ann")
    code, out, err = cli("bot", "-g", path)
    assert code == 0, err
    assert out.splitlines() == [
        line for line in out.splitlines() if line.startswith(("#2 bot:greedy:", "#3 bot:random:", "ann to move"))
    ]
    assert len(out.splitlines()) == 3
    now = state(path)
    assert now["to_move"] == "ann" and now["turn"] == 2
    before = path.read_bytes()
    code, out, _ = cli("bot", "-g", path)
    assert code == 0 and "not a bot seat" in out and path.read_bytes() == before


@pytest.mark.slow  # two whole games of mcts and greedy
def test_bot_moves_follow_from_the_file(tmp_path: Path) -> None:
    """The same file gets the same bot moves: each bot's random source is seeded by the game and the move."""
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    _new(first, "bot:mcts:30,bot:greedy")
    second.write_bytes(first.read_bytes())
    for path in (first, second):
        for _ in range(3):
            assert cli("bot", "-g", path)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    assert state(first)["finished"]


def test_play_refuses_a_bot_seat_unless_told(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    _new(path, "bot:greedy,ann")
    before = path.read_bytes()
    code, _, err = cli("play", "-g", path, "take", "red", "green", "blue")
    assert code == 3 and "a bot's" in err and "splendor bot" in err
    assert path.read_bytes() == before
    code, _, err = cli("play", "-g", path, "--as", "bot:greedy", "take", "red", "green", "blue")
    assert code == 3 and "its bot plays 'take white white'" in err and path.read_bytes() == before  # not the bot's
    code, _, err = cli("play", "-g", path, "--as", "bot:greedy", "take", "white", "white")
    assert code == 0, err


def test_play_with_bots_lets_them_answer(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    _new(path, "ann,bot:greedy,bot:random")
    code, out, err = cli("play", "-g", path, "--bots", "--json", "take", "red", "green", "blue")
    assert code == 0, err
    report = json.loads(out)
    assert [e["player"] for e in report["events"]] == ["ann", "bot:greedy", "bot:random"]
    assert report["to_move"] == "ann"


def test_hint_suggests_a_legal_move_without_playing(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    _new(path, "ann,bob")
    before = path.read_bytes()
    code, out, err = cli("hint", "-g", path, "--bot", "greedy", "--json")
    assert code == 0, err
    suggested = json.loads(out)
    assert suggested["player"] == "ann" and suggested["bot"] == "greedy"
    legal = json.loads(cli("moves", "-g", path, "--json")[1])
    assert suggested["notation"] in [m["notation"] for m in legal]
    code, out, _ = cli("hint", "-g", path, "--bot", "mcts:20")
    assert code == 0 and out.startswith("ann: ") and "splendor play" in out
    assert path.read_bytes() == before
    code, _, err = cli("hint", "-g", path, "--bot", "oracle")
    assert code == 2 and "unknown bot" in err


def test_duel_bot_seat(tmp_path: Path) -> None:
    path = tmp_path / "d.toml"
    _new(path, "ann,bot:greedy", "--variant", "duel")
    hinted = json.loads(cli("hint", "-g", path, "--bot", "greedy", "--json")[1])
    assert "step" in hinted and hinted["player"] == "ann"
    code, out, err = cli("play", "-g", path, "--bots", hinted["notation"])
    assert code == 0, err
    assert "bot:greedy:" in out and out.rstrip().endswith("ann to move")


@pytest.mark.slow  # a whole game, a process per command
def test_a_whole_game_alone_against_two_bots_through_the_entry_point(tmp_path: Path) -> None:
    """A person (here: the greedy hint, played by hand) against two bots, to the end; the file verifies."""
    path = tmp_path / "g.toml"
    _new(path, "ann,bot:greedy,bot:random")

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "splendor_cli", *args, "-g", str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    for _ in range(200):
        if json.loads(run("state", "--json"))["finished"]:
            break
        notation = json.loads(run("hint", "--bot", "greedy", "--json"))["notation"]
        run("play", "--bots", notation)
    final = json.loads(run("state", "--json"))
    assert final["finished"] and final["winners"]
    assert "finished" in run("verify")
