"""`sharing.sync.sync`, the logic of `splendor sync`, in the fast tier: real git in temporary
repositories (a bare remote and a clone per player, made in milliseconds), and the user's
machine replaced by a `Local` of plain functions (nothing verified before, no key but the one a
test gives, the audit marks in a dict, no pictures).

The command that prints the result, and the real multi-clone games, are tested in the slow tier
(tests/scenarios, tests/sharing/test_audit_since.py).
"""

from __future__ import annotations

import random
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from helpers import deal
from sealed_helpers import Table
from sharing.gitrepos import commit_all, identity, init, remote_and_clones, run_git

from splendor_cli import records, store
from splendor_cli.crypto.keys import SecretKey
from splendor_cli.errors import ConflictError, ForkError, UsageError
from splendor_cli.events.codec import Header, Record, format_record
from splendor_cli.forks import split_fork
from splendor_cli.gate import Gate, Seen
from splendor_cli.projection import Game
from splendor_cli.sealing.events import RewindAgreed
from splendor_cli.sharing import gitmerge, gitsync, versions
from splendor_cli.sharing.checker import folded
from splendor_cli.sharing.gitsync import Upstream
from splendor_cli.sharing.sync import AuditRefused, Local, SyncResult, sync
from splendor_cli.variants.base.rules import choices

GAME = Path("games") / "g.toml"


@attrs.define
class Marks:
    """The audit marks, in memory (the command keeps them in the user's cache)."""

    kept: dict[tuple[str, str], str] = attrs.Factory(dict)

    def get(self, path: str, up: Upstream) -> str | None:
        return self.kept.get((path, up.ref))

    def put(self, path: str, up: Upstream, mark: str) -> None:
        self.kept[(path, up.ref)] = mark


def local(tmp_path: Path, key: SecretKey | None = None) -> Local:
    """A machine that verified nothing before, holds `key` (or none), and draws no pictures."""
    return Local(
        gate=Gate(seen=Seen(None), locks=str(tmp_path / "locks")),
        write_part=lambda loaded, me: loaded,
        key=lambda: key,
        marks=Marks(),
    )


def sync_in(clone: Path, tmp_path: Path, *, me: str = "ann", key: SecretKey | None = None) -> SyncResult:
    """Sync the game file of `clone` as `me`."""
    path = str(clone / GAME)
    repo = gitsync.locate(path)
    return sync(repo, lambda: [path], lambda loaded, where: me, local=local(tmp_path, key), file=path)


def play(clone: Path, option: int = 0) -> store.Loaded:
    """The player to move plays the legal move number `option` in the clone's game file (not committed)."""
    loaded = store.read(clone / GAME)
    return store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(option)))


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The remote and ann's and bob's clones: ann made the game and synced it, bob pulled it."""
    remote, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    (ann / GAME).parent.mkdir()
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    store.create(ann / GAME, header, deal(("ann", "bob"), random.Random(4)))
    first = sync_in(ann, tmp_path)
    assert [m.subject for m in first.made] == ["g: new game"] and first.pushed
    run_git(bob, "pull", "-q", "origin", "main", who="bob")
    return remote, ann, bob


def test_nothing_to_do(table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A clone level with its remote: no commit, no merge, no push; the game as it is."""
    remote, ann, _ = table
    tip = run_git(remote, "rev-parse", "main")
    result = sync_in(ann, tmp_path)
    assert (result.made, result.merged, result.pushed, result.drawn) == ((), (), False, ())
    assert result.remote == "origin/main"
    (game,) = result.games
    assert (game.me, game.seen, game.shared, game.loaded.game.seq) == ("ann", 1, False, 1)
    assert run_git(remote, "rev-parse", "main") == tip


def test_an_opponents_new_turn_is_pulled(table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """bob's turn, pushed by his sync, reaches ann's by a fast-forward: her file holds it, her
    sync commits and pushes nothing, and what she had seen is where the game was before it."""
    _, ann, bob = table
    play(bob)
    theirs = sync_in(bob, tmp_path, me="bob")
    assert len(theirs.made) == 1 and theirs.pushed
    result = sync_in(ann, tmp_path)
    assert (result.made, result.pushed) == ((), False)
    (game,) = result.games
    assert game.loaded.game.seq == 2 and game.seen == 1 and not game.shared
    assert (ann / GAME).read_bytes() == (bob / GAME).read_bytes()


def test_my_turn_is_committed_and_pushed(table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """ann's move, in her file only: one commit with the standard subject, pushed, audited once
    (the mark kept); the game is read and replayed once (the version before the move, which the
    audit needs, is folded back from it)."""
    remote, ann, _ = table
    play(ann)
    replays: list[int] = []
    real = records.replay_record

    def counted(record: Record, trusted: int = 0) -> Game:
        replays.append(len(record.events))
        return real(record, trusted)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records, "replay_record", counted)  # store.read's
        patch.setattr(versions, "replay_record", counted)  # the audit's
        result = sync_in(ann, tmp_path)
    (made,) = result.made
    assert made.subject.startswith("g #2 ann: ") and (made.first, made.last) == (2, 2)
    assert result.pushed and run_git(remote, "rev-parse", "main") == made.commit
    (game,) = result.games
    assert game.shared and game.seen == 1 and game.loaded.game.seq == 2
    assert replays == [2]  # the file as read first; the audit reuses it, and the version before it


def test_a_fork_is_reported(table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """ann and bob each played ann's turn from the same position: bob pushed first, ann's sync
    merges by events, finds the fork, and stops with a ForkError saying how to settle it."""
    remote, ann, bob = table
    gitmerge.install(ann, shlex.join([sys.executable, "-m", "splendor_cli"]), private=True)
    play(bob, 0)
    assert sync_in(bob, tmp_path, me="bob").pushed
    tip = run_git(remote, "rev-parse", "main")
    play(ann, 1)
    with pytest.raises(ForkError, match="then `splendor sync` again"):
        sync_in(ann, tmp_path)
    assert run_git(remote, "rev-parse", "main") == tip  # nothing pushed
    assert gitsync.under_way(gitsync.locate(ann / GAME)) == "merge"


def test_a_history_that_breaks_the_audit_is_not_pushed(table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """Two turns in one commit (made by hand): the audit refuses it before the push, with its
    report for a person, and the remote stays where it was."""
    remote, ann, _ = table
    tip = run_git(remote, "rev-parse", "main")
    play(ann)
    play(ann)
    commit_all(ann, "ann", "two turns")
    with pytest.raises(AuditRefused, match="nothing pushed") as refused:
        sync_in(ann, tmp_path)
    assert "first bad commit" in refused.value.details and "two turns" in refused.value.details
    assert run_git(remote, "rev-parse", "main") == tip


def test_an_unreachable_remote_is_a_usage_error(table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """The remote gone: the turn is committed here, the fetch fails and says so in one line."""
    _, ann, _ = table
    run_git(ann, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    play(ann)
    with pytest.raises(UsageError, match=r"^git fetch origin: "):
        sync_in(ann, tmp_path)
    assert run_git(ann, "log", "-1", "--format=%s").startswith("g #2 ann: ")


def test_offline_and_without_a_remote_it_only_commits(tmp_path: Path) -> None:
    """No remote: the new turns are committed one per commit, nothing is fetched or pushed."""
    clone = init(tmp_path / "alone")
    identity(clone, "ann")
    (clone / GAME).parent.mkdir()
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    store.create(clone / GAME, header, deal(("ann", "bob"), random.Random(4)))
    play(clone)
    result = sync_in(clone, tmp_path)
    assert [m.last for m in result.made] == [1, 2] and result.upstream is None and not result.pushed


# -- a sealed game: a merge that leaves out a side of a fork ------------------------------------


@attrs.frozen
class Fork:
    """A sealed game forked at `common` events: bob's side (main) and ann's (stale)."""

    bobs: bytes
    anns: bytes
    common: bytes
    keys: dict[str, SecretKey]


@pytest.fixture(scope="module")
def sealed_fork() -> Fork:
    table = Table.new("base", 2, 5).deal()
    for _ in range(3):
        table.step()
    table.duty_round()  # nothing owed at the fork: each side holds one player's events only
    common = format_record(table.record).encode()
    stale = table.fork()
    table.play(table.random_move())
    stale.add(RewindAgreed(seq=0, parent="", player="ann", to=stale.game.after[-2]), "ann")
    return Fork(
        bobs=format_record(table.record).encode(),
        anns=format_record(stale.record).encode(),
        common=common,
        keys=dict(table.keys),
    )


@pytest.fixture
def merging(sealed_fork: Fork, tmp_path: Path) -> Callable[[], Path]:
    """ann's clone with a merge under way that keeps bob's side and leaves hers out (`resolve`)."""

    def make() -> Path:
        clone = init(tmp_path / "clone")
        identity(clone, "ann")
        (clone / GAME).parent.mkdir()
        (clone / GAME).write_bytes(sealed_fork.common)
        commit_all(clone, "ann", "the game to the fork")
        run_git(clone, "branch", "stale")
        (clone / GAME).write_bytes(sealed_fork.bobs)
        commit_all(clone, "bob", "bob's turn")
        run_git(clone, "checkout", "-q", "stale")
        (clone / GAME).write_bytes(sealed_fork.anns)
        commit_all(clone, "ann", "ann's agreement")
        run_git(clone, "merge", "-q", "--no-commit", "-s", "ours", "main")
        (clone / GAME).write_bytes(sealed_fork.bobs)
        return clone

    return make


def test_a_sealed_merge_leaving_out_another_players_events_is_refused(
    merging: Callable[[], Path], sealed_fork: Fork, tmp_path: Path
) -> None:
    """bob's key may not conclude a merge that leaves out ann's signed events: refused, nothing
    committed, the forked file put back for `resolve` (no git command needed); ann's key
    concludes it, with her signed consent in the merge's message."""
    clone = merging()
    with pytest.raises(ConflictError, match=r"which only ann may withdraw .*\(the fork is back: `splendor resolve"):
        sync_in(clone, tmp_path, me="bob", key=sealed_fork.keys["bob"])
    assert gitsync.under_way(gitsync.locate(clone / GAME)) == "merge"
    assert split_fork((clone / GAME).read_bytes()) is not None
    (clone / GAME).write_bytes(sealed_fork.bobs)  # ann keeps bob's side, as resolve writes it
    result = sync_in(clone, tmp_path, me="ann", key=sealed_fork.keys["ann"])
    assert gitsync.under_way(gitsync.locate(clone / GAME)) is None and result.upstream is None
    assert "Splendor-Withdrawn-By: ann " in run_git(clone, "log", "-1", "--format=%B")


def test_a_version_folded_back_is_the_version_read(tmp_path: Path) -> None:
    """`checker.folded`, how the audit starts from the file before mine without replaying it: the
    first events of a version read, folded again, are what reading their bytes gives; a size that
    ends inside an event gives nothing."""
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    loaded = store.create(tmp_path / "g.toml", header, deal(("ann", "bob"), random.Random(4)))
    files = [loaded.data]
    for _ in range(4):
        loaded = store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))
        files.append(loaded.data)
    whole = versions.read_version(files[-1])
    for data in files[:-1]:
        found = folded(whole, files[-1], len(data))
        read = versions.read_version(data)
        assert found is not None and (found.record, found.game) == (read.record, read.game)
        assert found.record.digests == read.record.digests
    assert folded(whole, files[-1], len(files[1]) - 1) is None
    assert folded(whole, files[-1], 10) is None  # inside the header
