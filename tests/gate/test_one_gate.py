"""One gate: no module of the package writes a game file or the memory of seen games but through
`splendor_cli.gate.Gate` (as no module but sharing/git.py runs git: tests/sharing/test_git_port.py).

Writers are found in the source: a call of `store.write`, `store.append`, `store.create`,
`store.write_over` or `store.write_atomic` (or of those names imported from the store), a call of
a memory's `remember` or `forget` (the gate's memory of seen games, gate/memory.py, and of the
commit sync audited last on each remote, gate/remotes.py), and a call of the cache's
`remember_verified` (what this user verified of a sealed game: the gate is handed it).
The store itself and the gate may write; `write_atomic` may also write what is no game (a
picture, a service file, a command's `-o` output), each listed here with its reason, so that a
new writer of game files cannot slip in unnoticed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import splendor_cli

PACKAGE = Path(splendor_cli.__file__).parent

STORE_WRITERS = ("write", "append", "create", "write_atomic", "write_over")
"""The store's functions that write a file."""
MEMORY_WRITERS = ("remember", "forget")
"""What writes the memory of seen games (`gate.memory.Seen`) and of the remotes' commits audited
(`gate.remotes.Remotes`)."""
MEMORIES = ("memory", "seen", "remotes")
"""What the owner of such a call is named by (`self.seen.remember`, `remotes.forget`)."""

GATE = ("gate/__init__.py", "gate/memory.py", "gate/remotes.py", "store.py")
"""The gate, its memories, and the store it writes through."""
NOT_GAMES = {
    "app/output.py": "a command's -o output: a picture, a replay page, a service file (never a game file)",
    "app/commands/watch.py": "`watch --install --write`: the service file",
    "sharing/sync.py": "`sync --picture`: the SVG beside a game",
}
"""The modules that may call `write_atomic` for files that are no game, and why."""


def writers(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of each call in `tree` that writes through the store or the memory."""
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("store")
        for alias in node.names
        if alias.name in STORE_WRITERS
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "store":
            if func.attr in STORE_WRITERS:
                found.append((node.lineno, f"store.{func.attr}"))
        elif isinstance(func, ast.Name) and func.id in imported:
            found.append((node.lineno, func.id))
        elif isinstance(func, ast.Attribute) and func.attr in MEMORY_WRITERS:
            owner = ast.unparse(func.value)
            if any(name in owner for name in MEMORIES):
                found.append((node.lineno, f"{owner}.{func.attr}"))
        elif isinstance(func, ast.Attribute) and func.attr == "remember_verified":  # the cache of verified games
            found.append((node.lineno, f"{ast.unparse(func.value)}.{func.attr}"))
    return found


def bypasses(root: Path) -> list[str]:
    """Each writer of the package at `root` that goes round the gate, as `file:line: call`."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in GATE:
            continue
        for line, what in writers(ast.parse(path.read_text(encoding="utf-8"))):
            if what.endswith("write_atomic") and rel in NOT_GAMES:
                continue
            out.append(f"{rel}:{line}: {what}")
    return out


def test_every_writer_of_game_files_and_of_the_memory_goes_through_the_gate() -> None:
    """No module but the gate and the store writes a game file or the memory of seen games."""
    assert bypasses(PACKAGE) == []


def test_the_gate_test_fails_when_a_writer_bypasses_it(tmp_path: Path) -> None:
    """A command that writes a game file with the store, or remembers what it read, without the
    gate, is named: the test above can fail."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "sneaky.py").write_text(
        "from .. import store\n"
        "from ..store import write_atomic as put\n"
        "def play(loaded, event, memory):\n"
        "    store.append(loaded, event)\n"
        "    put('g.toml', b'', exclusive=False)\n"
        "    memory.remember(loaded.record)\n"
        "    cache.remember_verified(loaded)\n"
        "    store.read('g.toml')\n"
        "    gate.remotes.remember('g', 'k', 'c')\n",
        encoding="utf-8",
    )
    assert bypasses(tmp_path) == [
        "app/sneaky.py:4: store.append",
        "app/sneaky.py:5: put",
        "app/sneaky.py:6: memory.remember",
        "app/sneaky.py:7: cache.remember_verified",
        "app/sneaky.py:9: gate.remotes.remember",
    ]


def test_the_listed_exceptions_still_write_what_they_say() -> None:
    """Each module allowed to call `write_atomic` for a file that is no game still calls it (a
    stale exception would let a new writer in unnoticed)."""
    for rel in NOT_GAMES:
        calls = [what for _, what in writers(ast.parse((PACKAGE / rel).read_text(encoding="utf-8")))]
        assert any(what.endswith("write_atomic") for what in calls), rel
