"""A Duel travels like a base game: the merge driver, `resolve`, and mailed move blocks."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import DUEL, deal_duel

from splendor_cli import store
from splendor_cli.errors import ConflictError
from splendor_cli.events.codec import Header
from splendor_cli.sharing import gitmerge, inbox, mail
from splendor_cli.variants.duel.notation import parse_steps


def find_blocks(data: str | bytes) -> list[mail.MoveBlock]:
    """The blocks of a mail for a game of Duel (`splendor apply` reads them so)."""
    return mail.find_blocks(data, DUEL)


def format_block(game: str, events: list[Any]) -> str:
    return mail.format_block(game, events, DUEL)


def _new(path: Path) -> store.Loaded:
    header = Header(game="d", variant="duel", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    return store.create(path, header, deal_duel(("ann", "bob"), random.Random(2)))


def _play(loaded: store.Loaded, text: str) -> store.Loaded:
    """Play the steps of `text` for whoever is to move, as `splendor play` does."""
    for step in parse_steps(text):
        loaded = store.append(loaded, loaded.game.decide(step))
    return loaded


def _copies(tmp_path: Path, *branches: str) -> tuple[bytes, ...]:
    base = _play(_new(tmp_path / "base.toml"), "take b2 c3 d4")
    out = [base.data]
    for i, steps in enumerate(branches):
        path = tmp_path / f"copy{i}.toml"
        path.write_bytes(base.data)
        out.append(_play(store.read(path), steps).data)
    return tuple(out)


def test_one_side_extending_the_other_fast_forwards(tmp_path: Path) -> None:
    """bob's privilege on one side, the privilege and his take on the other: the longer side is kept."""
    base, ours, theirs = _copies(tmp_path, "privilege a1", "privilege a1; take a2 a3")
    result = gitmerge.merge(base, ours, theirs)
    assert (result.data, result.conflict) == (theirs, False)


def test_two_different_steps_fork_and_resolve_keeps_one(tmp_path: Path) -> None:
    """Two legal steps after one event: a conflict naming both, a forked file read as exit 5, and
    `resolve` keeps the chosen side byte for byte."""
    base, ours, theirs = _copies(tmp_path, "take a2 a3", "privilege a1; take a2 a3")
    result = gitmerge.merge(base, ours, theirs)
    assert result.conflict
    assert "bob's 'take a2 a3 (red black)' (#3) [" in result.message
    assert "bob's 'privilege a1 (green)' (#3) and 1 more event [" in result.message
    path = tmp_path / "forked.toml"
    path.write_bytes(result.data)
    with pytest.raises(ConflictError):
        store.read(path)
    assert gitmerge.resolve(result.data, "theirs") == ("theirs", theirs)


def test_a_turn_of_steps_travels_by_mail(tmp_path: Path) -> None:
    """bob's turn of two steps goes out as one block of two events; ann's copy ends byte for byte equal."""
    mine = _play(_new(tmp_path / "mine.toml"), "take b2 c3 d4")
    theirs_path = tmp_path / "theirs.toml"
    theirs_path.write_bytes(mine.data)
    mine = _play(mine, "privilege a1; take a2 a3")
    text = mail.export_text(mine.record, last=2)
    assert "player: bob\nmove: privilege a1 (green)\n" in text and "move: take a2 a3 (red black)\n" in text
    theirs = store.read(theirs_path)
    outcome = inbox.apply_blocks(theirs.record, theirs.game, find_blocks(text))
    assert outcome.message == "applied #3 bob: privilege a1 (green)\napplied #4 bob: take a2 a3 (red black)"
    theirs = store.append(theirs, *outcome.events)
    assert theirs_path.read_bytes() == Path(mine.path).read_bytes()
