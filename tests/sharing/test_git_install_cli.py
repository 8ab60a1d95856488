"""`splendor git install` through the real entry point, in real repositories: .gitattributes is
committed (alone), the driver runs `splendor` from PATH, and older set-ups keep working."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli
from sharing.gitrepos import commit_all, identity, init, remote_and_clones, run_git

GAME = "games/g.toml"


def _splendor_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `splendor` on PATH that runs this installation (as a pip-installed console script would)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "splendor"
    script.write_text(f'#!/bin/sh\nexec {sys.executable} -m splendor_cli "$@"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return script


def _no_splendor_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")


def _started(repo: Path) -> None:
    identity(repo, "ann")
    (repo / "README").write_text("our table\n")
    commit_all(repo, "ann", "start")


def test_install_commits_gitattributes_alone_and_runs_splendor_from_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attributes line is committed on its own (a staged file of the user's stays staged, and
    uncommitted), and the driver is `splendor merge-driver %O %A %B`."""
    repo = init(tmp_path / "repo")
    _started(repo)
    (repo / "notes.txt").write_text("mine")
    run_git(repo, "add", "notes.txt")
    _splendor_on_path(tmp_path, monkeypatch)
    monkeypatch.chdir(repo)
    code, out, err = cli("git", "install")
    assert code == 0, err
    assert "committed .gitattributes alone" in out
    assert run_git(repo, "show", "HEAD:.gitattributes") == "games/**/*.toml merge=splendor"
    assert (
        run_git(repo, "log", "-1", "--format=%s") == "splendor git install: game files merge by events (.gitattributes)"
    )
    assert run_git(repo, "show", "--name-only", "--format=", "HEAD") == ".gitattributes"
    assert run_git(repo, "status", "--porcelain") == "A  notes.txt"
    assert run_git(repo, "config", "merge.splendor.driver") == "splendor merge-driver %O %A %B"
    again = cli("git", "install")
    assert again[0] == 0 and ".gitattributes is committed" in again[1]
    assert run_git(repo, "rev-list", "--count", "HEAD") == "2"


def test_install_leaves_a_gitattributes_of_the_users_to_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A .gitattributes the user changed and staged is not committed for them: the output says to."""
    repo = init(tmp_path / "repo")
    (repo / ".gitattributes").write_text("*.png binary\n")
    _started(repo)
    (repo / ".gitattributes").write_text("*.png binary\n*.jpg binary\n")
    run_git(repo, "add", ".gitattributes")
    _splendor_on_path(tmp_path, monkeypatch)
    monkeypatch.chdir(repo)
    code, out, _ = cli("git", "install")
    assert code == 0 and ".gitattributes holds changes of yours: commit it yourself" in out
    assert run_git(repo, "rev-list", "--count", "HEAD") == "1"


def test_install_without_splendor_on_path_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No `splendor` on PATH: the driver runs this installation by its path, and the output says so."""
    repo = init(tmp_path / "repo")
    _started(repo)
    _no_splendor_on_path(monkeypatch)
    monkeypatch.chdir(repo)
    code, out, _ = cli("git", "install")
    assert code == 0 and "`splendor` is not on PATH" in out
    assert run_git(repo, "config", "merge.splendor.driver").startswith(f"{sys.executable} -m splendor_cli merge-driver")


@pytest.mark.slow  # git runs the driver as a process
def test_the_driver_from_path_merges_a_real_fork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both clones installed with `splendor` from PATH; two turns after one event: git's pull runs
    the driver, which names the fork."""
    _splendor_on_path(tmp_path, monkeypatch)
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    monkeypatch.chdir(ann)
    assert cli("git", "install")[0] == 0
    assert cli("new", "-g", GAME, "--players", "ann,bob", "--seed", "4")[0] == 0
    commit_all(ann, "ann", "new game")
    run_git(ann, "push", "-q", "origin", "main")
    run_git(bob, "pull", "-q", "origin", "main")
    monkeypatch.chdir(bob)
    assert cli("git", "install")[0] == 0
    assert run_git(bob, "status", "--porcelain") == ""
    monkeypatch.chdir(ann)
    cli("take", "red", "red", "-g", GAME)
    commit_all(ann, "ann", "ann's turn")
    run_git(ann, "push", "-q")
    monkeypatch.chdir(bob)
    cli("take", "white", "blue", "green", "-g", GAME)
    commit_all(bob, "bob", "ann's turn, from bob's clone")
    env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": str(tmp_path)}
    pulled = subprocess.run(["git", "pull", "--no-rebase", "-q"], cwd=bob, capture_output=True, text=True, env=env)
    assert pulled.returncode != 0 and "game forked after event #1" in pulled.stderr


def test_an_older_absolute_driver_keeps_working_and_a_gone_one_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone set up by an earlier release (the driver by the absolute path of a Python) syncs as
    before; one whose path is gone (the virtual environment removed) gets the driver again."""
    _splendor_on_path(tmp_path, monkeypatch)
    _, (ann,) = remote_and_clones(tmp_path, "ann")
    old = f"{sys.executable} -m splendor_cli merge-driver %O %A %B"
    run_git(ann, "config", "merge.splendor.driver", old)
    monkeypatch.chdir(ann)
    (ann / "games").mkdir()
    cli("new", "-g", GAME, "--players", "ann,bob")
    code, _, err = cli("sync", "--as", "ann")
    assert code == 0, err
    assert run_git(ann, "config", "merge.splendor.driver") == old and "merge.splendor.driver" not in err
    run_git(ann, "config", "merge.splendor.driver", "/gone/venv/bin/python -m splendor_cli merge-driver %O %A %B")
    code, _, err = cli("sync", "--as", "ann")
    assert code == 0, err
    assert run_git(ann, "config", "merge.splendor.driver") == "splendor merge-driver %O %A %B"


def test_a_gitattributes_link_from_the_clone_is_not_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone whose `.gitattributes` is a symbolic link (pushed by anyone) to a file of the
    user's: `git install` writes nothing through it (exit 2, one line), the file is unchanged."""
    repo = init(tmp_path / "repo")
    _started(repo)
    mine = tmp_path / "bashrc"
    mine.write_text("export PS1='$ '\n")
    (repo / ".gitattributes").symlink_to(mine)
    _splendor_on_path(tmp_path, monkeypatch)
    monkeypatch.chdir(repo)
    code, _, err = cli("git", "install")
    assert code == 2 and "symbolic link" in err and len(err.strip().splitlines()) == 1, err
    assert mine.read_text() == "export PS1='$ '\n"
