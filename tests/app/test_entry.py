"""The command line is declared once (app/params.py): the fast path (entry.parse) and the typer
app (cli.py) read the same declarations, call the same bodies, and give the same arguments."""

from __future__ import annotations

import inspect
import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from splendor_cli.app import cli as cli_module
from splendor_cli.app import entry
from splendor_cli.app.registry import COMMANDS
from splendor_cli.app.routes import ROUTES

LINES = [
    ["state", "--json", "-g", "g.toml"],
    ["show", "--at", "3", "--color", "never", "--game=g.toml"],
    ["moves", "--json"],
    ["moves", "--as", "bob"],
    ["log", "--color", "always"],
    ["play", "take", "white", "blue", "green", "--as", "ann", "--json"],
    ["play", "--bots", "--", "take", "-g"],
    ["take", "red", "red", "-g", "g.toml"],
    ["reserve", "deck", "3", "return", "white"],
    ["buy", "1-30", "pay", "red", "gold"],
    ["replenish", "--as", "bob"],
    ["undo", "--to", "12", "--force", "--as", "bob"],
    ["undo", "--turn", "--json"],
    ["bot", "--json"],
    ["hint", "--bot", "greedy"],
    ["new", "--players", "ann,bob", "--seed", "7", "--variant", "duel"],
    ["new", "-p", "ann,bob", "--commit-seed", "--json"],
    ["seed", "--as", "ann"],
    ["demo", "--turns", "0", "--seed", "-3"],
    ["simulate", "--games", "2", "-j", "0", "-q", "--bots", "random,greedy"],
    ["export", "--last", "2"],
    ["apply", "mail.eml", "-g", "g.toml"],
    ["apply", "-"],
    ["verify", "--git", "main..HEAD", "--staged"],
    ["git", "install", "--pattern", "*.toml"],
    ["merge-driver", "a", "b", "c"],
    ["resolve", "--keep", "ours"],
    ["completion", "zsh"],
]


def _typer_kwargs(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, dict[str, Any]]:
    """The body and the arguments the typer app calls it with for `argv`."""
    called: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(cli_module, "run", lambda body, kwargs: called.append((body, kwargs)) or 0)
    result = CliRunner().invoke(cli_module.app, argv)
    assert result.exit_code == 0, result.output
    [(body, kwargs)] = called
    return body, kwargs


@pytest.mark.parametrize("argv", LINES, ids=lambda argv: " ".join(argv))
def test_the_fast_path_and_typer_call_the_same_body_with_the_same_arguments(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """For every command, a plain line is parsed by entry.parse exactly as typer parses it
    (defaults from the body, $SPLENDOR_PLAYER for --as, paths as plain strings)."""
    monkeypatch.setenv("SPLENDOR_PLAYER", "cy")
    parsed = entry.parse(argv)
    assert parsed is not None, argv
    spec, fast = parsed
    body, slow = _typer_kwargs(argv, monkeypatch)
    assert spec.body is body
    full = {**(body.__kwdefaults__ or {}), **fast}
    assert full == slow
    assert all(type(v) is str for k, v in slow.items() if k in ("game", "base", "ours", "theirs") and v)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["state", "--help"],
        ["state", "-h"],
        ["state", "--bogus"],
        ["state", "--at", "0"],
        ["state", "--at", "x"],
        ["state", "--json=1"],
        ["state", "extra"],
        ["play"],
        ["new"],
        ["undo", "--to"],
        ["simulate", "--players", "5"],
        ["merge-driver", "a", "b"],
        ["nope"],
        ["git"],
    ],
)
def test_what_the_fast_path_cannot_read_goes_to_typer(argv: list[str]) -> None:
    """Help, unknown options, bad values and missing arguments are typer's: it says why."""
    assert entry.parse(argv) is None


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_body_has_exactly_the_declared_parameters(name: str) -> None:
    """A body's keyword parameters are its declarations, in order: nothing is declared twice."""
    spec = COMMANDS[name]
    signature = inspect.signature(spec.body)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in signature.parameters.values())
    assert list(signature.parameters) == [param.name for param in spec.params]
    assert spec.help.strip(), name


def test_the_routes_name_the_module_of_each_command() -> None:
    """routes.py, the fast path's static map, names every command and the module whose body it
    is, and lists them in the order of `splendor --help` (registry.py orders them by it)."""
    assert list(COMMANDS) == list(ROUTES)
    assert {name: spec.body.__module__ for name, spec in COMMANDS.items()} == {
        name: f"splendor_cli.app.{module}" for name, module in ROUTES.items()
    }


def _registered_alone(*code: str) -> tuple[list[str], list[str]]:
    """The commands registered, and the command modules loaded, by running `code` in a fresh
    interpreter."""
    program = "\n".join(
        [
            "import json, sys",
            *code,
            "from splendor_cli.app.params import COMMANDS",
            "from splendor_cli.app.routes import ROUTES",
            "mods = sorted({m for m in ROUTES.values() if f'splendor_cli.app.{m}' in sys.modules})",
            "print(json.dumps([sorted(COMMANDS), mods]))",
        ]
    )
    root = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=root, check=True, timeout=60
    )
    registered, modules = json.loads(done.stdout.splitlines()[-1])
    return registered, modules


@pytest.mark.parametrize("module", sorted(set(ROUTES.values())))
def test_each_module_of_commands_registers_exactly_its_routes(module: str) -> None:
    """Imported alone, a module of commands registers the commands routes.py gives it, and no
    other (it imports no other module of commands): what the fast path relies on."""
    registered, modules = _registered_alone(f"import splendor_cli.app.{module}")
    assert registered == sorted(name for name, home in ROUTES.items() if home == module)
    assert modules == [module]


def test_the_fast_path_imports_only_the_module_of_its_command() -> None:
    """`entry.parse` of a plain `take` loads play.py (its body) and no other module of commands."""
    registered, modules = _registered_alone(
        "import splendor_cli.app.entry as e",
        "assert e.parse(['take', 'white', 'blue', '-g', 'x.toml'])",
    )
    assert modules == ["commands.play"]
    assert "take" in registered


# -- signals -------------------------------------------------------------------------------------

_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def _before(signum: int, frame: object) -> None:
    """A handler of the caller's own, which a run in process must leave in place."""


@pytest.mark.parametrize(
    "argv",
    [["new", "-g", "g.toml", "--players", "ann,bob", "--seed", "1"], ["state", "-g", "missing.toml"], ["--version"]],
    ids=["fast path", "fast path, failing", "typer"],
)
def test_a_run_in_process_leaves_the_signal_handlers_as_it_found_them(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`entry.main()` stops on SIGTERM and SIGHUP as on Ctrl-C while a command runs, and puts
    back the handlers it found when it returns or exits, whether the command succeeds, fails or
    goes through typer: an in-process run (a test, a pytest-xdist worker) keeps its own."""
    from splendor_cli.app import exits

    during: dict[int, object] = {}
    real_run = exits.run

    def spy(body: Any, kwargs: dict[str, Any]) -> int:
        during.update({sig: signal.getsignal(sig) for sig in _SIGNALS})
        return real_run(body, kwargs)

    monkeypatch.setattr(exits, "run", spy)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["splendor", *argv])
    found = {sig: signal.signal(sig, _before) for sig in _SIGNALS}
    try:
        with pytest.raises(SystemExit):
            entry.main()
        after = {sig: signal.getsignal(sig) for sig in _SIGNALS}
    finally:
        for sig, handler in found.items():
            signal.signal(sig, handler)
    capsys.readouterr()
    assert after == dict.fromkeys(_SIGNALS, _before)
    if argv[0] != "--version":  # the fast path ran the body: the program's own handlers were in place
        assert during[signal.SIGTERM] is during[signal.SIGHUP] is not _before
