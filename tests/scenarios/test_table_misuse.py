"""Issue 22's table, end to end through the real entry point: three players in real clones of a
bare remote, each with their own memory of seen games and a real SMTP server for the turn mails.

Bob types a move on ann's turn (refused: he is bob); plays it for her on purpose (recorded in the
event, shown in the log, reported by `verify --git`, told in ann's next mail); takes his own turn
back after pushing it, while cy plays on a copy from before; cy settles the fork the wrong way
(refused, the right side named) and gets out with splendor commands alone. Then two players by
mail: a fork met by `apply` is settled by `resolve`, as a git one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sharing.test_fork_way_out import GAME, Table
from sharing.test_notify import local_smtp, settings_writer, smtp_sink

from splendor_cli import store
from splendor_cli.forks import split_fork

pytestmark = pytest.mark.slow  # three clones, a dozen syncs


@pytest.fixture
def notify_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    return settings_writer(tmp_path, monkeypatch)


def test_a_table_of_three_cannot_misuse_it_by_accident(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notify_settings: Any
) -> None:
    table = Table(tmp_path, monkeypatch)
    (table.home["ann"] / "games").mkdir()
    players = ",".join(f"{n}={n}@example.org" for n in ("ann", "bob", "cy"))
    table.ok("ann", "new", "-g", GAME, "--players", players, "--seed", "7")
    table.ok("ann", "sync")
    for who in ("bob", "cy"):
        table.ok(who, "sync")

    # bob, on ann's turn, types a move: refused, one line naming both and how to play for her
    before = (table.home["bob"] / GAME).read_bytes()
    code, _, err = table.run("bob", "take", "white", "blue", "green")
    assert code == 3 and len(err.strip().splitlines()) == 1, err
    assert "ann" in err and "bob" in err and "--for ann" in err
    assert (table.home["bob"] / GAME).read_bytes() == before

    # on purpose: recorded in the event, shown in the log, pushed and reported by verify --git
    table.ok("bob", "take", "white", "blue", "green", "--for", "ann")
    assert "(played by bob)" in table.ok("bob", "log")
    table.ok("bob", "take", "red", "black", "green")
    assert "pushed to origin/main" in table.ok("bob", "sync")
    report = json.loads(table.ok("bob", "verify", "--git", "-g", GAME, "--json"))
    assert report["ok"] and report["played_for"], report

    # cy plays her turn and tells ann, whose next mail says bob played her turn
    table.ok("cy", "sync")
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        table.ok("cy", "play", "--notify", "take", "white", "red", "black")
    [mail] = sink.messages()
    body = mail.get_body(("plain",))
    assert body is not None and "Played for you by bob" in body.get_content()
    assert "splendor sync" in body.get_content() and "git pull" not in body.get_content()

    # bob takes his turn back and pushes it, before cy's turn arrives: cy's sync meets a fork
    table.ok("bob", "undo")
    table.ok("bob", "sync")
    code, _, err = table.run("cy", "sync")
    assert code == 5 and "forked" in err, err
    fork = split_fork((table.home["cy"] / GAME).read_bytes())
    assert fork is not None
    bob_side = fork.label("theirs")

    # the wrong side is refused and the right one named; that command and sync end it
    code, _, err = table.run("cy", "resolve", "--keep", "ours")
    assert code == 3 and f"--keep {bob_side}" in err, err
    table.ok("cy", "resolve", "--keep", bob_side)
    assert "pushed to origin/main" in table.ok("cy", "sync")
    for who in ("ann", "bob"):
        table.ok(who, "sync")
    assert table.ok("ann", "state", "--json") == table.ok("cy", "state", "--json")
    assert json.loads(table.ok("ann", "verify", "--git", "-g", GAME, "--json"))["ok"]


def test_a_fork_met_by_mail_is_settled_by_resolve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two copies by mail: bob's copy holds a different #2 than ann's mail (a turn taken back and
    played again); apply writes the fork (exit 5, the resolve named), resolve keeps ann's side,
    and both copies then agree."""
    players = "ann=ann@example.org,bob=bob@example.org"
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    for home in (ann, bob):
        (home / "games").mkdir(parents=True)
    table = Table.__new__(Table)  # the same runner, without clones: mail needs none
    table.monkeypatch, table.tmp_path, table.home = monkeypatch, tmp_path, {"ann": ann, "bob": bob}
    table.ok("ann", "new", "-g", "games/g.toml", "--players", players, "--seed", "3")
    shutil.copy(ann / "games" / "g.toml", bob / "games" / "g.toml")
    table.ok("ann", "play", "-g", "games/g.toml", "take", "red", "red")
    table.ok("bob", "play", "-g", "games/g.toml", "--for", "ann", "take", "blue", "blue")
    (tmp_path / "move.eml").write_text(table.ok("ann", "export", "-g", "games/g.toml"))
    code, _, err = table.run("bob", "apply", "-g", "games/g.toml", tmp_path / "move.eml")
    assert code == 5 and "splendor resolve --keep" in err, err
    assert split_fork((bob / "games" / "g.toml").read_bytes()) is not None
    table.ok("bob", "resolve", "-g", "games/g.toml", "--keep", "theirs")
    mine, theirs = (store.read(home / "games" / "g.toml").record.head for home in (bob, ann))
    assert mine == theirs
