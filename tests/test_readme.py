"""The README's tour is true: its transcripts are run command by command and compared, and the
file they leave is the one docs/file-format.md shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from helpers import ROOT
from typer.testing import CliRunner

from splendor_cli.app.cli import app

README = ROOT / "README.md"


def _transcript(which: int = 0) -> list[tuple[str, list[str]]]:
    """The commands and outputs of the README's `which`-th tested transcript (0: the tour)."""
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- tested:")[which + 1].split("```console\n", 1)[1].split("```", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def _normal(text: str) -> str:
    """Today's date and the random tag of a game id vary from run to run."""
    return re.sub(r"\d{4}-\d{2}-\d{2}-(ann-bob)-[0-9a-f]{8}", r"DATE-\1-TAG", text)


@pytest.mark.parametrize("which", [0, 1], ids=["tour", "duel"])
def test_readme_transcripts_run_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: int) -> None:
    """Each command of the README tour (and of its Duel example) prints exactly the lines shown."""
    monkeypatch.chdir(tmp_path)
    steps = _transcript(which)
    assert len(steps) >= 5
    for command, expected in steps:
        argv = shlex.split(command, comments=True)
        assert argv[0] == "splendor"
        result = CliRunner().invoke(app, argv[1:])
        assert result.exit_code == 0, (command, result.output)
        assert _normal(result.stdout).splitlines() == expected, command


def test_readme_board_is_what_show_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the tour, `splendor show` prints the board the README shows."""
    monkeypatch.chdir(tmp_path)
    for command, _ in _transcript():
        CliRunner().invoke(app, shlex.split(command)[1:])
    text = README.read_text(encoding="utf-8")
    shown = text.split("draws the table", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    result = CliRunner().invoke(app, ["show", "-g", "games/demo.toml"])
    assert result.exit_code == 0
    assert result.stdout == shown


def test_readme_duel_board_is_what_show_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the Duel example, `splendor show` prints the Duel board the README shows."""
    monkeypatch.chdir(tmp_path)
    for command, _ in _transcript(1):
        CliRunner().invoke(app, shlex.split(command, comments=True)[1:])
    text = README.read_text(encoding="utf-8")
    shown = text.split("draws the Duel table", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    result = CliRunner().invoke(app, ["show", "-g", "duel.toml"])
    assert result.exit_code == 0
    assert result.stdout == shown


def test_ci_runs_the_readme_quick_start() -> None:
    """The quick start's two commands (install and demo; the tests) are, byte for byte, lines of
    CI's script: what a reader types is what CI runs on a fresh clone."""
    quick = README.read_text(encoding="utf-8").split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    install, tests = quick.strip().splitlines()
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install.startswith("python3 -m venv .venv") and ".venv/bin/splendor demo" in install
    assert tests.startswith(".venv/bin/python -m pytest")
    assert install in script
    assert tests in script


def _shortened(toml: str) -> str:
    """A game file as docs/file-format.md prints it: the game id, the time and the digests that
    vary from run to run replaced, each deck cut after its first 6 cards."""
    toml = re.sub(r'^(game|created|parent) = ".*"$', r'\1 = "..."', toml, flags=re.MULTILINE)
    return re.sub(r"^(deck_\d = \[(?:\"[^\"]*\", ){6}).*\]$", r"\1...]", toml, flags=re.MULTILINE)


def test_the_file_format_shows_the_file_of_the_tour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/file-format.md's example is the whole file the README's tour leaves (decks shortened)."""
    monkeypatch.chdir(tmp_path)
    for command, _ in _transcript():
        CliRunner().invoke(app, shlex.split(command)[1:])
    text = (ROOT / "docs" / "file-format.md").read_text(encoding="utf-8")
    shown = text.split("## An example", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    written = (tmp_path / "games" / "demo.toml").read_text(encoding="utf-8")
    assert _shortened(written) == _shortened(shown)
