"""Scripting and bots that fit together (issue 32, item 5): every shortcut accepts what `play`
accepts; `hint` prints the exact command that plays its move; after a person's move the bot
seats answer or the message names `splendor bot`; `moves` lists first what ends a game, and the
README's bot loop, run by a real shell, plays a game to its end."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, cli, state

from splendor_cli.app.params import COMMANDS

SHORTCUTS = ("take", "reserve", "buy", "replenish")
CALLS = 1500
"""The most `splendor` commands the README's loop may run (three a turn: 500 turns)."""


def _bot_game(path: Path, players: str = "ann,bot:greedy") -> None:
    code, _, err = cli("new", "-g", path, "--players", players, "--seed", 3)
    assert code == 0, err


def test_every_shortcut_takes_every_option_of_play(tmp_path: Path) -> None:
    """take, reserve, buy and replenish declare every option `play` has; `take ... --bots` and
    `reserve ... --bots --json` play the person's turn, then the bot's."""
    options = {flag for p in COMMANDS["play"].params if not p.positional for flag in p.flags}
    for name in SHORTCUTS:
        assert options <= {flag for p in COMMANDS[name].params for flag in p.flags}, name
    path = tmp_path / "g.toml"
    _bot_game(path)
    code, out, err = cli("take", "-g", path, "w", "u", "g", "--bots")
    assert code == 0 and "#3 bot:greedy:" in out and out.endswith("ann to move\n"), err
    code, out, err = cli("reserve", "-g", path, "1-06", "--bots", "--json")
    assert code == 0, err
    played = json.loads(out)
    assert [e["player"] for e in played["events"]] == ["ann", "bot:greedy"] and played["to_move"] == "ann"


def test_a_person_s_move_says_how_the_bots_answer(tmp_path: Path) -> None:
    """Without --bots, the last line after a person's move names `splendor bot` (and --bots)."""
    path = tmp_path / "g.toml"
    _bot_game(path)
    code, out, err = cli("take", "-g", path, "w", "u", "g")
    assert code == 0, err
    assert out.splitlines()[-1] == "bot:greedy to move: `splendor bot` plays its turn (or add --bots to your move)"


def test_hint_prints_the_command_that_plays_its_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With bot seats and -g: `splendor play -g FILE --bots "MOVE"`, which, run as printed, plays
    the move and the bots' answer; without bot seats and without -g: `splendor play "MOVE"`."""
    path = tmp_path / "my games" / "g.toml"
    path.parent.mkdir()
    _bot_game(path)
    code, out, err = cli("hint", "-g", path, "--bot", "greedy")
    assert code == 0, err
    command = out.split("play it with: ", 1)[1].rstrip().removesuffix(")")
    assert command.startswith(f"splendor play -g {shlex.quote(str(path))} --bots ")
    argv = shlex.split(command)
    code, out, err = cli(*argv[1:])
    assert code == 0 and "bot:greedy:" in out, err
    assert state(path)["to_move"] == "ann"
    monkeypatch.chdir(tmp_path)
    assert cli("new", "-g", "alone.toml", "--players", "ann,bob", "--seed", 1)[0] == 0
    monkeypatch.setenv("SPLENDOR_GAME", "alone.toml")
    code, out, err = cli("hint", "--bot", "greedy")
    assert code == 0 and 'play it with: splendor play "take ' in out, (out, err)


def test_moves_lists_first_what_ends_a_game(tmp_path: Path) -> None:
    """Playing the first item of `moves --json` (as the README's loop does): whenever a purchase
    is legal the first item is one, a take listed first never gives back a colour it takes, the
    text lists the same order; the game ends."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    bought = 0
    for _ in range(200):
        if state(path)["finished"]:
            break
        items = json.loads(cli("moves", "-g", path, "--json")[1])
        text = cli("moves", "-g", path)[1].splitlines()
        assert text == [item["notation"] for item in items]
        first = items[0]
        if any(item["action"] == "buy" for item in items):
            assert first["action"] == "buy"
            bought += 1
        if first["action"] == "take":
            assert not set(first["gems"]) & set(first.get("return", {})), first
        assert cli("play", "-g", path, first["notation"])[0] == 0
    assert state(path)["finished"] and bought >= 10


def _readme_loop() -> str:
    """The README's bot loop, as printed there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("a bot of your own is a loop:", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert block.startswith("while ") and "jq" in block
    return block


@pytest.mark.slow  # a whole game, three processes a turn
def test_the_readme_bot_loop_ends_a_game(tmp_path: Path) -> None:
    """The README's loop, run by `sh` as printed (`splendor` on PATH runs this checkout, at most
    `CALLS` times), plays a new game of g.toml to its end: finished, with a winner, and the file
    verifies."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    splendor = bin_ / "splendor"
    count = shlex.quote(str(tmp_path / "calls"))
    splendor.write_text(  # a bound in commands, not in time: past it `splendor` fails, which ends the loop
        f"#!/bin/sh\nn=$(($(cat {count} 2>/dev/null || echo 0) + 1)); echo $n > {count}\n"
        f'[ "$n" -le {CALLS} ] || exit 1\nexec {shlex.quote(sys.executable)} -m splendor_cli "$@"\n',
        encoding="utf-8",
    )
    splendor.chmod(0o755)
    assert shutil.which("jq"), "the README's loop needs jq on PATH"
    env = {**os.environ, "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    env.pop("SPLENDOR_GAME", None)
    new = ["splendor", "new", "-g", "g.toml", "--players", "ann,bob", "--seed", "1"]
    assert subprocess.run(new, cwd=tmp_path, env=env).returncode == 0
    done = subprocess.run(["sh", "-c", _readme_loop()], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    final = state(tmp_path / "g.toml")
    assert final["finished"] and final["winners"]
    assert cli("verify", "-g", tmp_path / "g.toml")[0] == 0
