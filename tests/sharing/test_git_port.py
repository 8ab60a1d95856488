"""The one port to git (sharing/git.py): every git command of the program runs through `Git`, with
the same rules: no prompt, nothing on stdin but what is given, a missing git said plainly, an
answer bounded, what git says quoted, git's own files read bounded and never through a link."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import splendor_cli
from splendor_cli.errors import UsageError
from splendor_cli.sharing.git import ENV, Done, Git, GitMissing, read_git_file

PACKAGE = Path(splendor_cli.__file__).parent


def _runs_a_command(tree: ast.AST) -> list[int]:
    """The lines where a list or tuple literal starts with the string "git" (a git command line)."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, (ast.List, ast.Tuple))
        and node.elts
        and isinstance(node.elts[0], ast.Constant)
        and node.elts[0].value == "git"
    ]


def test_git_runs_from_one_module() -> None:
    """No module but sharing/git.py writes a git command line, and only it and the notification
    settings (which run the user's password command) import subprocess."""
    spawning, commands = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        if "subprocess" in names:
            spawning.append(rel)
        if rel != "sharing/git.py" and _runs_a_command(tree):
            commands.append(rel)
    assert spawning == ["sharing/git.py", "sharing/notify_settings.py"]
    assert commands == []


def test_git_never_waits_for_a_person(tmp_path: Path) -> None:
    """Every run gets the environment that keeps git from prompting, and an empty stdin."""
    done = Git(cwd=tmp_path).run("var", "GIT_EDITOR", env={"GIT_EDITOR": "true"})
    assert done.ok and done.text == "true"
    assert ENV["GIT_TERMINAL_PROMPT"] == "0" and ENV["GIT_MERGE_AUTOEDIT"] == "no"
    assert Git(cwd=tmp_path).run("hash-object", "--stdin").text == Git(cwd=tmp_path)("hash-object", "--stdin")


def test_a_missing_git_says_what_needs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No git on PATH: a UsageError (GitMissing) that says so and what needs it, no traceback."""
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(GitMissing, match=r"git is not installed \(or not on PATH\): sync needs it"):
        Git(cwd=tmp_path, needs="sync needs it").run("status")


def test_an_answer_too_long_is_refused(tmp_path: Path) -> None:
    """An answer longer than the `limit` a caller gives is refused, not taken in."""
    with pytest.raises(UsageError, match="more than 4 bytes of output"):
        Git(cwd=tmp_path).run("hash-object", "--stdin", stdin=b"x", limit=4)


def test_what_git_says_is_quoted_for_a_terminal() -> None:
    """A failure's line from git (which may quote a hostile path) never reaches a terminal raw."""
    done = Done(args=("x",), returncode=1, stdout=b"", stderr=b"fatal: bad \x1b]52;c;AAAA\x07 path\n")
    assert "\x1b" not in done.last_line() and "\x07" not in done.last_line()
    assert "\x1b" not in done.first_line() and "\\x1b" in done.first_line()
    assert Done(args=("x",), returncode=3, stdout=b"", stderr=b"").last_line() == "exit 3"


def test_a_failure_names_the_command(tmp_path: Path) -> None:
    """A failed command is a UsageError that names it (`git rev-parse: ...`; the audit's `... failed: ...`)."""
    with pytest.raises(UsageError, match=r"^git rev-parse: "):
        Git(cwd=tmp_path)("rev-parse", "--verify", "nothing-here^{commit}")
    with pytest.raises(UsageError, match=r"^git rev-parse failed: "):
        Git(cwd=tmp_path).output("rev-parse", "--verify", "nothing-here^{commit}")


def test_gits_own_files_are_read_bounded_and_not_through_a_link(tmp_path: Path) -> None:
    """A file of git's folder is read up to the bound, never through a symbolic link, and a missing one is None."""
    message = tmp_path / "MERGE_MSG"
    message.write_bytes(b"m" * 100)
    assert read_git_file(message, 10) == b"m" * 10
    (tmp_path / "link").symlink_to(message)
    assert read_git_file(tmp_path / "link") is None
    assert read_git_file(tmp_path / "missing") is None
