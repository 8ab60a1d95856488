"""Looking at a game and playing it, through the command line: `moves` of a finished game and
`moves --as`, `show` before a commit-then-reveal deal, turn numbers in `show` and `state`,
`--variant` in any case, missing events, take refusals, the demo's file and advice, empty moves."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import ROOT, cli, state

from splendor_cli.app.commands import start

SAMPLE = ROOT / "games" / "sample-3p.toml"  # a finished game: cy won


@pytest.fixture
def base(tmp_path: Path) -> Path:
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    return path


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "d.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--variant", "duel", "--seed", 3)[0] == 0
    return path


# -- moves ----------------------------------------------------------------------------------------


def test_moves_of_a_finished_game_is_nothing_and_a_line_saying_who_won(tmp_path: Path) -> None:
    """Exit 0; stdout empty (--json: []); stderr one line: the game is over, who won. --as a
    player changes nothing; --as someone who does not play is refused."""
    path = tmp_path / "over.toml"
    shutil.copy(SAMPLE, path)
    for extra, printed in (((), ""), (("--json",), "[]\n"), (("--as", "ann"), "")):
        code, out, err = cli("moves", "-g", path, *extra)
        assert (code, out) == (0, printed), err
        assert err == "splendor: game over: cy won; no moves left\n"
    code, _, err = cli("moves", "-g", path, "--as", "zed")
    assert code == 3 and "'zed' does not play in this game" in err


def test_moves_as_the_player_to_move_lists_and_as_another_is_refused(base: Path) -> None:
    """`moves --as ann` (to move) lists what `moves` lists; `--as bob` is exit 3, rule turn; the
    environment's $SPLENDOR_PLAYER is not read by `moves` (looking is not playing)."""
    plain = cli("moves", "-g", base)
    assert plain[0] == 0 and plain[1]
    assert cli("moves", "-g", base, "--as", "ann") == plain
    code, out, err = cli("moves", "-g", base, "--as", "bob", "--json")
    assert code == 3 and out == "" and json.loads(err)["error"]["rule"] == "turn"
    assert "it is ann's turn, not bob's" in err
    assert cli("moves", "-g", base, env={"SPLENDOR_PLAYER": "bob"}) == plain


@pytest.mark.slow  # the real executable: its fast path and its cache
def test_the_fast_path_and_its_cache_check_moves_as_and_say_the_game_is_over(tmp_path: Path) -> None:
    """Through the installed `splendor` (a cached answer on the second call): `moves --json --as bob`
    is refused every time, and a finished game's `moves --json` says so on stderr every time."""
    path = tmp_path / "over.toml"
    shutil.copy(SAMPLE, path)
    game = tmp_path / "g.toml"
    env = {**os.environ, "SPLENDOR_CACHE": str(tmp_path / "cache")}
    exe = str(Path(sys.executable).parent / "splendor")

    def run(*args: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, env=env, timeout=60)

    assert run("new", "-g", game, "--players", "ann,bob", "--seed", 1).returncode == 0
    for _ in range(2):
        assert run("moves", "-g", game, "--json").returncode == 0
        assert run("moves", "-g", game, "--json", "--as", "bob").returncode == 3
        done = run("moves", "-g", path, "--json")
        assert (done.returncode, done.stdout, done.stderr) == (
            0,
            "[]\n",
            "splendor: game over: cy won; no moves left\n",
        )


# -- show ------------------------------------------------------------------------------------------


def test_show_before_a_commit_then_reveal_deal_says_who_it_waits_for(tmp_path: Path) -> None:
    """`show` (and `show --at` a seq of the deal) lists each player's step and who the deal waits
    for, exit 0; `state --json` has no state to print yet (exit 3)."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--commit-seed")[0] == 0
    assert cli("seed", "-g", path, "--as", "ann")[0] == 0
    code, out, _ = cli("show", "-g", path)
    assert code == 0
    assert out.splitlines() == [
        "Splendor  the cards are not dealt yet: a commit-then-reveal deal  (event #2)",
        "  ann  committed",
        "  bob  to commit",
        "waiting for bob to commit a seed (`splendor seed --as NAME`)",
    ]
    assert cli("seed", "-g", path, "--as", "bob")[0] == 0
    assert cli("seed", "-g", path, "--as", "bob")[0] == 0  # bob reveals
    code, out, _ = cli("show", "-g", path)
    assert code == 0 and "  ann  committed, to reveal\n  bob  committed, revealed\n" in out
    assert "waiting for ann to reveal" in out
    code, out, _ = cli("show", "-g", path, "--at", 1)
    assert code == 0 and "  ann  to commit\n" in out and "(event #1)" in out
    assert cli("state", "-g", path, "--json")[0] == 3


@pytest.mark.parametrize("variant", ["base", "duel"])
def test_show_and_state_number_the_turn_alike(tmp_path: Path, variant: str) -> None:
    """`show` heads the board with the turn under way; `state --json` has it as `current_turn`
    (`turn` + 1: `turn` counts the turns played), and `log` gives that number to the turn played
    next; once the game is over `current_turn` is null."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--variant", variant, "--seed", 2)[0] == 0
    for _ in range(3):
        code, out, err = cli("moves", "-g", path, "--json")
        assert code == 0, err
        assert cli("play", "-g", path, json.loads(out)[0]["notation"])[0] == 0
    shown = state(path)
    headline = cli("show", "-g", path)[1].splitlines()[0]
    assert re.search(rf"\bturn {shown['current_turn']}\b", headline), headline
    assert shown["current_turn"] == shown["turn"] + 1
    moves = json.loads(cli("moves", "-g", path, "--json")[1])
    assert cli("play", "-g", path, moves[0]["notation"])[0] == 0
    entries = json.loads(cli("log", "-g", path, "--json")[1])
    assert entries[-1]["turn"] == shown["current_turn"]
    over = tmp_path / "over.toml"
    shutil.copy(SAMPLE, over)
    assert state(over)["current_turn"] is None and state(over)["finished"]


def test_a_missing_event_is_a_usage_error_for_show_at_and_undo_to(base: Path) -> None:
    """`show --at 999` and `undo --to 999`: exit 2, the same words; the file is unchanged."""
    before = base.read_bytes()
    shown = cli("show", "-g", base, "--at", 999)
    undone = cli("undo", "-g", base, "--to", 999)
    assert shown[0] == undone[0] == 2
    assert shown[2] == undone[2] == "splendor: there is no event #999: the log has events #1 to #1\n"
    assert base.read_bytes() == before


# -- --variant -------------------------------------------------------------------------------------


def test_variant_names_are_taken_in_any_case_and_with_spaces(tmp_path: Path) -> None:
    """`--variant Duel`, ` DUEL `: new writes a Duel (header `duel`), demo plays one, simulate too."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--variant", "Duel")[0] == 0
    assert 'variant = "duel"' in path.read_text(encoding="utf-8") and state(path)["variant"] == "duel"
    code, _, err = cli("demo", "-g", tmp_path / "demo.toml", "--variant", " DUEL ", "--turns", 2, "--seed", 1)
    assert code == 0, err
    assert state(tmp_path / "demo.toml")["variant"] == "duel"
    code, out, err = cli("simulate", "--variant", " Duel", "--games", 1, "--seed", 1, "-q", "--json")
    assert code == 0 and json.loads(out)["variant"] == "duel", err
    code, _, err = cli("new", "-g", tmp_path / "x.toml", "--players", "ann,bob", "--variant", "chess")
    assert code == 2 and "unknown variant" in err


# -- refusals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "move", "message"),
    [
        ((), "take white white white", "take 3 different colours or 2 of one colour (rule: take)"),
        ((), "take red red blue", "take 3 different colours or 2 of one colour (rule: take)"),
        ((), "take w u g r", "take 3 different colours or 2 of one colour: at most 3 gems (rule: take-three)"),
        (
            (),
            "take white",
            "take 3 different colours or 2 of one colour; fewer only when fewer than 3 colours are left,"
            " and the bank has 5 (rule: take-three)",
        ),
        ((), "take gold", "gold cannot be taken, only received by reserving a card (rule: take)"),
        (
            ("take red red", "take red blue green", "take red black white"),
            "take red u g",
            "the bank has no red (rule: take)",
        ),
        (("take red red", "take red blue green"), "take red red", "the bank has only 1 red (rule: take)"),
    ],
)
def test_a_refused_take_says_what_is_wrong_without_repeating_the_move(
    base: Path, setup: tuple[str, ...], move: str, message: str
) -> None:
    """The base game's take refusals: what is wrong (the shape, the bank), one line, exit 3."""
    for earlier in setup:
        assert cli("play", "-g", base, earlier)[0] == 0
    code, _, err = cli("play", "-g", base, move)
    assert code == 3 and err == f"splendor: {message}\n"


def test_a_refused_duel_take_says_what_is_wrong_and_names_the_step_of_several(duel: Path) -> None:
    """A Duel take not on a line, or naming a cell twice: what is wrong, not the move again; in a
    line of several steps, the refused step is named."""
    code, _, err = cli("take", "-g", duel, "a1", "c3")
    assert code == 3
    assert err == "splendor: take 1 to 3 tokens on consecutive cells of one row, column or diagonal (rule: take-line)\n"
    code, _, err = cli("take", "-g", duel, "b2", "b2")
    assert code == 3 and err.startswith("splendor: b2 is named twice: take 1 to 3 tokens")
    code, _, err = cli("play", "-g", duel, "take b2 c3 d4; take a1 c3")
    assert code == 3 and err.startswith("splendor: 'take a1 c3': ")


@pytest.mark.parametrize("text", [";", " ; ; ", ";;", "   "])
def test_an_empty_duel_move_is_a_usage_error(duel: Path, text: str) -> None:
    """`play ';'` (no step, only separators or spaces) is exit 2, and nothing is written."""
    before = duel.read_bytes()
    code, _, err = cli("play", "-g", duel, text)
    assert code == 2 and "empty" in err and err.count("\n") == 1
    assert duel.read_bytes() == before


@pytest.mark.parametrize("text", ["", "   ", ";", " , "])
def test_an_empty_base_move_is_a_usage_error(base: Path, text: str) -> None:
    """An empty base-game move (or only separators) is exit 2, and nothing is written."""
    before = base.read_bytes()
    code, _, err = cli("play", "-g", base, text)
    assert code == 2 and err.count("\n") == 1, err
    assert base.read_bytes() == before


# -- demo -------------------------------------------------------------------------------------------


def test_the_demo_writes_its_game_here_under_a_free_name_and_no_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`demo` writes splendor-demo.toml in the current folder (then -2, ...), says so, and leaves
    nothing else: no temporary folder; `-g` still chooses the file."""
    monkeypatch.chdir(tmp_path)
    temp = tmp_path.parent / f"{tmp_path.name}-temp"  # the temporary folder, this test's alone
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    code, out, err = cli("demo", "--seed", 1, "--turns", 2)
    assert code == 0, err
    assert "The demo game is splendor-demo.toml: try `" in out and " log -g splendor-demo.toml`" in out
    assert cli("demo", "--seed", 1, "--turns", 1)[0] == 0
    assert sorted(os.listdir(tmp_path)) == ["splendor-demo-2.toml", "splendor-demo.toml"]
    assert state(tmp_path / "splendor-demo.toml")["turn"] == 2
    assert os.listdir(temp) == []
    assert cli("demo", "-g", "mine.toml", "--turns", 0)[0] == 0 and (tmp_path / "mine.toml").exists()


@pytest.mark.parametrize("on_path", [True, False])
def test_the_demos_advice_names_a_command_that_runs_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on_path: bool
) -> None:
    """The advice names `splendor` when that name on PATH is this program, else the path it was
    started by; started by `python -m`, `python -m splendor_cli` with a Python that is this one."""
    script = tmp_path / "bin" / "splendor"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(script.parent) if on_path else str(tmp_path))
    monkeypatch.setattr(sys, "argv", [str(script), "demo"])
    assert start._program() == ("splendor" if on_path else str(script))
    monkeypatch.setattr(sys, "argv", [str(ROOT / "splendor_cli" / "__main__.py"), "demo"])
    assert start._program().endswith(" -m splendor_cli")
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    assert start._program() in ("python3 -m splendor_cli", "python -m splendor_cli")


@pytest.mark.slow  # real processes, a PATH without splendor
def test_the_demos_advice_runs_as_it_is_written(tmp_path: Path) -> None:
    """Started by its path, with `splendor` nowhere on PATH, the demo's advice is a command that
    works from the same folder, as it is written."""
    exe = str(Path(sys.executable).parent / "splendor")
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [exe, "demo", "--seed", "1", "--turns", "3"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    advice = re.search(r"try `([^`]+)`", done.stdout)
    assert advice is not None and advice.group(1).startswith(exe)
    again = subprocess.run(["sh", "-c", advice.group(1)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert again.returncode == 0 and "#4" in again.stdout, again.stderr
