"""`splendor simulate` as a tournament runner: seats, reproducible games, the report, progress, errors."""

from __future__ import annotations

import io
import json
import math
import re
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

from splendor_cli.app.cli import app
from splendor_cli.bots import tournament as simulate
from splendor_cli.bots.tournament import Progress, Tournament, play, play_game, run, table, wilson
from splendor_cli.errors import UsageError

runner = CliRunner()
CONTRACT_KEYS = {"games", "turns", "seconds", "wins", "shared"}
TIMINGS = {"seconds_per_move", "slowest_move"}


def cli(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def report_of(*args: object) -> dict[str, Any]:
    code, out, err = cli("simulate", "--json", *args)
    assert code == 0, err
    report: dict[str, Any] = json.loads(out)
    return report


def without(report: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The report without these keys, nor the bots' think times (timings vary from run to run)."""
    out = {k: v for k, v in report.items() if k not in keys}
    out["bots"] = [{k: v for k, v in row.items() if k not in TIMINGS} for row in report["bots"]]
    return out


def by_formula(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's interval written out as in the textbooks: (p + z²/2n ± z√(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    p = wins / n
    low = (p + z**2 / (2 * n) - z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))) / (1 + z**2 / n)
    high = (p + z**2 / (2 * n) + z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))) / (1 + z**2 / n)
    return low, high


@pytest.mark.parametrize(
    ("wins", "games", "expected"),
    [(0, 10, (0.0, 0.278)), (10, 10, (0.722, 1.0)), (50, 100, (0.404, 0.596)), (1, 3, (0.061, 0.792))],
)
def test_wilson_interval_matches_the_formula_and_known_values(
    wins: int, games: int, expected: tuple[float, float]
) -> None:
    """The 95% Wilson interval: published values (0/10 -> [0, .278], 50/100 -> [.404, .596]), within [0, 1]."""
    low, high = wilson(wins, games)
    assert (round(low, 3), round(high, 3)) == expected
    assert (low, high) == pytest.approx(by_formula(wins, games), abs=1e-12)
    assert 0.0 <= low <= wins / games <= high <= 1.0


def test_wilson_interval_of_no_games_is_everything() -> None:
    """Nothing played, nothing known: [0, 1]."""
    assert wilson(0, 0) == (0.0, 1.0)


def test_bots_rotate_so_each_sits_in_each_seat_equally() -> None:
    """Over N*k games each bot plays k games from each seat; the seating of game g is the names shifted by g."""
    tournament = Tournament.of(["random", "random", "random"], 3)
    assert tournament.names == ("random#1", "random#2", "random#3")
    assert tournament.seating(1) == ("random#2", "random#3", "random#1")
    seats = Counter((seat, name) for g in range(3 * 4) for seat, name in enumerate(tournament.seating(g)))
    assert seats == {(seat, name): 4 for seat in range(3) for name in tournament.names}


def test_without_bots_seats_are_p1_to_pn_and_never_rotate() -> None:
    """The contract's default: every seat random, named p1..pN, p1 always first to play."""
    tournament = Tournament.of(None, 4)
    assert tournament.names == ("p1", "p2", "p3", "p4")
    assert {tournament.seating(g) for g in range(8)} == {("p1", "p2", "p3", "p4")}
    assert Tournament.of(["random"], 2).names == ("random#1", "random#2")


def test_each_game_is_reproducible_on_its_own() -> None:
    """Game g depends on (seed, g) only: played alone, it comes out as within a run; and the seating is recorded."""
    tournament = Tournament.of(["random", "random"], 2)
    results = play(tournament, games=4, seed=11)
    assert [r.number for r in results] == [0, 1, 2, 3]
    assert play_game(tournament, 3, 11) == results[3]
    assert [r.seating for r in results] == [tournament.seating(g) for g in range(4)]
    assert all(r.turns > 0 and len(r.points) == 2 and r.winners for r in results)
    assert play_game(tournament, 3, 12) != results[3]


def test_same_seed_same_report_whatever_the_jobs() -> None:
    """Same seed: the same JSON but for the time; two processes give what one gives."""
    one = report_of("--games", 6, "--bots", "random", "--seed", 5, "-q")
    again = report_of("--games", 6, "--bots", "random", "--seed", 5, "-q")
    two = report_of("--games", 6, "--bots", "random", "--seed", 5, "-q", "--jobs", 2)
    assert without(one, "seconds") == without(again, "seconds")
    assert without(one, "seconds", "jobs") == without(two, "seconds", "jobs")
    assert (one["jobs"], two["jobs"]) == (1, 2)


def test_duel_is_reproducible_across_jobs_too() -> None:
    """A Duel's replenishing draws come from the game's own random source too."""
    one = report_of("--variant", "duel", "--games", 4, "--seed", 2, "-q")
    two = report_of("--variant", "duel", "--games", 4, "--seed", 2, "-q", "--jobs", 2)
    assert without(one, "seconds", "jobs") == without(two, "seconds", "jobs")
    assert one["steps"] > one["turns"] and sum(one["wins"].values()) + one["draws"] == 4
    assert one["mean_steps"] == round(one["steps"] / 4, 2)


def test_without_a_seed_one_is_drawn_and_reported() -> None:
    """The drawn seed replays the run."""
    first = report_of("--games", 3, "-q")
    assert isinstance(first["seed"], int)
    replay = report_of("--games", 3, "-q", "--seed", first["seed"])
    assert without(first, "seconds") == without(replay, "seconds")


def test_report_keeps_the_contract_and_adds_the_table_per_bot() -> None:
    """Contract keys stay; per bot (seat order): wins, win rate, its interval around it, mean points."""
    report = report_of("--players", 3, "--games", 6, "--bots", "random", "--seed", 3, "-q")
    assert report.keys() >= CONTRACT_KEYS | {"seed", "players", "variant", "jobs", "mean_turns", "bots"}
    assert (report["players"], report["variant"], report["seed"]) == (3, "base", 3)
    assert report["mean_turns"] == round(report["turns"] / 6, 2)
    assert sum(report["wins"].values()) == 6 + report["shared"]  # rulebook: a tie may be shared
    assert [row["name"] for row in report["bots"]] == list(report["wins"]) == ["random#1", "random#2", "random#3"]
    for row in report["bots"]:
        assert row["wins"] == report["wins"][row["name"]]
        assert row["win_rate"] == round(row["wins"] / 6, 3)
        assert row["ci95"] == [round(b, 3) for b in wilson(row["wins"], 6)]
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
        assert 0 <= row["mean_points"] <= 30


def test_think_times_are_per_move_of_each_bot() -> None:
    """Each game counts every seat's choices and their time; the report gives each bot's mean and slowest."""
    tournament = Tournament.of(["random", "greedy"], 2)
    results = play(tournament, games=2, seed=4)
    for r in results:
        # seats alternate, the first seat moving last when a round ends the game
        assert sum(r.moves) == r.turns and r.moves[0] - r.moves[1] in (0, 1)
        assert all(0 < slow <= spent for spent, slow in zip(r.thinking, r.slowest))
    report = simulate.report(tournament, results, seed=4, seconds=1.0)
    for row in report["bots"]:
        made = [r.moves[r.seating.index(row["name"])] for r in results]
        spent = [r.thinking[r.seating.index(row["name"])] for r in results]
        assert row["seconds_per_move"] == round(sum(spent) / sum(made), 4)
        assert (
            row["seconds_per_move"]
            <= row["slowest_move"]
            == round(max(r.slowest[r.seating.index(row["name"])] for r in results), 4)
        )


def test_points_are_the_final_points_of_each_seat() -> None:
    """mean_points is the mean of each bot's final points over the games, wherever it sat."""
    tournament = Tournament.of(["random", "random"], 2)
    results = play(tournament, games=4, seed=9)
    report = simulate.report(tournament, results, seed=9, seconds=0.0)
    for row in report["bots"]:
        scored = [r.points[r.seating.index(row["name"])] for r in results]
        assert row["mean_points"] == round(sum(scored) / 4, 2)
    for r in results:
        # rulebook: a finished game is won by a player with 15 points or more, the most of anyone
        # (so the points are the final ones, each in its seat's place)
        assert r.finished and r.winners
        best = max(r.points)
        assert best >= 15 and all(r.points[r.seating.index(w)] == best for w in r.winners), r


def _stable(text: str) -> str:
    """The text with its timings (the run's seconds, each bot's think times) masked."""
    text = re.sub(r"\d+\.\d+ s$", "S.SS s", text, count=1, flags=re.MULTILINE)
    return re.sub(r" +\d+\.\d{3} +\d+\.\d{3}$", "  T.TTT    T.TTT", text, flags=re.MULTILINE)


def test_text_table(snapshot: Any) -> None:
    """The text report: a header, one aligned row per bot, the mean length; within 80 columns."""
    code, out, err = cli("simulate", "--players", 2, "--games", 20, "--bots", "random,random", "--seed", 1, "--quiet")
    assert code == 0 and err == ""  # --quiet: no progress report, which a loaded machine shows after a second
    assert max(map(len, out.splitlines())) <= 80
    assert _stable(out) == snapshot


def test_text_table_of_a_duel(snapshot: Any) -> None:
    """A Duel's report adds the steps and the draws."""
    code, out, _ = cli("simulate", "--variant", "duel", "--games", 5, "--seed", 1)
    assert code == 0
    assert _stable(out) == snapshot


def test_table_is_a_function_of_the_report() -> None:
    """table() prints the seconds of the report, and names long enough widen the first column only."""
    report = run(players=2, games=2, seed=1, bots=["random"])
    report["seconds"] = 12.345
    report["bots"][0]["name"] = "a-rather-long-bot-name"
    lines = table(report).splitlines()
    assert lines[0] == "2 games of Splendor, 2 players, seed 1, 12.35 s"
    assert lines[1].startswith("bot" + " " * 22 + "wins")
    assert lines[2].startswith("a-rather-long-bot-name  ") and len({len(line) for line in lines[1:4]}) == 1


def test_progress_lines_on_a_plain_stream() -> None:
    """Not a terminal: nothing before the delay, then a line at each tenth of the games, the last one included."""
    now = [0.0]
    stream = io.StringIO()
    progress = Progress(20, stream, tty=False, delay=1.0, clock=lambda: now[0])
    for done in range(1, 21):
        now[0] = done * 0.1
        progress(done)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [f"simulate: {n}/20 games" for n in (10, 12, 14, 16, 18, 20)]
    assert lines[-1] == "simulate: 20/20 games, 2.0 s"


def test_progress_every_game_when_few() -> None:
    """Ten games or fewer: a line per game (once past the delay)."""
    stream = io.StringIO()
    progress = Progress(3, stream, tty=False, delay=0.0)
    for done in (1, 2, 3):
        progress(done)
    assert len(stream.getvalue().splitlines()) == 3


def test_progress_bar_on_a_terminal_is_one_line_cleared_at_the_end() -> None:
    """A terminal: one line rewritten with \\r, at most ten times a second, then blanked."""
    now = [0.0]
    stream = io.StringIO()
    progress = Progress(200, stream, tty=True, clock=lambda: now[0])
    for done in range(1, 201):
        now[0] = done * 0.01
        progress(done)
    text = stream.getvalue()
    frames = text.split("\r")[1:]
    assert "\n" not in text and 15 <= len(frames) <= 25  # 2 s of play
    assert all(re.fullmatch(r"\[#*\.*\] \d+/200 games  \d+\.\d s", frame) and len(frame) <= 43 for frame in frames)
    done = [int(frame.split()[1].split("/")[0]) for frame in frames]
    assert done == sorted(done) and all(frame.count("#") == 20 * n // 200 for frame, n in zip(frames, done))
    assert frames[-1] == "[####################] 200/200 games  2.0 s"
    progress.close()
    assert stream.getvalue().endswith("\r" + " " * len("[####################] 200/200 games  2.0 s") + "\r")


def test_progress_goes_to_stderr_and_json_stays_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI reports progress on stderr (no delay here), with one process or two; --quiet silences it."""
    monkeypatch.setattr(simulate, "DELAY", 0.0)
    for jobs in (1, 2):
        code, out, err = cli("simulate", "--games", 10, "--seed", 1, "--json", "--jobs", jobs)
        assert code == 0 and json.loads(out)["games"] == 10
        assert err.splitlines()[-1].startswith("simulate: 10/10 games, ")
        assert all(re.fullmatch(r"simulate: \d+/10 games, \d+\.\d s", line) for line in err.splitlines())
    code, out, err = cli("simulate", "--games", 10, "--seed", 1, "--json", "-q")
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "bogus"), "unknown bot 'bogus'"),
        (("--bots", "random,bogus"), "unknown bot 'bogus'"),
        (("--bots", "mcts:lots"), "budget"),
        (("--bots", "greedy:3"), "only mcts"),
        (("--players", 3, "--bots", "random,random"), "2 bots for 3 players"),
        (("--variant", "duel", "--players", 3), "2 players"),
        (("--variant", "trio"), "unknown variant"),
        (("--jobs", -1), "--jobs"),
    ],
)
def test_usage_errors_exit_2_on_one_line(args: tuple[object, ...], message: str) -> None:
    """Bad bots, counts, variants or jobs are refused before any game: exit 2, one line on stderr."""
    code, out, err = cli("simulate", *args)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_run_checks_everything_before_playing() -> None:
    """run() (the bench's entry) refuses a bad bot before playing any game, and reports progress as games end."""
    with pytest.raises(UsageError):
        run(players=2, games=10**9, seed=1, bots=["random", "bogus"])
    seen: list[int] = []
    report = run(players=2, games=3, seed=1, progress=seen.append)
    assert seen == [1, 2, 3] and report["wins"].keys() == {"p1", "p2"}
