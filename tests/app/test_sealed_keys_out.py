"""A finished sealed game whose keys are out is never played again with them: a copy of it
without your published keys (an older copy, or the game replayed by someone to make your
derived game keys sign and open cards again) is refused by `seal` and `play`, and skipped by
`sync` and `apply`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sealed_helpers import Table

from splendor_cli.events.codec import Record, format_record
from splendor_cli.sealing.events import KeysPublished


def _splendor(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "SPLENDOR_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "splendor_cli", *args], env=env, cwd=home, capture_output=True, text=True, timeout=60
    )


def test_a_copy_of_a_game_whose_keys_you_published_is_refused(tmp_path: Path) -> None:
    """ann publishes her keys of a finished game with `seal`; the file cut back to before that
    (what a replay of the finished game would hand her) is refused by `seal` (exit 3, naming
    why), unchanged; the whole file still reads and `seal` has nothing to do in it."""
    table = Table.new("base", 2, 5).deal()
    while not table.state.finished:
        table.step()
    table.add(next(e for e in table.duties("bob") if isinstance(e, KeysPublished)), "bob")
    before = table.record
    ann = tmp_path / "ann"
    ann.mkdir()
    table.install_keys("ann", ann / "data" / "splendor-cli" / "keys")
    game = ann / "g.toml"
    game.write_text(format_record(before), encoding="utf-8")
    done = _splendor(ann, "seal", "-g", str(game))
    assert done.returncode == 0, done.stderr
    assert "publishes their keys" in done.stdout
    assert (ann / "data" / "splendor-cli" / "keys" / "published").read_text().strip() == table.sealing.root.hex()
    again = _splendor(ann, "seal", "-g", str(game))
    assert again.returncode == 0 and "nothing to do" in again.stdout
    older = ann / "older.toml"
    older.write_text(format_record(Record(header=before.header, events=before.events)), encoding="utf-8")
    data = older.read_bytes()
    refused = _splendor(ann, "seal", "-g", str(older))
    assert refused.returncode == 3, refused.stderr
    assert "you published your keys of this game already" in refused.stderr
    assert older.read_bytes() == data
