"""Issue 22's `splendor watch`, accepted: a sealed game over git (a real bare repository, a clone,
HOME, data folder and key per player) in which every player runs `splendor watch --every 1` as a
real process and plays by hand only when their watch tells them it is their turn (a real webhook
receiver on 127.0.0.1): nobody else ever runs a command for a move to go through. The watches
alone join, shuffle and deal the game, post every share a card dealt face up needs, and tell
each player once per turn; no move waits for another player (exit 3); SIGTERM stops each watch
with exit 0; every clone ends with the same file, whose history passes `verify --git`.

Three players, not four, in the slow tier: on a two-core machine three watches syncing every
second take some 30 s for the deal and 9 moves, four some 65 s. SPLENDOR_FULL_SCENARIOS=1 plays
it with four. The test waits for what it needs (a webhook post, a move accepted, the copies
alike), never for a time; it fails only if the whole scenario has not ended after PATIENCE
seconds (tests/helpers.py), which only a hang takes.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import PATIENCE
from scenarios.sealed_table import choose, equip, events_of
from scenarios.table import GAME, Player, table
from sharing.test_notify import webhook_sink

pytestmark = pytest.mark.slow

FULL = bool(os.environ.get("SPLENDOR_FULL_SCENARIOS"))
NAMES = ("ann", "bob", "cy", "dee") if FULL else ("ann", "bob", "cy")
MOVES = 9
"""Moves played after the deal (each told, each played by its player alone)."""
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")


def watch(player: Player, logs: Path) -> tuple[subprocess.Popen[str], Path]:
    """`splendor watch --every 1 --as NAME` as a real process in the player's clone; its log file."""
    log = logs / f"{player.name}.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "splendor_cli", "watch", "--every", "1", "--as", player.name],
        cwd=player.home,
        env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", **player.env},
        stdout=log.open("w"),
        stderr=(logs / f"{player.name}.err").open("w"),
        text=True,
    )
    return process, log


def test_watching_players_never_wait_for_each_other(tmp_path: Path) -> None:
    """The watches alone join, shuffle, deal and post every share; each player is told once per
    turn and plays by hand; no move waits for another player's share; SIGTERM stops each watch
    with exit 0; the clones end alike and `verify --git` passes."""
    started = time.monotonic()
    deadline = started + PATIENCE
    _, players = table(tmp_path, NAMES, rebase=False)
    people = {p.name: equip(p, tmp_path) for p in players}
    ann = people["ann"]
    (ann.home / "games").mkdir()
    spec = ",".join(f"{p.name}={p.email}" for p in players)
    ann.splendor("new", "-g", GAME, "--players", spec, "--sealed")
    ann.splendor("sync", "--as", "ann")
    rng = random.Random(22)
    logs = tmp_path / "logs"
    logs.mkdir()
    with webhook_sink() as sink:
        for player in players:
            player.git("config", "splendor.webhook.url", sink.url)
        watches = {name: watch(player, logs) for name, player in people.items()}
        told: list[tuple[str, int, float]] = []
        """Each turn told: its player, the seq, when."""
        waited: list[str] = []
        moves: list[tuple[str, str, float]] = []
        """Each move played: its player, its notation, and how long after the previous move its player was told."""
        last_move = time.monotonic()
        try:
            while len(moves) < MOVES:
                late = f"the scenario has not ended after {PATIENCE:.0f} s"
                assert time.monotonic() < deadline, (late, moves, told, _logs(logs))
                posts = [p[2] for p in sink.posts]
                if len(posts) == len(told):
                    time.sleep(0.1)  # polling the webhook's posts: a pause, not a bet on a time
                    continue
                post = posts[len(told)]
                mover = post["to_move"]
                told.append((mover, post["seq"], time.monotonic()))
                assert mover in people, post
                delay = time.monotonic() - last_move
                notation = _play(people[mover], rng, waited, deadline)
                moves.append((mover, notation, delay))
                last_move = time.monotonic()
            while len({(p.home / GAME).read_bytes() for p in players}) > 1:  # the last move reaches everyone
                assert time.monotonic() < deadline, ("the last move never reached every clone", _logs(logs))
                time.sleep(0.2)
        finally:
            for process, _ in watches.values():
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            codes = {name: process.wait(timeout=PATIENCE) for name, (process, _) in watches.items()}
    assert codes == dict.fromkeys(NAMES, 0), (codes, _logs(logs))
    assert not waited, f"moves waited for other players' shares: {waited}"
    turns = [(name, seq) for name, seq, _ in told]
    assert len(set(turns)) == len(turns), f"a turn was told twice: {turns}"
    assert [name for name, _, _ in moves] == [name for name, _, _ in told[:MOVES]]
    for name in NAMES:
        lines = (logs / f"{name}.log").read_text().splitlines()
        assert lines and all(STAMP.match(line) for line in lines), lines
        assert lines[-1].endswith(" stopped") and any("pushed to origin/main" in line for line in lines), lines
    shown = [e for e in events_of(ann.home / GAME) if e["type"] == "cards_shown"]
    assert len(shown) > len(NAMES), "cards dealt face up after the deal were revealed by the watches"
    audit = ann.splendor("verify", "--git", "-g", GAME).stdout
    assert ": ok: " in audit, audit
    took = time.monotonic() - started
    print(
        f"\n{len(NAMES)} watching players: the deal and {MOVES} moves in {took:.1f}s;"
        f" each player told {', '.join(f'{d:.1f}s' for _, _, d in moves)} after the move before theirs"
    )


def _play(player: Player, rng: random.Random, waited: list[str], deadline: float) -> str:
    """The player, told it is their turn, plays a move of `moves --json` in their clone (a write
    lock their watch holds for a moment is tried again, until the scenario's deadline; a move
    that waits for shares is noted)."""
    moves = json.loads(player.splendor("moves", "-g", GAME, "--json", "--as", player.name).stdout)
    face_up = [m for m in moves if m["action"] == "reserve" and "card" in m]
    buys = [m for m in moves if m["action"] == "buy"]
    # a card taken from the table is replaced by one dealt face up: every player's share of it is needed
    move = choose("base", moves, rng) if buys or not face_up or rng.random() < 0.3 else rng.choice(face_up)
    while True:
        done = player.splendor("play", "-g", GAME, "--as", player.name, move["notation"], ok=False)
        if done.returncode == 0:
            return str(move["notation"])
        if done.returncode == 3:
            waited.append(f"{player.name}: {done.stderr.strip()}")
        assert done.returncode in (3, 5), (player.name, done.stdout, done.stderr)
        assert time.monotonic() < deadline, f"{player.name} could not play {move['notation']}: {done.stderr}"
        time.sleep(0.2)


def _logs(logs: Path) -> str:
    return "\n".join(f"== {log.name}\n{log.read_text()[-3000:]}" for log in sorted(logs.glob("*.log")))
