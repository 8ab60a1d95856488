"""Playing by e-mail end to end, through the command line: `export --to` over a real SMTP server
(aiosmtpd on 127.0.0.1), the mails delivered into real Maildirs and mbox files, `apply --maildir`
and `--mbox` creating and advancing each player's copy, `--commit` into a real git repository,
`--notify` after applying."""

from __future__ import annotations

import email
import email.policy
import mailbox as stdlib_mailbox
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from helpers import git
from helpers import ok_in as ok
from helpers import run_in as run
from sharing.test_notify import local_smtp, settings_writer, smtp_sink

from splendor_cli import store
from splendor_cli.events.codec import Header

PLAYERS = "ann=ann@example.org,bob=bob@example.org"


def deliver(raw: bytes, maildir: Path) -> None:
    """Deliver a mail as a delivery agent does (tmp/, then new/)."""
    stdlib_mailbox.Maildir(str(maildir), create=True).add(raw)


def parsed(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


@pytest.fixture
def notify_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """Writes notify.toml; git config and the password isolated (see test_notify.settings_writer)."""
    return settings_writer(tmp_path, monkeypatch)


@pytest.fixture
def homes(tmp_path: Path, notify_settings: Any) -> tuple[Path, Path]:
    """ann's and bob's folders, each with a Maildir."""
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    for home in (ann, bob):
        (home / "games").mkdir(parents=True)
        stdlib_mailbox.Maildir(str(home / "Maildir"), create=True)
    return ann, bob


def test_a_game_played_by_mail_from_the_first_mail_to_the_last(homes: tuple[Path, Path], notify_settings: Any) -> None:
    """ann starts a game and mails her first move: it carries the whole game, so bob's `apply
    --maildir` creates his copy; then each mails each move to the other (`export --to`), and each
    `apply --maildir` takes it in. Both copies stay the same, and a second apply changes nothing."""
    ann, bob = homes
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        ok(ann, "new", "-g", "games/friday.toml", "--players", PLAYERS, "--seed", 1)
        ok(ann, "play", "-g", "games/friday.toml", "take", "white", "blue", "green")
        sent = ok(ann, "export", "-g", "games/friday.toml", "--to", "bob@example.org")
        assert sent == f"sent #2 (1 event) to bob@example.org via 127.0.0.1:{sink.port} with the whole game attached\n"
        [(sender, rcpt, raw)] = sink.envelopes
        game_id = store.read(ann / "games" / "friday.toml").record.header.game
        assert sender == "splendor@example.org" and rcpt == ["bob@example.org"]
        first = parsed(raw)
        assert first["Subject"] == f"[splendor] {game_id} #2: ann took white blue green"
        assert [part.get_filename() for part in first.iter_attachments()] == [f"{game_id}.toml"]
        deliver(raw, bob / "Maildir")
        out = ok(bob, "apply", "--maildir", "Maildir")
        assert f"created games/{game_id}.toml: game {game_id} (ann, bob), from new/" in out
        assert f"{game_id}: applied #2 ann: take white blue green" in out
        assert f"{game_id}: #2 applied already" not in out  # the block, after the attached file: said once
        assert out.endswith(
            "1 message read: 1 event applied to 1 game, 0 blocks applied already, 0 skipped, 0 failed\n"
        )
        copies = {ann: ann / "games" / "friday.toml", bob: bob / "games" / f"{game_id}.toml"}
        moves = [(bob, "take red red"), (ann, "reserve 1-24"), (bob, "take black black"), (ann, "take red green black")]
        for player, move in moves:
            other = ann if player is bob else bob
            ok(player, "play", "-g", copies[player], move)
            address = "ann@example.org" if other is ann else "bob@example.org"
            assert "whole game" not in ok(player, "export", "-g", copies[player], "--to", address)
            deliver(sink.envelopes[-1][2], other / "Maildir")
            applied = ok(other, "apply", "--maildir", "Maildir")
            assert f"{game_id}: applied #" in applied and "0 failed" in applied
            assert copies[ann].read_bytes() == copies[bob].read_bytes()
        for home in (ann, bob):
            before = copies[home].read_bytes()
            again = ok(home, "apply", "--maildir", "Maildir")
            assert "0 events applied to 0 games" in again and "applied #" not in again
            assert copies[home].read_bytes() == before
    assert len(sink.envelopes) == 5


def test_apply_takes_blocks_in_order_of_seq_skips_other_games_and_says_when_one_is_stale(
    homes: tuple[Path, Path],
) -> None:
    """A block for a game that is not here is skipped with a note (exit 0); a block after a turn
    this copy lacks fails with exit 5 while the rest is applied; once the missing block arrives,
    both apply whatever the order of delivery."""
    ann, bob = homes
    ok(ann, "new", "-g", "games/g.toml", "--players", PLAYERS, "--seed", 3)
    ok(ann, "new", "-g", "other.toml", "--players", "cy,dee", "--seed", 3)
    shutil.copy(ann / "games" / "g.toml", bob / "games" / "g.toml")
    ok(ann, "play", "-g", "games/g.toml", "take", "red", "red")
    second = ok(ann, "export", "-g", "games/g.toml")
    ok(ann, "play", "-g", "games/g.toml", "take", "white", "blue", "green")
    third = ok(ann, "export", "-g", "games/g.toml")
    ok(ann, "play", "-g", "other.toml", "take", "red", "red")
    stranger = ok(ann, "export", "-g", "other.toml")
    other_id = store.read(ann / "other.toml").record.header.game
    deliver(_text_mail("stranger", stranger), bob / "Maildir")
    deliver(_text_mail("third", third), bob / "Maildir")
    code, out, err = run(bob, "apply", "--maildir", "Maildir")
    assert code == 5, (out, err)
    assert f"a move block for game {other_id}, which is not in games/ (nor -g)" in out
    assert "failed: " in out and "turn #2 is missing" in err and err.count("\n") == 1
    assert out.endswith("2 messages read: 0 events applied to 0 games, 0 blocks applied already, 1 skipped, 1 failed\n")
    deliver(_text_mail("second", second), bob / "Maildir")
    out = ok(bob, "apply", "--maildir", "Maildir")
    assert "applied #2 ann: take red red" in out and "applied #3 bob: take white blue green" in out
    assert (bob / "games" / "g.toml").read_bytes() == (ann / "games" / "g.toml").read_bytes()


def _text_mail(subject: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["To"] = "bob@example.org"
    message["Subject"] = subject
    message.set_content(body)
    return message.as_bytes()


def test_apply_commit_makes_one_commit_per_turn_authored_by_its_player(
    tmp_path: Path,
    notify_settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In bob's repository, `apply --maildir --commit` creates the game (a commit of bob's) and
    commits each of ann's turns as ann (her address from the header), only the game file; a Duel
    turn of two steps is one commit."""
    repo = tmp_path / "bob"
    repo.mkdir()
    git(repo, "init", "-q")
    for name, value in [("NAME", "bob"), ("EMAIL", "bob@example.org")]:
        monkeypatch.setenv(f"GIT_AUTHOR_{name}", value)
        monkeypatch.setenv(f"GIT_COMMITTER_{name}", value)
    (repo / "notes.txt").write_text("not a game\n")
    git(repo, "add", "notes.txt")
    ann = tmp_path / "ann"
    ann.mkdir()
    ok(ann, "new", "-g", "duel.toml", "--players", PLAYERS, "--variant", "duel", "--seed", 2)
    ok(ann, "play", "-g", "duel.toml", "take b2 c3 d4")
    ok(ann, "play", "-g", "duel.toml", "--as", "bob", "privilege a1; take a2 a3")
    game_id = store.read(ann / "duel.toml").record.header.game
    whole = ok(ann, "export", "-g", "duel.toml", "--last", 3, "--whole")
    deliver(_text_mail("the game", whole), repo / "Maildir")
    out = ok(repo, "apply", "--maildir", "Maildir", "--commit")
    assert f"created games/{game_id}.toml" in out
    log = git(repo, "log", "--reverse", "--format=%an %ae|%s").stdout
    assert log.splitlines() == [
        f"bob bob@example.org|{game_id}: new game",
        f"ann ann@example.org|{game_id} #2 ann: take b2 c3 d4 (white white black)",
        f"bob bob@example.org|{game_id} #3-4 bob: privilege a1 (green) (and 1 step)",
    ]
    files = git(repo, "log", "--format=", "--name-only").stdout.split()
    assert set(files) == {f"games/{game_id}.toml"}  # only the game file, never notes.txt (staged)
    assert "A  notes.txt" in git(repo, "status", "--porcelain").stdout.splitlines()  # still staged, not committed
    assert ok(repo, "apply", "--maildir", "Maildir", "--commit").endswith("0 skipped, 0 failed\n")
    assert len(git(repo, "log", "--format=%H").stdout.split()) == 3  # nothing new: no commit


def test_apply_mbox_then_notify_the_player_to_move(homes: tuple[Path, Path], notify_settings: Any) -> None:
    """`apply --mbox FILE --notify`: the moves of an mbox file, then a mail to the player to move."""
    ann, bob = homes
    ok(ann, "new", "-g", "games/g.toml", "--players", PLAYERS, "--seed", 4)
    shutil.copy(ann / "games" / "g.toml", bob / "games" / "g.toml")
    ok(ann, "play", "-g", "games/g.toml", "take", "red", "red")
    box = stdlib_mailbox.mbox(str(bob / "inbox"))
    box.add(_text_mail("hello", "nothing here\n"))
    box.add(_text_mail("move", ok(ann, "export", "-g", "games/g.toml")))
    box.flush()
    box.close()
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        out = ok(bob, "apply", "--mbox", "inbox", "--notify")
    assert "applied #2 ann: take red red" in out and "mailed bob <bob@example.org>" in out
    [(_, rcpt, raw)] = sink.envelopes
    assert rcpt == ["bob@example.org"] and parsed(raw)["Subject"].startswith("[splendor] your turn in ")


def test_one_mail_with_the_whole_game_creates_it_or_brings_a_copy_up_to_date(tmp_path: Path) -> None:
    """`apply MAIL` with a whole game attached: with no game here it creates games/<id>.toml (or
    -g FILE); a copy it extends takes the missing turns; a copy it contradicts is a conflict."""
    ann = tmp_path / "ann"
    ann.mkdir()
    ok(ann, "new", "-g", "g.toml", "--players", PLAYERS, "--seed", 5)
    early = (ann / "g.toml").read_bytes()
    ok(ann, "play", "-g", "g.toml", "take", "red", "red")
    ok(ann, "play", "-g", "g.toml", "take", "white", "blue", "green")
    game_id = store.read(ann / "g.toml").record.header.game
    message = EmailMessage()
    message["Subject"] = "our game"
    message.set_content("the game so far\n")
    message.add_attachment((ann / "g.toml").read_bytes(), maintype="application", subtype="toml", filename="g.toml")
    (tmp_path / "game.eml").write_bytes(message.as_bytes())
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    out = ok(fresh, "apply", tmp_path / "game.eml")
    assert f"created games/{game_id}.toml" in out and "applied #3 bob: take white blue green" in out
    assert (fresh / "games" / f"{game_id}.toml").read_bytes() == (ann / "g.toml").read_bytes()
    out = ok(fresh, "apply", "-g", "mine.toml", tmp_path / "game.eml")
    assert "created mine.toml" in out and (fresh / "mine.toml").read_bytes() == (ann / "g.toml").read_bytes()
    behind = tmp_path / "behind.toml"
    behind.write_bytes(early)
    out = ok(tmp_path, "apply", "-g", behind, tmp_path / "game.eml")
    assert "applied #2 ann: take red red" in out and behind.read_bytes() == (ann / "g.toml").read_bytes()
    forked = tmp_path / "forked.toml"
    forked.write_bytes(early)
    ok(tmp_path, "play", "-g", forked, "take", "black", "black")
    code, _, err = run(tmp_path, "apply", "-g", forked, tmp_path / "game.eml")
    assert code == 5 and "forked after #1" in err and err.count("\n") == 1


def test_a_mailed_game_whose_id_is_no_safe_file_name_is_not_created(tmp_path: Path) -> None:
    """A whole game whose id would make an odd file name (a colon) is refused: nothing written."""
    import random

    from helpers import deal

    path = tmp_path / "evil.toml"
    header = Header(game="evil:name", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    store.create(path, header, deal(("ann", "bob"), random.Random(1)))
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    deliver(_text_mail("evil", ok(tmp_path, "export", "-g", path, "--whole")), home / "Maildir")
    code, _, err = run(home, "apply", "--maildir", "Maildir")
    assert code == 2 and "cannot name a file" in err and os.listdir(home / "games") == []


def test_export_without_to_prints_as_before_and_mail_errors_are_one_line(
    tmp_path: Path,
    notify_settings: Any,
) -> None:
    """Without --to, export prints the block (--whole: and the armoured game); --to needs a
    server and plain addresses: otherwise one line, exit 2."""
    from splendor_cli.sharing.mail import armour_game, export_text

    path = tmp_path / "g.toml"
    ok(tmp_path, "new", "-g", path, "--players", PLAYERS, "--seed", 6)
    ok(tmp_path, "play", "-g", path, "take", "red", "red")
    loaded = store.read(path)
    assert ok(tmp_path, "export", "-g", path) == export_text(loaded.record)
    assert ok(tmp_path, "export", "-g", path, "--whole") == export_text(loaded.record) + "\n" + armour_game(loaded.data)
    notify_settings("")
    code, _, err = run(tmp_path, "export", "-g", path, "--to", "bob@example.org")
    assert code == 2 and "--to needs a mail server" in err and err.count("\n") == 1
    notify_settings(local_smtp(1))
    code, _, err = run(tmp_path, "export", "-g", path, "--to", "bob@example.org\r\nBcc: eve@example.org")
    assert code == 2 and "is not an e-mail address" in err and err.count("\n") == 1


def _exe() -> list[str]:
    found = Path(sys.executable).parent / "splendor"
    return [str(found)] if found.exists() else [shutil.which("splendor") or "splendor"]


@pytest.mark.slow  # a process per command
def test_the_installed_command_mails_and_applies(homes: tuple[Path, Path], notify_settings: Any) -> None:
    """The real console script: `play`, `notify` and `export --to` reach the SMTP server, and
    `apply --maildir` takes the mail in, as in process."""
    ann, bob = homes

    def splendor(cwd: Path, *args: object) -> str:
        done = subprocess.run([*_exe(), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        splendor(ann, "new", "-g", "games/g.toml", "--players", PLAYERS, "--seed", 7)
        splendor(ann, "play", "-g", "games/g.toml", "take", "red", "red")
        assert splendor(ann, "notify", "-g", "games/g.toml").startswith("mailed bob <bob@example.org>")
        assert "whole game attached" in splendor(ann, "export", "-g", "games/g.toml", "--to", "bob@example.org")
        deliver(sink.envelopes[-1][2], bob / "Maildir")
        out = splendor(bob, "apply", "--maildir", "Maildir")
    assert "created games/" in out and "applied #2 ann: take red red" in out
    [copy] = (bob / "games").iterdir()
    assert copy.read_bytes() == (ann / "games" / "g.toml").read_bytes()
