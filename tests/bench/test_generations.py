"""bench/generations.py and bench/train.py run as subprocesses on a tiny budget: a generation
played, fitted, written as an evaluation file the package reads, matched against the one before
by bots that search by each file, and the whole loop resumed without playing again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from splendor_cli.variants.base import evaluation

ROOT = Path(__file__).resolve().parents[2]
LOOP = [sys.executable, str(ROOT / "bench" / "generations.py")]
TINY = [
    "--generations",
    "1",
    "--games",
    "8",
    "--match",
    "4",
    "--play",
    "expert:8",
    "--judge",
    "expert:8",
    "--step",
    "0.5",
]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=900)


@pytest.mark.slow
def test_a_generation_is_played_fitted_matched_and_resumed(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    done = run(*LOOP, "--run", folder, *TINY, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "generation 1: held-out log-loss" in done.stdout and "of 4 (" in done.stdout

    record = json.loads((folder / "generations.json").read_text())
    (entry,) = record["generations"]
    assert entry["match"]["games"] == 4 and 0 <= entry["match"]["score"] <= 1
    low, high = entry["match"]["wilson"]
    assert low <= entry["match"]["score"] <= high
    assert entry["kept"] == (entry["match"]["score"] >= 0.55)
    # the fitted file is one the package reads, with phase weights, and names what it was fitted to
    text = (folder / "gen-1.toml").read_text()
    models = evaluation.read_models(text)
    assert models[2].linear == pytest.approx(entry["weights"]["linear"], abs=1e-4)
    assert models[2].phase is not None
    assert models[3].linear == evaluation.SHIPPED[3].linear and models[3].share == evaluation.SHIPPED[3].share
    assert "generation 1: phase (step 0.5), fitted to 8 games of expert:8 self-play" in text
    # halfway from generation 0 to the fit (--step 0.5): the fit made again, whole, is the other end
    again_fit = run(
        sys.executable, ROOT / "bench" / "train.py", "--data", folder / "play-0", "--out", tmp_path / "w.toml"
    )
    assert again_fit.returncode == 0, again_fit.stderr
    full = evaluation.read_models((tmp_path / "w.toml").read_text())[2]
    zero = evaluation.SHIPPED[2]
    assert models[2].linear == pytest.approx([(a + b) / 2 for a, b in zip(zero.linear, full.linear)], abs=2e-4)
    zero_phase = zero.phase or (0.0,) * len(zero.linear)
    assert full.phase is not None
    assert models[2].phase == pytest.approx([(a + b) / 2 for a, b in zip(zero_phase, full.phase)], abs=2e-4)
    # the match was played by a bot searching by each file: the seats are named after them
    games = [json.loads(line) for line in (folder / "match-1" / "games-000000.jsonl").read_text().splitlines()]
    seatings = {tuple(g["seating"]) for g in games if g["type"] == "game"}
    assert seatings == {("expert:8@gen-1", "expert:8"), ("expert:8", "expert:8@gen-1")}

    # run again: every game is kept, nothing is played, the same record
    played = {path: path.read_bytes() for path in folder.rglob("games-*.jsonl")}
    again = run(*LOOP, "--run", folder, *TINY, "--jobs", "1")
    assert again.returncode == 0, again.stderr
    assert "0 games played, 8 kept from before" in again.stdout
    assert {path: path.read_bytes() for path in folder.rglob("games-*.jsonl")} == played
    assert json.loads((folder / "generations.json").read_text()) == record
    # other settings in the same folder are refused
    other = run(*LOOP, "--run", folder, *[("9" if a == "8" else a) for a in TINY], "--jobs", "1")
    assert other.returncode == 2 and "other settings" in other.stderr


@pytest.mark.slow
def test_train_measures_against_the_base_and_refuses_what_is_not_a_run(tmp_path: Path) -> None:
    games = tmp_path / "games"
    play = [sys.executable, str(ROOT / "bench" / "selfplay.py"), "--out", games, "--games", "8", "--bots", "greedy"]
    assert run(*play, "--jobs", "1").returncode == 0
    done = run(sys.executable, ROOT / "bench" / "train.py", "--data", games, "--model", "linear", "mlp", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"]["fitted"] + report["games"]["held_out"] == 8
    assert report["games"]["held_out"] == 2  # games 3 and 7: one in four
    assert list(report["models"]) == ["base (evaluation.toml)", "linear", "mlp"]
    for model in report["models"].values():
        assert model["held_out"]["log_loss"] > 0 and 0 <= model["held_out"]["favourite_won"] <= 1
    # a linear fit to its own positions cannot do worse there than the shipped weights
    fitted = report["models"]["linear"]["fitted"]["log_loss"]
    assert fitted <= report["models"]["base (evaluation.toml)"]["fitted"]["log_loss"]

    refused = run(sys.executable, ROOT / "bench" / "train.py", "--data", tmp_path)
    assert refused.returncode == 2 and "not a folder of bench/selfplay.py" in refused.stderr
    mlp = run(sys.executable, ROOT / "bench" / "train.py", "--data", games, "--model", "mlp", "--out", tmp_path / "x")
    assert mlp.returncode == 2 and "measured only" in mlp.stderr


@pytest.mark.slow
def test_a_three_player_generation_seats_each_generation_as_often(tmp_path: Path) -> None:
    folder = tmp_path / "run3"
    tiny = ["--players", "3", "--generations", "1", "--games", "6", "--match", "5"]
    tiny += ["--play", "expert:4", "--judge", "expert:4", "--step", "0.5", "--seed", "3", "--jobs", "1"]
    done = run(*LOOP, "--run", folder, *tiny)
    assert done.returncode == 0, done.stderr
    (entry,) = json.loads((folder / "generations.json").read_text())["generations"]
    assert entry["match"]["games"] == 5 and (entry["match"]["seed"], entry["match"]["seed_b"]) == (3501, 3701)
    # the fit replaced the 3-player model only, and kept its share of the heuristic
    models = evaluation.read_models((folder / "gen-1.toml").read_text())
    assert models[3].linear != evaluation.SHIPPED[3].linear and models[3].share == evaluation.SHIPPED[3].share
    assert models[2].linear == evaluation.SHIPPED[2].linear and models[4].linear == evaluation.SHIPPED[4].linear
    # 3 games with one seat of generation 1 and 2 of generation 0, then 2 the other way round
    games = [
        g
        for part in ("match-1", "match-1-b")
        for shard in sorted((folder / part).glob("games-*.jsonl"))
        for g in map(json.loads, shard.read_text().splitlines())
        if g["type"] == "game"
    ]
    new = [[name.startswith("expert:4@gen-1") for name in g["seating"]] for g in games]
    assert sorted(map(sum, new)) == [1, 1, 1, 2, 2]
    # the score is generation 1's share of the wins, counted over every seat it held
    won = sum(o or 0 for g, mine in zip(games, new) for o, m in zip(g["outcomes"], mine) if m)
    assert entry["match"]["score"] == pytest.approx(won / 5)
