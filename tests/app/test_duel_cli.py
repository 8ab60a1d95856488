"""Splendor Duel through the real `splendor` command: shapes of docs/contract.md, steps, undo, refusals."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, cli, deal_duel, state

from splendor_cli import store
from splendor_cli.events.codec import Header
from splendor_cli.variants.duel.state import CELLS, DuelState

SAMPLE = ROOT / "games" / "sample-duel.toml"
COLOURS = {"white", "blue", "green", "red", "black", "gold", "pearl"}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A new Duel of ann and bob, seed 2 (its board has white c3 and d4, black b2, green a1)."""
    path = tmp_path / "duel.toml"
    code, _, err = cli("new", "-g", path, "--players", "ann,bob", "--variant", "duel", "--seed", 2)
    assert code == 0, err
    return path


def _tokens_ok(tokens: dict[str, int]) -> bool:
    return all(k in COLOURS and isinstance(v, int) and v > 0 for k, v in tokens.items())


def test_new_duel_state_has_the_contract_shape(game: Path) -> None:
    """`state --json` of a new Duel: every key of docs/contract.md's Duel state, 25 cells, the setup."""
    st = state(game)
    for key in ("variant", "phase", "to_move", "board", "bag", "privileges", "pyramid", "decks", "royals"):
        assert key in st
    assert (st["variant"], st["phase"], st["to_move"], st["seq"], st["turn"]) == ("duel", "main", "ann", 1, 0)
    assert list(st["board"]) == list(CELLS) and None not in st["board"].values()
    assert st["bag"] == {} and st["privileges"] == 2 and st["royals"] == ["R1", "R2", "R3", "R4"]
    assert [len(st["pyramid"][k]) for k in "123"] == [5, 4, 3] and st["decks"] == {"1": 25, "2": 20, "3": 10}
    assert st["winners"] == [] and st["win_condition"] is None
    ann, bob = st["players"]
    keys = ("name", "tokens", "bonuses", "points", "crowns", "colour_points", "cards", "wild", "reserved", "royals")
    assert all(key in ann for key in (*keys, "privileges"))
    assert (ann["privileges"], bob["privileges"]) == (0, 1)


def test_new_duel_refuses_other_than_two_players(tmp_path: Path) -> None:
    """Splendor Duel is for 2 players: exit 2, no file."""
    path = tmp_path / "d.toml"
    code, _, err = cli("new", "-g", path, "--players", "ann,bob,cy", "--variant", "duel")
    assert code == 2 and "2 players" in err and not path.exists()
    code, _, err = cli("new", "-g", path, "--players", "ann,bob", "--variant", "chess")
    assert code == 2 and "unknown variant" in err


def test_moves_lists_steps_that_play_accepts(game: Path) -> None:
    """Every item of `moves --json` is a step of the contract; playing the notation of one works."""
    code, out, _ = cli("moves", "-g", game, "--json")
    items = json.loads(out)
    assert code == 0 and items
    kinds = {item["step"] for item in items}
    assert kinds <= {"privilege", "replenish", "take", "reserve", "buy", "pass"} and "take" in kinds
    for item in items:
        assert isinstance(item["notation"], str)
        if item["step"] == "take":
            assert 1 <= len(item["cells"]) <= 3 and all(c in CELLS for c in item["cells"])
        if item["step"] == "reserve":
            assert item["gold"] in CELLS and ("card" in item or "deck" in item)
    code, out, _ = cli("moves", "-g", game)
    assert out.splitlines() == [item["notation"] for item in items]
    code, _, err = cli("play", "-g", game, items[-1]["notation"])
    assert code == 0, err


def test_a_turn_of_several_steps_is_written_whole_or_not_at_all(game: Path) -> None:
    """`play "a; b"`: each step judged after the one before; if one is refused, nothing is written."""
    cli("play", "-g", game, "take b2 c3 d4")
    before = game.read_bytes()
    code, _, err = cli("play", "-g", game, "--as", "bob", "privilege a1; take a1")  # a1 is empty after the privilege
    assert code == 3 and "'take a1'" in err and "empty" in err and "(rule: take-line)" in err
    assert game.read_bytes() == before and len(err.strip().splitlines()) == 1
    code, out, err = cli("play", "-g", game, "--as", "bob", "privilege a1; take a2 a3")
    assert code == 0, err
    assert out.splitlines() == ["#3 bob: privilege a1 (green)", "#4 bob: take a2 a3 (red black)", "ann to move"]
    st = state(game)
    assert st["seq"] == 4 and st["turn"] == 2 and st["privileges"] == 3
    assert st["players"][1]["tokens"] == {"green": 1, "red": 1, "black": 1}


def test_steps_played_together_are_one_players(game: Path) -> None:
    """A `;` list stops at the end of the turn: a step that would be the opponent's is refused (exit 3)."""
    before = game.read_bytes()
    code, _, err = cli("play", "-g", game, "take b2 c3 d4; take a1")
    assert code == 3 and "'take a1': it is bob's turn, not ann's" in err
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    ("step", "code", "text"),
    [
        ("take a1 c3", 3, "rule: take-line"),
        ("take z9", 2, "not a board cell"),
        ("fly c3", 2, "unknown step"),
        ("privilege c3", 3, "holds no privilege"),
        ("royal R1", 3, "rule: step-order"),
        ("buy 3-01", 3, "rule: buy"),
        ("buy 9-99", 2, "not a card id"),
    ],
)
def test_bad_steps_exit_with_the_contract_code_and_leave_the_file(game: Path, step: str, code: int, text: str) -> None:
    """Parse errors exit 2, illegal steps exit 3 naming the rule; one line; the file unchanged."""
    before = game.read_bytes()
    got, _, err = cli("play", "-g", game, step)
    assert got == code and text in err and len(err.strip().splitlines()) == 1
    assert game.read_bytes() == before


def test_playing_out_of_turn_is_refused(game: Path) -> None:
    before = game.read_bytes()
    code, _, err = cli("play", "-g", game, "--as", "bob", "take a1")
    assert code == 3 and "ann's turn" in err and game.read_bytes() == before


def test_undo_takes_back_a_step_or_the_whole_turn(game: Path) -> None:
    """`undo` takes back the last step; `undo --turn` the steps of the turn under way, or the last turn."""
    cli("play", "-g", game, "take b2 c3 d4")
    cli("play", "-g", game, "--as", "bob", "privilege a1; take a2 a3")
    code, out, _ = cli("undo", "-g", game, "--as", "bob")
    assert code == 0 and out.strip() == "#5 undo: back to just after #3; bob to move"
    assert state(game)["players"][1]["tokens"] == {"green": 1}
    code, out, _ = cli("undo", "-g", game, "--as", "bob", "--turn")
    assert code == 0 and out.strip() == "#6 undo: back to just after #2; bob to move"
    st = state(game)
    assert st["players"][1]["privileges"] == 1 and st["players"][1]["tokens"] == {}
    code, out, _ = cli("undo", "-g", game, "--turn", "--as", "bob")  # ann's turn: not bob's to take back
    assert code == 3 and "ann's" in out + _
    code, out, _ = cli("undo", "-g", game, "--turn")
    assert code == 0 and "back to just after #1; ann to move" in out
    assert state(game, "--at", 4)["seq"] == 4 and state(game, "--at", 4)["turn"] == 2


def test_log_of_a_duel(game: Path, snapshot: Any) -> None:
    """`log` shows each step with what it took, undone steps marked (snapshot), and `--json` entries."""
    cli("play", "-g", game, "take b2 c3 d4")
    cli("play", "-g", game, "--as", "bob", "privilege a1; take a2 a3")
    cli("undo", "-g", game, "--as", "bob")
    code, out, _ = cli("log", "-g", game)
    assert code == 0 and out == snapshot
    code, out, _ = cli("log", "-g", game, "--json")
    entries = json.loads(out)
    assert [e["turn"] for e in entries] == [None, 1, 2, 2, None]
    assert [e["undone"] for e in entries] == [False, False, False, True, False]


_TWO_DRAWN = re.compile(r'tokens = \["(\w+)", "(?!\1)(\w+)"')


def _until_replenish(path: Path, *, two: bool = False) -> None:
    """Play the first listed step (purchases first, the optional privilege and replenish late) until a replenish is
    played (with `two`, one whose first two tokens differ)."""
    while not (_TWO_DRAWN.search(path.read_text()) if two else b'type = "board_replenished"' in path.read_bytes()):
        items = json.loads(cli("moves", "-g", path, "--json")[1])
        code, _, err = cli("play", "-g", path, items[0]["notation"])
        assert code == 0, err


def test_the_toml_of_a_duel(tmp_path: Path, toml_snapshot: Any) -> None:
    """What the file holds after the steps up to a first replenish (snapshot of the TOML written)."""
    path = tmp_path / "d.toml"
    header = Header(game="duel-demo", variant="duel", players=("ann", "bob"), created="2026-12-02T12:00:00Z")
    store.create(path, header, deal_duel(("ann", "bob"), random.Random(2)))
    _until_replenish(path)
    assert path.read_text(encoding="utf-8") == toml_snapshot


def test_a_hand_edited_replenish_draw_is_refused(tmp_path: Path) -> None:
    """The tokens of a replenish must be the draw the log gives: a file that chose its own is exit 4."""
    path = tmp_path / "d.toml"
    cli("new", "-g", path, "--players", "ann,bob", "--variant", "duel", "--seed", 2)
    _until_replenish(path, two=True)
    text = path.read_text(encoding="utf-8")
    drawn = _TWO_DRAWN.search(text)
    assert drawn
    edited = text.replace(drawn.group(0), f'tokens = ["{drawn.group(2)}", "{drawn.group(1)}"')
    path.write_text(edited, encoding="utf-8")
    code, _, err = cli("state", "-g", path, "--json")
    assert code == 4 and "event #" in err


def test_the_sample_duel_verifies_and_replays(tmp_path: Path) -> None:
    """games/sample-duel.toml: a whole Duel to a victory, with every feature the issue names."""
    code, out, err = cli("verify", "-g", SAMPLE, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["finished"] and report["winners"] and report["variant"] == "duel"
    game = store.read(SAMPLE).game
    final = game.state
    assert isinstance(final, DuelState) and final.win_condition
    types = {e.TYPE for e in game.events}
    assert {"privilege_used", "board_replenished", "royal_taken", "turn_undone"} <= types
    assert any(getattr(e, "wild", "") for e in game.events)


def test_simulate_duel_reports_games_steps_and_wins() -> None:
    code, out, err = cli("simulate", "--variant", "duel", "--games", 3, "--seed", 1, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 3 and report["steps"] > report["turns"] > 0
    assert sum(report["wins"].values()) + report["draws"] == 3
    code, _, err = cli("simulate", "--variant", "duel", "--players", 3)
    assert code == 2 and "2 players" in err


def test_the_real_entry_point_plays_a_whole_turn(game: Path) -> None:
    """Through `python -m splendor_cli` (the fast path that skips typer): several steps, then state."""
    run = [sys.executable, "-m", "splendor_cli"]
    done = subprocess.run([*run, "play", "-g", str(game), "take b2 c3 d4"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [*run, "play", "-g", str(game), "--as", "bob", "privilege a1; take a2 a3"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "#4 bob: take a2 a3" in done.stdout
    done = subprocess.run([*run, "state", "-g", str(game), "--json"], capture_output=True, text=True)
    st = json.loads(done.stdout)
    assert st["to_move"] == "ann" and _tokens_ok(st["players"][1]["tokens"]) and _tokens_ok(st["bag"])


def _replenished(path: Path) -> tuple[list[str], list[str]]:
    """The cells and tokens of the file's last replenish."""
    events = [e for e in store.read(path).game.events if e.TYPE == "board_replenished"]
    last = events[-1]
    return list(last.cells), [str(gem) for gem in last.tokens]  # type: ignore[attr-defined]


def _until_privilege_and_replenish(path: Path) -> tuple[str, str]:
    """Play greedy-free first steps until the player to move may both use a privilege and
    replenish: the notation of a privilege step and of the replenish."""
    for _ in range(200):
        items = json.loads(cli("moves", "-g", path, "--json")[1])
        notations = [item["notation"] for item in items]
        privileges = [n for n in notations if n.startswith("privilege")]
        if privileges and "replenish" in notations:
            return privileges[0], "replenish"
        pick = next(n for n in notations if not n.startswith(("privilege", "replenish")))
        code, _, err = cli("play", "-g", path, pick)
        assert code == 0, err
    raise AssertionError("no position with a privilege and a replenish")


def test_an_undo_cannot_re_roll_a_replenish_nor_a_detour_choose_it(tmp_path: Path) -> None:
    """The issue's reproduction: `privilege`, `replenish`, undo twice, the same two steps again
    draw the same; and the replenish played without the privilege first draws the same too (the
    k-th draw of a game depends on its setup and k alone)."""
    path = tmp_path / "d.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--variant", "duel", "--seed", 7)[0] == 0
    privilege, replenish = _until_privilege_and_replenish(path)
    for step in (privilege, replenish):
        code, _, err = cli("play", "-g", path, step)
        assert code == 0, err
    first = _replenished(path)
    for _ in range(2):
        code, _, err = cli("undo", "-g", path)
        assert code == 0, err
    for step in (privilege, replenish):
        code, _, err = cli("play", "-g", path, step)
        assert code == 0, err
    assert _replenished(path) == first
    for _ in range(2):
        assert cli("undo", "-g", path)[0] == 0
    code, _, err = cli("play", "-g", path, replenish)
    assert code == 0, err
    _cells, tokens = _replenished(path)
    assert tokens == first[1]  # the privilege's cell is empty in one, not in the other: the cells differ
    assert b"format = 2" in path.read_bytes()
    assert cli("verify", "-g", path)[0] == 0
