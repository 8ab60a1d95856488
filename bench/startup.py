"""The start-up + work cost of every `splendor` command, as CPU time relative to a bare Python.

    python bench/startup.py [--splendor PATH] [--runs 15] [--json] [--compare REV ...] [--games-compare REV]

What is measured: the CPU time (user + system) of one child process, read from `os.wait4` when
it ends, for each command of the CLI run as a new process (`splendor state --json`, `play`,
`show`, ...), and for a bare `python -c pass` of the same interpreter (the one in the shebang of
the `splendor` script, so both are the same venv). The bare Python runs just before every
command of every round, so both are measured in the same run, interleaved; the figures are the
medians over the runs. CPU time rather than wall time: it is less disturbed by whatever else the
machine is doing, and the ratio to the bare Python cancels most of the speed of the machine.

Every child starts alike: its own temporary folder as cwd and a fresh temporary HOME (XDG
folders and $SPLENDOR_SECRETS inside it), $SPLENDOR_NO_CACHE=1 (no answer cache), $NO_COLOR=1,
COLUMNS=80, no $SPLENDOR_* or $PYTHON* variables of the caller, stdin empty, output to files.
The game files are prepared once (the samples of games/, and games made with the CLI under
test) and copied afresh into the child's folder before each run, so the commands that write
(`play`, `take`, `undo`, `apply`, `new`, `seed`, `resolve`) start from the same file every time.
A warm-up round is not counted.

How to read the table: `ratio` is the command's median CPU ms over the bare Python's; a command
is PASS when its ratio is within its target (8x for the plain reads and the one-turn write on a
2-player game, 12x for the others and for Duel, 15x for `--help`). A command that exits with an
unexpected code is reported with a warning line (its stderr's first line) and counted as FAIL,
never as fast. The script always exits 0 (it is a benchmark, not a test), except when it cannot
run at all: no splendor script, games it cannot prepare, a REV that names no commit (exit 2).

--compare REV (repeatable): every command also run from the code at git revision REV (a
temporary `git worktree`, PYTHONPATH on it, the installed interpreter; launched as the console
script launches it), in the same rounds, right after the installed CLI's run of that command, so
the figures of every side are measured side by side. Printed as one more table: each command's
CPU ms under every side and each REV's difference from the first REV. Two REVs (a commit and its
parent) isolate one change from whatever else the working tree holds.

--games-compare REV: random games in one process, `splendor simulate --players 2 --games 200`
and `--variant duel --games 100` (seed 1), CPU time of the installed CLI against the code at git
revision REV (a temporary `git worktree`, run as `python -m splendor_cli` with PYTHONPATH on it),
interleaved, 3 runs each, median; printed as games per CPU second and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
COMPARE_RUNS = 3
MOVE = "take white blue green"
LAUNCH = "import sys; from splendor_cli.app.entry import main; sys.argv[0] = 'splendor'; sys.exit(main())"
"""How a REV's code is started: what the installed console script does, with `python -c`."""


@dataclass(frozen=True)
class Side:
    """One code under test: the argv prefix that starts its `splendor` and the environment it adds."""

    label: str
    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)


def abort(message: str) -> NoReturn:
    """Stop: the benchmark cannot run at all (exit 2)."""
    print(f"startup.py: {message}", file=sys.stderr)
    sys.exit(2)


@dataclass(frozen=True)
class Command:
    """One measured command: `splendor ARGS` run in a folder holding copies of `files`."""

    name: str
    game: str  # label of the game it runs on ("-": none)
    args: tuple[str, ...]
    files: tuple[str, ...]  # prepared files copied into the child's folder, by name
    target: float  # the most CPU time allowed, as a multiple of the bare Python's
    expect: int = 0  # the exit code it must end with


@dataclass(frozen=True)
class Outcome:
    """How one child process ended."""

    cpu_ms: float
    code: int
    stdout: str
    stderr: str


@dataclass
class Figures:
    """The runs of one command (or of the bare Python)."""

    cpu_ms: list[float] = field(default_factory=list)
    failures: list[Outcome] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.cpu_ms) if self.cpu_ms else float("nan")

    def problems(self, expect: int = 0) -> list[str]:
        """Each different failure once: its exit code, its stderr's first line, in how many runs."""
        counts = Counter(f"exit {f.code} (expected {expect}): {first_line(f.stderr)}" for f in self.failures)
        runs = len(self.cpu_ms) + len(self.failures)
        return [f"{message} [{n} of {runs} runs]" for message, n in counts.items()]


def commands() -> list[Command]:
    """Every command measured, with the files it needs and its target (a ratio to the bare Python)."""
    s3, fresh, played, duel = "sample-3p.toml", "fresh.toml", "played.toml", "sample-duel.toml"
    out = [
        Command("state --json", "sample-3p", ("state", "-g", s3, "--json"), (s3,), 8),
        Command("state --json", "fresh", ("state", "-g", fresh, "--json"), (fresh,), 8),
        Command("moves --json", "fresh", ("moves", "-g", fresh, "--json"), (fresh,), 8),
        Command(f'play "{MOVE}"', "fresh", ("play", "-g", fresh, MOVE), (fresh,), 8),
        Command(MOVE, "fresh", ("take", "-g", fresh, "white", "blue", "green"), (fresh,), 12),
        Command("undo", "fresh+1", ("undo", "-g", played), (played,), 12),
        Command("show", "sample-3p", ("show", "-g", s3), (s3,), 12),
        Command("show", "fresh", ("show", "-g", fresh), (fresh,), 12),
        Command("log", "sample-3p", ("log", "-g", s3), (s3,), 12),
        Command("log", "fresh", ("log", "-g", fresh), (fresh,), 12),
        Command("verify", "sample-3p", ("verify", "-g", s3), (s3,), 12),
        Command("verify", "fresh", ("verify", "-g", fresh), (fresh,), 12),
        Command("export", "fresh+1", ("export", "-g", played), (played,), 12),
        Command("apply MAIL", "fresh", ("apply", "-g", fresh, "move.mail"), (fresh, "move.mail"), 12),
        Command("new --seed 1", "-", ("new", "-g", "new.toml", "--players", "ann,bob", "--seed", "1"), (), 12),
        Command("hint --bot greedy", "fresh", ("hint", "-g", fresh, "--bot", "greedy"), (fresh,), 12),
        Command("seed --as ann", "commit-seed", ("seed", "-g", "commit.toml", "--as", "ann"), ("commit.toml",), 12),
        Command(
            "resolve --keep ours", "forked", ("resolve", "-g", "forked.toml", "--keep", "ours"), ("forked.toml",), 12
        ),
        Command("--help", "-", ("--help",), (), 15),
        Command("state --json", "sample-duel", ("state", "-g", duel, "--json"), (duel,), 12),
        Command("show", "sample-duel", ("show", "-g", duel), (duel,), 12),
    ]
    return out


# -- children ------------------------------------------------------------------------------------


def interpreter(script: Path) -> list[str]:
    """The interpreter (with its options) that runs `script`, from its shebang line.

    Handles `#!/path/python`, `#!/usr/bin/env python3`, and pip's `#!/bin/sh` + `'''exec' python`
    trampoline for interpreter paths too long for a shebang."""
    lines = script.read_text(encoding="utf-8", errors="replace").splitlines()
    if not lines or not lines[0].startswith("#!"):
        abort(f"{script} has no shebang line: cannot tell its interpreter")
    words = shlex.split(lines[0][2:])
    if Path(words[0]).name == "sh" and len(lines) > 1:
        found = re.match(r"'''exec' (\"[^\"]+\"|\S+)", lines[1])
        if found:
            return [found.group(1).strip('"')]
    if Path(words[0]).name == "env" and len(words) > 1:
        resolved = shutil.which(words[1])
        if resolved is None:
            abort(f"{words[1]} (shebang of {script}) is not on PATH")
        return [resolved, *words[2:]]
    return words


def child_env(sandbox: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child: the caller's without $SPLENDOR_* and $PYTHON*, a fresh HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPLENDOR_", "PYTHON"))}
    home = sandbox / "home"
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        SPLENDOR_SECRETS=str(home / "secrets"),
        SPLENDOR_NO_CACHE="1",
        NO_COLOR="1",
        COLUMNS="80",
    )
    env.update(extra or {})
    return env


@contextmanager
def sandbox(files: Sequence[Path] = ()) -> Iterator[Path]:
    """A fresh temporary folder with home/ and work/ (holding copies of `files`); yields it."""
    with tempfile.TemporaryDirectory(prefix="splendor-bench-") as tmp:
        root = Path(tmp)
        for folder in ("home/.config", "home/.cache", "home/.local/share", "home/.local/state", "home/secrets", "work"):
            (root / folder).mkdir(parents=True)
        for file in files:
            shutil.copyfile(file, root / "work" / file.name)
        yield root


def run_child(argv: Sequence[str], files: Sequence[Path] = (), extra_env: Mapping[str, str] | None = None) -> Outcome:
    """Run `argv` once in a fresh sandbox; its CPU time (user + system) comes from `os.wait4`."""
    with sandbox(files) as root, open(root / "stdout", "wb") as out, open(root / "stderr", "wb") as err:
        proc = subprocess.Popen(
            list(argv),
            cwd=root / "work",
            env=child_env(root, extra_env),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        stdout, stderr = ((root / name).read_text(encoding="utf-8", errors="replace") for name in ("stdout", "stderr"))
        return Outcome((usage.ru_utime + usage.ru_stime) * 1e3, proc.returncode, stdout, stderr)


def first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # a traceback's useful line is its last one
    if lines and lines[0].startswith("Traceback"):
        return lines[-1]
    return lines[0] if lines else "(no stderr)"


# -- the games the commands run on ----------------------------------------------------------------


def prepare(splendor: Path, folder: Path) -> dict[str, Path]:
    """Make every file the commands need in `folder`, with the CLI under test; by name.

    fresh.toml: a new 2-player game (seed 1); played.toml: it after one turn; move.mail: the
    `export` block of that turn; commit.toml: a `--commit-seed` game; forked.toml: the fresh game
    with two different first turns appended (two events with the same seq and parent), as a
    merge leaves it."""

    def cli(*args: str, stdout: Path | None = None) -> None:
        with sandbox() as root:
            done = subprocess.run(
                [str(splendor), *args],
                cwd=folder,
                env=child_env(root),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
            )
        if done.returncode != 0:
            abort(
                f"cannot prepare the games: `splendor {shlex.join(args)}` exited {done.returncode}:"
                f" {first_line(done.stderr)}"
            )
        if stdout is not None:
            stdout.write_text(done.stdout, encoding="utf-8")

    for name in ("sample-3p.toml", "sample-duel.toml"):
        shutil.copyfile(GAMES / name, folder / name)
    cli("new", "-g", "fresh.toml", "--players", "ann,bob", "--seed", "1")
    shutil.copyfile(folder / "fresh.toml", folder / "played.toml")
    cli("play", "-g", "played.toml", MOVE)
    cli("export", "-g", "played.toml", stdout=folder / "move.mail")
    cli("new", "-g", "commit.toml", "--players", "ann,bob", "--commit-seed")
    shutil.copyfile(folder / "fresh.toml", folder / "other.toml")
    cli("play", "-g", "other.toml", "take red red")
    base, ours, theirs = ((folder / n).read_bytes() for n in ("fresh.toml", "played.toml", "other.toml"))
    if not (ours.startswith(base) and theirs.startswith(base)):
        abort("cannot prepare forked.toml: a turn did not just append to the file")
    (folder / "forked.toml").write_bytes(ours + theirs[len(base) :])
    return {p.name: p for p in folder.iterdir() if p.is_file()}


# -- measurements ----------------------------------------------------------------------------------


def measure_startup(
    sides: Sequence[Side], python: list[str], runs: int, files: Mapping[str, Path]
) -> tuple[Figures, list[list[tuple[Command, Figures]]]]:
    """CPU ms of every command under every side and of the bare Python, interleaved: in each
    round the bare Python runs just before each command, then every side runs it in turn. The
    rounds start at a different command each time, and one warm-up round (bytecode, page cache)
    is not counted. The figures come back side by side, in the order of `sides`."""
    todo = commands()
    bare, figures = Figures(), [[Figures() for _ in todo] for _ in sides]
    for round_ in range(-1, runs):
        start = max(round_, 0) % len(todo)
        for i in [*range(start, len(todo)), *range(start)]:
            command = todo[i]
            base = run_child([*python, "-c", "pass"])
            outcomes = [
                run_child([*side.argv, *command.args], [files[n] for n in command.files], side.env) for side in sides
            ]
            if round_ < 0:
                continue
            measured = [(bare, base, 0)] + [(f[i], o, command.expect) for f, o in zip(figures, outcomes)]
            for figs, result, expect in measured:
                if result.code == expect:
                    figs.cpu_ms.append(result.cpu_ms)
                else:
                    figs.failures.append(result)
    return bare, [list(zip(todo, side_figures)) for side_figures in figures]


def check_shadowing(python: list[str], tree: Path) -> str:
    """The file `import splendor_cli` loads with PYTHONPATH on `tree` (it must be the worktree's)."""
    code = "import splendor_cli; print(splendor_cli.__file__)"
    result = run_child([*python, "-c", code], extra_env={"PYTHONPATH": str(tree)})
    if result.code != 0:
        abort(f"cannot import splendor_cli at the revision: {first_line(result.stderr)}")
    where = result.stdout.strip()
    if not Path(where).resolve().is_relative_to(tree.resolve()):
        abort(f"PYTHONPATH={tree} does not shadow the install: splendor_cli is {where}")
    return where


def resolve_rev(rev: str) -> str:
    """The commit `rev` names in the repository (abort when it names none)."""
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        abort(f"{rev} is not a commit of {ROOT}")
    return found.stdout.strip()


@contextmanager
def worktree(rev: str) -> Iterator[tuple[Path, str]]:
    """A detached git worktree of the repository at `rev` in a temporary folder; removed after."""
    parent = Path(tempfile.mkdtemp(prefix="splendor-bench-rev-"))
    tree = parent / "tree"
    added = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], capture_output=True, text=True
    )
    if added.returncode != 0:
        shutil.rmtree(parent, ignore_errors=True)
        abort(f"cannot check out {rev}: {first_line(added.stderr)}")
    try:
        commit = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
        yield tree, commit
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)


def measure_games(splendor: Path, python: list[str], rev: str) -> dict[str, Any]:
    """Random games per CPU second of `splendor simulate`, installed against REV, interleaved."""
    workloads = {
        "2-player, 200 games": (200, ("--players", "2", "--games", "200")),
        "Duel, 100 games": (100, ("--variant", "duel", "--games", "100")),
    }
    tail = ("--seed", "1", "-q", "--json")
    with worktree(rev) as (tree, commit):
        where = check_shadowing(python, tree)
        sides = {
            "current": ([str(splendor), "simulate"], {}),
            rev: ([*python, "-m", "splendor_cli", "simulate"], {"PYTHONPATH": str(tree)}),
        }
        for argv, env in sides.values():  # warm-up: the worktree's bytecode is compiled here
            run_child([*argv, "--games", "1", "--seed", "1", "-q"], extra_env=env)
        cpu: dict[tuple[str, str], Figures] = {(w, s): Figures() for w in workloads for s in sides}
        for _ in range(COMPARE_RUNS):
            for work, (_, args) in workloads.items():
                for side, (argv, env) in sides.items():
                    outcome = run_child([*argv, *args, *tail], extra_env=env)
                    if outcome.code == 0:
                        cpu[work, side].cpu_ms.append(outcome.cpu_ms)
                    else:
                        cpu[work, side].failures.append(outcome)
    rows = []
    for work, (games, _) in workloads.items():
        row: dict[str, Any] = {"workload": work, "games": games}
        for side in sides:
            figs = cpu[work, side]
            key = "current" if side == "current" else "rev"
            row[f"{key}_cpu_ms"] = figs.median
            row[f"{key}_games_per_s"] = games / (figs.median / 1e3) if figs.cpu_ms else None
            row[f"{key}_failures"] = figs.problems()
        current, other = row["current_games_per_s"], row["rev_games_per_s"]
        row["ratio"] = current / other if current and other else None
        rows.append(row)
    return {"rev": rev, "commit": commit, "rev_module": where, "runs": COMPARE_RUNS, "workloads": rows}


# -- report ----------------------------------------------------------------------------------------


def summarise(bare: Figures, results: list[tuple[Command, Figures]]) -> list[dict[str, Any]]:
    """One row a command: median CPU ms, ratio to the bare Python, target, pass, failures."""
    rows = []
    for command, figs in results:
        ratio = figs.median / bare.median if figs.cpu_ms else None
        ok = not figs.failures and ratio is not None and ratio <= command.target
        rows.append(
            {
                "command": command.name,
                "game": command.game,
                "cpu_ms": round(figs.median, 2) if figs.cpu_ms else None,
                "ratio": round(ratio, 3) if ratio is not None else None,
                "target": command.target,
                "pass": ok,
                "runs": len(figs.cpu_ms),
                "failures": figs.problems(command.expect),
            }
        )
    return rows


def print_table(python: list[str], splendor: Path, bare: Figures, rows: list[dict[str, Any]], runs: int) -> None:
    print(f"splendor start-up CPU cost (user + system of the child, median of {runs} runs): {splendor}")
    print(
        f"bare `python -c pass`: {bare.median:.1f} ms CPU (median of {len(bare.cpu_ms)}, interleaved)"
        f" [{shlex.join(python)}]"
    )
    for row in rows:
        for failure in row["failures"]:
            print(f"WARNING: splendor {row['command']} ({row['game']}): {failure}")
    print(f"{'command':<30} {'game':<12} {'CPU ms':>8} {'ratio':>7} {'target':>7}  result")
    for row in rows:
        cpu = f"{row['cpu_ms']:.1f}" if row["cpu_ms"] is not None else "-"
        ratio = f"{row['ratio']:.2f}x" if row["ratio"] is not None else "-"
        target = f"<= {row['target']:g}x"
        result = "PASS" if row["pass"] else ("FAIL (exit code)" if row["failures"] else "FAIL")
        print(f"{row['command']:<30} {row['game']:<12} {cpu:>8} {ratio:>7} {target:>7}  {result}")
    print(f"{sum(r['pass'] for r in rows)} of {len(rows)} within target")


def print_compare(labels: Sequence[str], tables: Sequence[list[dict[str, Any]]]) -> None:
    """Each command's CPU ms under every side, and each REV's difference from the first REV."""
    print("\nside by side, CPU ms (median, same rounds); `diff` = each REV minus the first REV:")
    head = " ".join(f"{label[:12]:>12}" for label in labels)
    diffs = " ".join(f"{'diff ' + label[:7]:>12}" for label in labels[2:])
    print(f"{'command':<30} {'game':<12} {head} {diffs}")
    for rows in zip(*tables):
        cells = [row["cpu_ms"] for row in rows]
        shown = " ".join(f"{c:>12.1f}" if c is not None else f"{'-':>12}" for c in cells)
        first = cells[1]
        delta = " ".join(
            f"{c - first:>+12.1f}" if c is not None and first is not None else f"{'-':>12}" for c in cells[2:]
        )
        print(f"{rows[0]['command']:<30} {rows[0]['game']:<12} {shown} {delta}")
        for label, row in zip(labels, rows):
            for failure in row["failures"]:
                print(f"WARNING: splendor {row['command']} ({row['game']}) at {label}: {failure}")


def print_games(report: dict[str, Any]) -> None:
    rev = f"{report['rev']} ({report['commit']})"
    print(f"\nrandom games in one process, games per CPU second, median of {report['runs']} runs, interleaved:")
    print(f"  (revision code: {report['rev_module']})")
    print(f"{'workload':<22} {'current':>14} {rev:>22} {'current/rev':>12}")
    for row in report["workloads"]:
        for key in ("current", "rev"):
            for failure in row[f"{key}_failures"]:
                print(f"WARNING: simulate {row['workload']} ({key}): {failure}")
        cur, old = row["current_games_per_s"], row["rev_games_per_s"]
        cells = [f"{v:.1f} games/s" if v else "-" for v in (cur, old)]
        ratio = f"{row['ratio']:.2f}x" if row["ratio"] else "-"
        print(f"{row['workload']:<22} {cells[0]:>14} {cells[1]:>22} {ratio:>12}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--splendor",
        metavar="PATH",
        type=Path,
        default=Path(sys.executable).parent / "splendor",
        help="the splendor script to measure (default: the one next to this Python)",
    )
    parser.add_argument(
        "--runs", metavar="N", type=int, default=15, help="runs of each command (the median is reported)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of the table")
    parser.add_argument(
        "--compare",
        metavar="REV",
        action="append",
        default=[],
        help="also run every command from the code at git revision REV, side by side (repeatable)",
    )
    parser.add_argument(
        "--games-compare",
        metavar="REV",
        help="also compare random games per CPU second with the code at git revision REV",
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    splendor = args.splendor.absolute()
    if not (splendor.is_file() and os.access(splendor, os.X_OK)):
        parser.error(f"no splendor script at {splendor} (use --splendor PATH)")
    python = interpreter(splendor)
    if args.games_compare:
        resolve_rev(args.games_compare)  # before the long part: a wrong REV stops here
    for rev in args.compare:
        resolve_rev(rev)

    with tempfile.TemporaryDirectory(prefix="splendor-bench-games-") as tmp, ExitStack() as trees:
        files = prepare(splendor, Path(tmp))
        sides = [Side("installed", (str(splendor),))]
        for rev in args.compare:
            tree, commit = trees.enter_context(worktree(rev))
            check_shadowing(python, tree)
            sides.append(
                Side(f"{rev} ({commit})" if commit != rev else rev, (*python, "-c", LAUNCH), {"PYTHONPATH": str(tree)})
            )
        bare, results = measure_startup(sides, python, args.runs, files)
    tables = [summarise(bare, side_results) for side_results in results]
    rows = tables[0]
    games = measure_games(splendor, python, args.games_compare) if args.games_compare else None

    if args.json:
        report: dict[str, Any] = {
            "splendor": str(splendor),
            "python": python,
            "runs": args.runs,
            "bare_cpu_ms": round(bare.median, 2),
            "bare_failures": bare.problems(),
            "commands": rows,
            "within_target": sum(r["pass"] for r in rows),
            "total": len(rows),
        }
        if games is not None:
            report["games_compare"] = games
        if args.compare:
            report["compare"] = [{"side": side.label, "commands": table} for side, table in zip(sides, tables)]
        print(json.dumps(report, indent=2))
        return
    for problem in bare.problems():
        print(f"WARNING: bare python: {problem}")
    print_table(python, splendor, bare, rows, args.runs)
    if args.compare:
        print_compare([side.label for side in sides], tables)
    if games is not None:
        print_games(games)


if __name__ == "__main__":
    main()
