"""The whole story of an asynchronous game: two players over git, a third by e-mail, to the end."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import git
from helpers import splendor_in as _splendor

from splendor_cli import store
from splendor_cli.variants.base.cards import CARDS
from splendor_cli.variants.base.notation import format_move
from splendor_cli.variants.base.rules import legal_moves

pytestmark = pytest.mark.slow  # a whole game over git and mail

GAME = Path("games") / "friday.toml"

PEOPLE = {"alice": "alice@example.org", "bob": "bob@example.org"}


def _git(cwd: Path, *args: str, who: str = "alice") -> subprocess.CompletedProcess[str]:
    return git(cwd, *args, who=who, email=PEOPLE.get(who, ""))


def _random_move(path: Path, rng: random.Random) -> str:
    """A buy worth the most points when there is one (games end sooner), else any legal turn."""
    moves = legal_moves(store.read(path).game.state)
    buys = [m for m in moves if m.action == "buy"]
    if buys:
        return format_move(max(buys, key=lambda m: (CARDS[m.card].points, rng.random())))
    return format_move(rng.choice([m for m in moves if m.action == "take"] or moves))


@pytest.mark.usefixtures("git_installed")
def test_two_players_over_git_and_one_by_mail_play_a_whole_game(tmp_path: Path) -> None:
    """alice and bob play through a shared repository with the merge driver, carol by mailed move
    blocks relayed by bob; once a mailed move is committed in both clones at once and the driver
    merges the identical appends. The game ends, every copy holds the same bytes, and
    `verify --git` passes on the history (authors checked against the header's e-mails)."""
    rng = random.Random(11)
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    a, b = tmp_path / "alice", tmp_path / "bob"
    _git(tmp_path, "clone", "-q", str(remote), str(a))
    _git(a, "checkout", "-q", "-b", "main")
    players = "alice=alice@example.org,bob=bob@example.org,carol"
    _splendor(a, "new", "-g", str(GAME), "--players", players, "--seed", "5")
    _splendor(a, "git", "install")
    _git(a, "add", "-A")
    _git(a, "commit", "-q", "-m", "new game")
    _git(a, "push", "-q", "-u", "origin", "main")
    _git(tmp_path, "clone", "-q", str(remote), str(b), who="bob")
    _splendor(b, "git", "install")
    carol = tmp_path / "carol.toml"  # carol got the new game as an attachment
    carol.write_bytes((a / GAME).read_bytes())
    driver = shlex.join([sys.executable, "-m", "splendor_cli"])
    assert driver in _git(b, "config", "merge.splendor.driver").stdout
    raced = False
    while True:
        _git(b, "pull", "-q", "--no-rebase", who="bob")
        state = store.read(b / GAME).game.state
        if state.finished:
            break
        mover = state.player.name
        if mover in PEOPLE:
            clone = a if mover == "alice" else b
            if clone is a:
                _git(clone, "pull", "-q", "--no-rebase", who=mover)
            move = _random_move(clone / GAME, rng)
            _splendor(clone, "play", "-g", str(GAME), "--as", mover, move)
            _git(clone, "commit", "-q", "-am", f"{mover}: {move}", who=mover)
            _git(clone, "push", "-q", who=mover)
            continue
        # carol: bob mails her the turns she lacks; she plays and mails hers back
        _git(b, "pull", "-q", "--no-rebase", who="bob")
        missing = store.read(b / GAME).game.seq - store.read(carol).game.seq
        block = _splendor(b, "export", "-g", str(GAME), "--last", str(missing))
        _splendor(tmp_path, "apply", "-g", str(carol), "-", input="> " + block.replace("\n", "\n> "))
        move = _random_move(carol, rng)
        _splendor(tmp_path, "play", "-g", str(carol), "--as", "carol", move)
        mail = _splendor(tmp_path, "export", "-g", str(carol))
        _splendor(b, "apply", "-g", str(GAME), "-", input=mail)
        _git(b, "commit", "-q", "-am", f"carol (by mail): {move}", who="bob")
        if not raced:  # alice got the mail too and commits it at the same moment
            _git(a, "pull", "-q", "--no-rebase")
            _splendor(a, "apply", "-g", str(GAME), "-", input=mail)
            _git(a, "commit", "-q", "-am", f"carol (by mail): {move}")
            _git(a, "push", "-q")
            merged = _git(b, "pull", "--no-rebase", "origin", "main", who="bob")
            assert "CONFLICT" not in merged.stdout
            raced = True
        _git(b, "push", "-q", who="bob")
    _git(a, "pull", "-q", "--no-rebase")
    _splendor(b, "export", "-g", str(GAME))  # the last turn, for carol
    assert (a / GAME).read_bytes() == (b / GAME).read_bytes()
    assert raced and state.winners()
    report = _splendor(b, "verify", "--git", "-g", str(GAME))
    assert "ok" in report
