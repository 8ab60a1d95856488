"""Races the table settles by itself (issue 32, item 1): protocol events commute with moves.

Three players of a sealed game, each with a clone of a bare remote, their own key and cache. ann
reserves the top of deck 3 blind: bob and cy owe their shares of it. bob, to move, plays at once,
before cy's share reaches him; cy posts it and pushes first. bob's next `sync` forked on his move
against cy's share and stopped (exit 5, a `resolve` and a git lesson for a race nobody lost); now
it leaves bob's side out and plays his move again after cy's share, judged like any move, and
pushes: no command, no lost turn, `verify --git` ok. When cy's share shows bob a card he could
not see when he chose, the move goes back to him, with the command that plays it again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import cli
from sealed_helpers import Table
from sharing.gitrepos import commit_all, remote_and_clones, run_git

from splendor_cli.events.codec import format_record

GAME = "games/g.toml"
NAMES = ("ann", "bob", "cy")


@pytest.fixture(autouse=True)
def quiet_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """git sees no user or system configuration; each clone has its own identity."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("SPLENDOR_NO_MEMORY", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR"):
        monkeypatch.delenv(name, raising=False)


class Table3:
    """A dealt sealed game of ann, bob and cy on a bare remote; each player's machine."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int = 5) -> None:
        self.monkeypatch, self.tmp = monkeypatch, tmp_path
        self.remote, clones = remote_and_clones(tmp_path, *NAMES)
        self.clones = dict(zip(NAMES, clones))
        table = Table.new("base", NAMES, seed, game="raced").deal()
        for name in NAMES:
            table.install_keys(name, tmp_path / f"{name}-data" / "splendor-cli" / "keys")
            (tmp_path / f"{name}-cache").mkdir()
        ann = self.clones["ann"]
        (ann / "games").mkdir()
        (ann / GAME).write_text(format_record(table.record))
        commit_all(ann, "ann", "a sealed game, dealt")
        run_git(ann, "push", "-q", "origin", "main")
        for name in ("bob", "cy"):
            run_git(self.clones[name], "pull", "-q", "origin", "main", who=name)
        self.first = table.state.player.name

    def run(self, name: str, *args: object) -> tuple[int, str, str]:
        """`splendor ARGS -g GAME` on `name`'s machine, in their clone."""
        self.monkeypatch.setenv("XDG_DATA_HOME", str(self.tmp / f"{name}-data"))
        self.monkeypatch.setenv("SPLENDOR_CACHE", str(self.tmp / f"{name}-cache"))
        return cli(*args, "-g", self.clones[name] / GAME)

    def ok(self, name: str, *args: object) -> str:
        code, out, err = self.run(name, *args)
        assert code == 0, (name, args, out, err)
        return out + err

    def remote_log(self) -> list[dict[str, object]]:
        text = run_git(self.clones["ann"], "--git-dir", str(self.remote), "show", f"main:{GAME}")
        import tomllib

        return tomllib.loads(text)["events"]  # type: ignore[no-any-return]


def _first_take(table: Table3, name: str) -> str:
    """A move of `name`'s that reveals nothing (a take of tokens), as `moves --json` lists it."""
    code, out, err = table.run(name, "moves", "--json")
    assert code == 0, err
    return next(m["notation"] for m in json.loads(out) if m["notation"].startswith("take "))


def test_a_move_that_raced_a_share_is_played_again_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table3(tmp_path, monkeypatch)
    assert table.first == "ann"
    table.ok("ann", "play", "reserve", "deck", "3")
    table.ok("ann", "sync")
    table.ok("bob", "sync")  # bob takes ann's move in, and posts his share of her blind reserve
    move = _first_take(table, "bob")
    table.ok("bob", "play", *move.split())  # bob plays at once, cy's share not in yet: not pushed
    table.ok("cy", "sync")  # cy posts her share, and pushes first
    code, out, err = table.run("bob", "sync")
    assert code == 0, (out, err)
    assert f"your move {move!r} raced cy's part: played again after it" in err, err
    assert "pushed to origin/main" in out, out
    events = table.remote_log()
    assert [(e["type"], e["player"]) for e in events[-2:]] == [("cards_shown", "cy"), ("tokens_taken", "bob")], events[
        -3:
    ]
    code, out, err = table.run("bob", "verify", "--git")
    assert code == 0 and ": ok: " in out, (out, err)
    assert "cy to move" in table.ok("cy", "sync")
