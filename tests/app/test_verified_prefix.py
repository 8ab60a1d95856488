"""The cache of what this user verified of a sealed game: it saves checking the same signatures
and proofs again, and never lets an event through unchecked that was not verified before."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import attrs
import pytest
from sealed_helpers import Table

from splendor_cli import store
from splendor_cli.app.services import cache
from splendor_cli.errors import GameFileError
from splendor_cli.events.codec import FORMAT, format_record, parse
from splendor_cli.variants import event_types


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPLENDOR_CACHE": str(tmp / "cache"), "SPLENDOR_NO_MEMORY": "1", "HOME": str(tmp)}
    env.pop("SPLENDOR_NO_CACHE", None)
    return subprocess.run(
        [sys.executable, "-m", "splendor_cli", *args], env=env, cwd=tmp, capture_output=True, text=True, timeout=60
    )


def _game(tmp: Path, fmt: int = FORMAT) -> tuple[Path, str]:
    """A sealed game of 6 moves after the deal, in a file of format `fmt`."""
    table = Table.new("base", 2, 9, fmt=fmt).deal()
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
    sigs = list(re.finditer(r"""sig = ['"]([0-9a-f]{128})['"]""", text))
    last = sigs[-1]
    flipped = ("0" if last.group(1)[0] != "0" else "1") + last.group(1)[1:]
    path.write_text(text[: last.start(1)] + flipped + text[last.end(1) :], encoding="utf-8")
    done = _run(tmp_path, "show", "-g", str(path))
    assert done.returncode == 4, done.stderr
    assert "signature" in done.stderr and f"event #{len(parse(text, event_types).events)}" in done.stderr


class _Colliding:
    """SHA-256 as the codec sees it (`digest.sha256`), but with a 64-bit collision: the canonical JSON `forged`
    hashes to a SHA-256 whose first 16 hex digits are those of `twin` (its last 48 differ)."""

    def __init__(self, forged: bytes, twin: str) -> None:
        self.forged, self.twin = forged, twin

    def sha256(self, data: bytes = b"") -> Any:
        import hashlib

        real = hashlib.sha256(data)
        if data != self.forged:
            return real
        full = self.twin[:16] + real.hexdigest()[16:]
        return types.SimpleNamespace(hexdigest=lambda: full, digest=lambda: bytes.fromhex(full))


def collide(monkeypatch: pytest.MonkeyPatch, forged: Any, twin: Any) -> None:
    """Make the event `forged` collide with the event `twin` on the chain's 16 hex digits."""
    from splendor_cli.events import codec

    def canonical(event: Any) -> bytes:
        raw = codec.event_to_dict(event)
        return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

    real = hashlib.sha256(canonical(twin)).hexdigest()
    monkeypatch.setattr(codec, "sha256", _Colliding(canonical(forged), real).sha256)
    assert codec.event_digest(forged) == codec.event_digest(twin)


def test_a_64_bit_collision_does_not_pass_an_unverified_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who finds two of his events with the same 16 hex digits (the chain's link of a file
    older than format 4) swaps one for the other after a reader verified the first: the chain still
    links, but the cache compares the full SHA-256, so the swapped event (and all after it) is
    checked: its forged signature is refused."""
    path, text = _game(tmp_path, fmt=3)
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("SPLENDOR_NO_CACHE", raising=False)
    record = parse(text, event_types)
    middle = len(record.events) - 3  # an event in the middle: the chain goes on after it
    twin = record.events[middle - 1]
    assert twin.sig
    forged = attrs.evolve(twin, sig=("0" if twin.sig[0] != "0" else "1") + twin.sig[1:])
    collide(monkeypatch, forged, twin)
    cache.remember_verified(store.read(path, cache.verified_prefix))
    assert cache.verified_prefix(parse(text, event_types)) == len(record.events)
    swapped = attrs.evolve(record, events=(*record.events[: middle - 1], forged, *record.events[middle:]))
    path.write_text(format_record(swapped), encoding="utf-8")
    assert cache.verified_prefix(parse(format_record(swapped), event_types)) == middle - 1
    with pytest.raises(GameFileError, match=f"event #{middle}.*signature"):
        store.read(path, cache.verified_prefix)


def test_digests_of_an_older_release_are_nothing_known(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry of 16-digit digests (as an earlier release wrote them) vouches for nothing: the
    verified prefix is only a speed cache, and the next read writes full digests."""
    path, text = _game(tmp_path, fmt=3)
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("SPLENDOR_NO_CACHE", raising=False)
    record = parse(text, event_types)
    short = [event.parent for event in record.events[1:]] + [record.head]
    cache.put(cache._game_key(record), cache._VERIFIED, " ".join(short) + "\n")
    assert cache.verified_prefix(record) == 0
    cache.remember_verified(store.read(path))
    assert cache.verified_prefix(record) == len(record.events)
