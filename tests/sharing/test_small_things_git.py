"""The small things of issue 32 (item 9) that show over git and mail, through the real entry point
(`entry.main`, in this process, each player on a "machine" of their own), over real repositories."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from app.test_sealed_cli import machines
from sharing.gitrepos import identity, init, run_git

pytestmark = pytest.mark.usefixtures("git_installed")


def test_a_sealed_games_first_commit_names_no_one_it_does_not_know(tmp_path: Path) -> None:
    """The first event of a sealed game is nobody's (no signature; the game's players are in it):
    its commit is titled as the log names it, `#1 new sealed game: ann, bob; ...`, never
    `#1 someone: ...`; the events after it keep their player's name."""
    repo = init(tmp_path / "repo")
    identity(repo, "ann")
    ann, _ = (m.key() for m in machines(tmp_path, "ann", "bob"))
    path = repo / "games" / "secret.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    ann.ok("sync", "-g", path, "--as", "ann")
    subjects = run_git(repo, "log", "--reverse", "--format=%s").splitlines()
    game = tomllib.loads(path.read_text())["game"]
    assert subjects[0] == f"{game} #1 new sealed game: ann, bob; each joins, shuffles and reveals (`splendor seal`)"
    assert subjects[1].startswith(f"{game} #2 ann: joins with their keys (fingerprint "), subjects
    assert len(subjects) == 2 and not any("someone" in subject for subject in subjects)


def _behind(path: Path, events: int) -> bytes:
    """The game file at `path` as it was with its first `events` events."""
    text = path.read_text()
    starts = [i for i in range(len(text)) if text.startswith("[[events]]", i)]
    return text[: starts[events]].encode() if events < len(starts) else text.encode()


def test_a_move_a_mail_carries_twice_is_said_once(tmp_path: Path) -> None:
    """One `apply`, one move, one line: a mail of ann's first move carries the block and the whole
    game file (`export --whole`, as `--to` sends it): bob's copy takes #2 from the file, and the
    block of #2, brought by the same run, is not also "applied already". Two mails whose blocks
    overlap (#2-3, then #3) alike. A mail applied a second time says "applied already", once."""
    ann, bob = machines(tmp_path, "ann", "bob")
    game, copy = tmp_path / "ann.toml", tmp_path / "bob.toml"
    ann.ok("new", "-g", game, "--players", "ann,bob", "--seed", "1")
    ann.ok("take", "white", "blue", "green", "-g", game)
    mail = tmp_path / "first.eml"
    mail.write_text("Subject: ann's move\n\n" + ann.ok("export", "-g", game, "--whole"))
    copy.write_bytes(_behind(game, 1))
    out = bob.ok("apply", "-g", copy, mail)
    assert [line.split(": ", 1)[1] for line in out.splitlines()[:-1]] == ["applied #2 ann: take white blue green"]
    assert out.splitlines()[-1].startswith("1 message read: 1 event applied to 1 game, 0 blocks applied already")
    again = bob.ok("apply", "-g", copy, mail)
    assert [line.split(": ", 1)[1] for line in again.splitlines()[:-1]] == ["#2 applied already"], again

    ann.ok("take", "red", "red", "-g", game)
    maildir = tmp_path / "Maildir"
    for folder in ("new", "cur", "tmp"):
        (maildir / folder).mkdir(parents=True)
    for name, last in (("1.eml", "2"), ("2.eml", "1")):
        (maildir / "new" / name).write_text(f"Subject: {last}\n\n" + ann.ok("export", "-g", game, "--last", last))
    copy.write_bytes(_behind(game, 1))
    out = bob.ok("apply", "-g", copy, "--maildir", maildir)
    said = [line.split(": ", 1)[1] for line in out.splitlines()[:-1]]
    assert said == ["applied #2 ann: take white blue green", "applied #3 bob: take red red"], out
    assert "0 blocks applied already" in out.splitlines()[-1]
