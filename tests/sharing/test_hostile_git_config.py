"""A repository's config runs no program through splendor (issue 31, item 7): `core.fsmonitor`,
hooks (`core.hooksPath`), `diff.external` and a textconv filter pointing at a script that leaves a
mark: `splendor games`, `sync` (its commits, its merge of a clone's turn, its push) and `verify
--git` never run it. A plain `git status` does (the repository is as hostile as it says).

Real git in real repositories (sharing/gitrepos.py), splendor through the CLI.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import cli
from sharing.gitrepos import remote_and_clones, run_git

pytestmark = pytest.mark.usefixtures("git_installed")

GAME = "games/g.toml"


def hostile(repo: Path, marker: Path) -> None:
    """Point every program the repository's config may name at a script that appends to `marker`."""
    script = repo.parent / f"{repo.name}-evil.sh"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{marker}"\nexit 0\n')
    script.chmod(0o755)
    hooks = repo.parent / f"{repo.name}-hooks"
    hooks.mkdir()
    for hook in ("pre-commit", "post-commit", "post-merge", "pre-push", "reference-transaction", "post-checkout"):
        (hooks / hook).write_text(f'#!/bin/sh\necho "{hook}" >> "{marker}"\nexit 0\n')
        (hooks / hook).chmod(0o755)
    for key, value in (
        ("core.fsmonitor", str(script)),
        ("core.hooksPath", str(hooks)),
        ("diff.external", str(script)),
        ("diff.evil.textconv", str(script)),
        ("core.attributesFile", str(repo.parent / f"{repo.name}-attributes")),
    ):
        run_git(repo, "config", key, value)
    (repo.parent / f"{repo.name}-attributes").write_text("*.toml diff=evil\n")


def splendor(repo: Path, monkeypatch: pytest.MonkeyPatch, *args: object, who: str = "ann") -> str:
    monkeypatch.chdir(repo)
    code, out, err = cli(*args, env={"SPLENDOR_PLAYER": who})
    assert code == 0, (args, out, err)
    return out


def test_games_sync_and_verify_run_nothing_a_repositorys_config_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    (ann / "games").mkdir()
    splendor(ann, monkeypatch, "new", "-g", GAME, "--players", "ann=ann@example.org,bob=bob@example.org", "--seed", "3")
    splendor(ann, monkeypatch, "sync")
    splendor(bob, monkeypatch, "sync", who="bob")
    marker = tmp_path / "ran"
    hostile(ann, marker)
    steps = [
        ("ann", ("games",)),
        ("ann", ("take", "white", "blue", "green")),
        ("ann", ("games",)),
        ("ann", ("sync",)),  # commits ann's turn, pushes it
        ("bob", ("sync",)),
        ("bob", ("take", "red", "black", "green")),
        ("bob", ("sync",)),
        ("ann", ("sync",)),  # fetches and merges bob's turn
        ("ann", ("verify", "--git", "-g", GAME)),
        ("ann", ("games",)),
    ]
    for who, args in steps:
        splendor(ann if who == "ann" else bob, monkeypatch, *args, who=who)
        assert not marker.exists(), (who, args, marker.read_text())
    # the repository is as hostile as it says: git itself runs the script
    (ann / "scratch.txt").write_text("x")
    subprocess.run(["git", "status", "--short"], cwd=ann, capture_output=True, check=True)
    assert marker.exists()
