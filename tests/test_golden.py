"""Golden files: every sample game in games/ replays to the state and log committed next to this
test (tests/__snapshots__/test_golden/, one JSON file per game, keys sorted).

A change of the rules, the fold, the file format or the views that changes what a sample game
replays to shows up here as a diff. The games are globbed: a new sample game is covered once its
snapshot is written (`pytest tests/test_golden.py --snapshot-update`, then read the new file).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from splendor_cli import store
from splendor_cli.projection.log import log_entries

GAMES = sorted((ROOT / "games").glob("*.toml"))


class JsonSnapshot(SingleFileSnapshotExtension):
    file_extension = "json"
    _write_mode = WriteMode.TEXT


@pytest.fixture
def json_snapshot(snapshot: Any) -> Any:
    return snapshot.with_defaults(extension_class=JsonSnapshot)


def golden(path: Path) -> str:
    """What the game at `path` replays to: its `state --json` view and its `log --json` entries."""
    game = store.read(path).game
    view = {
        "state": game.variant.state_json(game.seq, game.state),
        "log": [entry.to_json() for entry in log_entries(game)],
    }
    return json.dumps(view, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_there_are_sample_games() -> None:
    """The glob finds the sample games of both variants (not an empty parametrization)."""
    assert {"sample-3p.toml", "sample-duel.toml"} <= {path.name for path in GAMES}


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.stem)
def test_each_sample_game_replays_to_its_committed_state(path: Path, json_snapshot: Any) -> None:
    """The final state and the log, exactly as committed; reading changes nothing in the file."""
    before = path.read_bytes()
    assert golden(path) == json_snapshot
    assert path.read_bytes() == before
