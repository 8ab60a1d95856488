"""The `splendor` command through its real entry points: exit codes, outputs, files untouched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, cli, state
from typer.testing import CliRunner

SAMPLE = ROOT / "games" / "sample-3p.toml"
runner = CliRunner()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A new 2-player game of ann and bob, seed 1."""
    path = tmp_path / "g.toml"
    code, _, err = cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)
    assert code == 0, err
    return path


def test_new_writes_a_game_and_never_overwrites(game: Path) -> None:
    """`new` writes the header and the setup; a second `new` on the same path is refused, file intact."""
    before = game.read_bytes()
    assert before.startswith(b"# A game of Splendor") and b'type = "game_started"' in before
    code, _, err = cli("new", "-g", game, "--players", "cy,dee")
    assert code == 2 and "exists already" in err
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("ann", "2 to 4 players"),
        ("a,b,c,d,e", "2 to 4 players"),
        ("ann,ann", "must differ"),
        ("ann,b b", "bad player name"),
    ],
)
def test_new_refuses_bad_player_lists(tmp_path: Path, players: str, message: str) -> None:
    """A game needs 2 to 4 distinct simple names; nothing is written otherwise."""
    code, _, err = cli("new", "-g", tmp_path / "x.toml", "--players", players)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.toml").exists()


def test_new_without_path_goes_to_games_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without -g, a new game is written under games/, named after the date, players and a tag."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("new", "--players", "ann,bob", "--json")
    assert code == 0
    made = json.loads(out)
    assert made["path"].startswith("games/") and made["path"].endswith(".toml")
    assert (tmp_path / made["path"]).exists()
    # and with exactly one game there, -g may be left out
    assert cli("state", "--json")[0] == 0


def test_state_json_has_the_contract_shape(game: Path) -> None:
    """state --json: the keys, a full bank of 4 per colour and 5 gold for 2 players, 4 cards a level."""
    st = state(game)
    assert st["variant"] == "base" and st["seq"] == 1 and st["turn"] == 0 and st["to_move"] == "ann"
    assert st["bank"] == {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 5}
    assert all(len(st["board"][lvl]) == 4 for lvl in "123")
    assert st["decks"] == {"1": 36, "2": 26, "3": 16}
    assert len(st["nobles"]) == 3
    assert [p["name"] for p in st["players"]] == ["ann", "bob"]


def test_play_each_listed_move_form_and_the_verbs(game: Path) -> None:
    """A notation listed by `moves` is accepted by `play`; take/reserve/buy verbs append likewise."""
    code, out, _ = cli("moves", "-g", game, "--json")
    listed = json.loads(out)
    assert code == 0 and {m["action"] for m in listed} >= {"take", "reserve"}
    assert cli("play", "-g", game, listed[0]["notation"])[0] == 0
    assert cli("reserve", "-g", game, "deck", "3")[0] == 0
    code, out, _ = cli("take", "-g", game, "w", "u", "g", "--json")
    assert code == 0 and json.loads(out)["event"]["gems"] == ["white", "blue", "green"]
    st = state(game)
    assert st["seq"] == 4 and st["turn"] == 3 and st["to_move"] == "bob"
    assert len(st["players"][1]["reserved"]) == 1 and st["players"][1]["tokens"] == {"gold": 1}


def test_refusals_leave_the_file_byte_for_byte(game: Path) -> None:
    """Unparseable (2), illegal (3, naming the rule), out of turn (3): one line each, file unchanged."""
    before = game.read_bytes()
    code, _, err = cli("play", "-g", game, "xyzzy")
    assert code == 2 and "unknown action 'xyzzy'" in err
    code, _, err = cli("play", "-g", game, "take", "gold")
    assert code == 3 and "(rule: take)" in err
    code, _, err = cli("play", "-g", game, "--as", "bob", "take", "red", "red")
    assert code == 3 and "it is ann's turn, not bob's" in err
    code, _, err = cli("play", "-g", game, "take red red", env={"SPLENDOR_PLAYER": "bob"})
    assert code == 3 and "not bob's" in err
    code, _, err = cli("play", "-g", game, "--as", "zed", "pass")
    assert code == 3 and "does not play" in err
    code, _, err = cli("buy", "-g", game, "3-01")  # a card id that parses, but not on the table
    assert code == 3 and "card 3-01 is neither face up nor reserved by ann (rule: buy)" in err
    assert err.count("\n") == 1
    assert game.read_bytes() == before


def test_undo_appends_and_takes_back(game: Path) -> None:
    """undo appends an event (seq + 1), takes one turn back; undo --to goes further; nothing to undo is 3."""
    assert cli("undo", "-g", game)[0] == 3
    cli("take", "-g", game, "red", "red")
    cli("take", "-g", game, "blue", "blue")
    after_two = state(game)
    assert cli("undo", "-g", game)[0] == 0
    st = state(game)
    assert st["seq"] == after_two["seq"] + 1 and st["turn"] == 1 and st["to_move"] == "bob"
    code, _, err = cli("undo", "-g", game, "--to", 3)
    assert code == 3 and "#3" in err and "undone already" in err
    assert cli("undo", "-g", game, "--to", 1)[0] == 0
    assert state(game)["turn"] == 0
    assert state(game, "--at", 3)["players"][1]["tokens"] == {"blue": 2}


def test_log_marks_undone_turns(game: Path) -> None:
    """log lists every event; an undone turn is marked, in text and in JSON."""
    cli("take", "-g", game, "red", "red")
    cli("undo", "-g", game)
    code, out, _ = cli("log", "-g", game, "--json")
    entries = json.loads(out)
    assert code == 0 and [e["undone"] for e in entries] == [False, True, False]
    assert entries[1]["notation"] == "take red red" and entries[1]["player"] == "ann"
    code, out, _ = cli("log", "-g", game)
    assert code == 0 and "undone" in out.splitlines()[1]


@pytest.mark.parametrize(
    ("damage", "needle"),
    [
        (lambda b: b + b"\n[[events]]\nthis is = not toml ]]\n", "not valid TOML"),
        (lambda b: b[: len(b) - 9], "event #"),
        (lambda b: b.replace(b"format = 1", b"format = 9"), "newer than this splendor-cli"),
        (lambda b: b.replace(b'"ann"', b'"eve"', 1), "event #1"),
        (lambda b: b"\xff\xfe" + b, "UTF-8"),
    ],
)
def test_damaged_files_are_refused_with_exit_4(game: Path, damage, needle: str) -> None:  # type: ignore[no-untyped-def]
    """Garbled, truncated, newer-format, hand-edited or binary files: exit 4, one line, no traceback."""
    cli("take", "-g", game, "red", "red")
    game.write_bytes(damage(game.read_bytes()))
    damaged = game.read_bytes()
    for command in (("state", "--json"), ("show",), ("log",), ("moves",), ("play", "pass")):
        code, _, err = cli(command[0], "-g", game, *command[1:])
        assert code == 4, (command, err)
        assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert game.read_bytes() == damaged


def test_missing_or_ambiguous_game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No game: exit 2 with a hint; a missing path: exit 4; several games: exit 2 naming them."""
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("show")
    assert code == 2 and "splendor new" in err
    assert cli("show", "-g", "nope.toml")[0] == 4
    for name in ("a", "b"):
        cli("new", "-g", f"{name}.toml", "--players", "ann,bob")
    code, _, err = cli("show")
    assert code == 2 and "a.toml" in err and "b.toml" in err


def test_sample_game_replays_to_its_result() -> None:
    """The recorded 3-player sample game replays, every turn legal, to cy's win at 17 points."""
    st = state(SAMPLE)
    assert st["finished"] and st["winners"] == ["cy"] and st["to_move"] is None
    assert [p["points"] for p in st["players"]] == [13, 11, 17]
    assert state(SAMPLE, "--at", 12)["turn"] == 11


def test_simulate_reports_games_turns_and_wins() -> None:
    """simulate --json: K games, the turns, wins per seat and shared victories adding up."""
    code, out, _ = cli("simulate", "--players", 3, "--games", 3, "--seed", 5, "--json")
    report = json.loads(out)
    assert code == 0 and report["games"] == 3 and report["turns"] > 3 * 3 * 10
    assert set(report["wins"]) == {"p1", "p2", "p3"}
    assert sum(report["wins"].values()) >= 3 - report["shared"]


def test_demo_writes_a_game_and_shows_it(tmp_path: Path) -> None:
    """demo plays some turns into a real game file and shows the board."""
    path = tmp_path / "demo.toml"
    code, out, _ = cli("demo", "-g", path, "--turns", 6, "--seed", 2)
    assert code == 0 and "ann" in out and str(path) in out
    assert state(path)["turn"] == 6


def _exe() -> list[str]:
    found = Path(sys.executable).parent / "splendor"
    return [str(found)] if found.exists() else [shutil.which("splendor") or "splendor"]


@pytest.mark.slow  # a process per command
def test_installed_executable_and_its_shortcuts_agree_with_typer(tmp_path: Path) -> None:
    """The installed `splendor` (its typer-free shortcuts, then its cache) prints what the typer app prints."""
    path = tmp_path / "g.toml"
    env = {**os.environ, "SPLENDOR_CACHE": str(tmp_path / "cache")}
    run = lambda *a: subprocess.run([*_exe(), *map(str, a)], capture_output=True, text=True, env=env)  # noqa: E731
    assert run("new", "-g", path, "--players", "ann,bob", "--seed", 4).returncode == 0
    for argv in (("state", "-g", path, "--json"), ("moves", "-g", path, "--json"), ("show", "-g", path, "--json")):
        first, second = run(*argv), run(*argv)  # a miss, then a hit
        assert first.returncode == second.returncode == 0
        assert first.stdout == second.stdout == cli(*argv)[1]
    for argv in (("show", "-g", path, "--color", "never"), ("log", "-g", path), ("moves", "-g", path)):
        direct = run(*argv)
        assert direct.returncode == 0 and direct.stdout == cli(*argv)[1], argv
    played = run("play", f"--game={path}", "take", "white", "blue", "green")
    assert played.returncode == 0 and "#2 ann: take white blue green" in played.stdout
    refused = run("play", "-g", path, "--as", "ann", "take red red")
    assert refused.returncode == 3 and refused.stderr.count("\n") == 1
    assert run("state", "-g", path, "--json", "--at", "1").stdout == cli("state", "-g", path, "--json", "--at", 1)[1]
    assert run("undo", "-g", path).returncode == 0
    assert json.loads(run("state", "-g", path, "--json").stdout)["turn"] == 0
    for usage in (("play",), ("bogus",), ("state", "--at", "0"), ("new", "--nope")):
        result = run(*usage)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, (usage, result.stderr)
        assert result.stderr.startswith("splendor: ") and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        "new",
        "show",
        "state",
        "moves",
        "play",
        "take",
        "reserve",
        "buy",
        "undo",
        "log",
        "demo",
        "simulate",
        "export",
        "apply",
        "resolve",
        "merge-driver",
        "verify",
        "seed",
    ],
)
def test_every_command_has_help_with_an_example(command: str) -> None:
    """`splendor COMMAND -h` explains the command and shows at least one example."""
    code, out, _ = cli(command, "-h")
    assert code == 0 and "Example" in out and "splendor " + command in out


def test_version_and_bare_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--version` names the version; `splendor` alone shows the commands and exits 0 (through the
    real entry point: typer's own runner would exit 2, click's "no arguments" usage error)."""
    from splendor_cli import __version__
    from splendor_cli.app import entry

    assert cli("--version")[1].strip() == f"splendor-cli {__version__}"
    monkeypatch.setattr(sys, "argv", ["splendor"])
    with pytest.raises(SystemExit) as done:
        entry.main()
    captured = capsys.readouterr()
    assert done.value.code == 0 and captured.err == ""
    assert "Usage: " in captured.out and "new" in captured.out and "moves" in captured.out


def test_simulate_with_bots_rotates_seats_and_counts_per_bot() -> None:
    """--bots: wins are counted per bot (same bots numbered); unknown bots or a wrong count: exit 2."""
    code, out, _ = cli("simulate", "--players", 2, "--games", 4, "--seed", 2, "--bots", "random", "--json")
    report = json.loads(out)
    assert code == 0 and set(report["wins"]) == {"random#1", "random#2"}
    assert sum(report["wins"].values()) == 4 + report["shared"]
    code, _, err = cli("simulate", "--bots", "bogus")
    assert code == 2 and "unknown bot 'bogus'" in err
    code, _, err = cli("simulate", "--players", 3, "--bots", "random,random")
    assert code == 2 and "2 bots for 3 players" in err


def test_new_records_emails_when_given(tmp_path: Path) -> None:
    """`--players name=e-mail,...` keeps each address in the header (for verify --git); bad ones: exit 2."""
    path = tmp_path / "e.toml"
    assert cli("new", "-g", path, "--players", "alice=alice@example.org,bob")[0] == 0
    assert 'emails = ["alice@example.org", ""]' in path.read_text()
    assert state(path)["players"][0]["name"] == "alice"
    code, _, err = cli("new", "-g", tmp_path / "f.toml", "--players", "alice=nope,bob")
    assert code == 2 and "bad e-mail address 'nope'" in err


def test_export_then_apply_carries_a_move_by_mail(game: Path, tmp_path: Path) -> None:
    """`export` prints a block; `apply` on another copy appends it (quoted in a mail), once only."""
    other = tmp_path / "other.toml"
    other.write_bytes(game.read_bytes())
    cli("take", "-g", game, "red", "red")
    code, block, _ = cli("export", "-g", game)
    assert code == 0 and "-----BEGIN SPLENDOR MOVE-----" in block and "move: take red red" in block
    mail = tmp_path / "mail.txt"
    mail.write_text("Hi bob, my move:\n\n" + "".join("> " + line for line in block.splitlines(keepends=True)))
    code, out, _ = cli("apply", "-g", other, mail)
    assert code == 0 and "applied #2 ann: take red red" in out
    assert other.read_bytes() == game.read_bytes()
    code, out, _ = cli("apply", "-g", other, mail)
    assert code == 0 and "already applied" in out
    cli("take", "-g", game, "blue", "blue")
    cli("take", "-g", game, "green", "green")
    code, _, err = cli("apply", "-g", other, "-", input=cli("export", "-g", game)[1])
    assert code == 5 and "turn #3 is missing" in err


def test_verify_reports_a_good_file_and_refuses_a_bad_one(game: Path) -> None:
    """verify: a short report and exit 0 for a sound file; exit 4 for a tampered one; JSON on request."""
    cli("take", "-g", game, "red", "red")
    code, out, _ = cli("verify", "-g", game)
    assert code == 0 and "ok (format 1)" in out and "2 events: 1 turn" in out
    code, out, _ = cli("verify", "-g", SAMPLE, "--json")
    report = json.loads(out)
    assert code == 0 and report["turns"] == 78 and report["undos"] == 1 and report["winners"] == ["cy"]
    game.write_bytes(game.read_bytes().replace(b'gems = ["red", "red"]', b'gems = ["red", "red", "red"]'))
    code, _, err = cli("verify", "-g", game)
    assert code == 4 and "event #2" in err
    code, _, err = cli("verify", "-g", game, "HEAD~1..HEAD")
    assert code == 2 and "go with --git" in err
