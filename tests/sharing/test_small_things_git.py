"""The small things of issue 32 (item 9) that show over git and mail, through the real entry point
(`entry.main`, in this process, each player on a "machine" of their own), over real repositories."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from app.test_sealed_cli import machines
from sharing.gitrepos import identity, init, run_git

pytestmark = pytest.mark.usefixtures("git_installed")


def test_a_sealed_games_first_commit_names_no_one_it_does_not_know(tmp_path: Path) -> None:
    """The first event of a sealed game is nobody's (no signature; the game's players are in it):
    its commit is titled as the log names it, `#1 new sealed game: ann, bob; ...`, never
    `#1 someone: ...`; the events after it keep their player's name."""
    repo = init(tmp_path / "repo")
    identity(repo, "ann")
    ann, _ = (m.key() for m in machines(tmp_path, "ann", "bob"))
    path = repo / "games" / "secret.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    ann.ok("sync", "-g", path, "--as", "ann")
    subjects = run_git(repo, "log", "--reverse", "--format=%s").splitlines()
    game = tomllib.loads(path.read_text())["game"]
    assert subjects[0] == f"{game} #1 new sealed game: ann, bob; each joins, shuffles and reveals (`splendor seal`)"
    assert subjects[1].startswith(f"{game} #2 ann: joins with their keys (fingerprint "), subjects
    assert len(subjects) == 2 and not any("someone" in subject for subject in subjects)
