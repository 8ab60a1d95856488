"""bench/selfplay.py run as a subprocess on a tiny budget: the same files whatever the number of
jobs, on Ray's local cluster too, and after a run killed midway and resumed; the lines' shape;
outcomes as the games ended (the same games as `splendor simulate`'s)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from splendor_cli.bots.tournament import Tournament, play_game
from splendor_cli.variants.base.evaluation import NAMES

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "selfplay.py"
BOTS = "greedy,random"
RUN = ["--bots", BOTS, "--games", "6", "--seed", "7", "--shard-games", "2"]


def selfplay(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The script's run, its output decoded as written (text mode would turn the bar's \\r into \\n)."""
    command = [sys.executable, str(SCRIPT), *map(str, args)]
    done = subprocess.run(command, capture_output=True, cwd=ROOT, timeout=600, env=env)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_the_same_files_whatever_the_jobs_and_after_a_resume(tmp_path: Path) -> None:
    two, one, resumed = tmp_path / "two", tmp_path / "one", tmp_path / "resumed"
    assert selfplay(*RUN, "--jobs", "2", "--out", two).returncode == 0
    done = selfplay(*RUN, "--jobs", "1", "--out", one)
    assert done.returncode == 0, done.stderr
    assert "6 games played" in done.stdout and "games/s" in done.stderr and "\r" in done.stderr
    assert files(two) == files(one)
    assert sorted(files(one)) == ["games-000000.jsonl", "games-000001.jsonl", "games-000002.jsonl", "run.json"]

    # what a kill leaves: a shard missing, one cut short, a temporary file half written
    shutil.copytree(one, resumed)
    (resumed / "games-000001.jsonl").unlink()
    last = resumed / "games-000002.jsonl"
    last.write_bytes(last.read_bytes()[:500])
    (resumed / "games-000001.jsonl.tmp").write_text('{"type":"posi')
    assert selfplay(*RUN, "--jobs", "1", "--out", resumed).returncode == 2  # not without --resume
    again = selfplay(*RUN, "--jobs", "2", "--out", resumed, "--resume")
    assert again.returncode == 0, again.stderr
    assert "4 games played, 2 kept from before" in again.stdout
    assert files(resumed) == files(one)
    # other settings than the run's are refused
    assert selfplay(*RUN, "--seed", "8", "--out", resumed, "--resume").returncode == 2


def test_a_run_killed_and_resumed_gives_the_files_of_one_run(tmp_path: Path) -> None:
    run = ["--bots", "greedy", "--games", "16", "--seed", "3", "--shard-games", "1", "--jobs", "1"]
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    assert selfplay(*run, "--out", whole).returncode == 0
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), *run, "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while process.poll() is None and not (killed / "games-000002.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    killed_midway = process.poll() is None
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert killed_midway  # else the machine is far slower than expected: a test of nothing
    assert len(list(killed.glob("games-*.jsonl"))) < 16
    assert selfplay(*run, "--out", killed, "--resume").returncode == 0
    assert files(killed) == files(whole)


def test_the_lines_and_the_outcomes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert selfplay(*RUN, "--jobs", "1", "--out", out).returncode == 0
    settings = json.loads((out / "run.json").read_text())
    assert settings["features"] == list(NAMES) and settings["bots"] == [["greedy", "greedy"], ["random", "random"]]
    lines = [json.loads(line) for path in sorted(out.glob("games-*.jsonl")) for line in path.read_text().splitlines()]
    games = [line for line in lines if line["type"] == "game"]
    assert [g["game"] for g in games] == list(range(6))
    tournament = Tournament.of(BOTS.split(","), 2)
    for game in games:
        k = game["game"]
        assert game["seed"] == f"7:{k}"
        # the same game as splendor simulate's game k of seed 7
        result = play_game(tournament, k, 7)
        assert game["seating"] == list(result.seating) and game["winners"] == list(result.winners)
        assert game["points"] == list(result.points) and game["turns"] == result.turns and game["finished"]
        assert game["outcomes"] == [1.0 / len(result.winners) if n in result.winners else 0.0 for n in result.seating]
        positions = [line for line in lines if line["type"] == "position" and line["game"] == k]
        assert [p["move"] for p in positions] == list(range(game["moves"]))
        assert [p["player"] for p in positions] == [m % 2 for m in range(game["moves"])]
        for position in positions:
            assert set(position) == {"type", "seed", "game", "move", "player", "features", "outcome"}
            assert position["seed"] == game["seed"]
            assert position["outcome"] == game["outcomes"][position["player"]]
            assert len(position["features"]) == 2 and all(len(f) == len(NAMES) for f in position["features"])
            assert position["features"][position["player"]][NAMES.index("to_move")] == 1


def test_help_and_bad_arguments(tmp_path: Path) -> None:
    shown = selfplay("--help")
    assert shown.returncode == 0 and "--resume" in shown.stdout and "games/s" in shown.stdout
    for bad in (["--bots", "nobody"], ["--variant", "duel", "--players", "3"], ["--games", "0"]):
        assert selfplay(*bad, "--out", tmp_path / "x").returncode == 2


@pytest.mark.slow
def test_ray_local_gives_the_files_of_one_process_and_resumes() -> None:
    # Ray's session files and sockets in a folder of this test, short (a Unix socket's path has
    # ~107 bytes; tmp_path is too long), and its token in the environment, not ~/.ray/auth_token
    temp = Path(tempfile.mkdtemp(prefix="r", dir="/tmp"))
    token = secrets.token_hex(16)
    env = {**os.environ, "RAY_AUTH_TOKEN": token}
    ray = ["--ray", "local", "--jobs", "2", "--ray-temp", temp / "ray"]
    try:
        base = ["--bots", "greedy,expert:20", "--games", "6", "--seed", "5", "--shard-games", "2"]
        one, cluster = temp / "one", temp / "cluster"
        assert selfplay(*base, "--jobs", "1", "--out", one).returncode == 0
        done = selfplay(*base, *ray, "--out", cluster, env=env)
        assert done.returncode == 0, done.stderr
        assert "6 games played" in done.stdout and "Ray at local: 2 CPUs" in done.stdout, done.stdout
        assert files(cluster) == files(one)

        # a Duel run cut short (its last shards lost), completed on Ray
        duel = ["--variant", "duel", "--bots", "greedy,random", "--games", "5", "--seed", "2", "--shard-games", "2"]
        whole, resumed = temp / "whole", temp / "resumed"
        assert selfplay(*duel, "--jobs", "1", "--out", whole).returncode == 0
        shutil.copytree(whole, resumed)
        (resumed / "games-000002.jsonl").unlink()
        (resumed / "games-000001.jsonl").write_bytes((whole / "games-000001.jsonl").read_bytes()[:300])
        again = selfplay(*duel, *ray, "--out", resumed, "--resume", env=env)
        assert again.returncode == 0, again.stderr
        assert "3 games played, 2 kept from before" in again.stdout
        assert files(resumed) == files(whole)
        # Ray shut down with the script: none of its processes (they all inherit the token) is left
        assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and token.encode() in _environ(pid)]
    finally:
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.slow
def test_a_ray_cluster_at_an_address_gives_the_files_of_one_process() -> None:
    # a cluster as `ray start --head` starts one (--block: it stops, and stops its processes, on
    # SIGTERM), reached at the address it writes, with a token of this test's in the environment
    temp = Path(tempfile.mkdtemp(prefix="r", dir="/tmp"))
    token = secrets.token_hex(16)
    env = {**os.environ, "RAY_AUTH_TOKEN": token, "RAY_AUTH_MODE": "token"}
    start = [Path(sys.executable).parent / "ray", "start", "--head", "--port", "0", "--num-cpus", "2"]
    start += ["--temp-dir", temp / "ray", "--include-dashboard", "false", "--disable-usage-stats", "--block"]
    head = subprocess.Popen(list(map(str, start)), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        run = ["--bots", "greedy,expert:20", "--games", "5", "--seed", "9", "--shard-games", "2"]
        one, cluster = temp / "one", temp / "cluster"
        assert selfplay(*run, "--jobs", "1", "--out", one).returncode == 0
        current = temp / "ray" / "ray_current_cluster"
        while not (current.exists() and current.read_text().strip()):
            assert head.poll() is None, "ray start --head stopped"
            time.sleep(0.1)
        address = current.read_text().strip()
        done = selfplay(*run, "--ray", address, "--out", cluster, env=env)  # --jobs 0: every CPU of it
        assert done.returncode == 0, done.stderr
        assert "5 games played, 0 kept from before" in done.stdout, done.stdout
        assert f"Ray at {address}: 2 CPUs" in done.stdout
        assert files(cluster) == files(one)
    finally:
        head.terminate()
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and token.encode() in _environ(pid)]


def _environ(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # gone since, or not ours
        return b""


def test_without_ray_one_line_names_the_extra(tmp_path: Path) -> None:
    hidden = tmp_path / "hidden" / "ray"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError('no ray here')\n")
    env = {**os.environ, "PYTHONPATH": str(hidden.parent)}
    done = selfplay("--bots", "greedy", "--games", "2", "--ray", "local", "--out", tmp_path / "x", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "splendor-cli[cluster]" in done.stderr
    assert not (tmp_path / "x").exists()
    assert selfplay("--bots", "greedy", "--ray-temp", tmp_path, "--out", tmp_path / "y").returncode == 2
    bad_env = ["--ray", "auto", "--runtime-env", "[1]"]
    assert selfplay("--bots", "greedy", *bad_env, "--out", tmp_path / "y").returncode == 2
