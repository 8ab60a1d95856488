"""The documentation points at what ships: every relative link of README.md and docs/ leads to a
file (and its `#anchor` to a heading) that exists, every project path they name exists, and so
does every file a module docstring of splendor_cli names.

What counts as a project path: a name starting with one of the project's folders (`docs/`,
`splendor_cli/`, `tests/`, `bench/`, `scripts/`, `.ci/`, `games/sample...`) or with one of the
package's folders (`app/`, `crypto/`, `projection/`, ...: looked for under `splendor_cli/`, then
`tests/`); `*` may stand for any name. In a module docstring, a path with a folder is looked for
beside the module, in the folders above it, in `docs/` and `tests/`; a bare file name
(`params.py`, `each game's heuristics.py`, `duel_rules.md`) anywhere in the package, `docs/`,
`tests/`, `bench/` or `scripts/`. A clone
has no `../shared/`: the docs name what ships (docs/contract.md, docs/rules/), never the project's
reference folder or its house-style notes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import ROOT

PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PACKAGE = ROOT / "splendor_cli"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)

_FOLDERS = ("docs", "splendor_cli", "tests", "bench", "scripts", r"\.ci", "games")
_PACKAGE_FOLDERS = ("app", "crypto", "projection", "events", "sealing", "variants", "sharing", "bots", "presentation")
PATH = re.compile(rf"(?<![\w./~$@:-])((?:{'|'.join(_FOLDERS + _PACKAGE_FOLDERS)})/[\w./*-]*)")
"""A project path in prose or code: it starts after a space, a quote, a backtick or a bracket
(never inside a longer path, a URL or `$XDG_.../`)."""
BARE = re.compile(r"(?<![\w./~$@:-])([\w-]+\.(?:py|md|csv|toml))(?![\w/])")
"""A bare file name in a module docstring."""
LINK = re.compile(r"\]\(([^)\s]+)\)")
"""The target of a markdown link or image."""
GONE = ("CONTRACT" + ".md", "shared/" + "reference", "STYLE" + ".md")
"""Names of the project's own notes that a clone does not have (spelled so as not to match here)."""
NOT_PROJECT_FILES = {"notify.toml", "secret.toml", "page.html"}
"""File names a docstring gives that are the user's, not the project's."""


def _prose(text: str) -> str:
    """A markdown page without its fenced code blocks (headings inside them are no headings)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor a page's headings make (a repeated heading gets `-1`, `-2`, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(page.read_text(encoding="utf-8")).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def _exists(name: str, bases: list[Path]) -> bool:
    """Whether `name` (perhaps with `*`) names a file or folder under one of `bases`."""
    name = name.rstrip("/")
    for base in bases:
        if "*" in name:
            if any(base.glob(name)):
                return True
        elif (base / name).exists():
            return True
    return False


def project_paths(text: str) -> list[str]:
    """The project paths a text names (trailing punctuation dropped; game files other than the
    samples, such as `games/friday.toml`, are examples and are left out)."""
    found = []
    for match in PATH.finditer(text):
        name = match.group(1).rstrip(".,:;")
        if name.startswith("games/") and name != "games/" and not name.startswith("games/sample"):
            continue
        found.append(name)
    return found


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_link_leads_somewhere(page: Path) -> None:
    """Each relative link of the page names a file that exists, and its anchor a heading of it."""
    broken = []
    for target in LINK.findall(_prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        where, _, anchor = target.partition("#")
        file = (page.parent / where).resolve() if where else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {_rel(file)}")
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_path_a_page_names_exists(page: Path) -> None:
    """The project paths the page names (in prose and in its examples) exist."""
    text = page.read_text(encoding="utf-8")
    missing = [name for name in project_paths(text) if not _exists(name, [ROOT, PACKAGE, ROOT / "tests"])]
    assert missing == []


def _shipped_names() -> set[str]:
    """The name of every file the project ships (the package, docs, tests, bench, scripts)."""
    folders = [PACKAGE, ROOT / "docs", ROOT / "tests", ROOT / "bench", ROOT / "scripts"]
    return {p.name for folder in folders for p in folder.rglob("*") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("module", MODULES, ids=_rel)
def test_every_file_a_module_docstring_names_exists(module: Path) -> None:
    """The files and folders a module's docstring names exist: a path beside the module, above
    it, in docs/ or tests/; a bare file name somewhere in what ships."""
    doc = ast.get_docstring(ast.parse(module.read_text(encoding="utf-8"))) or ""
    above = [p for p in module.parents if p == ROOT or ROOT in p.parents]
    bases = [module.parent, *above, ROOT / "docs", ROOT / "tests"]
    missing = [name for name in project_paths(doc) if not _exists(name, bases)]
    shipped = _shipped_names()
    missing += [name for name in BARE.findall(doc) if name not in NOT_PROJECT_FILES and name not in shipped]
    assert missing == []


def test_nothing_points_outside_the_clone() -> None:
    """No page, module, test or benchmark names the project's notes that do not ship."""
    files = [*PAGES, *MODULES, *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    files += [*(ROOT / "scripts").rglob("*.py"), ROOT / "pyproject.toml"]
    stale = [
        f"{_rel(path)}:{number}: {gone}"
        for path in files
        if "__pycache__" not in path.parts and path.name != "test_docs.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for gone in GONE
        if gone in line
    ]
    assert stale == []


def test_the_checks_see_what_they_check() -> None:
    """The scanners find what they look for: links with anchors, paths in prose, GitHub slugs."""
    assert slug("The threat model, in plain words") == "the-threat-model-in-plain-words"
    assert slug("`state --json`: added keys") == "state---json-added-keys"
    assert slug("Playing over git, in depth") == "playing-over-git-in-depth"
    assert project_paths("run `python bench/startup.py`, see docs/contract.md.") == [
        "bench/startup.py",
        "docs/contract.md",
    ]
    assert project_paths("games/friday.toml, $XDG_DATA_HOME/splendor-cli/keys/ and games/sample-3p.toml") == [
        "games/sample-3p.toml"
    ]
    assert "a-tour" in anchors(ROOT / "README.md")
    assert LINK.findall("[the contract](docs/contract.md#names) and ![x](games/sample-3p.svg)") == [
        "docs/contract.md#names",
        "games/sample-3p.svg",
    ]
