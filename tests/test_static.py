"""Static checks of the code base: mypy --strict and ruff (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT

pytestmark = pytest.mark.slow  # mypy and ruff as processes: seconds without their caches

PATHS = ["splendor_cli", "tests", "bench", "scripts"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_mypy_strict_passes() -> None:
    """Every module of splendor_cli is fully typed: mypy in strict mode finds nothing."""
    result = _run("mypy", "--no-error-summary")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_lint_and_format_pass() -> None:
    """The code follows the project's lint rules and is formatted as ruff formats it."""
    lint = _run("ruff", "check", *PATHS)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = _run("ruff", "format", "--check", *PATHS)
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
