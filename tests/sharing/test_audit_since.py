"""`splendor sync`'s audit of what is new (`audit.audit`): the commits after the last one whose
history an audit found good (the mark, kept in the user's own authenticated cache), judged as a
whole audit judges them; the whole history again when the mark is missing, tampered with, for
another path, not an ancestor of HEAD (a history rewritten under it), or when the walk follows a
rename. Crafted histories in real repositories (the fast tier); `verify --git` keeps auditing
everything (tests/sharing/test_verify_history.py)."""

from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import deal, splendor_in
from sealed_helpers import Table
from sharing.gitrepos import commit_all, run_git

from splendor_cli import store
from splendor_cli.app.commands import syncing as sync_table
from splendor_cli.app.services import cache
from splendor_cli.errors import GameFileError
from splendor_cli.events import actor
from splendor_cli.events.codec import Header, format_record
from splendor_cli.sealing.events import RewindAgreed
from splendor_cli.sharing import git_audit as audit_module
from splendor_cli.sharing import sync as sharing_sync
from splendor_cli.sharing import versions
from splendor_cli.sharing.git_audit import audit, git_report
from splendor_cli.sharing.gitsync import Upstream, groups
from splendor_cli.sharing.withdrawals import WITHDRAW, consent_line, withdrawals
from splendor_cli.variants.base.rules import choices

pytestmark = pytest.mark.usefixtures("git_installed")

GAME = Path("games") / "g.toml"
ANN, BOB = "ann@example.org", "bob@example.org"
UP = Upstream(remote="origin", branch="main", tracking=True)


def _new(repo: Path, path: Path = GAME) -> str:
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z", emails=(ANN, BOB))
    store.create(repo / path, header, deal(("ann", "bob"), random.Random(3)))
    return commit_all(repo, "ann", "new game")


def _turn(repo: Path, option: int = 0, path: Path = GAME) -> str:
    """The player to move takes their legal turn `option`, committed by them."""
    loaded = store.read(repo / path)
    who = loaded.game.state.player.name
    store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(option)))
    return commit_all(repo, who, f"{who}: a turn")


def _mark(commit: str, path: Path = GAME) -> str:
    """What `audit` gives as the mark of a good audit of `commit`'s history."""
    return f"{commit}\n{path.as_posix()}"


# -- the walk after a mark ------------------------------------------------------------------------


def test_the_audit_after_a_mark_judges_only_the_new_commits(repo: Path) -> None:
    _new(repo)
    for _ in range(3):
        _turn(repo)
    whole = audit(repo / GAME)
    tip = run_git(repo, "rev-parse", "HEAD")
    assert whole["ok"] and whole["since"] is None and whole["commits"] == 4, whole
    assert whole["tip"] == tip and whole["mark"] == _mark(tip)
    _turn(repo)
    last = _turn(repo)
    after = audit(repo / GAME, whole["mark"])
    assert after["ok"] and after["since"] == tip and after["commits"] == 2, after
    assert after["range"] == f"{tip}..{last}" and after["mark"] == _mark(last)
    assert after["head"] == git_report(repo / GAME)["head"]  # the chain head, as the whole audit says
    same = audit(repo / GAME, after["mark"])  # nothing new: nothing to judge
    assert same["ok"] and same["commits"] == 0 and same["since"] == last and same["mark"] == _mark(last)


def test_a_commit_after_the_mark_that_rewrites_an_earlier_event_is_found(repo: Path) -> None:
    """After the mark, a commit replaces bob's turn (committed before the mark) with another one:
    the walk of the new commits names it, as the whole audit does."""
    _new(repo)
    _turn(repo)
    before_bob = (repo / GAME).read_bytes()
    _turn(repo)  # bob's turn
    mark = audit(repo / GAME)["mark"]
    loaded = store.from_bytes(repo / GAME, before_bob)
    other = store.stage(loaded, loaded.game.decide(choices(loaded.game.state).move(1)))
    (repo / GAME).write_bytes(other.data)
    bad = commit_all(repo, "bob", "bob: another turn instead")
    _turn(repo)
    report = audit(repo / GAME, mark)
    assert report["ok"] is False and report["since"] is not None, report
    assert report["bad"]["commit"] == bad and report["mark"] is None
    assert report["bad"]["reason"].startswith("changes line") and "(event #3)" in report["bad"]["reason"]
    assert git_report(repo / GAME)["bad"] == report["bad"]


def test_a_history_rewritten_under_the_mark_is_audited_whole(repo: Path) -> None:
    """The mark's commit is no longer an ancestor of HEAD (a force-push, a rebase): the whole
    history is walked, and a bad commit before where the mark was is found."""
    _new(repo)
    first = _turn(repo)
    _turn(repo)
    _turn(repo)
    mark = audit(repo / GAME)["mark"]
    run_git(repo, "reset", "-q", "--hard", first)
    loaded = store.read(repo / GAME)
    twice = store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))
    store.append(twice, twice.game.decide(choices(twice.game.state).move(0)))
    bad = commit_all(repo, "bob", "bob and ann at once")
    _turn(repo)
    report = audit(repo / GAME, mark)
    assert report["since"] is None and report["range"] is None, report
    assert report["ok"] is False and report["bad"]["commit"] == bad
    assert "a commit may append one turn, or one undo" in report["bad"]["reason"]


@pytest.mark.parametrize(
    "mark",
    [
        "",
        "garbage",
        "{tip}",
        "{tip}\ngames/other.toml",
        "{tip}\n" + GAME.as_posix() + "\n",
        "0" * 40 + "\ngames/g.toml",
    ],
    ids=["empty", "garbage", "no path", "another path", "a longer path", "no such commit"],
)
def test_a_mark_that_is_not_this_files_means_a_whole_audit(repo: Path, mark: str) -> None:
    _new(repo)
    tip = _turn(repo)
    report = audit(repo / GAME, mark.format(tip=tip))
    assert report["ok"] and report["since"] is None and report["commits"] == 2, report
    assert report["mark"] == _mark(tip)


def test_a_rename_after_the_mark_means_a_whole_audit_and_no_mark(repo: Path) -> None:
    """The file moved away and back after the mark: the range's walk follows the renames, so the
    whole history is walked, and no mark is kept (the next audit walks it whole again)."""
    _new(repo)
    _turn(repo)
    mark = audit(repo / GAME)["mark"]
    run_git(repo, "mv", str(GAME), "games/h.toml")
    commit_all(repo, "ann", "moved away")
    _turn(repo, path=Path("games/h.toml"))
    run_git(repo, "mv", "games/h.toml", str(GAME))
    commit_all(repo, "ann", "moved back")
    report = audit(repo / GAME, mark)
    assert report["ok"] and report["since"] is None and report["mark"] is None, report


def test_a_mark_is_not_kept_for_a_history_that_renamed_the_file(repo: Path) -> None:
    _new(repo, path=Path("games/old.toml"))
    run_git(repo, "mv", "games/old.toml", str(GAME))
    commit_all(repo, "ann", "renamed")
    _turn(repo)
    report = audit(repo / GAME)
    assert report["ok"] and report["mark"] is None, report


def _branchy_history(repo: Path, *, bad_on_side: bool) -> str | None:
    """A game with side branches merged back while main committed a file of notes (commits whose
    parents lie outside the range after a mark on the other side); `bad_on_side`: the second side
    branch commits two turns at once (its id)."""
    _new(repo)
    _turn(repo)
    bad = None
    for branch in ("side", "side2"):
        run_git(repo, "checkout", "-q", "-b", branch)
        if branch == "side2" and bad_on_side:
            loaded = store.read(repo / GAME)
            once = store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))
            store.append(once, once.game.decide(choices(once.game.state).move(0)))
            bad = commit_all(repo, "bob", "two turns")
        else:
            _turn(repo)
        run_git(repo, "checkout", "-q", "main")
        (repo / "notes.txt").write_text(f"before {branch} is merged\n")
        commit_all(repo, "ann", "notes")
        run_git(repo, "merge", "-q", "--no-ff", "--no-edit", branch)
        _turn(repo)
    return bad


@pytest.mark.parametrize("bad_on_side", [False, True], ids=["good", "a bad commit on a side branch"])
def test_the_audit_after_any_earlier_commit_says_what_the_whole_audit_says(repo: Path, bad_on_side: bool) -> None:
    """With a mark at any commit that the bad commit (if any) does not precede, the walk of the
    commits after it finds what the whole walk finds: the same bad commit, or nothing."""
    bad = _branchy_history(repo, bad_on_side=bad_on_side)
    whole = git_report(repo / GAME)
    assert whole["ok"] is (bad is None) and (bad is None or whole["bad"]["commit"] == bad), whole
    for commit in run_git(repo, "rev-list", "HEAD").split():
        if (
            bad is not None
            and subprocess.run(["git", "merge-base", "--is-ancestor", bad, commit], cwd=repo).returncode == 0
        ):
            continue  # a mark is only ever kept after a good audit: never past a bad commit
        report = audit(repo / GAME, _mark(commit))
        assert report["since"] == commit, report
        assert report["ok"] is whole["ok"] and report["bad"] == whole["bad"], (commit, report)
        if whole["ok"]:
            assert report["head"] == (whole["head"] if report["commits"] else None)


# -- a sealed game's fork -------------------------------------------------------------------------


@attrs.frozen
class Fork:
    """A sealed game forked: bob's turn on main, ann's agreement to a rewind on `stale`."""

    bobs: bytes
    anns: bytes
    main: Table
    stale: Table
    common: int


@pytest.fixture(scope="module")
def fork() -> Fork:
    table = Table.new("base", 2, 5).deal()
    for _ in range(3):
        table.step()
    table.duty_round()
    common = len(table.record.events)
    stale = table.fork()
    table.play(table.random_move())
    stale.add(RewindAgreed(seq=0, parent="", player="ann", to=stale.game.after[-2]), "ann")
    return Fork(format_record(table.record).encode(), format_record(stale.record).encode(), table, stale, common)


def _play_out(repo: Path, table: Table, start: int, end: int) -> None:
    events = table.record.events
    done = start
    for group in groups(table.variant, events[start:end]):
        done += len(group)
        (repo / GAME).parent.mkdir(parents=True, exist_ok=True)
        (repo / GAME).write_bytes(format_record(attrs.evolve(table.record, events=events[:done])).encode())
        commit_all(repo, actor(group[0]) or "ann", f"#{group[0].seq}-{group[-1].seq}")


@pytest.fixture
def forked(repo: Path, fork: Fork) -> str:
    """main: the game to the fork, then bob's turn; stale (checked out): ann's agreement instead.
    The mark of the audit of stale's history."""
    _play_out(repo, fork.main, 0, fork.common)
    run_git(repo, "branch", "stale")
    _play_out(repo, fork.main, fork.common, len(fork.main.record.events))
    run_git(repo, "checkout", "-q", "stale")
    _play_out(repo, fork.stale, fork.common, len(fork.stale.record.events))
    report = audit(repo / GAME)
    assert report["ok"] and report["mark"] is not None, report
    return str(report["mark"])


def _merge(repo: Path, kept: bytes, message: str) -> str:
    run_git(repo, "merge", "-q", "--no-commit", "-s", "ours", "main")
    (repo / GAME).write_bytes(kept)
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "--no-verify", "-m", message)
    return run_git(repo, "rev-parse", "HEAD")


def _all_trusted(record: Any) -> int:
    return len(record.events)


@pytest.mark.parametrize("trusted", [None, _all_trusted], ids=["checked", "all verified before"])
def test_a_sealed_merge_without_consent_after_the_mark_is_found(
    repo: Path, fork: Fork, forked: str, trusted: Any
) -> None:
    """ann merges main, leaving out her own agreement, without her signed consent: the walk after
    the mark names the merge (whatever this reader verified before of the events)."""
    merge = _merge(repo, fork.bobs, "settled by hand\n")
    report = audit(repo / GAME, forked, trusted)
    assert report["since"] == forked.partition("\n")[0] and report["commits"] == 2, report  # bob's turn, the merge
    assert report["ok"] is False and report["bad"]["commit"] == merge
    assert "they are ann's, and the merge holds no consent signed by ann" in report["bad"]["reason"]


def test_a_sealed_merge_with_consent_after_the_mark_passes(repo: Path, fork: Fork, forked: str) -> None:
    (withdrawal,) = withdrawals([fork.anns, fork.bobs], fork.bobs)
    line = consent_line("ann", fork.main.keys["ann"].sign(WITHDRAW, withdrawal.statement))
    merge = _merge(repo, fork.bobs, f"splendor sync: merge origin/main\n\n{line}\n")
    report = audit(repo / GAME, forked, _all_trusted)
    assert report["ok"] and report["commits"] == 2 and report["mark"] == _mark(merge), report
    assert report["head"] == fork.main.record.head


def test_what_this_reader_verified_before_is_not_checked_again(repo: Path, fork: Fork) -> None:
    """A signature broken in the last commit: found when nothing is trusted; passed over when
    the reader says it verified every event before (the verified prefix compares full digests:
    no reader ever verified this event; the test only shows that `trusted` is what it says)."""
    _play_out(repo, fork.main, 0, len(fork.main.record.events) - 1)
    data = fork.bobs  # bob's turn, its signature broken
    at = data.rindex(b"sig = '") + len(b"sig = '")
    (repo / GAME).write_bytes(data[:at] + (b"0" if data[at : at + 1] != b"0" else b"1") + data[at + 1 :])
    bad = commit_all(repo, "bob", "a broken signature")
    checked = audit(repo / GAME)
    assert checked["bad"]["commit"] == bad and "signature" in checked["bad"]["reason"], checked["bad"]
    trusting = audit(repo / GAME, None, _all_trusted)
    assert trusting["ok"] is True, trusting["bad"]["reason"]


def test_withdrawals_trusts_what_was_verified(fork: Fork, monkeypatch: pytest.MonkeyPatch) -> None:
    """`withdrawals` (what sync signs when it concludes a sealed merge) replays the files with the
    verified prefix: no signature is checked again when every event was verified before."""
    checked: list[int] = []
    real = versions.replay_record

    def counting(record: Any, trusted: int = 0) -> Any:
        checked.append(len(record.events) - trusted)
        return real(record, trusted)

    monkeypatch.setattr(versions, "replay_record", counting)
    (left,) = withdrawals([fork.anns, fork.bobs], fork.bobs, _all_trusted)
    assert left.player == "ann" and checked and not any(checked)


# -- the mark in the user's cache -----------------------------------------------------------------


@pytest.fixture
def audits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Each `audit.audit` that sync runs: the mark it was given, and its report."""
    seen: list[dict[str, Any]] = []
    real = audit_module.audit

    def recording(path: Any, mark: str | None = None, *args: Any, **options: Any) -> dict[str, Any]:
        report = real(path, mark, *args, **options)
        seen.append({"given": mark, **report})
        return report

    monkeypatch.setattr(audit_module, "audit", recording)
    yield seen


def _entries(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if len(p.name) == 64]


def test_sync_remembers_its_audit_and_audits_what_is_new(repo: Path, audits: list[dict[str, Any]]) -> None:
    _new(repo)
    first = _turn(repo)
    path = str(repo / GAME)
    sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["given"] is None and audits[-1]["since"] is None
    _turn(repo)
    last = _turn(repo)
    sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["given"] == _mark(first) and audits[-1]["since"] == first and audits[-1]["commits"] == 2
    other = Upstream(remote="other", branch="main", tracking=True)
    sharing_sync.audit([path], other, sync_table.local())  # another upstream
    assert audits[-1]["given"] is None and audits[-1]["commits"] == 4
    sync_table.forget_audited(path, UP)
    sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["given"] == "" and audits[-1]["since"] is None
    sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["since"] == last


@pytest.mark.parametrize("how", ["tampered", "removed", "no cache"])
def test_a_tampered_or_absent_cache_entry_means_a_whole_audit(
    repo: Path, audits: list[dict[str, Any]], how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _new(repo)
    _turn(repo)
    path = str(repo / GAME)
    sharing_sync.audit([path], UP, sync_table.local())
    _turn(repo)
    folder = Path(cache._folder() or "")
    assert _entries(folder)
    for entry in _entries(folder):
        if how == "tampered":  # the text changed, the MAC kept: never served
            data = entry.read_bytes()
            entry.write_bytes(data[:-41] + (b"0" if data[-41:-40] != b"0" else b"1") + data[-40:])
        elif how == "removed":
            entry.unlink()
    if how == "no cache":
        monkeypatch.setenv("SPLENDOR_NO_CACHE", "1")
    sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["given"] is None and audits[-1]["since"] is None and audits[-1]["commits"] == 3


def test_a_bad_audit_leaves_the_mark_where_it_was(repo: Path, audits: list[dict[str, Any]]) -> None:
    _new(repo)
    good = _turn(repo)
    path = str(repo / GAME)
    sharing_sync.audit([path], UP, sync_table.local())
    loaded = store.read(repo / GAME)
    once = store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(0)))
    store.append(once, once.game.decide(choices(once.game.state).move(0)))
    commit_all(repo, "bob", "two turns")
    with pytest.raises(GameFileError, match="nothing pushed"):
        sharing_sync.audit([path], UP, sync_table.local())
    with pytest.raises(GameFileError, match="nothing pushed"):
        sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["given"] == _mark(good)
    run_git(repo, "reset", "-q", "--hard", good)
    _turn(repo)
    sharing_sync.audit([path], UP, sync_table.local())
    assert audits[-1]["since"] == good and audits[-1]["commits"] == 1


def test_sync_over_a_remote_audits_only_its_new_commits(tmp_path: Path, audits: list[dict[str, Any]]) -> None:
    """Two syncs of a clone (the command, in this process): the first audits the whole history,
    the second the turn it pushes; both leave a history that `verify --git` passes."""
    remote, clone = tmp_path / "remote.git", tmp_path / "clone"
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    run_git(tmp_path, "clone", "-q", str(remote), str(clone))
    for key, value in (("user.name", "ann"), ("user.email", ANN), ("commit.gpgsign", "false")):
        run_git(clone, "config", key, value)
    splendor_in(clone, "new", "--players", f"ann={ANN},bob={BOB}", "--seed", "5", "-g", str(GAME))
    splendor_in(clone, "sync", "-g", str(GAME))
    assert [a["since"] for a in audits] == [None]
    head = run_git(clone, "rev-parse", "HEAD")
    splendor_in(clone, "take", "-g", str(GAME), "white", "blue", "green")
    out = splendor_in(clone, "sync", "-g", str(GAME))
    assert "pushed to origin/main" in out
    assert audits[-1]["since"] == head and audits[-1]["commits"] == 1 and audits[-1]["ok"]
    assert "ok" in splendor_in(clone, "verify", "--git", "-g", str(GAME))
