"""Git repositories for the tests of this folder, written once: run git as a person, commit
everything, a repository, a bare remote with clones (`conftest.py` gives the `repo` fixture).

Every call runs git with no user or system configuration (`helpers.git`): the author and
committer are the person named, and nothing signs.
"""

from __future__ import annotations

from pathlib import Path

from helpers import git

PEOPLE = {"ann": "ann@example.org", "bob": "bob@example.org"}


def run_git(repo: Path, *args: str, who: str = "ann", email: str = "") -> str:
    """`git ARGS` in `repo` as `who` (e-mail: `email`, else `who@example.org`); its output, stripped.
    It must succeed."""
    return git(repo, *args, who=who, email=email or PEOPLE.get(who, f"{who}@example.org")).stdout.strip()


def commit_all(repo: Path, who: str, message: str, *, email: str = "") -> str:
    """Commit everything of the work tree as `who`; the new commit's hash."""
    run_git(repo, "add", "-A", who=who, email=email)
    run_git(repo, "commit", "-q", "--no-verify", "-m", message, who=who, email=email)
    return run_git(repo, "rev-parse", "HEAD")


def init(path: Path) -> Path:
    """A new repository at `path` (branch main)."""
    path.mkdir(parents=True, exist_ok=True)
    run_git(path, "init", "-q", "-b", "main")
    return path


def identity(clone: Path, who: str) -> None:
    """Set the clone's own user (name `who`, e-mail `who@example.org`), and no signing."""
    for key, value in (("user.name", who), ("user.email", f"{who}@example.org"), ("commit.gpgsign", "false")):
        run_git(clone, "config", key, value)


def remote_and_clones(root: Path, *names: str) -> tuple[Path, list[Path]]:
    """A bare repository `root/remote.git` (branch main) and a clone of it per name (`root/NAME`),
    each with its own user."""
    remote = root / "remote.git"
    run_git(root, "init", "-q", "--bare", "-b", "main", str(remote))
    clones = []
    for name in names:
        run_git(root, "clone", "-q", str(remote), str(root / name))
        identity(root / name, name)
        clones.append(root / name)
    return remote, clones
