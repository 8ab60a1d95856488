"""The issue's "done means", played for real: alice and bob play over git (real clones of one
bare repository, only `splendor sync`, `show`, their moves and one plain `git pull`); carol plays
by e-mail only (a real SMTP server started here delivers into real Maildirs, and
`apply --maildir` takes the blocks in). The game sees a stale move that forks it, a fork settled
by turn name, an undo, and mailed turns; at the end `verify --git` passes on the full history,
and every player got a mail for each of their turns (and the webhook a post for each).
Under `pull.rebase=false` and `pull.rebase=true`."""

from __future__ import annotations

import email
import email.policy
import mailbox
from pathlib import Path

import pytest
from scenarios.table import GAME, Player, table
from sharing.test_notify import smtp_sink, webhook_sink

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


class Post:
    """The mail system: each envelope the SMTP server took is delivered into each recipient's Maildir."""

    def __init__(self, sink: object, root: Path, names: tuple[str, ...]) -> None:
        self.sink, self.done = sink, 0
        self.boxes = {f"{n}@example.org": root / "mail" / n for n in names}
        (root / "mail").mkdir()
        for box in self.boxes.values():
            mailbox.Maildir(str(box), create=True)
        self.subjects: dict[str, list[str]] = {n: [] for n in names}

    def deliver(self) -> None:
        envelopes = self.sink.envelopes  # type: ignore[attr-defined]
        for _, rcpts, raw in envelopes[self.done :]:
            message = email.message_from_bytes(raw, policy=email.policy.default)
            for rcpt in rcpts:
                mailbox.Maildir(str(self.boxes[rcpt])).add(raw)
                self.subjects[rcpt.partition("@")[0]].append(str(message["Subject"]))
        self.done = len(envelopes)


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_three_friends_finish_the_story_over_git_and_mail(tmp_path: Path, rebase: bool) -> None:
    names = ("alice", "bob", "carol")
    _, (alice, bob, _unused) = table(tmp_path, names, rebase=rebase)
    carol = Player(name="carol", home=tmp_path / "carol-home")  # no git: a folder and a mailbox
    (carol.home / "games").mkdir(parents=True)
    with smtp_sink() as smtp, webhook_sink() as hook:
        config = tmp_path / "config" / "splendor"
        config.mkdir(parents=True)
        (config / "notify.toml").write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "none"\n'
            f'from = "Splendor <splendor@example.org>"\n[webhook]\nurl = "{hook.url}"\n'
        )
        for player in (alice, bob, carol):
            player.env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
        post = Post(smtp, tmp_path, names)
        box = {p.name: str(tmp_path / "mail" / p.name) for p in (alice, bob, carol)}
        turns = {n: 0 for n in names}  # the turns each was to play, to count their notifications

        # alice starts the game, shares it, and mails carol the whole file
        (alice.home / "games").mkdir()
        spec = ",".join(f"{n}={n}@example.org" for n in names)
        alice.splendor("new", "--players", spec, "--seed", "11", "-g", GAME)
        alice.splendor("sync", "--notify")  # alice is to move: she is told
        alice.splendor("export", "-g", GAME, "--whole", "--to", "carol@example.org")
        post.deliver()
        assert "created games/" in carol.splendor("apply", "--maildir", box["carol"]).stdout
        bob.splendor("sync")

        # turn 1 (alice), turn 2 (bob, who takes his turn back and plays another), by git
        turns["alice"] += 1
        alice.splendor("take", "white", "blue", "green")
        alice.splendor("sync", "--notify")
        assert "your turn, bob" in bob.splendor("sync", "--color", "never").stdout
        turns["bob"] += 1
        bob.splendor("take", "red", "black", "green")
        bob.splendor("undo")  # his own turn, nobody moved since: no --force
        bob.splendor("take", "red", "red")
        shared = bob.splendor("sync", "--notify").stdout
        assert shared.count("\ncommitted ") + shared.startswith("committed ") == 3  # the turn, the undo, the new turn
        post.deliver()

        # turn 3: carol, by mail only: the notification carries the block
        turns["carol"] += 1
        assert any("your turn" in s for s in post.subjects["carol"])
        carol.splendor("apply", "--maildir", box["carol"])
        carol.splendor("take", "white", "white")
        carol.splendor("export", "--to", "alice@example.org")
        post.deliver()

        # alice gets bob's turns, then carol's by mail, committed as carol's (the audit holds); she is told
        alice.splendor("sync")
        applied = alice.splendor("apply", "--maildir", box["alice"], "--commit", "--notify").stdout
        assert "carol: take white white" in applied
        turns["alice"] += 1
        alice.splendor("take", "blue", "green", "black")
        alice.splendor("sync", "--notify")
        post.deliver()

        # a stale move: alice, before anyone moved, takes her turn back and plays another, but
        # only after bob (told by mail) has synced and played; her sync stops on the fork
        turns["bob"] += 1
        bob.git("pull", "-q")  # a plain pull works, whatever pull.rebase says
        bob.splendor("take", "white", "blue", "red")
        bob.splendor("sync", "--notify")
        alice.splendor("undo")
        alice.splendor("take", "red", "green", "black")
        stopped = alice.splendor("sync", ok=False)
        assert stopped.returncode == 5 and "game forked" in stopped.stderr
        alice.splendor("resolve", "--keep", "bob")  # settled by turn name: bob's pushed turn stays
        assert "pushed to origin/main" in alice.splendor("sync").stdout
        post.deliver()

        # turn 6: carol again, by mail
        turns["carol"] += 1
        carol.splendor("apply", "--maildir", box["carol"])
        carol.splendor("take", "black", "black")
        carol.splendor("export", "--to", "bob@example.org")
        post.deliver()
        bob.splendor("sync")
        bob.splendor("apply", "--maildir", box["bob"], "--commit", "--notify")
        turns["alice"] += 1
        bob.splendor("sync")
        post.deliver()
        assert "your turn, alice" in alice.splendor("sync", "--color", "never").stdout

        for player in (alice, bob):
            audit = player.splendor("verify", "--git", "-g", GAME)
            assert "ok" in audit.stdout, audit.stdout
            assert player.splendor("verify", "-g", GAME).returncode == 0
        assert (alice.home / GAME).read_bytes() == (bob.home / GAME).read_bytes()
        for name in names:  # a mail for each turn each was to play
            told = [s for s in post.subjects[name] if "your turn" in s]
            assert len(told) >= turns[name], (name, post.subjects[name])
        assert len(hook.posts) >= sum(turns.values())
        assert {"game", "seq", "to_move", "last_move", "content", "text"} <= set(hook.posts[-1][2])
