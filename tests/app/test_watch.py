"""`splendor watch`: one round (`--once`) against a real bare repository and clones, each
player with their own key: it pulls, posts the shares the player owes in a sealed game (so that
two watching players deal a sealed game without anyone running a command), tells the player
once (a real webhook receiver on 127.0.0.1) when a turn becomes theirs, and a failed fetch is
one line, the round given up, the next one tried. `--install` prints a unit that runs
`splendor watch` here. The stop on SIGTERM of the real process is in the slow tier at the end.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PATIENCE, Output, cli, state
from sealed_helpers import Table
from sharing.gitrepos import commit_all, remote_and_clones, run_git
from sharing.test_notify import webhook_sink

from splendor_cli.events.codec import format_record

GAME = "games/g.toml"
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")


@pytest.fixture(autouse=True)
def quiet_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """git sees no user or system configuration; each clone has its own identity."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR"):
        monkeypatch.delenv(name, raising=False)


class Machines:
    """Two players' machines: a clone each, their own key (data folder) and cache."""

    def __init__(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...] = ("ann", "bob"), seed: int = 3
    ) -> None:
        self.monkeypatch = monkeypatch
        self.remote, clones = remote_and_clones(tmp_path, *names)
        self.clones = dict(zip(names, clones))
        self.table = Table.new("base", names, seed, game="watched")
        self.data = {}
        for name in self.clones:
            data = tmp_path / f"{name}-data"
            self.table.install_keys(name, data / "splendor-cli" / "keys")
            self.data[name] = data
            (tmp_path / f"{name}-cache").mkdir()
        self.tmp = tmp_path
        ann = self.clones["ann"]
        (ann / "games").mkdir()
        (ann / GAME).write_text(format_record(self.table.record))
        commit_all(ann, "ann", "a sealed game")
        run_git(ann, "push", "-q", "origin", "main")

    def be(self, name: str) -> None:
        """What follows runs on `name`'s machine."""
        self.monkeypatch.setenv("XDG_DATA_HOME", str(self.data[name]))
        self.monkeypatch.setenv("SPLENDOR_CACHE", str(self.tmp / f"{name}-cache"))

    def watch(self, name: str, *extra: str) -> tuple[int, str, str]:
        self.be(name)
        return cli("watch", "--once", "-g", self.clones[name] / GAME, "--as", name, *extra)

    def remote_file(self) -> str:
        return run_git(self.clones["ann"], "--git-dir", str(self.remote), "show", f"main:{GAME}")


@pytest.mark.slow  # a whole sealed deal between two players
def test_two_watching_players_deal_a_sealed_game_and_the_player_to_move_is_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Machines(tmp_path, monkeypatch)
    with webhook_sink() as sink:
        for name in table.clones:
            run_git(table.clones[name], "config", "splendor.webhook.url", sink.url)
        code, out, err = table.watch("bob")  # bob pulls the game and posts his join
        assert code == 0, err
        lines = out.splitlines()
        assert lines and all(STAMP.match(line) for line in lines), out
        assert any("pushed to origin/main" in line for line in lines), out
        assert 'type = "player_joined"' in table.remote_file() and "bob" in table.remote_file()

        rounds = 0
        while 'type = "game_started"' not in table.remote_file():
            for name in ("ann", "bob"):
                code, out, err = table.watch(name)
                assert code == 0, (name, out, err)
            rounds += 1
            assert rounds < 8, "the deal is done by the watches alone"
        for name in ("ann", "bob"):  # a round more each: the one to move is told, once
            code, out, err = table.watch(name, "--json")
            assert code == 0, err
            report = json.loads(out)
            (game,) = report["games"]
            assert report["ok"] and game["your_turn"] == (game["to_move"] == name), report
        mover = game["to_move"]
        assert mover in ("ann", "bob")
        assert len(sink.posts) == 1, sink.posts
        assert sink.posts[0][2]["to_move"] == mover and sink.posts[0][2]["seq"] == game["seq"]
        code, out, err = table.watch(mover)  # another round: not told again
        assert code == 0, err
        assert len(sink.posts) == 1 and "your turn" not in out, out


def test_a_part_written_while_another_was_pushed_is_written_again_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Machines(tmp_path, monkeypatch, ("ann", "bob", "cy"))
    table.be("bob")
    run_git(table.clones["bob"], "pull", "-q", "origin", "main", who="bob")
    code, _, err = cli("sync", "-g", table.clones["bob"] / GAME, "--as", "bob", "--offline")  # bob's join, not pushed
    assert code == 0, err
    code, _, err = table.watch("cy")  # meanwhile cy joins and pushes first
    assert code == 0, err
    code, out, err = table.watch("bob")  # bob's push is refused: both joined after #2
    assert code == 0, (out, err)
    assert "your part #2 raced cy's: withdrawn, written again after it" in out, out
    assert "pushed to origin/main" in out, out
    joins = re.findall(r'type = "player_joined"\nseq = \d+\nparent = "\w+"\nplayer = "(\w+)"', table.remote_file())
    assert joins == ["cy", "bob"], table.remote_file()
    code, out, err = cli("verify", "--git", "-g", table.clones["bob"] / GAME)
    assert code == 0 and ": ok: " in out, (out, err)


def test_a_failed_fetch_is_one_line_and_the_next_round_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Machines(tmp_path, monkeypatch)
    code, _, err = table.watch("bob")
    assert code == 0, err
    gone = tmp_path / "gone.git"
    table.remote.rename(gone)
    code, out, err = table.watch("bob")
    assert code == 2, (out, err)
    failed = [line for line in out.splitlines() if "round failed (next round tries again)" in line]
    assert len(failed) == 1 and STAMP.match(failed[0]), out
    assert err.count("\n") == 1 and err.startswith("splendor: "), err
    gone.rename(table.remote)
    code, out, err = table.watch("ann")
    assert code == 0 and "round failed" not in out, (out, err)


def test_a_round_holds_no_lock_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Machines(tmp_path, monkeypatch)
    assert table.watch("bob")[0] == 0
    code, _, err = cli("seal", "-g", table.clones["bob"] / GAME, "--as", "bob")  # takes the write lock
    assert code == 0, err


def test_json_goes_with_once_and_kind_with_install(tmp_path: Path) -> None:
    code, _, err = cli("watch", "--json")
    assert code == 2 and "--json goes with --once" in err
    code, _, err = cli("watch", "--kind", "cron")
    assert code == 2 and "--install" in err
    code, _, err = cli("watch", "--maildir", str(tmp_path), "--mbox", str(tmp_path / "m"))
    assert code == 2 and "exclude each other" in err


def test_outside_a_repository_watch_is_exit_2_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("watch", "--once")
    assert code == 2 and not out and err.startswith("splendor: "), (out, err)


def test_install_prints_a_unit_that_runs_splendor_watch_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Machines(tmp_path, monkeypatch)
    bob = table.clones["bob"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "splendor").write_text("#!/bin/sh\n")
    (bin_dir / "splendor").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.chdir(bob)
    code, out, err = cli("watch", "--install", "--kind", "systemd", "--as", "bob", "--every", "120")
    assert code == 0, err
    assert f'ExecStart="{bin_dir / "splendor"}" "watch" "--as" "bob" "--every" "120"' in out, out
    assert f"WorkingDirectory={bob}\n" in out and "systemctl --user enable --now splendor-watch-bob-" in out
    code, out, err = cli("watch", "--install", "--kind", "cron", "--every", "600")
    assert code == 0, err
    assert out.startswith("*/10 * * * * cd ") and f"{bin_dir / 'splendor'} watch --once" in out, out
    code, out, err = cli("watch", "--install", "--kind", "launchd")
    assert code == 0 and "<string>watch</string>" in out and "<key>KeepAlive</key><true/>" in out, err
    code, out, err = cli("watch", "--install", "--kind", "systemd", "--write")
    assert code == 0, err
    (unit,) = (tmp_path / "config" / "systemd" / "user").iterdir()
    assert unit.name.startswith("splendor-watch-bob-") and "ExecStart=" in unit.read_text()
    code, _, err = cli("watch", "--install", "--kind", "cron", "--write")
    assert code == 2 and "crontab -e" in err
    unit.unlink()
    os.mkfifo(unit)  # what is there and no regular file is never replaced
    code, _, err = cli("watch", "--install", "--kind", "systemd", "--write")
    assert code == 2 and "not a regular file" in err and unit.is_fifo()
    code, _, err = cli("watch", "--install", "--kind", "upstart")
    assert code == 2 and "systemd, launchd, cron" in err


@pytest.mark.slow
def test_sigterm_stops_the_real_process_cleanly_between_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM, sent once the watch's first round has pushed bob's join, stops the real process
    with exit 0: its log is timestamped from `watching` to `stopped`, no git lock is left, and the
    next watch runs. (The test waits for the round's line, never for a time.)"""
    table = Machines(tmp_path, monkeypatch)
    table.be("bob")
    bob = table.clones["bob"]
    errors = tmp_path / "watch.err"
    with errors.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "splendor_cli", "watch", "--every", "1", "--as", "bob", "-g", GAME],
            cwd=bob,
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    try:
        assert process.stdout is not None
        output = Output(process.stdout)
        output.wait_for(lambda line: line.endswith(" pushed to origin/main"), "push of bob's join")
        assert 'type = "player_joined"' in (bob / GAME).read_text()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=PATIENCE)
        lines = output.all()
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, (lines, errors.read_text())
    assert lines[0].endswith("every 1s (Ctrl-C stops)") and lines[-1].endswith(" stopped"), lines
    assert all(STAMP.match(line) for line in lines), lines
    assert not list((bob / ".git").glob("*.lock")), "no git lock is left"
    assert table.watch("bob")[0] == 0  # nothing is held: the next watch runs


@pytest.mark.slow  # a whole sealed deal between two players
def test_by_mail_two_watching_players_deal_a_sealed_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--maildir: each round applies the mails, writes the player's part and mails it to the
    other player (a real SMTP server on 127.0.0.1, its mail delivered into their Maildir)."""
    from scenarios.sealed_table import Post
    from sharing.test_notify import local_smtp, smtp_sink

    names = ("ann", "bob")
    homes = {n: tmp_path / n for n in names}
    for home in homes.values():
        (home / "games").mkdir(parents=True)
        (home / "data").mkdir()
        (home / "cache").mkdir()
    config = tmp_path / "config"
    (config / "splendor").mkdir(parents=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.chdir(tmp_path)

    def be(name: str) -> None:
        monkeypatch.setenv("XDG_DATA_HOME", str(homes[name] / "data"))
        monkeypatch.setenv("SPLENDOR_CACHE", str(homes[name] / "cache"))

    for name in names:
        be(name)
        assert cli("key", "new", "--name", name)[0] == 0
    with smtp_sink() as sink:
        (config / "splendor" / "notify.toml").write_text(local_smtp(sink.port))
        post = Post(sink, tmp_path, names)
        be("ann")
        game = homes["ann"] / "games" / "g.toml"
        code, _, err = cli("new", "-g", game, "--players", "ann=ann@example.org,bob=bob@example.org", "--sealed")
        assert code == 0, err
        code, out, err = cli("watch", "--once", "--as", "ann", "--maildir", post.box("ann"), "--dir", game.parent)
        assert code == 0, err
        assert "sent #2 (1 event) to bob@example.org" in out and "with the whole game attached" in out, out
        rounds = 0
        while True:
            assert post.deliver(), "each round mails the other player something until the deal"
            name = names[rounds % 2 == 0]  # bob, ann, bob...
            be(name)
            folder = homes[name] / "games"
            code, out, err = cli("watch", "--once", "--as", name, "--maildir", post.box(name), "--dir", folder)
            assert code == 0, (name, out, err)
            assert all(STAMP.match(line) for line in out.splitlines()), out
            rounds += 1
            (path,) = folder.glob("*.toml")
            if 'type = "game_started"' in path.read_text():
                break
            assert rounds < 8, out
        said = {}
        for again in range(2):  # the other player takes the deal in; then nothing is new
            for name in (names[rounds % 2 == 0], names[rounds % 2 == 1]):
                post.deliver()
                be(name)
                folder = homes[name] / "games"
                code, out, err = cli("watch", "--once", "--as", name, "--maildir", post.box(name), "--dir", folder)
                assert code == 0, (name, out, err)
                said[name, again] = out
        assert len({(path.read_bytes()) for path in tmp_path.glob("*/games/*.toml")}) == 1
        mover = state(path)["to_move"]
        told = [name for name in names if "your turn" in said[name, 0]]
        assert told in ([], [mover]), said  # told in the round that dealt, or in the one that took the deal in
        assert [s for s in post.subjects[mover] if "your turn" in s.lower() or f"{mover} to move" in s], post.subjects
        assert not any("your turn" in said[name, 1] or "sent" in said[name, 1] for name in names), said


def test_the_log_holds_no_raw_control_character(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Machines(tmp_path, monkeypatch)
    hostile = table.clones["bob"] / "games" / "\x1b[31mred\x07.toml"
    table.be("bob")
    code, out, err = cli("watch", "--once", "-g", hostile, "--as", "bob")
    assert code != 0 and "round failed" in out, (out, err)
    assert not any(ord(c) < 32 and c != "\n" for c in out + err), (out, err)


def test_your_turn_names_the_turn_under_way_as_show_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """watch said the turns played ("your turn, bob (turn 1)" on bob's first turn, which `show`
    and `log` call turn 2): it names the turn under way."""
    _, (ann, bob) = remote_and_clones(tmp_path, "ann", "bob")
    monkeypatch.chdir(ann)
    (ann / "games").mkdir()
    assert cli("new", "-g", GAME, "--players", "ann=ann@example.org,bob=bob@example.org", "--seed", "3")[0] == 0
    assert cli("take", "white", "blue", "green", "-g", GAME)[0] == 0
    assert cli("sync")[0] == 0
    monkeypatch.chdir(bob)
    code, out, err = cli("watch", "--once", "--mute")
    assert code == 0, err
    assert ": your turn, bob (turn 2)" in out, out
    code, out, err = cli("show", "-g", GAME, "--color", "never")
    assert code == 0 and "turn 2, round 1: bob to move" in out, (out, err)
