"""The answers cache: keyed by the file's bytes and by the installed program, so that neither a
changed game file nor a changed program is ever answered from an old entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from splendor_cli.app import cache


def test_a_changed_program_changes_every_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key includes a fingerprint of the installed files: editing one (a new version, a local
    fix) gives new keys, so an answer computed by the old code is never served."""
    package = tmp_path / "splendor_cli"
    shutil.copytree(Path(cache.__file__).parent.parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_PACKAGE", str(package))
    monkeypatch.setattr(cache, "_fingerprint", None)
    before = cache._key(b"game bytes", "state")
    assert cache._key(b"game bytes", "state") == before
    assert cache._key(b"other bytes", "state") != before and cache._key(b"game bytes", "moves") != before
    rules = package / "variants" / "base" / "rules.py"
    rules.write_text(rules.read_text() + "\n# a fix\n")
    monkeypatch.setattr(cache, "_fingerprint", None)
    assert cache._key(b"game bytes", "state") != before


def test_an_entry_is_served_only_for_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """put then get returns the text for the same bytes and view, nothing for others."""
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path))
    cache.put(b"abc", "state", '{"seq": 1}\n')
    assert cache.get(b"abc", "state") == '{"seq": 1}\n'
    assert cache.get(b"abd", "state") is None and cache.get(b"abc", "moves") is None
    monkeypatch.setenv("SPLENDOR_NO_CACHE", "1")
    assert cache.get(b"abc", "state") is None
