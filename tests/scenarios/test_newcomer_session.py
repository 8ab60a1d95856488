"""The newcomer's session as a test (issue 32, item 8): the session that stalled, forked and lost
turns before, played again through the real entry point (`python -m splendor_cli`, a process a
command) with real git.

Four players, ann, bob, cy and dee, over git: a bare remote and a clone each, and each their own
HOME, data folder (their key, their memory of seen games), config folder and cache
(`scenarios.sealed_table.equip`); every clone posts to one real webhook receiver. bob, cy and dee
"run `splendor watch`": the test runs `splendor watch --once` for each of them, one after the
other, round after round (a round: bob's, cy's and dee's watch, then ann's `sync`), so the
session is the same at every run; each of them plays by hand (`splendor play`, no sync) as soon as
their watch says their turn. ann plays by hand: `splendor sync` once a round, `splendor play`
then `splendor sync` on her turn. Nobody else runs anything; the test runs git only to make the
remote and the clones (and a webhook setting), and to look.

Two games in one repository, because a sealed game refuses `--for`:

- `games/sealed.toml`, a 4-player sealed game: the watches join, shuffle and deal it; ann and
  dee reserve the top of deck 3 blind (`reserve deck 3`) on their first turns, others now and
  then; a move played while the shares of a blind reserve are still coming races them, and the
  program plays it again after them. `SEALED_MOVES` moves, not the whole game (on two cores the
  whole session takes a couple of minutes).
- `games/open.toml`, a 4-player open game: ann relays bob's turn (`play --for bob`) while bob
  plays his own, and ann's `sync` and bob's watch round push at once (two processes started
  together, while the remote's branch is held by a third push, a lock file in the bare remote
  that its pre-receive hook takes away at the second push: a push is refused and tried again,
  and both go through); bob's own move
  wins, the relayed copy gives way. Later ann takes back a turn she pushed (`undo`, `sync`) and
  plays another.

It asserts: nobody runs a git command (no message asks for one; every clone ends clean, no merge
under way); nobody waits more than two watch rounds for a share they need (counted: the rounds a
player to move is held by a missing share); a watch says "your turn" only when the move goes
through; no turn is lost (every move played is in the final log, or was replaced by the rule: a
relayed copy giving way, an undo asked for); `verify --git` is ok in every clone, and every clone
holds the same files. Forks settled by the program (lines of "raced", "gives way", "one move")
and by a player (`resolve` runs) are counted and printed with the wall time (`pytest -s`).
"""

from __future__ import annotations

import json
import random
import re
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import pytest
from scenarios.sealed_table import choose, equip
from scenarios.table import Player, _env, table
from sharing.test_notify import webhook_sink

pytestmark = pytest.mark.slow

NAMES = ("ann", "bob", "cy", "dee")
HAND = "ann"
WATCHING = ("bob", "cy", "dee")
SEALED = "games/sealed.toml"
OPEN = "games/open.toml"
SEALED_MOVES = 16
"""Moves of the sealed game played after its deal."""
OPEN_MOVES = 10
"""Moves of the open game that stay in its log (the relayed copy and the undone turn besides)."""
BLIND_FIRST = ("ann", "dee")
"""Who reserves the top of deck 3 blind on their first sealed turn."""
SETTLED_BY_PROGRAM = re.compile(r"raced .*(played again after it|written again after it)|gives way|: one move")
GIT_ASKED = re.compile(r"(?<!splendor )\bgit (merge|reset|pull|push|fetch|checkout|rebase|stash|commit|add|rm)\b")
RESOLVE = re.compile(r"splendor resolve (?:-g \S+ )?--keep (\S+?)`")
MAX_ROUNDS = 60


def _bare(notation: str) -> str:
    """A log notation without its marks ("(played by ann)", "(drew 1-38)")."""
    return re.sub(r"\s*\(.*\)$", "", notation)


@attrs.define
class Played:
    """A move a player played: its game, seat, who typed it, its turn and notation (as the log said it then)."""

    game: str
    seat: str
    by: str
    turn: int
    notation: str


@attrs.define
class Session:
    players: dict[str, Player]
    rng: random.Random = attrs.Factory(lambda: random.Random(32))
    round: int = 0
    played: list[Played] = attrs.Factory(list)
    settled_by_program: list[str] = attrs.Factory(list)
    settled_by_player: list[str] = attrs.Factory(list)
    said: list[tuple[str, str, str]] = attrs.Factory(list)
    """Every command run: who, what, and what it printed."""
    held: dict[tuple[str, int], int] = attrs.Factory(dict)
    """By (game, seq of the position): the rounds its player to move was held by a missing share."""
    held_this_round: set[tuple[str, int]] = attrs.Factory(set)
    blind: int = 0
    sealed_moves: int = 0

    # -- running the real entry point -------------------------------------------------------

    def run(self, name: str, *args: str, codes: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
        done = self.players[name].splendor(*args, ok=False)
        if "--json" not in args:  # a watch's report: its log lines are noted (`watch`)
            self.note(name, args, done)
        assert done.returncode in codes, (name, args, done.returncode, done.stdout, done.stderr)
        return done

    def note(self, name: str, args: tuple[str, ...], done: subprocess.CompletedProcess[str]) -> None:
        text = done.stdout + done.stderr
        self.said.append((name, " ".join(args), text))
        assert not GIT_ASKED.search(text), f"{name} was asked to run git: {text}"
        for line in text.splitlines():
            if SETTLED_BY_PROGRAM.search(line):
                self.settled_by_program.append(f"{name}: {line}")

    def popen(self, name: str, *args: str) -> subprocess.Popen[str]:
        player = self.players[name]
        return subprocess.Popen(
            [sys.executable, "-m", "splendor_cli", *args],
            cwd=player.home,
            env=_env(player.env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def settle_fork(self, name: str, text: str) -> bool:
        """A fork the program left to the player: they run the `resolve` it offers, then sync."""
        offered = RESOLVE.search(text)
        if offered is None:
            return False
        self.settled_by_player.append(f"{name}: resolve --keep {offered.group(1)}")
        self.run(name, "resolve", "--keep", offered.group(1))
        self.run(name, "sync")
        return True

    def watch(self, name: str) -> dict[str, Any]:
        """One round of `name`'s watch (`watch --once --json`); a fork it leaves to the player is
        settled by them with the command it offers."""
        done = self.run(name, "watch", "--once", "--json", codes=(0, 4, 5))
        report: dict[str, Any] = json.loads(done.stdout)
        log = "\n".join(report["log"])
        self.note(name, ("watch",), subprocess.CompletedProcess([], done.returncode, log, done.stderr))
        if done.returncode:
            assert self.settle_fork(name, json.dumps(report)), (name, report, done.stderr)
        return report

    def sync(self, name: str) -> str:
        done = self.run(name, "sync", codes=(0, 5))
        if done.returncode:
            assert self.settle_fork(name, done.stderr), (name, done.stdout, done.stderr)
        return done.stdout + done.stderr

    # -- looking (the player's own copy) ----------------------------------------------------

    def state(self, name: str, game: str) -> dict[str, Any] | None:
        """`state --json` of `name`'s copy (None while a sealed game's deal is under way)."""
        done = self.run(name, "state", "-g", game, "--json", codes=(0, 3))
        if done.returncode:
            assert "not dealt yet" in done.stderr, done.stderr
            return None
        loaded: dict[str, Any] = json.loads(done.stdout)
        return loaded

    def log(self, name: str, game: str) -> list[dict[str, Any]]:
        loaded: list[dict[str, Any]] = json.loads(self.run(name, "log", "-g", game, "--json").stdout)
        return loaded

    # -- playing --------------------------------------------------------------------------

    def choose(self, name: str, game: str, seat: str) -> str:
        moves = json.loads(self.run(name, "moves", "-g", game, "--json", "--as", seat).stdout)
        if game == SEALED and self.first_turn(name) and name in BLIND_FIRST:
            move = next(m for m in moves if m["notation"] == "reserve deck 3")
        else:
            move = choose("base", moves, self.rng, blind=0.15 if game == SEALED else 0.0)
        return str(move["notation"])

    def first_turn(self, name: str) -> bool:
        return not any(p.game == SEALED and p.seat == name for p in self.played)

    def play(self, name: str, game: str, *, seat: str = "", notation: str = "") -> bool:
        """`name` plays (for `seat`, when another's) in their clone; False when the move waits for a share."""
        seat = seat or name
        notation = notation or self.choose(name, game, seat)
        relay = ("--for", seat) if seat != name else ()
        done = self.run(name, "play", "-g", game, *relay, *notation.split(), codes=(0, 3))
        if done.returncode == 3:
            assert "share" in done.stderr, done.stderr  # waiting for a share, nothing else
            return False
        # the move (a sealed game's share of the player may follow it)
        last = [e for e in self.log(name, game) if e["turn"] is not None][-1]
        assert last["player"] == seat, last
        self.played.append(Played(game, seat, name, last["turn"], _bare(last["notation"])))
        if game == SEALED:
            self.sealed_moves += 1
            self.blind += notation == "reserve deck 3"
        return True

    def hold(self, game: str, seq: int) -> None:
        """The player to move at `seq` of `game` is held by a missing share this round."""
        if (game, seq) not in self.held_this_round:
            self.held_this_round.add((game, seq))
            self.held[game, seq] = self.held.get((game, seq), 0) + 1


@contextmanager
def busy_remote(remote: Path) -> Iterator[Path]:
    """The remote's branch held by another push (its lock file) until the second push that
    reaches it, whose pre-receive hook takes the lock away; the file that counts the pushes."""
    tries = remote / "tries"
    hook = remote / "hooks" / "pre-receive"
    (remote / "refs" / "heads" / "main.lock").write_text("another push\n")
    hook.write_text(
        "#!/bin/sh\n"
        'n=$(cat tries 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > tries\n'
        'if [ "$n" -ge 2 ]; then rm -f refs/heads/main.lock; fi\n'
        "exit 0\n"
    )
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    try:
        yield tries
    finally:
        hook.unlink()


def test_the_newcomers_session_settles_itself(tmp_path: Path) -> None:
    started = time.monotonic()
    remote, players = table(tmp_path, NAMES, rebase=False)
    people = {p.name: equip(p, tmp_path) for p in players}
    session = Session(people)
    ann = people["ann"]
    (ann.home / "games").mkdir()
    spec = ",".join(f"{p.name}={p.email}" for p in players)
    with webhook_sink() as sink:
        for player in players:
            player.git("config", "splendor.webhook.url", sink.url)
        session.run("ann", "new", "-g", SEALED, "--players", spec, "--sealed")
        session.run("ann", "new", "-g", OPEN, "--players", spec, "--seed", "32")
        session.sync("ann")

        relayed = undone = False
        concurrent: dict[str, Any] = {}
        while session.sealed_moves < SEALED_MOVES or _kept(session, OPEN) < OPEN_MOVES or not undone:
            session.round += 1
            assert session.round <= MAX_ROUNDS, (session.played, session.said[-12:])
            session.held_this_round = set()
            for name in WATCHING:
                report = session.watch(name)
                for game in report["games"]:
                    path = SEALED if game["path"].endswith("sealed.toml") else OPEN
                    if game["to_move"] != name or game["finished"]:
                        continue
                    if path == OPEN and not _wanted(session, OPEN):
                        continue
                    if path == SEALED and session.sealed_moves >= SEALED_MOVES:
                        continue
                    if not game["your_turn"]:  # to move, but a share is missing: held
                        session.hold(path, game["seq"])
                        continue
                    if path == OPEN and name == "bob" and not relayed:
                        concurrent = _relay_and_push_at_once(session, remote)
                        relayed = True
                    else:
                        played = session.play(name, path)
                        assert played, f"{name}'s watch said their turn, and the move waited for a share"
                    told = re.search(rf"{game['game']}: your turn, {name} \(turn (\d+)\)", "\n".join(report["log"]))
                    assert told is None or int(told.group(1)) == session.played[-1].turn, (told, session.played[-1])
            session.sync("ann")
            for path in (SEALED, OPEN):
                state = session.state("ann", path)
                if state is None or state["to_move"] != "ann" or state["finished"] or not _wanted(session, path):
                    continue
                if not session.play("ann", path):
                    session.hold(path, state["seq"])
                    continue
                session.sync("ann")
                if path == OPEN and relayed and not undone and _kept(session, OPEN) >= 5:
                    session.run("ann", "undo", "-g", OPEN)  # a turn she pushed, taken back
                    session.sync("ann")
                    undone = True
                    assert session.play("ann", OPEN)
                    session.sync("ann")
        rounds = session.round
        # the watches (and ann's sync) go on until the last moves and shares reach every clone
        settling = 0
        while any(len({(p.home / path).read_bytes() for p in players}) > 1 for path in (SEALED, OPEN)):
            settling += 1
            assert settling <= 4, {p.name: [_seq(p.home / path) for path in (SEALED, OPEN)] for p in players}
            for name in WATCHING:
                session.watch(name)
            session.sync("ann")
        stuck = [post for post in sink.posts if post[2].get("stuck")]
    took = time.monotonic() - started

    # the same files everywhere, each history audited, nothing left for git
    for path in (SEALED, OPEN):
        copies = {(p.home / path).read_bytes() for p in players}
        assert len(copies) == 1, f"the clones hold different {path}"
        for player in players:
            audit = session.run(player.name, "verify", "--git", "-g", path).stdout
            assert ": ok: " in audit, (player.name, audit)
    for player in players:
        assert not player.git("status", "--porcelain", "--untracked-files=no"), player.name
        assert not (player.home / ".git" / "MERGE_HEAD").exists(), player.name
    assert not stuck, f"a watch told the players a game was stuck: {stuck}"

    # nobody held more than two watch rounds by a missing share
    assert max(session.held.values(), default=0) <= 2, session.held

    # the relayed turn and the two pushes at once
    assert concurrent["codes"] == [0, 0], concurrent
    assert int(concurrent["tries"]) >= 3, "a push met the held branch, was tried again, and both pushed"
    assert any("gives way" in line for line in session.settled_by_program), session.settled_by_program

    # no turn lost: every move played is in the final log, or the rule replaced it
    final = {path: session.log("dee", path) for path in (SEALED, OPEN)}
    kept = {
        path: [(e["player"], e["turn"], _bare(e["notation"])) for e in log if e["turn"]] for path, log in final.items()
    }
    lost = []
    for move in session.played:
        key = (move.seat, move.turn, move.notation)
        if key in kept[move.game]:
            continue
        if move.by != move.seat and any((s, t) == (move.seat, move.turn) for s, t, _ in kept[move.game]):
            continue  # a relayed copy that gave way to its seat's own move
        lost.append(move)
    assert not lost, (lost, kept)
    undone_moves = [e for e in final[OPEN] if e["undone"]]
    assert len(undone_moves) == 1 and undone_moves[0]["player"] == "ann", undone_moves
    assert session.blind >= 2
    assert any("raced" in line for line in session.settled_by_program), "a move raced a share"

    print(
        f"\nnewcomer's session: {took:.0f}s wall time, {rounds} rounds"
        f" (+{settling} for the last ones to reach everyone),"
        f" {session.sealed_moves} sealed moves ({session.blind} blind reserves),"
        f" {len([p for p in session.played if p.game == OPEN])} open moves played;"
        f" forks settled by the program: {len(session.settled_by_program)},"
        f" by a player (resolve): {len(session.settled_by_player)};"
        f" most rounds held by a share: {max(session.held.values(), default=0)}"
    )
    for line in session.settled_by_program + session.settled_by_player:
        print(f"  {line}")


def _seq(path: Path) -> int:
    return path.read_text().count("\n[[events]]\n")


def _kept(session: Session, game: str) -> int:
    """The moves of `game` played so far by their seats (relayed copies not counted)."""
    return len([p for p in session.played if p.game == game and p.by == p.seat])


def _wanted(session: Session, game: str) -> bool:
    if game == SEALED:
        return session.sealed_moves < SEALED_MOVES
    return _kept(session, OPEN) < OPEN_MOVES + 2


def _relay_and_push_at_once(session: Session, remote: Path) -> dict[str, Any]:
    """bob, told his turn of the open game, plays it; ann, who has not seen it, plays a move for
    him (`play --for bob`); ann's `sync` and bob's watch round start together while the remote's
    branch is held by a third push. Both go through; bob's own move stays."""
    assert session.play("bob", OPEN)
    own = session.played[-1]
    relay = json.loads(session.run("ann", "moves", "-g", OPEN, "--json", "--as", "bob").stdout)
    other = next(m["notation"] for m in relay if m["notation"].startswith("take ") and m["notation"] != own.notation)
    assert session.play("ann", OPEN, seat="bob", notation=other)
    session.played.append(session.played.pop(-2))  # bob's own move last: the one his watch told him of
    with busy_remote(remote) as tries:
        processes = {
            "ann": session.popen("ann", "sync"),
            "bob": session.popen("bob", "watch", "--once"),
        }
        codes = []
        for name, process in processes.items():
            out, err = process.communicate()
            session.note(name, ("at once",), subprocess.CompletedProcess([], process.returncode, out, err))
            codes.append(process.returncode)
            assert process.returncode == 0, (name, out, err)
        return {"codes": codes, "tries": tries.read_text().strip()}
