"""Shared fixtures: a clean environment for every test, TOML snapshots, and hypothesis profiles."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

if TYPE_CHECKING:
    from child import Child

# -- hypothesis profiles -----------------------------------------------------------------------
#
# Example counts come from the profile named by HYPOTHESIS_PROFILE (default `dev`); a test whose
# examples cost more (or less) than most asks for a share of the profile's count
# (`helpers.examples(fraction)`), never for a number of its own.
#
# Both profiles: no deadline. An example plays or replays whole games (a few milliseconds to a
# few tenths of a second, varying with the load of a shared two-core machine): a deadline would
# report the load, not a regression. The fuzz tests run their loads in a child process (child.py),
# so that a load that never returns fails the test.
#
# dev (a developer's run): few examples, so that the fast tier stays within a minute, and
# random ones: each run explores new games, and a failure is saved in .hypothesis/ and tried
# first on the next run.
#
# ci (the default when $CI is set, as on CI): five times as many examples, derandomized: the
# examples are a function of the tests and the hypothesis version, so a red CI is never luck on
# an unrelated change, and
# `HYPOTHESIS_PROFILE=ci pytest ...` reproduces it anywhere. No example database (nothing to
# keep between CI runs), and a failure prints the blob that replays it.
settings.register_profile("dev", max_examples=15, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True, database=None, print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
"""HYPOTHESIS_PROFILE when set; else `ci` on CI (which sets CI=true), `dev` elsewhere."""
settings.load_profile(PROFILE)


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {PROFILE} ({settings().max_examples} examples)"


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
    # The memory of seen games (gate/memory.py) is off but in its own tests: most tests rewrite
    # the same file on purpose; the memory would refuse every rewrite after the first read.
    monkeypatch.setenv("SPLENDOR_NO_MEMORY", "1")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def git_installed() -> None:
    """git is on PATH (the sharing tests and scenarios run it for real); else the test fails in one line."""
    from helpers import require_program

    require_program("git")


@pytest.fixture
def bash_installed() -> None:
    """bash is on PATH (the completion script is sourced in it); else the test fails in one line."""
    from helpers import require_program

    require_program("bash")


@pytest.fixture(scope="module")
def _child_process() -> Iterator[Child]:
    """One child process for a module's tests (child.py), stopped after them."""
    from child import Child

    with Child() as process:
        yield process


@pytest.fixture
def child(_child_process: Child) -> Child:
    """The module's child process, this test's clock started: it may wait PATIENCE seconds in all."""
    _child_process.start_clock()
    return _child_process


class TomlSnapshot(SingleFileSnapshotExtension):
    file_extension = "toml"
    _write_mode = WriteMode.TEXT


@pytest.fixture
def toml_snapshot(snapshot):  # type: ignore[no-untyped-def]
    return snapshot.with_defaults(extension_class=TomlSnapshot)
