"""Relayed turns settle (issue 32, item 2), through the real entry point in real clones of a bare
remote, each player with their own memory of seen games (on, as for a user).

Before: a turn played for bob by cy (`play --for bob`) while bob played his own forked the game,
`resolve` refused both sides ("ask the players whose moves they are"), and the only way out was
git; the same move relayed for cy after cy had pushed it replaced cy's own turn. Now the seat's
own move wins over a relayed one, the same move on both sides is one move, and nobody runs
anything but `sync`: every clone agrees, `verify --git` is ok in each.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sharing.test_fork_way_out import GAME, NAMES
from sharing.test_fork_way_out import Table as Clones

from splendor_cli.events.codec import parse
from splendor_cli.variants import event_types

pytestmark = pytest.mark.slow  # three clones and a dozen syncs a test


class Table(Clones):
    """Three clones of one remote, each player's memory on; ann's new open game synced to all."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__(tmp_path, monkeypatch)
        (self.home["ann"] / "games").mkdir()
        self.ok("ann", "new", "-g", GAME, "--players", ",".join(NAMES), "--seed", "7")
        self.ok("ann", "take", "white", "blue", "green")
        self.ok("ann", "sync")
        for name in ("bob", "cy"):
            self.ok(name, "sync")

    def ok(self, who: str, *args: object) -> str:
        code, out, err = self.run(who, *args)
        assert code == 0, (who, args, out, err)
        return out + err

    def events(self, who: str) -> list[tuple[str, str, str]]:
        """Each event of `who`'s copy after the setup: its type, player and `by`."""
        record = parse((self.home[who] / GAME).read_text(), event_types)
        return [(e.TYPE, getattr(e, "player", ""), getattr(e, "by", "")) for e in record.events[1:]]

    def agree(self) -> None:
        """Every clone syncs, holds the same file, and `verify --git` says ok."""
        for name in NAMES:
            self.ok(name, "sync")
        files = {(self.home[name] / GAME).read_bytes() for name in NAMES}
        assert len(files) == 1
        for name in NAMES:
            out = self.ok(name, "verify", "--git")
            assert ": ok: " in out, out


def test_a_turn_relayed_and_pushed_first_gives_way_to_the_seats_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path, monkeypatch)
    table.ok("cy", "play", "--for", "bob", "take", "red", "black", "green")
    table.ok("cy", "sync")  # pushed first
    table.ok("bob", "take", "white", "red", "black")  # bob plays his own, from a copy without it
    out = table.ok("bob", "sync")
    assert "bob played their own move: the one cy played for them gives way" in out, out
    out = table.ok("cy", "sync")  # cy is told that the turn she played for bob gave way
    assert "#3 as you saw it gave way: bob played their own move: the one cy played for them gives way" in out, out
    table.agree()
    assert table.events("cy")[-1] == ("tokens_taken", "bob", "")


def test_a_turn_relayed_after_the_seat_pushed_its_own_gives_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path, monkeypatch)
    table.ok("bob", "take", "white", "red", "black")
    table.ok("bob", "sync")
    table.ok("cy", "play", "--for", "bob", "take", "red", "black", "green")  # cy had not seen it
    out = table.ok("cy", "sync")
    assert "gives way" in out, out
    table.agree()
    assert table.events("ann")[-1] == ("tokens_taken", "bob", "")


def test_the_same_move_relayed_for_a_seat_that_pushed_it_is_one_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path, monkeypatch)
    table.ok("bob", "take", "white", "red", "black")
    table.ok("bob", "sync")
    for name in ("ann", "cy"):
        table.ok(name, "sync")
    table.ok("cy", "take", "red", "black", "green")
    table.ok("cy", "sync")  # cy's own turn, pushed
    table.ok("ann", "play", "--for", "cy", "take", "red", "black", "green")  # ann relays the very same move
    out = table.ok("ann", "sync")
    assert "the same move of cy's on both sides: one move" in out, out
    table.agree()
    assert table.events("bob")[-1] == ("tokens_taken", "cy", "")
