"""The core is pure and the CLI starts light (STYLE.md §1 and §8).

Nothing under `events/`, `projection/`, nor `model.py` or `notation.py`, imports I/O, clocks,
chance or the terminal libraries: the whole game is computable from the parsed events alone.
Checked twice: by importing the modules in a fresh interpreter and looking at `sys.modules`
(deterministic, unlike a timing test), and by scanning their source for imports and `open(`.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import splendor_cli

PACKAGE = Path(splendor_cli.__file__).parent
ROOT = PACKAGE.parent
PURE_MODULES = (
    "splendor_cli.events",
    "splendor_cli.events.codec",
    "splendor_cli.projection",
    "splendor_cli.model",
    "splendor_cli.notation",
)
PURE_FILES = sorted(
    [*PACKAGE.glob("events/*.py"), *PACKAGE.glob("projection/*.py"), PACKAGE / "model.py", PACKAGE / "notation.py"]
)
NOT_LOADED_BY_CORE = (
    "typer",
    "rich",
    "click",
    "splendor_cli.store",
    "splendor_cli.cli",
    "subprocess",
    "tempfile",
    "random",
)
NOT_IMPORTED_BY_CORE = ("os", "pathlib", "io", "random", "time", "subprocess", "typer", "rich")
NOT_LOADED_BY_CLI = ("rich", "cattrs", "tomli_w", "splendor_cli.projection")


def loaded_after(*modules: str) -> set[str]:
    """The modules a fresh interpreter holds after importing `modules` (and nothing else)."""
    code = (
        "import json, sys\n"
        f"for name in {list(modules)!r}:\n"
        "    __import__(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout))


def test_a_bare_interpreter_loads_none_of_the_forbidden_modules() -> None:
    """The baseline: the checks below would see a module the core pulls in, not one Python
    loads by itself."""
    baseline = loaded_after()
    assert not baseline & {*NOT_LOADED_BY_CORE, *NOT_LOADED_BY_CLI}
    assert "json" in baseline  # the probe itself works


def test_the_core_loads_no_io_terminal_or_chance() -> None:
    """Importing the events, the codec, the projection, the model and the notation loads none
    of typer, rich, click, the store, the CLI, subprocess, tempfile or random."""
    loaded = loaded_after(*PURE_MODULES)
    assert set(PURE_MODULES) <= loaded
    assert sorted(loaded & set(NOT_LOADED_BY_CORE)) == []


def test_the_cli_imports_light() -> None:
    """`import splendor_cli.cli` loads neither rich, cattrs, tomli_w nor the projection: every
    command imports what it needs inside its body, so `--help` starts fast."""
    loaded = loaded_after("splendor_cli.cli")
    assert "splendor_cli.cli" in loaded
    assert sorted(loaded & set(NOT_LOADED_BY_CLI)) == []


def forbidden(tree: ast.AST) -> list[str]:
    """The forbidden imports and the calls of `open(` (or dynamic imports) in a module's AST."""
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            if name.split(".")[0] in NOT_IMPORTED_BY_CORE:
                found.append(f"line {node.lineno}: import {name}")
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in ("open", "__import__", "import_module"):
                found.append(f"line {node.lineno}: {called}(")
    return found


def test_the_scanner_sees_what_it_looks_for() -> None:
    """The source scan below flags imports (plain, dotted, from-) and `open(` calls."""
    sample = (
        "import os.path\nfrom pathlib import Path\nimport attrs\nfrom . import io\nx = open('f')\nPath('f').open()\n"
    )
    assert forbidden(ast.parse(sample)) == [
        "line 1: import os.path",
        "line 2: import pathlib",
        "line 5: open(",
        "line 6: open(",
    ]


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_source_imports_no_io(path: Path) -> None:
    """No module of the core imports os, pathlib, io, random, time, subprocess, typer or rich,
    nor calls `open(`. (cards.py reads package data with pkgutil and is not scanned.)"""
    assert forbidden(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))) == []


def test_every_core_file_is_scanned() -> None:
    """The scan covers the files of events/ and projection/, model.py and notation.py."""
    names = {str(p.relative_to(PACKAGE)) for p in PURE_FILES}
    assert {
        "events/__init__.py",
        "events/codec.py",
        "projection/rules.py",
        "projection/game.py",
        "model.py",
        "notation.py",
    } <= names
