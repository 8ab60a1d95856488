"""The cache of what this user verified of a sealed game: it saves checking the same signatures
and proofs again, and never lets an event through unchecked that was not verified before."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sealed_helpers import Table

from splendor_cli import store
from splendor_cli.app import cache
from splendor_cli.events.codec import format_record, parse
from splendor_cli.variants import event_types


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPLENDOR_CACHE": str(tmp / "cache"), "SPLENDOR_NO_MEMORY": "1", "HOME": str(tmp)}
    env.pop("SPLENDOR_NO_CACHE", None)
    return subprocess.run(
        [sys.executable, "-m", "splendor_cli", *args], env=env, cwd=tmp, capture_output=True, text=True, timeout=60
    )


def _game(tmp: Path) -> tuple[Path, str]:
    table = Table.new("base", 2, 9).deal()
    for _ in range(6):
        table.step()
    text = format_record(table.record)
    path = tmp / "g.toml"
    path.write_text(text, encoding="utf-8")
    return path, text


def test_a_game_read_before_is_trusted_up_to_what_was_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a whole read, the whole chain is known verified; a copy that is one event shorter
    shares all but the last; another game shares nothing. (In this process: the cache's key
    names the program read, which a subprocess may load from another place.)"""
    path, text = _game(tmp_path)
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("SPLENDOR_NO_CACHE", raising=False)
    cache.remember_verified(store.read(path))
    record = parse(text, event_types)
    assert cache.verified_prefix(record) == len(record.events)
    shorter = type(record)(header=record.header, events=record.events[:-1])
    assert cache.verified_prefix(shorter) == len(record.events) - 1
    other = parse(format_record(Table.new("base", 2, 10).deal().record), event_types)
    assert cache.verified_prefix(other) == 0


def test_a_forged_signature_is_refused_even_with_the_cache_warm(tmp_path: Path) -> None:
    """The last event's signature altered after the game was read (and its chain is still whole:
    no event follows it): its digest is not one verified before, so it is checked, and refused."""
    path, text = _game(tmp_path)
    assert _run(tmp_path, "show", "-g", str(path)).returncode == 0
    sigs = list(re.finditer(r'sig = "([0-9a-f]{128})"', text))
    last = sigs[-1]
    flipped = ("0" if last.group(1)[0] != "0" else "1") + last.group(1)[1:]
    path.write_text(text[: last.start(1)] + flipped + text[last.end(1) :], encoding="utf-8")
    done = _run(tmp_path, "show", "-g", str(path))
    assert done.returncode == 4, done.stderr
    assert "signature" in done.stderr and f"event #{len(parse(text, event_types).events)}" in done.stderr
