"""`verify --git` over a long history is linear: each commit's version is parsed by what it adds
(with or without a final newline), and the walk holds a few versions, never the whole history.
How long it takes at scale is measured in bench/verify_git.py (docs/performance.md), not here."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import cli, deal
from sharing.gitrepos import commit_all

from splendor_cli import store
from splendor_cli.events.codec import Header
from splendor_cli.sharing import git_audit as audit
from splendor_cli.sharing import history, versions
from splendor_cli.sharing.checker import Checker
from splendor_cli.variants.base.rules import choices

pytestmark = pytest.mark.usefixtures("git_installed")

GAME = Path("games") / "g.toml"
TURNS = 24


def _history(repo: Path, *, final_newline: bool) -> None:
    """A game of TURNS turns, one commit each (every version without its final newline, if asked)."""
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-05T00:00:00Z")
    loaded = store.create(repo / GAME, header, deal(("ann", "bob"), random.Random(5)))
    path = repo / GAME
    for turn in range(TURNS + 1):
        data = loaded.data if final_newline else loaded.data.rstrip(b"\n")
        path.write_bytes(data)
        commit_all(repo, "ann", f"turn {turn}")
        loaded = store.stage(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))


@pytest.mark.parametrize("final_newline", [True, False], ids=["newline", "no-final-newline"])
def test_each_commit_is_parsed_by_what_it_adds(
    repo: Path, monkeypatch: pytest.MonkeyPatch, final_newline: bool
) -> None:
    """The whole text is parsed once (the first version); every later version is read by its new
    event alone, whether or not the file ends with a newline (it was parsed whole each time
    without one: quadratic)."""
    _history(repo, final_newline=final_newline)
    whole: list[int] = []
    real = versions.parse_text

    def counted(text: str) -> Any:
        whole.append(len(text))
        return real(text)

    monkeypatch.setattr(versions, "parse_text", counted)
    report = audit.git_report(repo / GAME)
    assert report["ok"], report["bad"]
    assert report["commits"] == TURNS + 1
    assert len(whole) == 1


def test_the_walk_holds_a_few_versions(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Versions are read from git a batch at a time and let go once no later commit needs them:
    the walk never holds the whole history (it held every version's bytes and replay: 4 GB at
    6,000 commits)."""
    _history(repo, final_newline=True)
    held: list[int] = []
    fetched: list[int] = []

    class Watched(Checker):
        def check(self, *args: Any, **kwargs: Any) -> str | None:
            held.append(len(self.read))
            return super().check(*args, **kwargs)

    real = history.blob_contents

    def contents(repo_: history.FileRepo, oids: list[str]) -> dict[str, bytes]:
        fetched.append(len(oids))
        return real(repo_, oids)

    monkeypatch.setattr(audit, "Checker", Watched)
    monkeypatch.setattr(history, "blob_contents", contents)
    monkeypatch.setattr(history, "BATCH_BYTES", 1, raising=False)  # one version a batch
    report = audit.git_report(repo / GAME)
    assert report["ok"], report["bad"]
    assert max(held) <= 2
    assert max(fetched) == 1 and sum(fetched) == TURNS + 1  # each version read once


def test_a_history_without_final_newlines_verifies(repo: Path) -> None:
    """Through the command: the same history, each version lacking its final newline, is good."""
    _history(repo, final_newline=False)
    code, out, err = cli("verify", "--git", "-g", str(repo / GAME))
    assert code == 0, err
    assert f"{TURNS + 1} commits checked" in out
