"""A fork of a sealed game over git, settled by `splendor resolve`: a player may leave out their own
signed events, never another player's (sharing/git_audit.py's rule for sealed games).

bob and eve play a sealed game over a real bare repository, each in their own clone with their
own HOME, data folder and key, through the real `splendor` (tests/scenarios/sealed_table.py).
After #12 (eve's turn), bob plays #13 and pushes it; eve, whose clone is still at #12, agrees
to a rewind to #11 (`undo --to 11 --agree`, her #13) and syncs: the game forks.

- If eve keeps her side (`resolve --keep eve`), her merge would leave out bob's pushed turn:
  her `sync` refuses before committing, one line saying which side to keep, and pushes
  nothing. Were the merge pushed by hand, `verify --git` names it in every clone (exit 4),
  whatever e-mail the commit bears. Before the rule, her sync pushed it and `verify --git`
  passed in every clone but bob's.
- If eve keeps bob's side, she withdraws her own agreement: her sync concludes the merge with
  her signed consent, pushes it, and `verify --git` passes in both clones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scenarios.sealed_table import equip, events_of, seq_of
from scenarios.table import GAME, Player, table

pytestmark = pytest.mark.slow

TURNS = ("take white blue red", "take blue green black", "take blue green black", "take white green red")
"""#9 to #12: bob's, eve's, bob's, eve's (no card is bought: no share is owed after the deal)."""


def _forked(tmp_path: Path) -> tuple[Player, Player]:
    """The game to #12 in both clones; bob's #13 pushed; eve's agreement (#13) forks it at her sync."""
    _, (bob, eve) = table(tmp_path, ("bob", "eve"), rebase=False)
    for player in (bob, eve):
        equip(player, tmp_path)
    (bob.home / "games").mkdir()
    bob.splendor("new", "-g", GAME, "--players", f"bob={bob.email},eve={eve.email}", "--sealed")
    bob.splendor("sync", "--as", "bob")
    eve.splendor("sync", "--as", "eve")
    for _ in range(3):  # shuffles, the face-up cards' shares, the deal
        for player in (bob, eve):
            player.splendor("sync")
    for notation in TURNS:
        (who,) = (p for p in (bob, eve) if _to_move(p) == p.name)
        who.splendor("play", "-g", GAME, notation)
        who.splendor("sync")
    bob.splendor("sync")
    assert seq_of(bob.home / GAME) == seq_of(eve.home / GAME) == 12
    assert _to_move(bob) == "bob"
    bob.splendor("play", "-g", GAME, "take white blue green")
    assert "pushed to origin/main" in bob.splendor("sync").stdout
    said = eve.splendor("undo", "--to", "11", "--agree").stdout
    assert said.startswith("#13 eve agrees to a rewind to just after #11"), said
    forked = eve.splendor("sync", ok=False)
    assert forked.returncode == 5 and "game forked after event #12" in forked.stderr, forked.stderr
    return bob, eve


def _to_move(player: Player) -> str | None:
    game = json.loads(player.splendor("sync", "--json").stdout)["games"][0]
    return str(game["to_move"]) if game["to_move"] else None


def _remote_head(player: Player) -> str:
    return player.git("ls-remote", "origin", "refs/heads/main").split()[0]


def test_a_fork_settled_by_leaving_out_another_players_turn_is_refused(tmp_path: Path) -> None:
    """eve keeps her side: `resolve` refuses it (exit 3, one line: keep bob's side, and how), the
    file unchanged, nothing committed, nothing pushed. She does as it says: her sync then pushes a
    merge that passes the audit in both clones."""
    bob, eve = _forked(tmp_path)
    pushed = _remote_head(bob)
    before = (eve.home / GAME).read_bytes()
    done = eve.splendor("resolve", "--keep", "eve", ok=False)
    assert done.returncode == 3, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert "it leaves out #13 bob's turn, which only bob may withdraw in a sealed game" in line, line
    assert "keep the other side: `splendor resolve --keep " in line and "the file is unchanged" in line, line
    assert (eve.home / GAME).read_bytes() == before
    assert _remote_head(eve) == pushed, "nothing pushed"
    assert eve.git("rev-list", "--count", "--merges", "HEAD") == "0\n", "nothing committed"

    keep = line.split("splendor resolve --keep ")[1].split("`")[0]
    assert "kept theirs" in eve.splendor("resolve", "--keep", keep).stdout
    done = eve.splendor("sync", ok=False)
    assert done.returncode == 0 and "pushed to origin/main" in done.stdout, (done.stdout, done.stderr)
    assert "Splendor-Withdrawn-By: eve " in eve.git("log", "-1", "--merges", "--format=%B")
    assert bob.splendor("sync").returncode == 0
    for player in (bob, eve):
        audit = player.splendor("verify", "--git", "-g", GAME)
        assert ": ok: " in audit.stdout, audit.stdout
    assert [e["type"] for e in events_of(bob.home / GAME)][12] != "rewind_agreed"


def test_a_player_may_settle_a_fork_by_withdrawing_their_own_event(tmp_path: Path) -> None:
    """eve keeps bob's side at once (`resolve --keep bob`): she withdraws her own agreement, which
    her sync signs; bob's clone takes the merge, and both audits pass."""
    bob, eve = _forked(tmp_path)
    assert "kept theirs" in eve.splendor("resolve", "--keep", "bob").stdout
    done = eve.splendor("sync")
    assert "pushed to origin/main" in done.stdout, done.stdout
    message = eve.git("log", "-1", "--merges", "--format=%B")
    assert message.startswith("splendor sync: merge origin/main") and "Splendor-Withdrawn-By: eve " in message
    bob.splendor("sync")
    assert bob.git("rev-parse", "HEAD") == eve.git("rev-parse", "HEAD")
    for player in (bob, eve):
        audit = player.splendor("verify", "--git", "-g", GAME)
        assert ": ok: " in audit.stdout, audit.stdout
        player.splendor("verify", "-g", GAME)
    assert [e["type"] for e in events_of(eve.home / GAME)][12] == "tokens_taken"


@pytest.mark.parametrize("email", ["eve", "bob"], ids=["eve's e-mail", "bob's e-mail"])
def test_verify_names_the_merge_in_every_clone_when_it_is_pushed_by_hand(tmp_path: Path, email: str) -> None:
    """eve keeps her side and gets round `resolve` and her sync (which both refuse it): she writes
    her side by hand, commits the merge (under her e-mail, or under bob's) and pushes it. `verify
    --git` names it (exit 4, the turn it drops and whose it is) in her clone, in bob's once he
    fetched it (`verify --git origin/main`), and once he pulled it."""
    from splendor_cli.sharing import gitmerge

    bob, eve = _forked(tmp_path)
    assert eve.splendor("resolve", "--keep", "eve", ok=False).returncode == 3
    _, kept = gitmerge.resolve((eve.home / GAME).read_bytes(), "eve")  # what resolve would keep, by hand
    (eve.home / GAME).write_bytes(kept)
    eve.git("add", "--", GAME)
    eve.git("-c", f"user.email={email}@example.org", "commit", "-q", "--no-edit", "--no-verify")
    eve.git("push", "-q", "origin", "HEAD:main")
    merge = eve.git("rev-parse", "HEAD").strip()
    bob.git("fetch", "-q")
    runs = [
        eve.splendor("verify", "--git", "-g", GAME, ok=False),
        bob.splendor("verify", "--git", "-g", GAME, "origin/main", ok=False),
    ]
    bob.git("merge", "-q", "--ff-only", "origin/main")
    runs.append(bob.splendor("verify", "--git", "-g", GAME, ok=False))
    for done in runs:
        assert done.returncode == 4, (done.stdout, done.stderr)
        assert f"first bad commit {merge}" in done.stdout, done.stdout
        assert "drops #13 bob's turn of parent" in done.stdout, done.stdout
        assert "they are bob's, and the merge holds no consent signed by bob" in done.stdout, done.stdout
