"""The house has floors, and the core is pure (docs/architecture.md).

Floors, from the bottom: the pure core (`errors`, `model`, `events/`, `projection/`, the games
under `variants/` but their boards, the cryptography under `crypto/`), files (`records`, `store`),
sharing and bots (`sharing/`, `bots/`), presentation (`presentation/`, each game's `render.py` and
`svg.py`), the command line (`app/`). A module imports only from its floor or below, and the
modules' import-time graph has no circle. No code outside a game's package names that game: it
asks the game, through the registry and the protocol. The core does no I/O: checked by importing
it in a fresh interpreter and looking at `sys.modules`, and by scanning its source.
"""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import splendor_cli

PACKAGE = Path(splendor_cli.__file__).parent
ROOT = PACKAGE.parent
GAMES = ("base", "duel")

FLOORS = ("core", "files", "sharing", "presentation", "command line")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {module: ast.parse(path.read_text(encoding="utf-8"), filename=str(path)) for module, path in MODULES.items()}
"""Every module's AST, parsed once for all the tests of this file."""


def floor(module: str) -> int:
    """The floor of a module of splendor_cli (0 = the pure core)."""
    parts = module.split(".")[1:]
    if not parts:
        return 0
    if parts[0] == "app" or parts == ["__main__"] or parts in (["sealing", "command_line"], ["signed", "command_line"]):
        return 4  # (a table protocol's command-line part is the command line's, as a game's board is presentation)
    if parts[0] == "presentation" or (parts[0] == "variants" and parts[-1] in ("render", "svg")):
        return 3
    if parts[0] in ("sharing", "bots", "gate"):
        return 2
    if parts[0] in ("records", "forks", "store"):
        return 1
    return 0


def runtime_nodes(tree: ast.Module) -> list[ast.AST]:
    """The nodes of a module that run: all but those under `if TYPE_CHECKING:`."""
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test)
        for inner in ast.walk(node)
    }
    return [node for node in ast.walk(tree) if id(node) not in skipped]


@functools.cache
def imports(path: Path, *, typing_too: bool = False) -> list[tuple[str, bool, int]]:
    """(module imported, at module level, line) for each import of splendor_cli in a file (with
    `typing_too`, those under `if TYPE_CHECKING:` as well)."""
    tree = TREES[module_name(path)]
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree) if typing_too else runtime_nodes(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [base]
            names += [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES]
        for name in names:
            if name.startswith("splendor_cli") and name in MODULES:
                found.append((name, id(node) in top, node.lineno))
    return found


def test_the_import_scanner_resolves_relative_imports() -> None:
    """The graph below is built right: `from ..events import codec` in projection/game.py is
    splendor_cli.events.codec, and a `TYPE_CHECKING` import does not count."""
    edges = {name for name, _, _ in imports(MODULES["splendor_cli.projection.game"])}
    assert {"splendor_cli.events", "splendor_cli.events.codec", "splendor_cli.projection.seeding"} <= edges
    assert "splendor_cli.projection.game" not in {n for n, _, _ in imports(MODULES["splendor_cli.projection.variant"])}


def test_nothing_imports_a_floor_above_its_own() -> None:
    """A module imports only from its own floor or below (a game's package may reach its own
    boards lazily, inside `Variant.board_text` and `board_svg`: the presentation of the game, asked for)."""
    upward = []
    for module, path in MODULES.items():
        for name, at_top, line in imports(path):
            if floor(name) > floor(module):
                own_board = name.endswith((".render", ".svg")) and name.rpartition(".")[0] == module and not at_top
                if not own_board:
                    upward.append(
                        f"{module} ({FLOORS[floor(module)]}) line {line} imports {name} ({FLOORS[floor(name)]})"
                    )
    assert upward == []


@pytest.mark.parametrize("which", ["import-time", "every import"])
def test_no_import_circles(which: str) -> None:
    """The modules' import-time graph (imports at module level) has no circle; nor has the graph
    of every import (inside functions, and for types alone): no two modules lean on each other."""
    every = which == "every import"
    graph = {
        module: {n for n, at_top, _ in imports(path, typing_too=every) if (at_top or every) and n != module}
        for module, path in MODULES.items()
    }
    # a package imports its parent packages implicitly: those edges are no circle of ours
    for module, edges in graph.items():
        graph[module] = {n for n in edges if not module.startswith(n + ".")}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circles.append([*trail[trail.index(nxt) :], nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_no_code_outside_a_game_names_the_game() -> None:
    """Outside `variants/<game>/`, nothing imports a game's package (the registry finds games by
    name) nor compares a variant with a game's name: it asks the game."""
    found = []
    for module, path in MODULES.items():
        for game in GAMES:
            home = f"splendor_cli.variants.{game}"
            if module == home or module.startswith(home + "."):
                continue
            found += [
                f"{module} line {line} imports {name}" for name, _, line in imports(path) if name.startswith(home)
            ]
            for node in ast.walk(TREES[module]):
                if isinstance(node, ast.Compare) and any(
                    isinstance(c, ast.Constant) and c.value == game for c in [node.left, *node.comparators]
                ):
                    found.append(f"{module} line {node.lineno} compares with {game!r}")
    assert found == []


def private_names(module: str, tree: ast.Module) -> list[str]:
    """Where `module` reaches a name private to another module of splendor_cli: `from .x import _y`,
    or `x._y` where `x` is a module of splendor_cli imported by name (`from . import x`, `import
    splendor_cli.x as x`). Dunder names (`__version__`) are no private names."""
    package = module if MODULES.get(module, Path()).name == "__init__.py" else module.rpartition(".")[0]

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    found, modules = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            if base.split(".")[0] != "splendor_cli":
                continue
            for alias in node.names:
                if private(alias.name):
                    found.append(f"{module} line {node.lineno}: from {base} import {alias.name}")
                elif f"{base}.{alias.name}" in MODULES:
                    modules[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "splendor_cli" and alias.asname:
                    modules[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and private(node.attr)
        ):
            found.append(f"{module} line {node.lineno}: {modules[node.value.id]}.{node.attr}")
    return sorted(found, key=lambda line: int(line.split(" line ")[1].partition(":")[0]))


def test_the_private_name_scanner_sees_what_it_looks_for() -> None:
    """The scan below flags a private name imported from a module of splendor_cli, or read off one
    imported by name; not a dunder, a private name of another package, nor one of a class."""
    sample = (
        "from .commands import _out, run\n"
        "from .services import cache\n"
        "from .. import errors as e, __version__\n"
        "from ..model import Tokens\n"
        "from typer._completion_classes import completion_init\n"
        "import splendor_cli.store as store\n"
        "cache._seal(1)\n"
        "e._private\n"
        "store._lock()\n"
        "Tokens._trusted()\n"
        "cache.get()\n"
    )
    assert private_names("splendor_cli.app.sample", ast.parse(sample)) == [
        "splendor_cli.app.sample line 1: from splendor_cli.app.commands import _out",
        "splendor_cli.app.sample line 7: splendor_cli.app.services.cache._seal",
        "splendor_cli.app.sample line 8: splendor_cli.errors._private",
        "splendor_cli.app.sample line 9: splendor_cli.store._lock",
    ]


def test_no_module_reaches_another_modules_private_names() -> None:
    """A `_name` is private to its module (docs/architecture.md): no module of splendor_cli imports one from
    another module, nor reads one off a module it imported. What modules share is public: named
    without the underscore, with a docstring."""
    found = [line for module, tree in TREES.items() for line in private_names(module, tree)]
    assert found == []


def is_private(name: str) -> bool:
    """Whether a dotted name has a private part: `_sha2`, `rbcl._sodium`, `_compare_digest` (a
    dunder such as `__future__` or `__version__` is none)."""
    return any(part.startswith("_") and not part.startswith("__") for part in name.split("."))


def private_imports(module: str, tree: ast.Module) -> list[str]:
    """Where `module` imports from outside what another module (of any package) makes public: a
    private module (`import _sha256`, `from _operator import ...`, `from typer._x import y`, a
    relative `from ._x import y`, or a constant name given to `importlib.import_module` or
    `__import__`) or a private name (`from hmac import _x`). `__future__` is no private module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        names: list[str] = []  # what is imported, with the module it comes from
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and ast.unparse(node.func) in ("importlib.import_module", "import_module", "__import__")
        ):
            names = [node.args[0].value]
        for name in names:
            if is_private(name.lstrip(".")):
                where = MODULES[module].relative_to(ROOT) if module in MODULES else module
                found.append((node.lineno, f"{where} line {node.lineno}: {name}"))
                break
    return [line for _, line in sorted(found)]


def test_the_private_import_scanner_sees_what_it_looks_for() -> None:
    """The scan below flags a private module or name imported from any package (the lines of the
    old digest.py among them), and not `__future__`, a dunder, a public name under a private
    alias, nor a private name of one's own module."""
    sample = (
        "from __future__ import annotations\n"
        "from _operator import _compare_digest as compare_digest\n"
        "from _sha2 import sha256\n"
        "import _sha256\n"
        "from hmac import _hashopenssl\n"
        "import importlib\n"
        "importlib.import_module('rbcl._sodium')\n"
        "from ._private import name\n"
        "from .. import __version__\n"
        "from ..variants.common.chances import from_lead as _scores\n"
        "import hashlib, hmac\n"
        "def _mine(): return _scores\n"
    )
    assert private_imports("splendor_cli.sample", ast.parse(sample)) == [
        "splendor_cli.sample line 2: _operator",
        "splendor_cli.sample line 3: _sha2",
        "splendor_cli.sample line 4: _sha256",
        "splendor_cli.sample line 5: hmac._hashopenssl",
        "splendor_cli.sample line 7: rbcl._sodium",
        "splendor_cli.sample line 8: ._private",
    ]


def test_no_module_imports_a_private_module_or_name() -> None:
    """splendor_cli uses what the standard library and its dependencies make public: no module
    imports a private module (`_sha2`, `rbcl._sodium`) or a private name (`_compare_digest`) from
    another module, whatever its package (`__future__` aside). The message names file and line."""
    found = sorted(line for module, tree in TREES.items() for line in private_imports(module, tree))
    assert found == []


def test_the_floors_are_known() -> None:
    """Every module is on a floor, and each floor holds modules (the layout this test knows)."""
    assert {floor(m) for m in MODULES} == set(range(len(FLOORS)))
    assert floor("splendor_cli.variants.duel.render") == 3 and floor("splendor_cli.variants.duel.rules") == 0
    assert floor("splendor_cli.variants.base.svg") == 3
    assert floor("splendor_cli.crypto.elgamal") == 0  # pure math: randomness comes in as an argument


# -- the pure core ----------------------------------------------------------------------------

PURE_MODULES = (
    "splendor_cli.events",
    "splendor_cli.events.codec",
    "splendor_cli.projection",
    "splendor_cli.projection.log",
    "splendor_cli.model",
    "splendor_cli.variants",
    *(f"splendor_cli.variants.{game}" for game in GAMES),
)
PURE_FILES = sorted(path for module, path in MODULES.items() if floor(module) == 0 and module != "splendor_cli")
NOT_LOADED_BY_CORE = (
    "typer",
    "rich",
    "click",
    "splendor_cli.store",
    "splendor_cli.app",
    "subprocess",
    "tempfile",
    "random",
)
NOT_IMPORTED_BY_CORE = ("os", "pathlib", "io", "random", "time", "subprocess", "typer", "rich", "tempfile", "shutil")
NOT_LOADED_BY_CLI = ("rich", "cattrs", "tomli_w", "splendor_cli.projection")


def loaded_after(*modules: str, code: str = "") -> set[str]:
    """The modules a fresh interpreter holds after importing `modules` (and running `code`)."""
    code = (
        "import json, sys\n"
        f"for name in {list(modules)!r}:\n"
        "    __import__(name)\n"
        f"{code}\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_a_bare_interpreter_loads_none_of_the_forbidden_modules() -> None:
    """The baseline: the checks below would see a module the core pulls in, not one Python
    loads by itself."""
    baseline = loaded_after()
    assert not baseline & {*NOT_LOADED_BY_CORE, *NOT_LOADED_BY_CLI}
    assert "json" in baseline  # the probe itself works


def test_the_core_loads_no_io_terminal_or_chance() -> None:
    """Importing the events, the codec, the fold, the model and both games loads none of typer,
    rich, click, the store, the command line, subprocess, tempfile or random."""
    loaded = loaded_after(*PURE_MODULES)
    assert set(PURE_MODULES) <= loaded
    assert sorted(loaded & set(NOT_LOADED_BY_CORE)) == []


def test_a_game_is_loaded_only_when_asked_for() -> None:
    """Reading a base game's file loads the base game and not the Duel (nor cattrs' strategies
    for it): each command imports only the game its file names."""
    loaded = loaded_after("splendor_cli.records", code="import splendor_cli.variants as v; v.find_variant('base')")
    assert "splendor_cli.variants.base.rules" in loaded
    assert not {m for m in loaded if m.startswith("splendor_cli.variants.duel")}


def test_the_cli_imports_light() -> None:
    """`import splendor_cli.app.cli` loads neither rich, cattrs, tomli_w nor the fold: every
    command imports what it needs inside its body, so `--help` starts fast."""
    loaded = loaded_after("splendor_cli.app.cli")
    assert "splendor_cli.app.cli" in loaded
    assert sorted(loaded & set(NOT_LOADED_BY_CLI)) == []


def test_the_fast_path_parses_without_typer() -> None:
    """entry.parse reads a plain command line by the declarations alone: typer and click stay out."""
    loaded = loaded_after(
        "splendor_cli.app.entry",
        code="import splendor_cli.app.entry as e; assert e.parse(['take', 'w', '-g', 'x.toml'])",
    )
    assert not loaded & {"typer", "click", "rich"}


def forbidden(tree: ast.Module) -> list[str]:
    """The forbidden imports and the calls of `open(` (or `__import__`) in a module's AST."""
    found = []
    for node in runtime_nodes(tree):
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
            if called in ("open", "__import__"):
                found.append(f"line {node.lineno}: {called}(")
    return found


def test_the_scanner_sees_what_it_looks_for() -> None:
    """The source scan below flags imports (plain, dotted, from-) and `open(` calls."""
    sample = (
        "import os.path\nfrom pathlib import Path\nimport attrs\nfrom . import io\nx = open('f')\nPath('f').open()\n"
        "if TYPE_CHECKING:\n    import random\n"
    )
    assert forbidden(ast.parse(sample)) == [
        "line 1: import os.path",
        "line 2: import pathlib",
        "line 5: open(",
        "line 6: open(",
    ]


NATIVE = {"crypto/sodium.py": ["line 51: import tempfile"]}
"""The core's one binding to a native library: loading libsodium is the import of a C library,
and when it is rbcl's bundled copy, rbcl writes it to a temporary file, which the binding has
written in a temporary folder of its own and removed (`tempfile`, imported only then)."""


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_source_imports_no_io(path: Path) -> None:
    """No module of the core imports os, pathlib, io, random, time, subprocess, tempfile, shutil,
    typer or rich, nor calls `open(` (a game's tables are package data, read with pkgutil; the
    registry imports a game by name with importlib), but the native binding's `os` (NATIVE)."""
    found = forbidden(TREES[module_name(path)])
    assert found == NATIVE.get(str(path.relative_to(PACKAGE)), [])


def test_every_core_file_is_scanned() -> None:
    """The scan covers the files of events/, projection/, both games' rules and model.py."""
    names = {str(p.relative_to(PACKAGE)) for p in PURE_FILES}
    assert {
        "events/__init__.py",
        "events/codec.py",
        "projection/game.py",
        "projection/variant.py",
        "variants/base/rules.py",
        "variants/duel/rules.py",
        "model.py",
        "crypto/group.py",
        "crypto/keys.py",
    } <= names
    assert "variants/base/render.py" not in names


OPENERS = {
    "splendor_cli.store": "game files, mails, the versions git hands the merge driver",
    "splendor_cli.app.services.cache": "its own entries",
    "splendor_cli.gate.memory": "the digests of the games seen",
    "splendor_cli.gate.remotes": "the commit sync audited last on each remote of a game",
    "splendor_cli.app.commands.start": "a player's commit-then-reveal secret",
    "splendor_cli.app.exits": "os.devnull, once the reader of standard output has left",
    "splendor_cli.app.output": "a device or FIFO that a picture is written through (-o /dev/null, a pipe)",
    "splendor_cli.app.commands.key": "a player's exported keys",
    "splendor_cli.app.services.keyfile": "a player's key file, and the games whose keys they published",
    "splendor_cli.sharing.gitmerge": ".gitattributes, for `git install`",
    "splendor_cli.sharing.git": "git's own files of a repository (MERGE_MSG, shallow), read bounded",
    "splendor_cli.sharing.verify": "git's list of shallow commits",
    "splendor_cli.sharing.gitsync": "git's prepared merge message (MERGE_MSG), to sign a sealed merge",
}


def test_only_the_store_opens_game_files() -> None:
    """`store` is the only module that opens game files: any other call of `open(`,
    `read_bytes()` or `read_text()` is one of the few named here, for files that are no game."""
    found = []
    for module in MODULES:
        if module in OPENERS:
            continue
        for node in runtime_nodes(TREES[module]):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                through_store = (
                    isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "store"
                )
                if (
                    called in ("open", "read_bytes", "read_text", "write_bytes", "write_text", "fdopen")
                    and not through_store
                ):
                    found.append(f"{module} line {node.lineno}: {called}(")
    assert found == []


PLUG_IN_ROLES = {"events.py", "protocol.py", "command_line.py"}
"""A module's name that plug-ins share: a game's or a table protocol's events, a table protocol's
fold (`protocol.py`) and its part of the command line (`command_line.py`)."""
PROTOCOL_PACKAGES = ("sealing", "signed")
"""The packages of the table protocols."""


def test_no_two_modules_share_a_name_but_a_games_roles() -> None:
    """A module's file name says one thing: two modules share one only when they are the same role
    in two games (`variants/base/rules.py`, `variants/duel/rules.py`), or the same role in two
    plug-ins (`PLUG_IN_ROLES`: a game's or a table protocol's events, `sealing/events.py` and
    `signed/events.py`; a protocol's `protocol.py` and `command_line.py`). Packages' `__init__.py` aside."""
    by_name: dict[str, list[Path]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__init__.py":
            by_name.setdefault(path.name, []).append(path.relative_to(PACKAGE))
    shared = {}
    for name, paths in sorted(by_name.items()):
        if len(paths) < 2:
            continue
        games = all(p.parts[0] == "variants" and len(p.parts) == 3 for p in paths)
        plug_ins = name in PLUG_IN_ROLES and all(
            (p.parts[0] == "variants" and len(p.parts) == 3) or p.parts[0] in PROTOCOL_PACKAGES for p in paths
        )
        if not (games or plug_ins):
            shared[name] = sorted(str(p) for p in paths)
    assert shared == {}
