"""The fast path (entry.py) serves `state --json` and `moves --json` from the cache only where the
command itself would answer: never for a copy rolled back behind what this user saw."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SPLENDOR = [sys.executable, "-c", "from splendor_cli.app.entry import main; main()"]


def _splendor(env: dict[str, str], *args: object) -> subprocess.CompletedProcess[str]:
    """`splendor ARGS` through the console entry point (its fast path), in a process of its own."""
    return subprocess.run([*SPLENDOR, *map(str, args)], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", ["moves", "state"])
def test_a_rolled_back_copy_is_not_served_from_the_cache(tmp_path: Path, command: str) -> None:
    """The answers for the first copy are cached; the user then sees a turn more; the file put
    back as it was is refused by the command (behind what was seen), and so by the fast path,
    which does not print the answer it cached for those very bytes."""
    env = {**os.environ, "SPLENDOR_CACHE": str(tmp_path / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("SPLENDOR_NO_MEMORY", None)
    env.pop("SPLENDOR_NO_CACHE", None)
    path = tmp_path / "g.toml"
    assert _splendor(env, "new", "-g", path, "--players", "ann,bob", "--seed", 1).returncode == 0
    first = _splendor(env, command, "-g", path, "--json")
    assert first.returncode == 0, first.stderr
    assert _splendor(env, command, "-g", path, "--json").stdout == first.stdout  # now cached
    before = path.read_bytes()
    assert _splendor(env, "take", "white", "blue", "green", "-g", path).returncode == 0
    assert _splendor(env, "state", "-g", path, "--json").returncode == 0  # seen
    path.write_bytes(before)
    shown = _splendor(env, "show", "-g", path)
    assert shown.returncode != 0
    again = _splendor(env, command, "-g", path, "--json")
    assert (again.returncode, again.stdout) == (shown.returncode, "")
    assert again.stderr.count("\n") == 1 and path.read_bytes() == before
