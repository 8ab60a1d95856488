"""Shell completion (`splendor completion SHELL` and the protocol its scripts speak), and help
that names values as users type them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli

from splendor_cli.app.registry import COMMANDS

BIN = Path(sys.executable).parent
SPLENDOR = BIN / "splendor"


def _complete(cwd: Path, line: str, *, env: dict[str, str] | None = None) -> list[str]:
    """What the real `splendor` offers to bash for the last word of `line` (typer's protocol:
    `_SPLENDOR_COMPLETE=complete_bash`, COMP_WORDS and COMP_CWORD)."""
    words = line.split(" ")
    environ = {
        **os.environ,
        **(env or {}),
        "_SPLENDOR_COMPLETE": "complete_bash",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1),
    }
    done = subprocess.run([str(SPLENDOR)], cwd=cwd, env=environ, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with a base game (b.toml), a Duel in games/, and a TOML file that is no game."""
    (tmp_path / "games").mkdir()
    assert cli("new", "-g", tmp_path / "b.toml", "--players", "ann,bob", "--seed", 1)[0] == 0
    duel = ("new", "-g", tmp_path / "games" / "d.toml", "--players", "ann,bob", "--variant", "duel", "--seed", 1)
    assert cli(*duel)[0] == 0
    (tmp_path / "notes.toml").write_text('title = "not a game"\n', encoding="utf-8")
    return tmp_path


def test_completion_prints_each_shells_script() -> None:
    """`splendor completion bash|zsh|fish` prints a script that asks `splendor` through
    $_SPLENDOR_COMPLETE; an unknown shell is a usage error."""
    code, out, _ = cli("completion", "bash")
    assert code == 0 and "complete -o default -F _splendor_completion splendor" in out
    assert "_SPLENDOR_COMPLETE=complete_bash" in out
    for shell in ("zsh", "fish"):
        code, out, _ = cli("completion", shell)
        assert code == 0 and f"_SPLENDOR_COMPLETE=complete_{shell}" in out
    code, _, err = cli("completion", "tcsh")
    assert code == 2 and "no completion script for 'tcsh'" in err
    code, out, _ = cli("completion", "-h")
    assert code == 0 and 'eval "$(splendor completion bash)"' in out


@pytest.mark.slow  # a process per completion
def test_commands_options_and_values_complete(folder: Path) -> None:
    """Commands (`sh` -> show), options, game files under . and games/ (not other TOML), colours
    and cards from the game's legal moves, a Duel's cells, players, --color's values, all from the
    game -g names or splendor finds; and nothing (no error) where there is no game."""
    assert _complete(folder, "splendor sh") == ["show"]
    assert "--game" in _complete(folder, "splendor show --")
    assert _complete(folder, "splendor show -g ") == ["b.toml", "games/d.toml"]
    assert _complete(folder, "splendor log -g g") == ["games/d.toml"]
    assert _complete(folder, "splendor take -g b.toml ") == ["white", "blue", "green", "red", "black"]
    assert _complete(folder, "splendor play -g b.toml take w") == ["white"]
    assert _complete(folder, "splendor play -g b.toml reserve deck ") == ["1", "2", "3"]
    cards = _complete(folder, "splendor buy -g b.toml ")  # nothing is affordable: the cards in sight
    assert len(cards) == 12 and all(len(card) == 4 and card[1] == "-" for card in cards)
    board = json.loads(cli("show", "-g", folder / "games" / "d.toml", "--json")[1])["board"]
    takeable = sorted(cell for cell, token in board.items() if token not in (None, "gold"))
    cells = _complete(folder, "splendor take -g games/d.toml ")
    assert sorted(cells) == takeable and len(takeable) > 10  # every cell but gold's, no other word
    assert _complete(folder, "splendor undo -g b.toml --as ") == ["ann", "bob"]
    assert _complete(folder, "splendor show --color a") == ["auto", "always"]
    assert _complete(folder, "splendor new --variant d") == ["duel"]
    assert sorted(_complete(folder / "games", "splendor take ")) == takeable  # without -g: the game splendor finds
    (folder / "empty").mkdir()
    assert _complete(folder / "empty", "splendor take ") == []  # no game here: nothing, and no error


@pytest.mark.slow  # runs bash
@pytest.mark.usefixtures("bash_installed")
def test_the_bash_script_completes_in_bash(folder: Path) -> None:
    """Sourced in a real bash, the script's function fills COMPREPLY by asking `splendor`."""
    program = "\n".join(
        [
            "source <(splendor completion bash)",
            "COMP_WORDS=(splendor sh); COMP_CWORD=1",
            "_splendor_completion splendor",
            'printf "%s\\n" "${COMPREPLY[@]}"',
        ]
    )
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "--norc", "-c", program], cwd=folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["show"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_names_values_as_users_type_them(name: str) -> None:
    """No Python type (`<str>`, `<int range>`, `<list[str]>`), no typer braces (`{MOVE}`), no
    `--json / --no-json`: flags are flags, values have names (`--as NAME`, `MOVE...`)."""
    code, out, _ = cli(*name.split(), "-h")
    assert code == 0
    assert not re.search(r"<[a-z][a-z \[\]]*>", out) and "{" not in out.split("\n", 1)[0] and "--no-" not in out, out
    if name == "play":
        assert out.startswith("Usage: splendor play [OPTIONS] MOVE...\n")
        assert "  MOVE...  " in out and "--as NAME " in out and "  --json  " in out
