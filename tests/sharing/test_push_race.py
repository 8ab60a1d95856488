"""Races retry (issue 32, item 4): a push refused because another push holds the remote branch at
that moment (git: "[remote rejected] (failed to update ref)", "cannot lock ref") is fetched,
merged, audited and pushed again, a few times with a pause between, then one clear line (exit 5);
it was a raw git error (exit 2) and no retry. The other push is a real lock file in a real bare
remote, which a real pre-receive hook takes away at the second push (or never)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from helpers import cli
from sharing.gitrepos import remote_and_clones

GAME = "games/g.toml"


def _busy_remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, frees_at: int) -> tuple[Path, Path]:
    """ann's clone with a new game and a turn to push, and the bare remote whose branch another
    push holds (its lock file) until the push number `frees_at` (0: never)."""
    remote, (ann,) = remote_and_clones(tmp_path, "ann")
    monkeypatch.chdir(ann)
    (ann / "games").mkdir()
    assert cli("new", "-g", GAME, "--players", "ann,bob", "--seed", "4")[0] == 0
    assert cli("sync", env={"SPLENDOR_PLAYER": "ann"})[0] == 0
    assert cli("take", "white", "blue", "green", env={"SPLENDOR_PLAYER": "ann"})[0] == 0
    (remote / "refs" / "heads" / "main.lock").write_text("another push\n")
    hook = remote / "hooks" / "pre-receive"
    hook.write_text(
        "#!/bin/sh\n"
        'n=$(cat tries 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > tries\n'
        f'if [ {frees_at} -gt 0 ] && [ "$n" -ge {frees_at} ]; then rm -f refs/heads/main.lock; fi\n'
        "exit 0\n"
    )
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    return remote, ann


def test_a_push_that_met_another_push_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    remote, _ = _busy_remote(tmp_path, monkeypatch, frees_at=2)
    code, out, err = cli("sync", env={"SPLENDOR_PLAYER": "ann"})
    assert code == 0, (out, err)
    assert "pushed to origin/main" in out
    assert (remote / "tries").read_text().strip() == "2"


@pytest.mark.slow  # five pushes, with their pauses (a few seconds)
def test_a_remote_busy_at_every_try_is_one_line_and_exit_5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    remote, ann = _busy_remote(tmp_path, monkeypatch, frees_at=0)
    before = (ann / GAME).read_bytes()
    code, out, err = cli("sync", env={"SPLENDOR_PLAYER": "ann"})
    assert code == 5, (out, err)
    assert err.count("\n") == 1 and "origin took none of 5 pushes" in err, err
    assert "failed to push" not in err
    assert (remote / "tries").read_text().strip() == "5"
    assert (ann / GAME).read_bytes() == before
    os.unlink(remote / "refs" / "heads" / "main.lock")
    assert cli("sync", env={"SPLENDOR_PLAYER": "ann"})[0] == 0  # the other push done: sync again pushes
