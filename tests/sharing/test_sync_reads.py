"""How `splendor sync` reads its game files once: a file that still holds the bytes it read is not
read again, one fast-forwarded is read by its new events alone (`versions.extend_read`, as
`store.read` reads it), and `commit_turns` counts the committed events without a second parse."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import deal, git
from sealed_helpers import Table

from splendor_cli import store
from splendor_cli.app.services import cache
from splendor_cli.errors import GameFileError, SplendorError
from splendor_cli.events.codec import Header, format_event, format_record
from splendor_cli.sharing import gitsync
from splendor_cli.sharing.sync import Reads, trusting
from splendor_cli.sharing.versions import extend_read
from splendor_cli.variants.base.rules import choices

pytestmark = pytest.mark.usefixtures("git_installed")


def _open_game(path: Path, turns: int) -> store.Loaded:
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    loaded = store.create(path, header, deal(("ann", "bob"), random.Random(4)))
    for _ in range(turns):
        loaded = store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))
    return loaded


def _sealed_bytes(steps: int) -> list[bytes]:
    """A sealed game's file after the deal and after each of `steps` moves."""
    table = Table.new("base", 2, 7).deal()
    files = [format_record(table.record).encode()]
    for _ in range(steps):
        table.step()
        files.append(format_record(table.record).encode())
    return files


def test_extend_read_reads_as_store_read(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    before = _open_game(path, 2)
    after = _open_game(tmp_path / "h.toml", 5)
    record, game = extend_read(before, after.data)
    whole = store.from_bytes(path, after.data)
    assert (record, game) == (whole.record, whole.game)
    assert record.digests == whole.record.digests
    files = _sealed_bytes(3)
    first = store.from_bytes(path, files[1])
    record, game = extend_read(first, files[3], lambda r: 0)
    whole = store.from_bytes(path, files[3])
    assert (record, game) == (whole.record, whole.game)
    with pytest.raises(GameFileError, match="does not extend"):
        extend_read(whole, files[1])
    with pytest.raises(SplendorError):
        extend_read(first, files[1] + b"\n[[events]]\ntype = 'nonsense'\n")


def test_a_sync_reads_a_file_again_only_when_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.toml"
    files = _sealed_bytes(3)
    path.write_bytes(files[1])
    reads: list[str] = []
    real = store.read
    monkeypatch.setattr(store, "read", lambda p, t=None: reads.append(str(p)) or real(p, t))
    read = Reads(cache.verified_prefix)
    first = read(str(path))
    assert read(str(path)) is first and len(reads) == 1  # the same bytes: not read again
    path.write_bytes(files[3])  # a fast-forward: the new events alone
    extended = read(str(path))
    assert len(reads) == 1 and extended.data == files[3]
    assert (extended.record, extended.game) == (lambda w: (w.record, w.game))(real(path))
    path.write_bytes(files[2])  # cut: read whole
    assert read(str(path)).data == files[2] and len(reads) == 2
    assert [loaded.data for loaded in read.known[str(path)]] == [files[1], files[3], files[2]]


def test_commit_turns_counts_what_is_committed_without_parsing_it_again(tmp_path: Path) -> None:
    """The committed file ends where an event's block ends (as sync writes it), or not (a note
    without a line break, added by hand): the new events alone are committed either way."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "ann")  # the repository's own identity: none is configured (conftest)
    git(repo, "config", "user.email", "ann@example.org")
    path = repo / "g.toml"
    loaded = _open_game(path, 2)
    where = gitsync.locate(path)
    assert [(m.first, m.last) for m in gitsync.commit_turns(where, loaded)] == [(1, 1), (2, 2), (3, 3)]
    later = store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))
    assert [(m.first, m.last) for m in gitsync.commit_turns(where, later)] == [(4, 4)]
    noted = later.data + b"# a note"
    path.write_bytes(noted)
    with_note = store.read(path)
    assert [(m.first, m.last) for m in gitsync.commit_turns(where, with_note)] == [(4, 4)]  # the note alone
    event = with_note.game.decide(choices(with_note.game.state).move(0))
    staged = store.stage(with_note, event)
    data = noted + b"\n" + format_event(staged.record.events[-1]).encode()
    path.write_bytes(data)
    assert [(m.first, m.last) for m in gitsync.commit_turns(where, store.read(path))] == [(5, 5)]
    assert gitsync.committed(where) == data


def test_the_events_a_sync_read_are_trusted_by_its_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the audit before the push and the withdrawals of a sealed merge need not check again:
    the events this user verified before (the cache), and those of the files this sync read, as
    far as a record's events are theirs (by full digests); nothing of an open game."""
    monkeypatch.setenv("SPLENDOR_NO_CACHE", "1")
    files = _sealed_bytes(4)
    read = [store.from_bytes(tmp_path / "g.toml", files[2])]
    trusted = trusting(read, cache.verified_prefix)
    for data in files:
        record = store.from_bytes(tmp_path / "g.toml", data).record
        assert trusted(record) == min(len(record.events), len(read[0].record.events))
    other = Table.new("base", 2, 8).deal()  # another game: nothing in common
    assert trusted(other.record) == 0
    opened = _open_game(tmp_path / "o.toml", 3)
    assert trusting([opened], cache.verified_prefix)(opened.record) == 0
