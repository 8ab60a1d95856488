"""Shared fixtures: a clean environment for every test, and TOML snapshots."""

from __future__ import annotations

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

_COLOUR_FORCING = ("FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TERM")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No colour, a fixed width, no player or game from the environment, a private cache and secrets."""
    for name in (*_COLOUR_FORCING, "SPLENDOR_PLAYER", "SPLENDOR_GAME", "SPLENDOR_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("SPLENDOR_SECRETS", str(tmp_path_factory.mktemp("secrets")))


class TomlSnapshot(SingleFileSnapshotExtension):
    file_extension = "toml"
    _write_mode = WriteMode.TEXT


@pytest.fixture
def toml_snapshot(snapshot):  # type: ignore[no-untyped-def]
    return snapshot.with_defaults(extension_class=TomlSnapshot)
