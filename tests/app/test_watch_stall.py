"""`watch` never repeats the same failure silently (issue 32, item 4): the real process, in a
real clone whose game forked (bob's unpushed move against ann's pushed undo: a choice only a
player makes), says the failure three rounds running, then once that a player must settle it,
tells every player once (a real webhook receiver on 127.0.0.1 gets one `stuck` post naming the
`resolve` that settles it), and runs no more rounds until the repository changes. bob settles it
as the post says: the next round finds the change and pushes. Before, the same line came back
every round, for ever, and nobody was told. (The test waits for lines, never for a time.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PATIENCE, Output, cli
from sharing.gitrepos import remote_and_clones, run_git
from sharing.test_notify import webhook_sink

GAME = "games/g.toml"

pytestmark = pytest.mark.slow  # the real loop, some ten rounds of a second


def test_a_fork_stops_the_rounds_and_tells_the_players_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")

    def run(who: Path, name: str, *args: object) -> str:
        monkeypatch.chdir(who)
        code, out, err = cli(*args, env={"SPLENDOR_PLAYER": name, "XDG_DATA_HOME": str(tmp_path / f"{name}-data")})
        assert code in (0, 5), (name, args, out, err)
        return out + err

    (ann / "games").mkdir()
    run(ann, "ann", "new", "-g", GAME, "--players", "ann,bob", "--seed", "5")
    run(ann, "ann", "take", "white", "blue", "green")
    run(ann, "ann", "sync")
    run(bob, "bob", "sync")
    run(bob, "bob", "take", "red", "black", "green")  # bob's move, not pushed
    run(ann, "ann", "undo")  # ann takes her turn back, and pushes it
    run(ann, "ann", "sync")
    with webhook_sink() as sink:
        run_git(bob, "config", "splendor.webhook.url", sink.url, who="bob")
        env = {**os.environ, "SPLENDOR_PLAYER": "bob", "XDG_DATA_HOME": str(tmp_path / "bob-data")}
        process = subprocess.Popen(
            [sys.executable, "-m", "splendor_cli", "watch", "--every", "1", "-g", GAME],
            cwd=bob,
            env=env,
            stdout=subprocess.PIPE,
            stderr=(tmp_path / "watch.err").open("w"),
            text=True,
        )
        try:
            assert process.stdout is not None
            output = Output(process.stdout)
            stuck = output.wait_for(lambda line: "a player must settle it" in line, "the third failure")
            output.wait_for(lambda line: "no more rounds until this repository changes" in line, "the stop")
            output.wait_for(lambda line: ": told " in line or ": not told: " in line, "the players told")
            assert len(sink.posts) == 1, (sink.posts, output.lines, (tmp_path / "watch.err").read_text())
            post = sink.posts[0][2]
            assert post["stuck"] is True and "splendor resolve --keep" in post["text"], post
            settled = run(bob, "bob", "resolve", "--keep", "ann")  # ann's side (his own move left out)
            assert "kept theirs" in settled, settled
            output.wait_for(lambda line: "the repository changed: trying again" in line, "the change seen")
            output.wait_for(lambda line: line.endswith("pushed to origin/main"), "the push")
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=PATIENCE)
            lines = output.all()
        finally:
            if process.poll() is None:
                process.kill()
        failed = [line for line in lines if "round failed" in line]
        assert 3 <= len(failed) <= 4 and failed[-1] == stuck, lines  # the first merge's words differ a little
        assert all("(next round tries again)" in line for line in failed[:-1]), lines
        assert len(sink.posts) == 1, sink.posts  # told once
