"""Two people play a whole Splendor Duel over git, to a victory, step by step.

alice and bob each have a clone of a shared repository with the merge driver installed. The
player to move pulls, plays the turn's steps one `play` at a time (a small heuristic chooses:
buy what scores, spend privileges, replenish a bare board, else take the longest line), commits
the turn and pushes. On the way they use privileges, replenish the board, buy a wild card and
take a royal card; at the end both clones hold the same bytes and `verify --git` passes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import git as _git
from helpers import splendor_in as _splendor

from splendor_cli import store
from splendor_cli.model import Gem
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS
from splendor_cli.variants.duel.notation import format_step
from splendor_cli.variants.duel.state import DuelState
from splendor_cli.variants.duel.step import Step

pytestmark = pytest.mark.slow  # whole games over git

GAME = Path("games") / "duel.toml"


def _choose(state: DuelState, rng: random.Random) -> Step:
    steps = duel.legal_steps(state)
    kinds = {s.step for s in steps}
    if state.phase == "return":
        return max(steps, key=lambda s: (s.colour is not Gem.GOLD, state.player.tokens[s.colour] if s.colour else 0))
    if state.phase != "main":
        return steps[0]
    buys = [s for s in steps if s.step == "buy"]
    if buys:
        return max(buys, key=lambda s: (DUEL_CARDS[s.card].points + DUEL_CARDS[s.card].crowns, rng.random()))
    if "privilege" in kinds:
        return rng.choice([s for s in steps if s.step == "privilege"])
    if "replenish" in kinds and sum(g is not None and g is not Gem.GOLD for g in state.board) < 9:
        return next(s for s in steps if s.step == "replenish")
    takes = [s for s in steps if s.step == "take"] or steps
    return max(takes, key=lambda s: (len(s.cells), rng.random()))


@pytest.mark.usefixtures("git_installed")
def test_two_players_play_a_whole_duel_over_git(tmp_path: Path) -> None:
    rng = random.Random(3)
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    a, b = tmp_path / "alice", tmp_path / "bob"
    _git(tmp_path, "clone", "-q", str(remote), str(a))
    _git(a, "checkout", "-q", "-b", "main")
    players = "alice=alice@example.org,bob=bob@example.org"
    _splendor(a, "new", "-g", str(GAME), "--players", players, "--variant", "duel", "--seed", "4")
    _splendor(a, "git", "install")
    _git(a, "add", "-A")
    _git(a, "commit", "-q", "-m", "new Duel")
    _git(a, "push", "-q", "-u", "origin", "main")
    _git(tmp_path, "clone", "-q", str(remote), str(b), who="bob")
    _splendor(b, "git", "install")
    clones = {"alice": a, "bob": b}
    mover = "alice"
    while True:
        clone = clones[mover]
        _git(clone, "pull", "-q", "--no-rebase", who=mover)
        loaded = store.read(clone / GAME)
        said = []
        while True:  # choose the turn's steps, each judged after the ones before it
            state = loaded.game.state
            assert isinstance(state, DuelState)
            if state.finished or state.player.name != mover:
                break
            step = _choose(state, rng)
            said.append(format_step(step))
            loaded = store.stage(loaded, loaded.game.decide(step))
        _splendor(clone, "play", "-g", str(GAME), "--as", mover, "; ".join(said))
        _git(clone, "commit", "-q", "-am", f"{mover}: {'; '.join(said)}", who=mover)
        _git(clone, "push", "-q", who=mover)
        if state.finished:
            break
        mover = state.player.name
    _git(a if clone is b else b, "pull", "-q", "--no-rebase")
    assert (a / GAME).read_bytes() == (b / GAME).read_bytes()
    game = store.read(a / GAME).game
    final = game.state
    assert isinstance(final, DuelState) and final.winners() and final.win_condition
    types = {e.TYPE for e in game.events}
    assert {"privilege_used", "board_replenished", "royal_taken"} <= types
    assert any(getattr(e, "wild", "") for e in game.events)  # a wild card joined a colour
    assert "ok" in _splendor(b, "verify", "--git", "-g", str(GAME))
