"""No pushed turn is lost without its player's word (issue 31, item 4), through the real command
line, real clones and a real bare remote, each player with their own HOME, memory and cache.

1. An open game without e-mails: bob pushes his turn #4; eve, on a stale clone, plays another
   #4 for bob (`--as bob`) and syncs into the fork. Keeping her side would drop bob's pushed
   turn, carried by bob's commit: `resolve` refuses it (exit 3), `sync` refuses a merge settled
   that way by hand (exit 5, nothing committed), and a merge that drops it, committed and pushed
   with plain git, is refused by bob's `sync` (exit 4, nothing merged) and by `verify --git` in a
   fresh clone (exit 4). Keeping bob's side (eve drops her own commit) is taken.
   Before the rule, eve's `resolve` and `sync` pushed the merge and `verify --git` passed
   everywhere: in a game without e-mails nobody was checked.
2. A sealed game: bob pushes #13; eve, at #12, appends her own #13, commits it and force-pushes
   (a bare remote allows it). bob's `sync` sees that the remote no longer holds the commit it
   last audited there: exit 4, naming the vanished commit and #13 bob's turn, nothing merged;
   his `verify --git` of a clone reset to the rewritten remote names the vanished event he saw.
   Before, his sync took the rewritten history as a fork (exit 5) he could only settle by
   withdrawing his own turn.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scenarios.table import GAME, Player, run_git, table

pytestmark = pytest.mark.slow


def _own_machine(player: Player, root: Path) -> Player:
    """`player` with their own HOME, data folder (the memory of seen games on) and cache."""
    base = root / f"{player.name}-machine"
    for folder in ("data", "cache", "secrets"):
        (base / folder).mkdir(parents=True, exist_ok=True)
    player.env.update(
        {
            "HOME": str(base),
            "XDG_DATA_HOME": str(base / "data"),
            "SPLENDOR_CACHE": str(base / "cache"),
            "SPLENDOR_SECRETS": str(base / "secrets"),
            "SPLENDOR_NO_MEMORY": "",
        }
    )
    return player


def _to_move(player: Player) -> str:
    return str(json.loads(player.splendor("state", "--json", "-g", GAME).stdout)["to_move"])


# -- 1. an open game without e-mails ------------------------------------------------------------------


def _open_fork(tmp_path: Path) -> tuple[Path, Player, Player]:
    """bob and eve (no e-mails in the header) to #3; bob's #4 pushed; eve's #4 for bob, played
    from her stale clone with `--as bob`, forks the game at her sync (exit 5)."""
    remote, (bob, eve) = table(tmp_path, ("bob", "eve"), rebase=False)
    for player in (bob, eve):
        _own_machine(player, tmp_path)
    (bob.home / "games").mkdir()
    bob.splendor("new", "-g", GAME, "--players", "bob,eve", "--seed", "1")
    bob.splendor("git", "install")
    assert _to_move(bob) == "bob"
    bob.splendor("take", "white", "blue", "green", "-g", GAME, "--as", "bob")
    bob.splendor("sync", "--as", "bob")
    eve.splendor("sync", "--as", "eve")
    eve.splendor("take", "red", "black", "green", "-g", GAME, "--as", "eve")
    eve.splendor("sync", "--as", "eve")
    bob.splendor("sync", "--as", "bob")
    bob.splendor("take", "white", "blue", "red", "-g", GAME, "--as", "bob")
    assert "pushed to origin/main" in bob.splendor("sync", "--as", "bob").stdout
    eve.splendor("take", "white", "blue", "black", "-g", GAME, "--as", "bob")  # bob's #4, by eve
    forked = eve.splendor("sync", "--as", "eve", ok=False)
    assert forked.returncode == 5 and "game forked after event #3" in forked.stderr, forked.stderr
    return remote, bob, eve


def _remote_head(player: Player) -> str:
    return player.git("ls-remote", "origin", "refs/heads/main").split()[0]


def test_eve_may_not_drop_bobs_pushed_turn_in_a_game_without_emails(tmp_path: Path) -> None:
    """eve's `resolve --keep ours` (her side) is refused (exit 3, the file as it was, naming the
    side the audit takes); her side written by hand is refused by her `sync` (exit 5, nothing
    committed, nothing pushed). She keeps bob's side: her sync pushes, bob's sync takes it, and
    `verify --git` is ok in both clones."""
    _, bob, eve = _open_fork(tmp_path)
    pushed = _remote_head(bob)
    forked = (eve.home / GAME).read_bytes()
    done = eve.splendor("resolve", "--keep", "ours", "-g", GAME, ok=False)
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert "keep the other side: `splendor resolve --keep" in done.stderr, done.stderr
    assert (eve.home / GAME).read_bytes() == forked

    eve.git("checkout", "--ours", "--", GAME)  # her side, past `resolve`
    done = eve.splendor("sync", "--as", "eve", ok=False)
    assert done.returncode == 5, (done.stdout, done.stderr)
    assert "nothing committed, nothing pushed" in done.stderr, done.stderr
    assert "bob" in done.stderr, done.stderr
    assert _remote_head(eve) == pushed and eve.git("rev-list", "--count", "--merges", "HEAD") == "0\n"

    keep = done.stderr.split("splendor resolve --keep ")[1].split("`")[0]
    assert "kept theirs" in eve.splendor("resolve", "--keep", keep, "-g", GAME).stdout
    assert "pushed to origin/main" in eve.splendor("sync", "--as", "eve").stdout
    bob.splendor("sync", "--as", "bob")
    for player in (bob, eve):
        assert ": ok: " in player.splendor("verify", "--git", "-g", GAME).stdout
    assert _to_move(bob) == "eve"  # bob's #4 kept


def test_a_merge_that_drops_bobs_pushed_turn_is_refused_everywhere(tmp_path: Path) -> None:
    """eve gets round `resolve` and `sync`: her side by hand, the merge committed and pushed with
    plain git. bob's `sync` refuses what it fetched (exit 4, nothing merged: his turn stays), and
    `verify --git` names the merge in a fresh clone (exit 4)."""
    _, bob, eve = _open_fork(tmp_path)
    eve.git("checkout", "--ours", "--", GAME)
    eve.git("add", "--", GAME)
    eve.git("commit", "-q", "--no-edit", "--no-verify")
    eve.git("push", "-q", "origin", "HEAD:main")
    merge = eve.git("rev-parse", "HEAD").strip()

    head = bob.git("rev-parse", "HEAD")
    done = bob.splendor("sync", "--as", "bob", ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert "nothing merged" in done.stderr and f"first bad commit {merge}" in done.stderr, done.stderr
    assert "drops #4 bob's turn" in done.stderr, done.stderr
    assert bob.git("rev-parse", "HEAD") == head

    run_git(tmp_path, "clone", "-q", str(tmp_path / "remote.git"), "fresh")
    fresh = _own_machine(Player(name="fresh", home=tmp_path / "fresh"), tmp_path)
    done = fresh.splendor("verify", "--git", "-g", GAME, ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert f"first bad commit {merge}" in done.stdout and "drops #4 bob's turn" in done.stdout, done.stdout
    assert "bob" in done.stdout.split("drops #4 bob's turn")[1], done.stdout


# -- 2. a sealed game: a force-push over a pushed turn --------------------------------------------------

TURNS = ("take white blue red", "take blue green black", "take blue green black", "take white green red")
"""#9 to #12: bob's, eve's, bob's, eve's (no card is bought: no share is owed after the deal)."""


def _sealed_to_move(player: Player) -> str | None:
    game = json.loads(player.splendor("sync", "--json").stdout)["games"][0]
    return str(game["to_move"]) if game["to_move"] else None


def _force_pushed(tmp_path: Path) -> tuple[Player, Player, str]:
    """A sealed game of bob and eve to #12 in both clones; bob's #13 pushed; eve, still at #12,
    appends her own #13 (an agreement to a rewind), commits it and force-pushes it over bob's.
    bob's commit of #13, gone from the remote."""
    from scenarios.sealed_table import equip, seq_of

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
        (who,) = (p for p in (bob, eve) if _sealed_to_move(p) == p.name)
        who.splendor("play", "-g", GAME, notation)
        who.splendor("sync")
    bob.splendor("sync")
    assert seq_of(bob.home / GAME) == seq_of(eve.home / GAME) == 12
    bob.splendor("play", "-g", GAME, "take white blue green")
    assert "pushed to origin/main" in bob.splendor("sync").stdout
    gone = bob.git("rev-parse", "HEAD").strip()
    eve.splendor("undo", "--to", "11", "--agree")  # her own #13, beside bob's
    eve.splendor("sync", "--offline")
    eve.git("push", "-q", "--force", "origin", "HEAD:main")
    assert _remote_head(eve) != gone
    return bob, eve, gone


def test_sync_refuses_a_remote_that_lost_the_commit_it_audited(tmp_path: Path) -> None:
    """bob's `sync` after eve's force-push: exit 4, naming the commit that vanished from
    origin/main and #13 bob's turn, and what to run next; nothing merged (his branch and file as
    they were), and the same again at the next sync. His clone reset to the rewritten remote:
    `verify --git` names the event he saw that vanished (exit 4)."""
    bob, _, gone = _force_pushed(tmp_path)
    head, data = bob.git("rev-parse", "HEAD"), (bob.home / GAME).read_bytes()
    for _ in range(2):
        done = bob.splendor("sync", ok=False)
        assert done.returncode == 4, (done.stdout, done.stderr)
        assert gone[:8] in done.stderr and "#13 bob's turn" in done.stderr, done.stderr
        assert "origin/main no longer holds" in done.stderr and "nothing merged" in done.stderr, done.stderr
        assert bob.git("rev-parse", "HEAD") == head and (bob.home / GAME).read_bytes() == data
        assert bob.git("rev-list", "--count", "--merges", "HEAD") == "0\n"

    bob.git("reset", "-q", "--hard", "origin/main")
    done = bob.splendor("verify", "--git", "-g", GAME, ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert "event #13 (bob's turn) that you saw" in done.stdout, done.stdout

    bob.splendor("forget", "-g", GAME)  # what the line says, once every player agrees to the new history
    assert ": ok: " in bob.splendor("verify", "--git", "-g", GAME).stdout
    assert bob.splendor("sync").returncode == 0
