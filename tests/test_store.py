"""The file store: appends that never rewrite earlier bytes, atomic writes, stale-copy refusal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import deal

from splendor_cli import store
from splendor_cli.errors import ConflictError, UsageError
from splendor_cli.events.codec import Header
from splendor_cli.model import Tokens
from splendor_cli.variants.base.rules import Move


def _new(path: Path) -> store.Loaded:
    import random

    header = Header(game="t", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    return store.create(path, header, deal(("ann", "bob"), random.Random(3)))


def test_append_only_adds_bytes_at_the_end(tmp_path: Path) -> None:
    """Each turn appends one [[events]] block; every earlier byte stays where it was."""
    loaded = _new(tmp_path / "g.toml")
    before = Path(loaded.path).read_bytes()
    after = store.append(loaded, loaded.game.decide(Move(action="take", gems=Tokens.of(red=2))))
    data = Path(after.path).read_bytes()
    assert data.startswith(before)
    assert data[len(before) :].decode().lstrip("\n").startswith('[[events]]\ntype = "tokens_taken"')
    assert store.read(after.path).record.events == after.record.events


def test_a_failed_write_leaves_the_old_file_and_no_debris(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash between writing the new file and renaming it leaves the old file, byte for byte."""
    loaded = _new(tmp_path / "g.toml")
    before = Path(loaded.path).read_bytes()

    def crash(src: str, dst: str) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk on fire"):
        store.append(loaded, loaded.game.decide(Move(action="take", gems=Tokens.of(red=2))))
    assert Path(loaded.path).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.toml"]


def test_a_file_changed_since_it_was_read_is_a_conflict(tmp_path: Path) -> None:
    """Two writers: the one whose copy is stale gets ConflictError (exit 5), and writes nothing."""
    first = _new(tmp_path / "g.toml")
    second = store.read(first.path)
    store.append(first, first.game.decide(Move(action="take", gems=Tokens.of(red=2))))
    landed = Path(first.path).read_bytes()
    with pytest.raises(ConflictError) as caught:
        store.append(second, second.game.decide(Move(action="take", gems=Tokens.of(blue=2))))
    assert caught.value.exit_code == 5
    assert Path(first.path).read_bytes() == landed


def test_a_staged_move_is_written_as_staged_and_judged_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Staging gives the next file's bytes and game; `write` writes those very bytes without judging
    the moves again (the rules are not consulted), and the file reads back as the staged game."""
    loaded = _new(tmp_path / "g.toml")
    staged = store.stage(loaded, loaded.game.decide(Move(action="take", gems=Tokens.of(red=2))))
    staged = store.stage(staged, staged.game.decide(Move(action="take", gems=Tokens.of(blue=2))))
    assert staged.read == loaded.data and staged.data.startswith(loaded.data)
    assert Path(loaded.path).read_bytes() == loaded.data  # nothing written yet
    variant = type(loaded.game.variant)

    def judged(*args: object, **kwargs: object) -> None:
        raise AssertionError("judged again")

    monkeypatch.setattr(variant, "decide", judged)
    monkeypatch.setattr(variant, "evolve", judged)
    written = store.write(staged)
    monkeypatch.undo()
    assert Path(loaded.path).read_bytes() == staged.data == written.data == written.read
    assert written.record.digests == store.read(loaded.path).record.digests
    assert store.read(loaded.path).game.state == written.game.state


def test_a_staged_move_on_a_file_changed_since_is_a_conflict(tmp_path: Path) -> None:
    """`write` checks that the file holds the bytes the staging started from: another writer's move
    in between makes it a conflict (exit 5), and nothing is written."""
    loaded = _new(tmp_path / "g.toml")
    staged = store.stage(loaded, loaded.game.decide(Move(action="take", gems=Tokens.of(red=2))))
    store.append(store.read(loaded.path), loaded.game.decide(Move(action="take", gems=Tokens.of(blue=2))))
    landed = Path(loaded.path).read_bytes()
    with pytest.raises(ConflictError, match="changed while this move was being made"):
        store.write(staged)
    assert Path(loaded.path).read_bytes() == landed


def test_create_refuses_an_existing_file(tmp_path: Path) -> None:
    """A new game never replaces an existing file, even one that is not a game."""
    path = tmp_path / "g.toml"
    path.write_text("precious = true\n")
    with pytest.raises(UsageError, match="exists already"):
        _new(path)
    assert path.read_text() == "precious = true\n"
