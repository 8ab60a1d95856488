"""`splendor sync` between real clones of one repository: turns committed one per commit and
pushed, the others' turns merged by events whatever `pull.rebase` says, forks stopped and
settled by turn name, and an audit (`verify --git`) that passes on the history it leaves."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from scenarios.table import GAME, Player, table

pytestmark = pytest.mark.slow


def _start(tmp_path: Path, *, rebase: bool, names: tuple[str, ...] = ("alice", "bob")) -> list[Player]:
    """A game among `names` (with their addresses in the header), created by the first and synced by all."""
    _, players = table(tmp_path, names, rebase=rebase)
    first = players[0]
    (first.home / "games").mkdir()
    spec = ",".join(f"{p.name}={p.email}" for p in players)
    first.splendor("new", "--players", spec, "--seed", "5", "-g", GAME)
    first.splendor("sync")
    for player in players[1:]:
        player.splendor("sync")  # an empty clone gets the game
    return players


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_turns_travel_one_commit_each_and_the_history_verifies(tmp_path: Path, rebase: bool) -> None:
    """Each sync commits the player's new turn alone (authored by the player, standard subject),
    pushes it, and the other's sync shows it and the board on their turn."""
    alice, bob = _start(tmp_path, rebase=rebase)
    alice.splendor("take", "white", "blue", "green")
    shared = alice.splendor("sync", "--color", "never").stdout
    assert "#2 alice: take white blue green" in shared and "pushed to origin/main" in shared
    seen = bob.splendor("sync", "--color", "never").stdout
    assert "take white blue green" in seen
    assert "your turn, bob" in seen and "Bank" in seen  # the board, on bob's turn
    bob.splendor("take", "red", "black", "green")
    report = json.loads(bob.splendor("sync", "--json").stdout)
    assert report["pushed"] is True
    assert [c["first"] for c in report["committed"]] == [3]
    assert report["games"][0]["to_move"] == "alice" and report["games"][0]["your_turn"] is False
    alice.git("pull", "-q")  # a plain `git pull` works too, whatever pull.rebase says
    log = alice.git("log", "--format=%an <%ae> %s", "--", GAME).splitlines()
    assert log[0].startswith("bob <bob@example.org> ") and log[0].endswith("#3 bob: take green red black")
    assert log[1].startswith("alice <alice@example.org> ")
    assert "ok" in alice.splendor("verify", "--git", "-g", GAME).stdout


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_a_fork_stops_sync_and_is_settled_by_turn_name(tmp_path: Path, rebase: bool) -> None:
    """Alice, from a stale copy, takes her turn back and plays another while bob has moved and
    pushed: her sync stops (exit 5) naming both sides; `resolve --keep bob` and a second sync settle
    it, push, and the full history verifies."""
    alice, bob = _start(tmp_path, rebase=rebase)
    alice.splendor("take", "white", "blue", "green")
    alice.splendor("sync")
    bob.splendor("sync")
    bob.splendor("take", "red", "black", "green")
    bob.splendor("sync")
    alice.splendor("undo")
    alice.splendor("take", "red", "red")
    stopped = alice.splendor("sync", ok=False)
    assert stopped.returncode == 5, stopped.stderr
    assert "game forked after event #2" in stopped.stderr and "resolve --keep" in stopped.stderr
    both = alice.splendor("log", "--color", "never")
    assert "-- ours [" in both.stdout and "-- theirs [" in both.stdout and "take green red black" in both.stdout
    assert "bob" in alice.splendor("show", "--side", "bob", "--color", "never").stdout
    alice.splendor("resolve", "--keep", "bob")
    settled = alice.splendor("sync", "--color", "never").stdout
    assert "pushed to origin/main" in settled and "your turn, alice" in settled
    bob.splendor("sync")
    assert alice.git("rev-parse", "HEAD") == bob.git("rev-parse", "HEAD")
    for player in (alice, bob):
        assert player.splendor("verify", "--git", "-g", GAME).returncode == 0


def test_sync_offline_commits_each_turn_and_sync_without_a_remote_says_so(tmp_path: Path) -> None:
    """Two turns played at one keyboard (bob's for him, on purpose: `--for`) become two commits
    (the audit's rule), each by who played it, with nothing else of the work tree or the index
    committed; the audit takes them."""
    alice, _ = _start(tmp_path, rebase=False)
    (alice.home / "notes.txt").write_text("mine")
    alice.git("add", "notes.txt")
    alice.splendor("take", "white", "blue", "green")
    alice.splendor("take", "red", "red", "--for", "bob")
    made = alice.splendor("sync", "--offline").stdout
    assert [line.split()[3:5] for line in made.splitlines() if line.startswith("committed ")] == [
        ["#2", "alice:"],
        ["#3", "bob:"],
    ]
    assert alice.git("status", "--porcelain") == "A  notes.txt\n"  # still staged, never committed
    assert alice.git("log", "-2", "--format=%an").split() == ["alice", "alice"]  # who played each
    assert alice.splendor("verify", "--git", "-g", GAME).returncode == 0


def test_games_lists_every_game_and_marks_my_turn(tmp_path: Path) -> None:
    """`games` finds every game in the repository; * marks the one where the git user is to move."""
    alice, bob = _start(tmp_path, rebase=False)
    bob.splendor("new", "--players", f"bob={bob.email},alice={alice.email}", "-g", "games/second.toml")
    listed = bob.splendor("games").stdout.splitlines()
    assert len(listed) == 3
    mine = [line for line in listed if line.startswith("*")]
    assert len(mine) == 1 and "games/second.toml" in mine[0]
    rows = json.loads(bob.splendor("games", "--json").stdout)
    assert {r["path"]: r["your_turn"] for r in rows} == {GAME: False, "games/second.toml": True}
    several = bob.splendor("show", ok=False)
    assert several.returncode == 2 and GAME in several.stderr and "games/second.toml" in several.stderr


def test_a_text_merge_without_the_driver_is_named_and_the_named_fix_works(tmp_path: Path) -> None:
    """A clone where neither `git install` nor `sync` ran lets git merge the game as text: splendor
    refuses the file (exit 5) naming git's conflict markers and the fix; the fix (`git install`,
    `git checkout --merge`) merges it again by events, and `resolve` plus `sync` finish it."""
    _, (alice, bob) = table(tmp_path, ("alice", "bob"), rebase=False)
    (alice.home / "games").mkdir()
    alice.splendor("new", "--players", "ann,bob", "--seed", "3", "-g", GAME)
    alice.git("add", GAME)
    alice.git("commit", "-qm", "new game")
    alice.git("push", "-q", "origin", "HEAD")
    bob.git("pull", "-q")
    alice.splendor("take", "white", "blue", "green")
    alice.git("commit", "-qam", "ann's turn")
    alice.git("push", "-q")
    bob.splendor("take", "red", "red")
    bob.git("commit", "-qam", "ann's turn, again")
    pulled = subprocess.run(["git", "pull", "-q"], cwd=bob.home, capture_output=True, text=True)
    assert pulled.returncode != 0  # git's own text merge: a conflict
    refused = bob.splendor("show", ok=False)
    assert refused.returncode == 5
    assert "git's conflict markers" in refused.stderr and "splendor git install" in refused.stderr
    assert refused.stderr.count("\n") == 1
    bob.splendor("git", "install")
    bob.git("checkout", "--merge", "--", GAME)  # merged again, by the driver: a forked game
    forked = bob.splendor("log", "--color", "never")
    assert "-- ours [" in forked.stdout and "take white blue green" in forked.stdout
    ref = forked.stdout.split("-- theirs [")[1][:6]
    bob.splendor("resolve", "--keep", ref)
    assert "pushed to origin/main" in bob.splendor("sync").stdout
    assert bob.splendor("verify", "--git", "-g", GAME).returncode == 0
