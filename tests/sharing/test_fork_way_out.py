"""Every git fork has a way out that is one splendor command (issue 22), through the real entry
point in real clones of a bare remote: `resolve --keep` refuses the side the audit would refuse
and names the one it accepts; a merge the audit refuses is never committed, and one already made
(by an earlier release) is undone by sync itself, so no state needs git to leave it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli
from sharing.gitrepos import remote_and_clones, run_git

from splendor_cli.forks import split_fork
from splendor_cli.sharing import gitmerge

GAME = "games/g.toml"
NAMES = ("ann", "bob", "cy")


class Table:
    """Three clones of one remote; each player runs splendor in their own clone."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.tmp_path = tmp_path
        _, clones = remote_and_clones(tmp_path, *NAMES)
        self.home = dict(zip(NAMES, clones))

    def run(self, who: str, *args: object) -> tuple[int, str, str]:
        """`splendor ARGS` as `who`, in their clone, with their own memory of seen games (on, as
        for a user: a state splendor leaves must read without `forget`)."""
        self.monkeypatch.chdir(self.home[who])
        data = self.tmp_path / f"{who}-data"
        return cli(*args, env={"SPLENDOR_PLAYER": who, "SPLENDOR_NO_MEMORY": "", "XDG_DATA_HOME": str(data)})

    def ok(self, who: str, *args: object) -> str:
        code, out, err = self.run(who, *args)
        assert code == 0, (who, args, out, err)
        return out

    def git(self, who: str, *args: str) -> str:
        return run_git(self.home[who], *args, who=who)


def _stale_turn_over_a_pushed_undo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, str, str]:
    """Ann and bob play; bob takes his turn back and pushes the undo; cy, from a copy from before
    the undo, plays her turn. Her sync stops at the fork. Returns the table and the digests of
    cy's side and of bob's."""
    table = Table(tmp_path, monkeypatch)
    (table.home["ann"] / "games").mkdir()
    spec = ",".join(f"{n}={n}@example.org" for n in NAMES)
    table.ok("ann", "new", "-g", GAME, "--players", spec, "--seed", "7")
    table.ok("ann", "take", "white", "blue", "green")
    table.ok("ann", "sync")
    table.ok("bob", "sync")
    table.ok("bob", "take", "red", "black", "green")
    table.ok("bob", "sync")
    table.ok("cy", "sync")
    table.ok("bob", "undo")
    table.ok("bob", "sync")
    table.ok("cy", "take", "white", "red", "black")  # bob's turn still stands in cy's copy
    code, _, err = table.run("cy", "sync")
    assert code == 5 and "game forked" in err, err
    fork = split_fork((table.home["cy"] / GAME).read_bytes())
    assert fork is not None
    return table, fork.label("ours"), fork.label("theirs")


@pytest.mark.slow  # three clones, a dozen syncs
def test_resolve_refuses_the_side_the_audit_refuses_and_names_the_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`resolve --keep cy` would leave out bob's pushed undo, which only bob may withdraw: refused
    (exit 3, one line naming `--keep` of bob's side), the forked file unchanged; the side it names
    settles the fork, and sync pushes a history the audit takes."""
    table, cy_side, bob_side = _stale_turn_over_a_pushed_undo(tmp_path, monkeypatch)
    forked = (table.home["cy"] / GAME).read_bytes()
    for keep in ("cy", cy_side, "ours"):
        code, _, err = table.run("cy", "resolve", "--keep", keep)
        assert code == 3, (keep, err)
        assert f"`splendor resolve --keep {bob_side}`" in err and "undo by bob" in err
        assert len(err.strip().splitlines()) == 1
        assert (table.home["cy"] / GAME).read_bytes() == forked
    table.ok("cy", "resolve", "--keep", "bob")
    assert "pushed to origin/main" in table.ok("cy", "sync")
    assert table.run("cy", "verify", "--git", "-g", GAME)[0] == 0


@pytest.mark.slow  # three clones, a dozen syncs
def test_sync_never_commits_a_settled_merge_the_audit_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork settled the wrong way behind splendor's back (the file written as an earlier
    release's resolve wrote it): sync commits nothing, puts the fork back and names the side to
    keep; that command and sync finish it."""
    table, _, bob_side = _stale_turn_over_a_pushed_undo(tmp_path, monkeypatch)
    path = table.home["cy"] / GAME
    _, kept = gitmerge.resolve(path.read_bytes(), "cy")
    path.write_bytes(kept)
    head = table.git("cy", "rev-parse", "HEAD")
    code, _, err = table.run("cy", "sync")
    assert code == 5, err
    assert f"`splendor resolve --keep {bob_side}`" in err and "nothing committed" in err
    assert table.git("cy", "rev-parse", "HEAD") == head
    assert split_fork(path.read_bytes()) is not None  # the fork is back, for resolve
    table.ok("cy", "resolve", "--keep", bob_side)
    assert "pushed to origin/main" in table.ok("cy", "sync")


@pytest.mark.slow  # three clones, a dozen syncs
def test_sync_undoes_its_own_refused_merge_and_says_what_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stuck state of the issue: a merge commit an earlier release made, that leaves out bob's
    undo (every sync refused to push it, and resolve saw no fork). Sync undoes that merge (made by
    sync, never pushed), says so and what to run; then the fork, resolve, and sync end it."""
    table, cy_side, bob_side = _stale_turn_over_a_pushed_undo(tmp_path, monkeypatch)
    path = table.home["cy"] / GAME
    mine = table.git("cy", "rev-parse", "HEAD")
    _, kept = gitmerge.resolve(path.read_bytes(), "cy")
    path.write_bytes(kept)
    table.git("cy", "add", GAME)
    table.git("cy", "commit", "-q", "--no-edit", "--no-verify")  # what sync did before it checked
    merge = table.git("cy", "rev-parse", "HEAD")
    code, _, err = table.run("cy", "resolve", "--keep", "bob")
    assert code == 2 and "has not forked" in err and "`splendor sync` goes on from here" in err
    code, _, err = table.run("cy", "sync")
    assert code == 4, err
    assert f"sync undid its merge {merge[:8]}" in err and "run `splendor sync` again" in err
    assert table.git("cy", "rev-parse", "HEAD") == mine
    assert table.git("cy", "status", "--porcelain", "--untracked-files=no") == ""
    code, _, err = table.run("cy", "sync")
    assert code == 5 and f"keep `splendor resolve --keep {bob_side}` (the other side leaves out moves" in err
    assert "--keep " + cy_side not in err  # never offered: the audit would refuse it
    table.ok("cy", "resolve", "--keep", "bob")
    report = json.loads(table.ok("cy", "sync", "--json"))
    assert report["pushed"] is True
    table.ok("bob", "sync")
    assert table.git("bob", "rev-parse", "HEAD") == table.git("cy", "rev-parse", "HEAD")


@pytest.mark.slow
def test_a_pushed_merge_is_never_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused merge that is on the remote already is history: sync never undoes it, and every
    other clone's sync refuses to merge it (exit 4, before any merge), every time."""
    table, _, _ = _stale_turn_over_a_pushed_undo(tmp_path, monkeypatch)
    path = table.home["cy"] / GAME
    _, kept = gitmerge.resolve(path.read_bytes(), "cy")
    path.write_bytes(kept)
    table.git("cy", "add", GAME)
    table.git("cy", "commit", "-q", "--no-edit", "--no-verify")
    table.git("cy", "push", "-q", "origin", "HEAD:main")
    merge = table.git("cy", "rev-parse", "HEAD")
    code, _, err = table.run("cy", "sync")
    assert "undid" not in err
    assert table.git("cy", "rev-parse", "HEAD") == merge
    before = table.git("ann", "rev-parse", "HEAD")
    code, _, err = table.run("ann", "sync")
    assert code == 4 and "undo by bob" in err and "nothing merged" in err, err
    assert table.git("ann", "rev-parse", "HEAD") == before
    code, _, err = table.run("ann", "sync")  # and again: nothing was taken in to be forgotten
    assert code == 4 and "nothing merged, nothing pushed" in err and "undid" not in err
    assert table.git("ann", "rev-parse", "HEAD") == before
