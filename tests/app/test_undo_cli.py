"""`splendor undo` through the command line: every undo says who asked (--as, $SPLENDOR_PLAYER,
the git e-mail the header maps, or the player whose turn it takes back), and taking back another
player's turn needs --force."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import cli

NO_GIT_CONFIG = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def _log(path: Path) -> list[dict[str, Any]]:
    code, out, err = cli("log", "-g", path, "--json")
    assert code == 0, err
    entries: list[dict[str, Any]] = json.loads(out)
    return entries


def _two_turns(path: Path, players: str = "ann,bob") -> None:
    assert cli("new", "-g", path, "--players", players, "--seed", 1)[0] == 0
    assert cli("take", "-g", path, "--as", "ann", "white", "blue", "green")[0] == 0
    assert cli("take", "-g", path, "--as", "bob", "red", "black", "white")[0] == 0


def test_a_plain_undo_records_the_player_whose_turn_it_takes_back(tmp_path: Path) -> None:
    """No --as and no e-mails: the undo is signed by bob, whose turn it takes back (file and log)."""
    path = tmp_path / "g.toml"
    _two_turns(path)
    code, out, err = cli("undo", "-g", path)
    assert code == 0, err
    assert out == "#4 undo: back to just after #2; bob to move\n"
    assert 'by = "bob"' in path.read_text(encoding="utf-8")
    last = _log(path)[-1]
    assert last["player"] == "bob" and last["notation"] == "undo: back to just after #2 (asked by bob)"


def test_taking_back_another_players_turn_needs_force_and_a_name(tmp_path: Path) -> None:
    """`undo --to 1` over ann's and bob's turns: refused (3), file unchanged; forced without a name:
    usage (2); forced by ann: recorded as an agreed rewind asked by ann."""
    path = tmp_path / "g.toml"
    _two_turns(path)
    before = path.read_bytes()
    code, _, err = cli("undo", "-g", path, "--to", 1)
    assert code == 3 and "ann's and bob's turns" in err and "--force" in err and "(rule: undo)" in err
    code, _, err = cli("undo", "-g", path, "--to", 1, "--as", "bob")
    assert code == 3 and "bob may take back only their own turns" in err and "ann's" in err
    code, _, err = cli("undo", "-g", path, "--to", 1, "--force")
    assert code == 2 and "--as NAME" in err and err.count("\n") == 1
    assert path.read_bytes() == before
    code, _, err = cli("undo", "-g", path, "--to", 1, "--force", env={"SPLENDOR_PLAYER": "ann"})
    assert code == 0, err
    assert _log(path)[-1]["notation"] == "undo: back to just after #1 (asked by ann, an agreed rewind)"


@pytest.mark.parametrize(("email", "code"), [("bob@example.org", 0), ("ANN@example.org", 3), ("zed@example.org", 0)])
def test_the_git_e_mail_mapped_in_the_header_says_who_asks(tmp_path: Path, email: str, code: int) -> None:
    """In a clone whose `git config user.email` is bob's, bob takes back his turn; ann's address
    (any case) makes it ann's undo of bob's turn: refused; an unmapped address says nothing, so
    the undo is bob's, whose turn it is. --as says otherwise."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env={**os.environ, **NO_GIT_CONFIG})
    path = tmp_path / "g.toml"
    _two_turns(path, "ann=ann@example.org,bob=bob@example.org")  # before git knows who is here
    subprocess.run(["git", "-C", str(tmp_path), "config", "user.email", email], check=True)
    got, _, err = cli("undo", "-g", path, env=NO_GIT_CONFIG)
    assert got == code, err
    if code:
        assert "ann may take back only their own turns" in err
        got, _, err = cli("undo", "-g", path, "--as", "bob", env=NO_GIT_CONFIG)
        assert got == 0, err
    assert _log(path)[-1]["player"] == "bob"


def test_after_play_bots_undo_takes_back_your_turn_and_the_bots_answer(tmp_path: Path) -> None:
    """ann plays, the bot answers (`play --bots`); a plain `undo` takes both back, signed by ann,
    with no --force: the bot's answer alone would only be played again."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bot:greedy", "--seed", 3)[0] == 0
    code, out, err = cli("play", "-g", path, "--bots", "take", "white", "blue", "green")
    assert code == 0 and out.endswith("ann to move\n"), err
    code, out, err = cli("undo", "-g", path)
    assert code == 0, err
    assert out == "#4 undo: back to just after #1; ann to move\n"
    assert _log(path)[-1]["player"] == "ann"


def test_the_help_of_undo_says_what_as_means_for_it() -> None:
    """`undo -h`: --as is who asks, and its default."""
    code, out, _ = cli("undo", "-h")
    text = " ".join(out.split())
    assert code == 0
    assert "Who asks for the undo ($SPLENDOR_PLAYER); default: your git e-mail in the header," in text
    assert "else the player whose turn is taken back." in text


def test_the_player_who_relayed_a_turn_may_take_it_back(tmp_path: Path) -> None:
    """cy played bob's turn for him (`--for bob`): her plain `undo` takes it back (the move was her
    act, issue 32: one command withdraws a relayed move); ann, who neither played nor relayed it,
    may not without --force."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob,cy", "--seed", 3)[0] == 0
    assert cli("take", "white", "blue", "green", "-g", path, env={"SPLENDOR_PLAYER": "ann"})[0] == 0
    code, _, err = cli(
        "play", "--for", "bob", "take", "red", "black", "green", "-g", path, env={"SPLENDOR_PLAYER": "cy"}
    )
    assert code == 0, err
    before = path.read_bytes()
    code, _, err = cli("undo", "-g", path, env={"SPLENDOR_PLAYER": "ann"})
    assert code == 3 and "may take back only their own turns" in err and path.read_bytes() == before
    code, out, err = cli("undo", "-g", path, env={"SPLENDOR_PLAYER": "cy"})
    assert code == 0 and "undo: back to just after #2; bob to move" in out, (out, err)
