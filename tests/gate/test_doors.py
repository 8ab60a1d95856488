"""Every door an event can enter by refuses a cheat the same way: exit 4, naming the event, the game
file as it was, and nothing remembered (the user's memory of seen games unchanged), through the
real entry point (`python -m splendor_cli`), each player with a memory and a cache of their own.

The cheat, as a hostile player would play it: in a game of ann, eve and the seat `bot:greedy`
(format 3: every reader computes a bot seat's moves again), eve plays her turn, then plays the bot
seat's turn herself with a move the bot would not make, and sends both: by mail (one mail, a
Maildir, an mbox), by git (sync's fast-forward, sync with a turn of ann's to push, `watch`), as a
side of a fork (`resolve`), as the side of a merge (the merge driver), or as the copy that ann is
asked to take instead of hers (`forget`). A history that the audit refuses (eve commits her turn
and a turn she relayed for ann in one commit) is refused by every door with a history.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from splendor_cli import store
from splendor_cli.sharing.mail import export_text

pytestmark = pytest.mark.slow  # every door through real processes (the slow tier's kind of test)

PLAYERS = "ann=ann@example.org,eve=eve@example.org,bot:greedy"
GAME = "games/g.toml"


@pytest.fixture(autouse=True)
def memory_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory of seen games is on (conftest turns it off for most tests); git sees no user config."""
    monkeypatch.delenv("SPLENDOR_NO_MEMORY", raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


@attrs.define
class Person:
    """A player at their own machine: a folder for their games (a clone, with git), their memory
    of seen games, their cache and locks."""

    name: str
    root: Path

    @property
    def home(self) -> Path:
        return self.root / self.name

    @property
    def game(self) -> Path:
        return self.home / GAME

    def env(self) -> dict[str, str]:
        mine = self.root / f".{self.name}"
        return {
            **os.environ,
            "XDG_DATA_HOME": str(mine / "data"),
            "XDG_CACHE_HOME": str(mine / "xcache"),
            "SPLENDOR_CACHE": str(mine / "cache"),
            "SPLENDOR_SECRETS": str(mine / "secrets"),
            "SPLENDOR_PLAYER": self.name,
            "GIT_TERMINAL_PROMPT": "0",
        }

    def run(self, *args: object) -> subprocess.CompletedProcess[str]:
        """`splendor ARGS` through the real entry point, in this player's folder."""
        return subprocess.run(
            [sys.executable, "-m", "splendor_cli", *map(str, args)],
            cwd=self.home,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=600,
        )

    def ok(self, *args: object) -> str:
        done = self.run(*args)
        assert done.returncode == 0, (self.name, args, done.stdout, done.stderr)
        return done.stdout

    def git(self, *args: str) -> str:
        done = subprocess.run(["git", *args], cwd=self.home, env=self.env(), capture_output=True, text=True)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    def memory(self) -> dict[str, bytes]:
        """What this player remembers of every game (the files of their memory of seen games)."""
        folder = self.root / f".{self.name}" / "data" / "splendor-cli" / "known"
        return {p.name: p.read_bytes() for p in sorted(folder.glob("*"))} if folder.is_dir() else {}


def forge_bot_move(path: Path) -> None:
    """Append to the game at `path` a move for the bot seat that its bot does not make, past the
    command line (as a hostile player edits the file)."""
    loaded = store.read(path)
    game = loaded.game
    bot = game.variant.format_move(_bots_move(path))
    other = next(m for m in game.variant.legal_moves(game.state) if game.variant.format_move(m) != bot)
    store.write(store.stage(loaded, game.decide(other)))


def _bots_move(path: Path) -> object:
    """The move the bot seat of the game at `path` makes now (`splendor bot` plays it)."""
    from splendor_cli.bots import make_bot
    from splendor_cli.bots.check import seat_random

    loaded = store.read(path)
    game = loaded.game
    return make_bot(game.variant, "greedy")(game.state, seat_random(loaded.record.header.game, game.seq))


def table(tmp_path: Path) -> tuple[Person, Person]:
    """ann's game (she has played #2), and eve's copy of it with eve's turn #3 and her forged bot
    move #4 (no git)."""
    ann, eve = Person("ann", tmp_path), Person("eve", tmp_path)
    for person in (ann, eve):
        person.game.parent.mkdir(parents=True)
    ann.ok("new", "-g", GAME, "--players", PLAYERS, "--seed", 2)
    ann.ok("take", "w", "u", "g")
    shutil.copy(ann.game, eve.game)
    eve.ok("take", "r", "k", "g")
    forge_bot_move(eve.game)
    return ann, eve


def refused(done: subprocess.CompletedProcess[str], seq: int = 4) -> None:
    """Exit 4, naming the bot seat's forged move."""
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert f"event #{seq}" in done.stderr and "bot:greedy played" in done.stderr, done.stderr


def mail(eve: Person, tmp_path: Path) -> bytes:
    """eve's mail of her last two events (#3 and the forged #4), as `export --last 2` writes it."""
    block = export_text(store.read(eve.game).record, last=2)
    return f"From: eve@example.org\nTo: ann@example.org\nSubject: my move\n\n{block}\n".encode()


# -- mail ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["mail", "maildir", "mbox"])
def test_apply_refuses_a_forged_bot_move_and_remembers_nothing(tmp_path: Path, how: str) -> None:
    """`apply` of one mail, of a Maildir and of an mbox: exit 4 naming #4, ann's file and memory as
    they were; her `verify` still says ok of her file, and the forged copy still reads as damage."""
    ann, eve = table(tmp_path)
    before, remembered = ann.game.read_bytes(), ann.memory()
    data = mail(eve, tmp_path)
    if how == "mail":
        (tmp_path / "move.eml").write_bytes(data)
        done = ann.run("apply", "-g", GAME, tmp_path / "move.eml")
    elif how == "maildir":
        for sub in ("new", "cur", "tmp"):
            (tmp_path / "Maildir" / sub).mkdir(parents=True)
        (tmp_path / "Maildir" / "new" / "1.eve").write_bytes(data)
        done = ann.run("apply", "--maildir", tmp_path / "Maildir", "--dir", "games")
    else:
        (tmp_path / "inbox").write_bytes(b"From eve@example.org Sun Dec  6 07:00:00 2026\n" + data)
        done = ann.run("apply", "--mbox", tmp_path / "inbox", "--dir", "games")
    refused(done)
    assert ann.game.read_bytes() == before and ann.memory() == remembered
    assert ann.run("verify", "-g", GAME).returncode == 0
    refused(ann.run("verify", "-g", eve.game))


def test_watch_over_a_maildir_refuses_a_forged_bot_move(tmp_path: Path) -> None:
    """`watch --once --maildir`: the round fails with exit 4 naming #4; nothing written or remembered."""
    ann, eve = table(tmp_path)
    before, remembered = ann.game.read_bytes(), ann.memory()
    for sub in ("new", "cur", "tmp"):
        (tmp_path / "Maildir" / sub).mkdir(parents=True)
    (tmp_path / "Maildir" / "new" / "1.eve").write_bytes(mail(eve, tmp_path))
    done = ann.run("watch", "--once", "--mute", "--maildir", tmp_path / "Maildir", "--dir", "games")
    assert done.returncode == 4 and "event #4" in done.stderr + done.stdout, (done.stdout, done.stderr)
    assert ann.game.read_bytes() == before and ann.memory() == remembered


# -- a copy to take instead: forget, and a read --------------------------------------------------------


def test_forget_refuses_a_copy_with_a_forged_bot_move(tmp_path: Path) -> None:
    """ann is handed eve's copy and asked to `forget` hers: exit 4, her memory unchanged, and every
    later read of the forged copy is still exit 4."""
    ann, eve = table(tmp_path)
    ann.ok("verify", "-g", GAME)
    remembered = ann.memory()
    shutil.copy(eve.game, ann.game)
    refused(ann.run("forget", "-g", GAME))
    assert ann.memory() == remembered
    refused(ann.run("verify", "-g", GAME))
    refused(ann.run("state", "--json", "-g", GAME))


# -- forks: resolve, and the merge driver ----------------------------------------------------------------


def forked(ann: Person, eve: Person) -> bytes:
    """A forked file of the game: ann's side relays a turn for eve (#3), eve's side is her own #3
    and the forged #4."""
    prefix = ann.game.read_bytes()
    ann.ok("take", "w", "u", "k", "--for", "eve")
    ours, theirs = ann.game.read_bytes(), eve.game.read_bytes()
    assert ours.startswith(prefix) and theirs.startswith(prefix)
    return ours + theirs[len(prefix) :]


def test_resolve_refuses_to_keep_a_side_with_a_forged_bot_move(tmp_path: Path) -> None:
    """`resolve --keep eve` where eve's side holds the forged move: exit 4, the forked file and ann's
    memory as they were; keeping ann's side is taken."""
    ann, eve = table(tmp_path)
    data = forked(ann, eve)
    remembered = ann.memory()
    ann.game.write_bytes(data)
    done = ann.run("resolve", "--keep", "theirs", "-g", GAME)
    refused(done)
    assert ann.game.read_bytes() == data
    assert ann.memory() == remembered


def test_the_merge_driver_refuses_a_side_with_a_forged_bot_move(tmp_path: Path) -> None:
    """`merge-driver BASE OURS THEIRS` as git runs it: exit 4 naming #4, ours left as it is (git
    then stops the merge on a conflict); ann's memory unchanged."""
    ann, eve = table(tmp_path)
    base = tmp_path / "base.toml"
    base.write_bytes(ann.game.read_bytes())
    forked(ann, eve)
    ours = tmp_path / "ours.toml"
    ours.write_bytes(ann.game.read_bytes())
    before, remembered = ours.read_bytes(), ann.memory()
    refused(ann.run("merge-driver", base, ours, eve.game))
    assert ours.read_bytes() == before and ann.memory() == remembered


# -- git: sync (a fast-forward, a push), watch -------------------------------------------------------------


def clones(tmp_path: Path) -> tuple[Person, Person]:
    """A bare remote and two clones, ann's and eve's; ann started the game, played #2, synced; eve
    synced it."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, capture_output=True)
    ann, eve = Person("ann", tmp_path), Person("eve", tmp_path)
    for person in (ann, eve):
        subprocess.run(["git", "clone", "-q", str(remote), str(person.home)], check=True, capture_output=True)
        person.git("config", "user.name", person.name)
        person.git("config", "user.email", f"{person.name}@example.org")
        person.git("config", "commit.gpgsign", "false")
    ann.ok("new", "-g", GAME, "--players", PLAYERS, "--seed", 2)
    ann.ok("git", "install")
    ann.ok("take", "w", "u", "g")
    ann.ok("sync")
    eve.ok("sync")
    return ann, eve


def eve_pushes(eve: Person, *, cheat: str) -> None:
    """eve pushes, with plain git, her turn and a cheat: `bot` (the forged bot move, a commit of its
    own) or `history` (her turn, the bot's answer and a turn she relays for ann, in one commit:
    what the audit refuses, though the file reads)."""
    eve.ok("take", "r", "k", "g")
    if cheat == "bot":
        eve.git("commit", "-qam", "eve's turn")
        forge_bot_move(eve.game)
        eve.git("commit", "-qam", "the bot's turn")
    else:
        eve.ok("bot")
        eve.ok("take", "w", "w", "--for", "ann")
        eve.git("commit", "-qam", "three turns at once")
    eve.git("push", "-q")


def assert_nothing_taken(ann: Person, head: str, data: bytes, remembered: dict[str, bytes]) -> None:
    assert ann.git("rev-parse", "HEAD").strip() == head
    assert ann.game.read_bytes() == data and ann.memory() == remembered


@pytest.mark.parametrize("cheat", ["bot", "history"])
def test_sync_with_nothing_to_push_refuses_what_it_fetched(tmp_path: Path, cheat: str) -> None:
    """ann's plain `sync` (a fast-forward, nothing to push) onto eve's pushed cheat: exit 4, naming
    it; ann's branch, file and memory as they were."""
    ann, eve = clones(tmp_path)
    eve_pushes(eve, cheat=cheat)
    head, data, remembered = ann.git("rev-parse", "HEAD").strip(), ann.game.read_bytes(), ann.memory()
    done = ann.run("sync")
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert ("event #4" if cheat == "bot" else "a commit may append one turn") in done.stderr, done.stderr
    assert_nothing_taken(ann, head, data, remembered)


@pytest.mark.parametrize("cheat", ["bot", "history"])
def test_sync_with_a_turn_to_push_refuses_what_it_fetched(tmp_path: Path, cheat: str) -> None:
    """ann relays a turn for eve and syncs it (a push) while eve's cheat is on the remote: exit 4,
    nothing merged nor pushed; the remote still holds eve's commits alone."""
    ann, eve = clones(tmp_path)
    eve_pushes(eve, cheat=cheat)
    pushed = eve.git("rev-parse", "HEAD").strip()
    ann.ok("take", "w", "u", "k", "--for", "eve")
    remembered = ann.memory()
    done = ann.run("sync")
    assert done.returncode == 4, (done.stdout, done.stderr)
    remote = tmp_path / "remote.git"
    tip = subprocess.run(["git", "--git-dir", str(remote), "rev-parse", "main"], capture_output=True, text=True)
    assert tip.stdout.strip() == pushed  # nothing pushed
    merged = subprocess.run(["git", "merge-base", "--is-ancestor", pushed, "HEAD"], cwd=ann.home, env=ann.env())
    assert merged.returncode == 1  # nothing merged: eve's commits are not in ann's branch
    assert ann.memory() == remembered


@pytest.mark.parametrize("cheat", ["bot", "history"])
def test_watch_refuses_what_it_fetched(tmp_path: Path, cheat: str) -> None:
    """`watch --once` (sync's round) onto eve's cheat (a forged bot move, a history the audit
    refuses): exit 4; nothing taken."""
    ann, eve = clones(tmp_path)
    eve_pushes(eve, cheat=cheat)
    head, data, remembered = ann.git("rev-parse", "HEAD").strip(), ann.game.read_bytes(), ann.memory()
    done = ann.run("watch", "--once", "--mute")
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert_nothing_taken(ann, head, data, remembered)


def test_verify_git_refuses_a_forged_bot_move_in_the_history(tmp_path: Path) -> None:
    """`verify --git` judges each commit's new events as the gate does: a commit that appends a
    forged bot move is refused (it used to pass where `sync` and `verify` said exit 4)."""
    _, eve = clones(tmp_path)
    eve_pushes(eve, cheat="bot")
    done = eve.run("verify", "--git", "-g", GAME)
    assert done.returncode == 4 and "bot:greedy played" in done.stdout + done.stderr, (done.stdout, done.stderr)


def test_sync_refuses_a_new_game_whose_fetched_history_the_audit_refuses(tmp_path: Path) -> None:
    """eve starts a second game and pushes it with her turn and a turn she relays for ann in one
    commit: ann's `sync` audits the game that would arrive before merging it (exit 4); the file
    does not arrive, ann's branch and memory are as they were."""
    ann, eve = clones(tmp_path)
    eve.ok("new", "-g", "games/h.toml", "--players", "eve=eve@example.org,ann=ann@example.org", "--seed", 3)
    eve.git("add", "games/h.toml")
    eve.git("commit", "-qm", "a new game")
    eve.ok("take", "r", "k", "g", "-g", "games/h.toml")
    eve.ok("take", "w", "u", "g", "-g", "games/h.toml", "--for", "ann")
    eve.git("commit", "-qam", "two turns at once")
    eve.git("push", "-q")
    head, remembered = ann.git("rev-parse", "HEAD").strip(), ann.memory()
    done = ann.run("sync")
    assert done.returncode == 4 and "games/h.toml" in done.stderr and "nothing merged" in done.stderr, done.stderr
    assert not (ann.home / "games" / "h.toml").exists()
    assert ann.git("rev-parse", "HEAD").strip() == head and ann.memory() == remembered
