"""`verify`: the file report, and the walk of a game file's git history, commit by commit."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import ROOT, deal, deal_duel
from sharing.gitrepos import commit_all, run_git

from splendor_cli import store
from splendor_cli.errors import GameFileError, SplendorError, UsageError
from splendor_cli.events.codec import Header, chained, format_event
from splendor_cli.sharing import versions
from splendor_cli.sharing.git_audit import git_report, git_report_text, staged_report
from splendor_cli.sharing.verify import file_report, report_text
from splendor_cli.variants.base.rules import choices

SAMPLE = ROOT / "games" / "sample-3p.toml"
ANN, BOB = "ann@example.org", "bob@example.org"


def commit(repo: Path, email: str, message: str) -> str:
    """Commit everything in the working tree as `email`; return the new commit's hash."""
    return commit_all(repo, email.partition("@")[0], message, email=email)


def new_game(repo: Path, emails: tuple[str, ...] = (ANN, BOB)) -> store.Loaded:
    """A two-player game in games/g.toml of `repo`, its players mapped to `emails` (none when empty)."""
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z", emails=emails)
    return store.create(repo / "games" / "g.toml", header, deal(("ann", "bob"), random.Random(3)))


def play(loaded: store.Loaded) -> store.Loaded:
    """The player to move takes their first legal turn, appended to the file."""
    return store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))


def undo(loaded: store.Loaded, by: str = "") -> store.Loaded:
    return store.append(loaded, loaded.game.decide_undo(by=by))


def game_path(repo: Path) -> Path:
    return repo / "games" / "g.toml"


# -- the file report ---------------------------------------------------------------------------


def test_file_report_sums_up_the_sample_game() -> None:
    """The sample: 81 events, 78 effective turns, one undo (of turn #12), finished, won by cy."""
    report = file_report(store.read(SAMPLE))
    assert report["format"] == 1
    assert report["game"] == "sample-3p"
    assert report["variant"] == "base"
    assert report["players"] == [{"name": n, "email": None} for n in ("ann", "bob", "cy")]
    assert (report["events"], report["turns"], report["undos"], report["undone"]) == (81, 78, 1, [12])
    assert report["finished"] is True
    assert report["to_move"] is None
    assert report["winners"] == ["cy"]
    assert report["head"] == store.read(SAMPLE).record.head
    text = report_text(report)
    assert "81 events: 78 turns, 1 undo (1 turn undone: #12)" in text
    assert "finished: cy wins" in text
    assert f"chain head: {report['head']}" in text


def test_file_report_names_emails_and_who_is_to_move(tmp_path: Path) -> None:
    """A game under way reports the player to move, and each player's e-mail from the header."""
    loaded = play(new_game(tmp_path))
    report = file_report(loaded)
    assert report["players"] == [{"name": "ann", "email": ANN}, {"name": "bob", "email": BOB}]
    assert (report["events"], report["turns"], report["undos"], report["to_move"]) == (2, 1, 0, "bob")
    assert report["finished"] is False
    assert report["winners"] == []
    assert "players: ann <ann@example.org>, bob <bob@example.org>" in report_text(report)
    assert "bob to move" in report_text(report)


def test_a_header_whose_variant_is_not_the_setup_is_refused(tmp_path: Path) -> None:
    """The header's variant must be the setup's: such a file is never written, and is refused
    when read (exit 4) - a base deal under a Duel header, and a Duel under a base header."""
    path = tmp_path / "g.toml"
    header = Header(game="g", variant="duel", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    with pytest.raises(GameFileError, match="a game_started event has no place in Splendor Duel"):
        store.create(path, header, deal(("ann", "bob"), random.Random(3)))
    assert not path.exists()
    duel = store.create(path, header, deal_duel(("ann", "bob"), random.Random(3)))
    text = duel.data.decode().replace('variant = "duel"', 'variant = "base"')
    path.write_text(text)
    with pytest.raises(GameFileError) as caught:
        store.read(path)  # the chain starts at the header's digest: any edit of it breaks the chain
    assert caught.value.exit_code == 4


# -- reading a version that extends the one before ------------------------------------------


def _next_block(loaded: store.Loaded) -> str:
    """The [[events]] block of the next legal turn, sealed onto `loaded`."""
    return format_event(chained(loaded.record, loaded.game.decide(choices(loaded.game.state).move(0))))


def _inline(block: str) -> str:
    """The same event as an inline table in an `events = [...]` key."""
    return "events = [{" + ", ".join(block.strip().splitlines()[1:]) + "}]\n"


TAILS = {
    "one block": lambda b: b,
    "a comment, then a block": lambda b: "# bob thinks\n" + b,
    "only a comment": lambda b: "\n# nothing played\n",
    "a key before the block": lambda b: 'noble = ""\n' + b,
    "the event inline": lambda b: "\n" + _inline(b),
    "a line separator hiding the header": lambda b: "# c\u2028[[events]]\n" + _inline(b),
    "a block, then another table": lambda b: b + "[other]\nx = 1\n",
    "a sub-table of the last event": lambda b: "[events.x]\ny = 1\n",
    "a block with an extra key": lambda b: b + "extra = 1\n",
    "a block with a wrong parent": lambda b: re.sub(r'parent = "\w+"', 'parent = "0000000000000000"', b),
    "a block cut short": lambda b: b[: len(b) // 2],
    "a block written twice": lambda b: b + b,
}


@pytest.mark.parametrize("name", TAILS)
def test_reading_only_the_appended_text_agrees_with_reading_the_whole_file(tmp_path: Path, name: str) -> None:
    """The shortcut that parses only the text a commit appended accepts exactly what `store.read`'s full
    parse accepts, with the same events and game; whatever it cannot vouch for goes to the full parse."""
    loaded = play(new_game(tmp_path))
    block = _next_block(loaded)
    old = loaded.data
    new = old + TAILS[name](block).encode()
    before = versions.read_version(old)
    try:
        whole: versions.Version | None = versions.read_version(new)
    except SplendorError:
        whole = None
    try:
        part: versions.Version | None = versions.extend_version(before, old, new)
    except SplendorError:
        part = None
    assert (part is None) == (whole is None)
    if part is not None and whole is not None:
        assert (part.record, part.game) == (whole.record, whole.game)
    if name == "one block":  # the common case takes the shortcut
        assert versions.appended(before.record, block) is not None


# -- the git history -------------------------------------------------------------------------


def test_a_clean_history_passes(repo: Path) -> None:
    """Each commit appends one turn (or one undo) by the player its author is: the walk finds nothing."""
    loaded = play(new_game(repo))  # the creating commit may hold the setup and one turn
    commit(repo, ANN, "new game, ann's first turn")
    loaded = play(loaded)
    commit(repo, "BOB@Example.org", "bob: a turn")  # addresses compare without regard to case
    (repo / "notes.txt").write_text("not the game\n")
    commit(repo, BOB, "a file that is not the game")
    loaded = undo(loaded, by="bob")
    commit(repo, BOB, "bob: undo")
    loaded = play(loaded)
    commit(repo, BOB, "bob: another turn")
    report = git_report(game_path(repo), None)
    assert report["ok"] is True, report
    assert report["commits"] == 4
    assert report["authors_checked"] is True
    assert report["bad"] is None
    assert report["head"] == loaded.record.head
    assert report["path"] == "games/g.toml"
    assert "ok: 4 commits checked" in git_report_text(report)


def test_a_game_without_emails_checks_no_author(repo: Path) -> None:
    """Without e-mails in the header anyone may commit any turn; the other rules still hold."""
    loaded = new_game(repo, emails=())
    commit(repo, "carol@example.org", "new game")
    play(play(loaded))
    commit(repo, "carol@example.org", "two turns")
    report = git_report(game_path(repo), "HEAD~1..HEAD")
    assert report["authors_checked"] is False
    assert report["bad"]["reason"].startswith("appends 2 turns")


def test_a_commit_that_changes_an_earlier_byte_is_named(repo: Path) -> None:
    """A commit that appends a good turn but also edits a byte before it is the first bad commit."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    loaded = play(loaded)
    commit(repo, ANN, "ann: a turn")
    path = game_path(repo)
    play(loaded)
    path.write_bytes(path.read_bytes().replace(b"# A game of Splendor", b"# A game of Splendour", 1))
    bad = commit(repo, BOB, "bob: a turn, and a comment edited")
    play(store.read(path))
    commit(repo, ANN, "ann: a turn after it")
    report = git_report(path, None)
    assert report["ok"] is False
    assert report["commits"] == 3
    assert report["bad"]["commit"] == bad
    assert report["bad"]["author"] == "bob"
    assert report["bad"]["email"] == BOB
    assert report["bad"]["subject"] == "bob: a turn, and a comment edited"
    assert report["bad"]["reason"].startswith("changes line 1 (the header)")
    text = git_report_text(report)
    assert f"first bad commit {bad}" in text
    assert "bob: a turn, and a comment edited" in text


def test_a_commit_that_cuts_the_file_is_found(repo: Path) -> None:
    """Removing the last event is not appending: the commit is bad, and says where it cut."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    before = game_path(repo).read_bytes()
    play(loaded)
    commit(repo, ANN, "ann: a turn")
    game_path(repo).write_bytes(before)
    bad = commit(repo, ANN, "ann: taking it back by hand")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"].startswith("cuts the file at line")


def test_a_commit_with_two_turns_is_found(repo: Path) -> None:
    """A commit may append one turn: one with two is the first bad commit, and the reason names both."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    play(play(loaded))
    bad = commit(repo, ANN, "ann and bob")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"] == (
        "appends 2 turns (#2 ann's turn, #3 bob's turn): a commit may append one turn, or one undo"
    )
    assert report["commits"] == 2


def test_an_undo_shares_no_commit_with_a_turn(repo: Path) -> None:
    """An undo counts as a move of its own: a turn and an undo in one commit is bad."""
    loaded = play(new_game(repo))
    commit(repo, ANN, "new game, ann's turn")
    play(undo(loaded, by="ann"))
    bad = commit(repo, ANN, "ann: undo and play again")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"].startswith("appends 1 turn and 1 undo (#3 an undo by ann, #4 ann's turn)")


def test_a_creating_commit_with_two_turns_is_found(repo: Path) -> None:
    """The commit that creates the file appends to nothing: the setup and at most one turn."""
    play(play(new_game(repo)))
    bad = commit(repo, ANN, "a game already under way")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"].startswith("creates the game with 2 turns")
    assert report["head"] is None


def test_a_turn_committed_by_another_player_is_found(repo: Path) -> None:
    """With e-mails in the header, the author of a commit must be the player of the turn it appends."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    loaded = play(loaded)
    commit(repo, ANN, "ann: a turn")
    play(loaded)
    bad = commit(repo, ANN, "ann plays bob's turn")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"] == f"turn #3 is bob's ({BOB}), but the commit's author is {ANN}"


def test_an_undo_committed_by_someone_else_than_who_asked_is_found(repo: Path) -> None:
    """An undo that names who asked for it must be committed by that player."""
    loaded = play(new_game(repo))
    commit(repo, ANN, "new game, ann's turn")
    undo(loaded, by="ann")
    bad = commit(repo, BOB, "bob undoes ann's turn in her name")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"] == f"undo #3 was asked by ann ({ANN}), but the commit's author is {BOB}"


@pytest.mark.parametrize(
    "tail",
    [b'\n[[events]]\ntype = "tokens_taken"\nseq = 3\npar', b"\nthis is not TOML\n"],
    ids=["truncated event", "garbage"],
)
def test_a_corrupt_file_in_a_commit_is_found(repo: Path, tail: bytes) -> None:
    """A commit whose file does not read (cut short, or not TOML) is bad, though it only appended."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    path = Path(play(loaded).path)
    commit(repo, ANN, "ann: a turn")
    path.write_bytes(path.read_bytes() + tail)
    bad = commit(repo, BOB, "bob: broken")
    report = git_report(path, None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"].startswith("writes a file that does not read: event #")


def test_a_commit_that_forks_the_game_is_found(repo: Path) -> None:
    """Two turns from one copy, both kept (a union merge, say): the commit that wrote the fork is bad."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    other = format_event(chained(loaded.record, loaded.game.decide(choices(loaded.game.state).move(1))))
    path = Path(play(loaded).path)
    commit(repo, ANN, "ann: a turn")
    path.write_bytes(path.read_bytes() + other.encode())
    bad = commit(repo, ANN, "ann: the other turn too")
    report = git_report(path, None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"].startswith("writes a file that does not read: the game forked")


def test_a_commit_that_deletes_the_file_is_found(repo: Path) -> None:
    """Deleting the game file rewrites all of it."""
    new_game(repo)
    commit(repo, ANN, "new game")
    game_path(repo).unlink()
    bad = commit(repo, ANN, "gone")
    report = git_report(game_path(repo), None)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"].startswith("deletes the game file")


def test_the_rev_range_limits_the_walk(repo: Path) -> None:
    """Only the commits in REV-RANGE are judged, each against its parent even when that is outside it."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    loaded = play(play(loaded))
    bad = commit(repo, ANN, "two turns")
    run_git(repo, "checkout", "-q", "-b", "feature")
    loaded = play(loaded)
    commit(repo, ANN, "ann: a turn")
    play(loaded)
    commit(repo, BOB, "bob: a turn")
    path = game_path(repo)
    for rev_range in ("main..feature", "HEAD~2..HEAD"):
        report = git_report(path, rev_range)
        assert (report["ok"], report["commits"], report["range"]) == (True, 2, rev_range), report
        assert "2 commits in" in git_report_text(report)
    assert git_report(path, "HEAD~1..HEAD")["commits"] == 1
    assert git_report(path, None)["bad"]["commit"] == bad
    nothing = git_report(path, "HEAD..HEAD")
    assert (nothing["ok"], nothing["commits"]) == (True, 0)
    assert "nothing to check" in git_report_text(nothing)


def test_a_merge_that_takes_one_side_is_walked_through(repo: Path) -> None:
    """A merge that keeps one side's file adds nothing; the turns on the merged branch are judged,
    and so is the merge (its file differs from its first parent's): four commits."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    run_git(repo, "checkout", "-q", "-b", "turns")
    loaded = play(loaded)
    commit(repo, ANN, "ann: a turn")
    run_git(repo, "checkout", "-q", "main")
    (repo / "notes.txt").write_text("meanwhile\n")
    commit(repo, BOB, "notes")
    run_git(repo, "merge", "-q", "--no-ff", "--no-edit", "turns", who="bob")
    play(store.read(game_path(repo)))
    commit(repo, BOB, "bob: a turn")
    report = git_report(game_path(repo), None)
    assert (report["ok"], report["commits"]) == (True, 4), report


def test_outside_a_repository_or_without_git_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No repository, no git on PATH, or a bad range: a UsageError (exit 2) that says so."""
    new_game(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    with pytest.raises(UsageError, match="not in a git repository") as caught:
        git_report(game_path(tmp_path), None)
    assert caught.value.exit_code == 2
    run_git(tmp_path, "init", "-q", "-b", "main")
    commit(tmp_path, ANN, "new game")
    with pytest.raises(UsageError, match="bad revision range"):
        git_report(game_path(tmp_path), "--output=/tmp/x")
    with pytest.raises(UsageError, match="git log failed"):
        git_report(game_path(tmp_path), "nope..HEAD")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(UsageError, match="git is not installed"):
        git_report(game_path(tmp_path), None)


def test_a_shallow_clone_is_refused_rather_than_misjudged(repo: Path, tmp_path: Path) -> None:
    """In a shallow clone the cut commit looks like it created the whole game: refuse, and say how to fix it."""
    loaded = new_game(repo)
    commit(repo, ANN, "new game")
    play(loaded)
    commit(repo, ANN, "ann: a turn")
    run_git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", "shallow")
    with pytest.raises(UsageError, match="fetch-depth: 0"):
        git_report(tmp_path / "shallow" / "games" / "g.toml", None)
    assert git_report(tmp_path / "shallow" / "games" / "g.toml", "HEAD..HEAD")["ok"] is True


def test_the_staged_change_is_held_to_the_same_rules(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """For a pre-commit hook: the staged file against HEAD's, with the author git would record."""
    loaded = new_game(repo)
    path = game_path(repo)
    run_git(repo, "add", "-A")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "ann")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", ANN)
    first = staged_report(path)
    assert (first["ok"], first["staged"], first["commits"]) == (True, True, 1), first
    commit(repo, ANN, "new game")
    assert staged_report(path)["commits"] == 0
    loaded = play(loaded)
    run_git(repo, "add", "-A")
    assert staged_report(path)["ok"] is True
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", BOB)
    report = staged_report(path)
    assert report["bad"] == {
        "commit": None,
        "author": "ann",
        "email": BOB,
        "subject": "",
        "reason": f"turn #2 is ann's ({ANN}), but the commit's author is {BOB}",
    }
    assert "the staged change by ann <bob@example.org> breaks a rule" in git_report_text(report)
