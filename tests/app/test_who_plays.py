"""Who is at the keyboard is known, and `--as` is no way round it (issue 32, item 3): where git's
e-mail in the header or $SPLENDOR_PLAYER says who you are, `--as` another player is refused
(exit 3) naming the `--for` that plays for them on purpose; no message suggests a false `--as`;
`log`, `show` and the replay mark every relayed turn and every bot seat's move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import cli
from sharing.gitrepos import commit_all, remote_and_clones, run_git

PLAYERS = "ann=ann@example.org,bob=bob@example.org"


def _bobs_clone(tmp_path: Path) -> Path:
    """A game of ann and bob (with their e-mails) made by ann; the file in bob's clone, ann to move."""
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    assert cli("new", "-g", ann / "g.toml", "--players", PLAYERS, "--seed", 1)[0] == 0
    commit_all(ann, "ann", "new game")
    run_git(ann, "push", "-q", "origin", "main", who="ann")
    run_git(bob, "pull", "-q", "origin", "main", who="bob")
    return bob / "g.toml"


@pytest.mark.parametrize(
    "command",
    [("play", "take", "r", "k", "w"), ("take", "r", "k", "w"), ("reserve", "1-24"), ("buy", "1-03")],
    ids=["play", "take", "reserve", "buy"],
)
def test_as_another_player_is_refused_where_git_knows_you(tmp_path: Path, command: tuple[str, ...]) -> None:
    """In bob's clone (his git e-mail in the header), `--as ann` on ann's turn is refused by
    `play` and each shortcut: exit 3, rule `turn`, one line naming `--for ann`, never a `--as`
    to say; the file is unchanged."""
    path = _bobs_clone(tmp_path)
    before = path.read_bytes()
    code, out, err = cli(*command, "-g", path, "--as", "ann")
    assert code == 3 and out == "", err
    assert err.count("\n") == 1 and "you are bob (says your git e-mail), not ann" in err
    assert "--for ann" in err and "say --as" not in err and "(rule: turn)" in err
    code, _, err = cli(*command, "-g", path, "--as", "ann", "--json")
    assert code == 3 and json.loads(err)["error"]["rule"] == "turn"
    assert path.read_bytes() == before


def test_splendor_player_says_who_you_are_and_as_is_refused_against_it(tmp_path: Path) -> None:
    """A game without e-mails: with $SPLENDOR_PLAYER=bob, `--as ann` is refused (exit 3, naming
    `--for ann`); `--for ann` plays ann's turn, recorded as played by bob. With nothing said,
    `--as` still says who is at the keyboard (hot-seat, scripts)."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    before = path.read_bytes()
    code, _, err = cli("take", "r", "k", "w", "-g", path, "--as", "ann", env={"SPLENDOR_PLAYER": "bob"})
    assert code == 3 and "you are bob (says $SPLENDOR_PLAYER), not ann" in err and "--for ann" in err, err
    assert path.read_bytes() == before
    code, out, err = cli("take", "r", "k", "w", "-g", path, "--for", "ann", env={"SPLENDOR_PLAYER": "bob"})
    assert code == 0 and out.startswith("#2 ann: take white red black (played by bob)\n"), err
    code, _, err = cli("take", "g", "g", "-g", path, "--as", "bob")  # nobody known: --as says it
    assert code == 0, err


def test_no_message_offers_a_false_as(tmp_path: Path) -> None:
    """Out of turn, the refusal names `--for` only; on a bot seat's turn, it names `splendor bot`
    and `--bots`, not `--as` the bot."""
    path = _bobs_clone(tmp_path)
    code, _, err = cli("take", "r", "k", "w", "-g", path)
    assert code == 3 and "--for ann" in err and "--as" not in err, err
    bots = tmp_path / "bots.toml"
    assert cli("new", "-g", bots, "--players", "ann,bot:greedy", "--seed", 1)[0] == 0
    assert cli("take", "-g", bots, "w", "u", "g")[0] == 0
    code, _, err = cli("take", "-g", bots, "r", "k", "w")
    assert code == 3 and "`splendor bot`" in err and "--bots" in err and "--as" not in err, err


def test_show_log_and_replay_mark_relayed_turns_and_bot_moves(tmp_path: Path, snapshot: Any) -> None:
    """ann's turn played by bob (`--for`), then a bot seat's answer: `log` marks both (snapshot),
    `log --json` gives the bot's spec, `show` says whose turn bob played, the replay's log too."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob,bot:greedy", "--seed", 1)[0] == 0
    assert cli("take", "-g", path, "--as", "bob", "--for", "ann", "w", "u", "g")[0] == 0
    code, out, err = cli("take", "-g", path, "--as", "bob", "r", "k", "w", "--bots")
    assert code == 0 and "#4 bot:greedy:" in out, err
    code, out, _ = cli("log", "-g", path, "--color", "never")
    assert code == 0 and out == snapshot
    rows = json.loads(cli("log", "-g", path, "--json")[1])
    assert [row.get("bot") for row in rows] == [None, None, None, "greedy"]
    code, out, _ = cli("show", "-g", path, "--color", "never")
    assert code == 0 and out.rstrip().endswith("played for another player on purpose: #2 ann's by bob")
    page = tmp_path / "g.html"
    assert cli("replay", "-g", path, "-o", page)[0] == 0
    html = page.read_text(encoding="utf-8")
    assert "ann take white blue green (played by bob)" in html and "(bot)" in html
