"""`resolve --keep` in a forked sealed game during a merge (issue 31, item 7): the side the history
audit would refuse (it leaves out another player's signed turn, which only they may withdraw) is
refused at once, exit 3 as for an open game, in one line naming the `--keep` of the side to take;
the file is left as it was. The side it names is kept (ann withdraws her own event).

The history of tests/sharing/test_sealed_withdrawal.py: on main, bob's turn after the fork; on
`stale` (ann's clone, checked out), ann's agreement to a rewind after the same event. ann merges
main: the game file is the forked file the merge driver leaves, ann's key is on the machine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs
import pytest
from helpers import cli, git
from sharing.test_sealed_withdrawal import GAME, Fork, _fork, _history

from splendor_cli.app.services.keyfile import keys_folder, write_key
from splendor_cli.events.codec import format_record
from splendor_cli.forks import split_fork
from splendor_cli.sharing.gitmerge import merge

pytestmark = [
    pytest.mark.usefixtures("git_installed"),
    pytest.mark.slow,
]  # slow tier: many CLI runs and real processes; CI runs every tier


@pytest.fixture(scope="module")
def fork() -> Fork:
    return _fork()


@pytest.fixture(scope="module")
def template(fork: Fork, tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("resolve") / "repo"
    repo.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
        patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
        _history(repo, fork)
    return repo


def test_resolve_refuses_to_leave_out_another_players_sealed_turn(
    template: Path, fork: Fork, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(template, repo, symlinks=True)
    git(repo, "merge", "-q", "--no-commit", "-s", "ours", "main")  # a merge under way, as sync leaves it
    base = format_record(attrs.evolve(fork.main.record, events=fork.main.record.events[: fork.common])).encode()
    forked = merge(base, fork.anns, fork.bobs)
    assert forked.conflict
    (repo / GAME).write_bytes(forked.data)
    found = split_fork(forked.data)
    assert found is not None
    anns, bobs = found.label("ours"), found.label("theirs")
    write_key(keys_folder(), fork.main.keys["ann"], force=False)
    monkeypatch.chdir(repo)
    for keep in ("ann", anns, "ours"):
        code, out, err = cli("resolve", "--keep", keep, "-g", GAME)
        assert code == 3 and err.count("\n") == 1 and not out, (keep, code, out, err)
        assert f"`splendor resolve --keep {bobs}`" in err and "only bob may withdraw" in err, err
        assert (repo / GAME).read_bytes() == forked.data
    code, out, err = cli("resolve", "--keep", bobs, "-g", GAME)
    assert code == 0, err
    assert (repo / GAME).read_bytes() == fork.bobs
