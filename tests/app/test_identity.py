"""Who is at the keyboard: a command that writes knows it (--as, $SPLENDOR_PLAYER, the local key,
or the player whose e-mail in the header is git's `user.email`), refuses to play someone else's
turn by accident, and records a turn played for another player on purpose (`--for`): in the
event (`by`), in the log, and in `verify` and `verify --git`."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli
from sharing.gitrepos import commit_all, remote_and_clones, run_git

PLAYERS = "ann=ann@example.org,bob=bob@example.org"


def _clones(tmp_path: Path) -> tuple[Path, Path]:
    """A game of ann and bob (with their e-mails) made and pushed by ann; bob's clone pulled."""
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    assert cli("new", "-g", ann / "g.toml", "--players", PLAYERS, "--seed", 1)[0] == 0
    commit_all(ann, "ann", "new game")
    run_git(ann, "push", "-q", "origin", "main", who="ann")
    run_git(bob, "pull", "-q", "origin", "main", who="bob")
    return ann, bob


def test_playing_someone_elses_turn_by_accident_is_refused(tmp_path: Path) -> None:
    """In bob's clone, on ann's turn, `take r k w` is refused (exit 3), one line naming both and
    how to play for ann on purpose; the file is unchanged."""
    _, bob = _clones(tmp_path)
    path = bob / "g.toml"
    before = path.read_bytes()
    code, out, err = cli("take", "r", "k", "w", "-g", path)
    assert code == 3, (out, err)
    assert "it is ann's turn, not bob's" in err and "--for ann" in err and "git e-mail" in err
    assert err.count("\n") == 1 and path.read_bytes() == before
    code, _, err = cli("play", "-g", path, "--json", "take", "r", "k", "w")
    assert code == 3 and json.loads(err)["error"]["rule"] == "turn"
    assert path.read_bytes() == before


def test_a_turn_played_for_another_on_purpose_is_recorded_and_reported(tmp_path: Path) -> None:
    """`--for ann` plays ann's turn from bob's clone: the event says `by = "bob"`, the log
    "(played by bob)", verify and verify --git name it; bob's commit of it passes the audit."""
    _, bob = _clones(tmp_path)
    path = bob / "g.toml"
    code, out, err = cli("take", "r", "k", "w", "-g", path, "--for", "ann")
    assert code == 0, err
    assert out.startswith("#2 ann: take white red black (played by bob)\n")
    assert 'by = "bob"' in path.read_text()
    code, out, _ = cli("log", "-g", path)
    assert code == 0 and "(played by bob)" in out
    code, out, err = cli("verify", "-g", path)
    assert code == 0 and "played for another player on purpose: #2 ann's by bob" in out, err
    code, out, _ = cli("verify", "-g", path, "--json")
    assert json.loads(out)["played_for"] == [{"seq": 2, "player": "ann", "by": "bob"}]
    commit_all(bob, "bob", "ann's turn, played by bob")
    code, out, err = cli("verify", "--git", "-g", path)
    assert code == 0, (out, err)
    assert "played for another player on purpose: #2 ann's by bob" in out
    code, out, _ = cli("take", "g", "g", "-g", path)  # bob's own turn, as before
    assert code == 0 and "played by" not in out


def test_as_is_no_way_round_who_is_at_the_keyboard(tmp_path: Path) -> None:
    """bob's git e-mail says he is at the keyboard: `--as ann` on ann's turn is refused (exit 3),
    naming the `--for ann` that plays it on purpose; --as bob is bob himself; --for with a name
    nobody plays is exit 2."""
    _, bob = _clones(tmp_path)
    path = bob / "g.toml"
    before = path.read_bytes()
    code, out, err = cli("take", "r", "k", "w", "-g", path, "--as", "ann")
    assert code == 3 and "--for ann" in err and err.count("\n") == 1, (out, err)
    assert path.read_bytes() == before
    code, _, err = cli("take", "g", "g", "-g", path, "--for", "zed")
    assert code == 2 and "zed" in err
    code, out, err = cli("take", "r", "k", "w", "-g", path, "--for", "ann", "--as", "bob")
    assert code == 0 and "(played by bob)" in out, err


def test_nobody_known_keeps_hot_seat_play(tmp_path: Path) -> None:
    """A game made without e-mails, nobody said: each seat plays in turn, as before."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    assert cli("take", "r", "k", "w", "-g", path)[0] == 0
    assert cli("take", "g", "g", "-g", path)[0] == 0
    assert "by =" not in path.read_text()


def test_a_forged_by_is_damage(tmp_path: Path) -> None:
    """A `by` that names nobody of the game, or the turn's own player, is exit 4."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    assert cli("take", "r", "k", "w", "-g", path, "--for", "ann", "--as", "bob")[0] == 0
    text = path.read_text()
    assert 'by = "bob"' in text
    for forged in ('by = "zed"', 'by = "ann"'):
        path.write_text(text.replace('by = "bob"', forged))
        code, _, err = cli("log", "-g", path)
        assert code == 4 and "played by" in err, err


def test_moves_and_hint_on_someone_elses_turn_say_whose_turn_it_is(tmp_path: Path) -> None:
    """bob's git e-mail says he is at the keyboard: on ann's turn, `moves` and `hint` say it is
    ann's turn (exit 3; --json an error object), where they offered ann's moves, which would fail.
    In a game without e-mails (hot-seat), they list the moves of the player to move, as before."""
    _, bob = _clones(tmp_path)
    path = bob / "g.toml"
    for command in (("moves",), ("moves", "--json"), ("hint", "--bot", "greedy")):
        code, out, err = cli(*command, "-g", path)
        assert code == 3 and out == "" and "it is ann's turn, not bob's" in err, (command, err)
    code, _, err = cli("moves", "-g", path, "--json")
    assert json.loads(err)["error"]["rule"] == "turn"
    assert cli("moves", "-g", path, "--as", "ann")[0] == 0  # ann at bob's machine
    hot = tmp_path / "hot.toml"
    assert cli("new", "-g", hot, "--players", "ann,bob", "--seed", 1)[0] == 0
    assert cli("moves", "-g", hot, "--json")[0] == 0 and cli("hint", "-g", hot, "--bot", "greedy")[0] == 0
