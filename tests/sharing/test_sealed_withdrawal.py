"""`verify --git` on the forks of a sealed game: a merge may leave out a forked branch only with the
signed consent of the player whose events they all are (the `Splendor-Withdrawn-By:` line of its
message), whatever e-mail its commit bears. Crafted histories in a real repository (no merge
driver, no CLI: the fast tier); tests/scenarios/test_sealed_fork_over_git.py plays the same with
`splendor sync` and real clones.

The history: the game up to a point where bob is to move, on main; bob plays his turn there; on
the branch `stale` (ann's clone, behind), ann signs her agreement to a rewind (`undo --agree`)
after the same event: the game forks. Then ann merges main into `stale`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs
import pytest
from helpers import git
from sealed_helpers import Table
from sharing.gitrepos import commit_all

from splendor_cli.events import actor
from splendor_cli.events.codec import format_record
from splendor_cli.records import parse_text, replay_record
from splendor_cli.sealing.events import RewindAgreed
from splendor_cli.sharing import git_audit as audit
from splendor_cli.sharing import withdrawals as withdrawals_
from splendor_cli.sharing.git_audit import git_report, staged_report
from splendor_cli.sharing.gitsync import groups
from splendor_cli.sharing.withdrawals import WITHDRAW, consent_line, withdrawal_statement, withdrawals

pytestmark = [
    pytest.mark.usefixtures("git_installed"),
    pytest.mark.slow,
]  # slow tier: many CLI runs and real processes; CI runs every tier

GAME = Path("games") / "g.toml"


@attrs.frozen
class Fork:
    """The files of the fork: bob's side (main), ann's side (stale); the tables, and the events
    before the fork."""

    bobs: bytes
    anns: bytes
    main: Table
    stale: Table
    common: int


def _fork(seed: int = 5) -> Fork:
    table = Table.new("base", 2, seed).deal()
    for _ in range(3):
        table.step()
    table.duty_round()  # nothing owed at the fork: each side holds one player's events only
    assert table.state.player.name == "bob"
    common = len(table.record.events)
    stale = table.fork()
    table.play(table.random_move())
    stale.add(RewindAgreed(seq=0, parent="", player="ann", to=stale.game.after[-2]), "ann")
    return Fork(
        bobs=format_record(table.record).encode(),
        anns=format_record(stale.record).encode(),
        main=table,
        stale=stale,
        common=common,
    )


def _write(repo: Path, data: bytes) -> None:
    (repo / GAME).parent.mkdir(parents=True, exist_ok=True)
    (repo / GAME).write_bytes(data)


def _play_out(repo: Path, table: Table, start: int, end: int) -> None:
    """Commit the events `start` to `end` (0-based, end excluded) of `table`, a commit per group
    (`gitsync.groups`: what `splendor sync` commits together), each by the group's player."""
    events = table.record.events
    done = start
    for group in groups(table.variant, events[start:end]):
        done += len(group)
        _write(repo, format_record(attrs.evolve(table.record, events=events[:done])).encode())
        commit_all(repo, actor(group[0]) or "ann", f"#{group[0].seq}-{group[-1].seq}")


def _history(repo: Path, fork: Fork) -> None:
    """main: the game to the fork, then bob's turn; stale (checked out): ann's agreement instead."""
    git(repo, "init", "-q", "-b", "main")
    _play_out(repo, fork.main, 0, fork.common)
    git(repo, "branch", "stale")
    _play_out(repo, fork.main, fork.common, len(fork.main.record.events))
    git(repo, "checkout", "-q", "stale")
    _play_out(repo, fork.stale, fork.common, len(fork.stale.record.events))


def _merge(repo: Path, kept: bytes, message: str, *, who: str = "ann", email: str = "") -> str:
    """ann (or `who`, with the e-mail `email`) merges main into stale, the file as `kept`."""
    git(repo, "merge", "-q", "--no-commit", "-s", "ours", "main", who=who, email=email)
    _write(repo, kept)
    git(repo, "add", "-A", who=who, email=email)
    git(repo, "commit", "-q", "--no-verify", "-m", message, who=who, email=email)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _consent(fork: Fork, who: str, dropped: bytes, kept: bytes) -> str:
    """`who`'s consent line to leave out `dropped`'s branch, keeping `kept`, signed by their key."""
    (withdrawal,) = withdrawals([dropped, kept], kept)
    return consent_line(who, fork.main.keys[who].sign(WITHDRAW, withdrawal.statement))


@pytest.fixture(scope="module")
def fork() -> Fork:
    return _fork()


@pytest.fixture(scope="module")
def template(fork: Fork, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The history (`_history`), made once: each test works on a copy."""
    repo = tmp_path_factory.mktemp("template") / "repo"
    repo.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
        patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
        _history(repo, fork)
    return repo


@pytest.fixture
def repo(template: Path, tmp_path: Path) -> Path:
    """A copy of the history, on `stale` (ann's clone)."""
    copy = tmp_path / "repo"
    shutil.copytree(template, copy, symlinks=True)
    return copy


def test_what_a_merge_leaves_out_and_who_may(fork: Fork) -> None:
    """`withdrawals`: keeping bob's side leaves out ann's agreement, hers to withdraw; keeping hers
    leaves out bob's turn, his; a merge that keeps both, or an open game, leaves out nothing."""
    (anns,) = withdrawals([fork.anns, fork.bobs], fork.bobs)
    assert (anns.player, anns.fault, [e.seq for e in anns.events]) == ("ann", None, [fork.stale.game.seq])
    assert anns.listed == f"#{fork.stale.game.seq} ann's rewind agreed"
    (bobs,) = withdrawals([fork.anns, fork.bobs], fork.anns)
    assert (bobs.player, bobs.fault) == ("bob", None)
    assert bobs.listed.startswith(f"#{fork.main.game.seq} bob's ")
    assert anns.statement != bobs.statement
    base = format_record(attrs.evolve(fork.main.record, events=fork.main.record.events[: fork.common])).encode()
    assert withdrawals([base, fork.bobs], fork.bobs) == []


def test_a_branch_of_two_players_is_nobodys_to_withdraw() -> None:
    """ann answers on the stale side after bob's other turn there: leaving that side out drops bob's and ann's."""
    table = Table.new("base", 2, 5).deal()
    for _ in range(3):
        table.step()
    table.duty_round()
    other = table.fork()
    table.play(table.random_move())
    other.rng.random()  # not the move bob made on main
    other.step()  # bob's other turn
    other.step()  # ann's answer (with the shares she owes first)
    assert other.record.events[table.game.seq - 1] != table.record.events[-1]
    kept = format_record(table.record).encode()
    (left,) = withdrawals([format_record(other.record).encode(), kept], kept)
    assert left.player == "" and left.fault is not None and "these are" in left.fault
    assert "bob's" in left.fault and "ann's" in left.fault


@pytest.mark.parametrize("email", ["ann@example.org", "bob@example.org"], ids=["ann's e-mail", "bob's e-mail"])
def test_a_merge_that_leaves_out_another_players_signed_turn_is_bad(repo: Path, fork: Fork, email: str) -> None:
    """The cheat: ann keeps her side and leaves out bob's turn, pushed before. Whatever e-mail the
    merge bears (bob's too: anyone may write it), and with a consent line she signed under bob's
    name, `verify --git` names the merge, the turn it drops and whose it is."""
    forged = consent_line("bob", fork.main.keys["ann"].sign(WITHDRAW, _statement(fork.bobs, fork.anns)))
    merge = _merge(repo, fork.anns, f"settled\n\n{forged}\n", email=email)
    report = git_report(repo / GAME)
    assert report["ok"] is False and report["bad"]["commit"] == merge
    reason = report["bad"]["reason"]
    seq = fork.main.game.seq
    assert reason.startswith(f"drops #{seq} bob's ") and "a merge may only combine its parents' events" in reason
    assert "they are bob's, and the merge holds no consent signed by bob" in reason
    assert "first bad commit" in audit.git_report_text(report)


def test_a_player_may_withdraw_their_own_signed_event_with_their_consent(repo: Path, fork: Fork) -> None:
    """ann keeps bob's turn and leaves out her own agreement, with her signed consent: the walk
    passes, whatever the merge's e-mail (bob's here)."""
    line = _consent(fork, "ann", fork.anns, fork.bobs)
    _merge(repo, fork.bobs, f"splendor sync: merge origin/main\n\n{line}\n", email="bob@example.org")
    report = git_report(repo / GAME)
    assert report["ok"] is True, report
    assert report["head"] == fork.main.record.head


def test_a_merge_concluded_by_hand_has_no_consent(repo: Path, fork: Fork) -> None:
    """The same merge without ann's consent (`git commit` by hand, not `splendor sync`) is bad."""
    merge = _merge(repo, fork.bobs, "settled by hand\n")
    report = git_report(repo / GAME)
    assert report["bad"]["commit"] == merge, report
    assert "they are ann's, and the merge holds no consent signed by ann" in report["bad"]["reason"]
    assert "`splendor sync` writes when ann concludes the merge" in report["bad"]["reason"]


@pytest.mark.parametrize("case", ["bob's signature", "a consent to another merge", "a broken signature", "bob's name"])
def test_only_the_players_own_consent_to_this_merge_counts(fork: Fork, case: str) -> None:
    """A line signed by bob under ann's name, ann's consent to keep another file (a replay), a
    signature that does not verify, ann's consent under bob's name: none is ann's consent to this."""
    (withdrawal,) = withdrawals([fork.anns, fork.bobs], fork.bobs)
    keys = fork.main.keys
    good = consent_line("ann", keys["ann"].sign(WITHDRAW, withdrawal.statement))
    if case == "bob's signature":
        line = consent_line("ann", keys["bob"].sign(WITHDRAW, withdrawal.statement))
    elif case == "a consent to another merge":  # the same branch left out, another file kept
        other = withdrawal_statement(fork.main.sealing, fork.stale.record.events[-1], fork.stale.record.events[-2])
        line = consent_line("ann", keys["ann"].sign(WITHDRAW, other))
    elif case == "a broken signature":
        line = good[:-4] + ("1111" if good.endswith("0000") else "0000")
    else:
        line = good.replace("By: ann ", "By: bob ")
    assert withdrawals_.consent_fault(withdrawal, f"merge\n\n{good}\n") is None
    fault = withdrawals_.consent_fault(withdrawal, f"merge\n\n{line}\n")
    assert fault is not None and "no consent signed by ann" in fault


def _statement(dropped: bytes, kept: bytes) -> bytes:
    (withdrawal,) = withdrawals([dropped, kept], kept)
    return withdrawal.statement


def test_the_staged_merge_looks_for_the_consent_in_merge_msg(
    repo: Path, fork: Fork, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pre-commit hook during the merge: the consent is looked for in the message git prepared."""
    monkeypatch.setenv("GIT_AUTHOR_NAME", "ann")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ann@example.org")
    git(repo, "merge", "-q", "--no-commit", "-s", "ours", "main")
    _write(repo, fork.bobs)
    git(repo, "add", "-A")
    report = staged_report(repo / GAME)
    assert report["bad"] is not None and "no consent signed by ann" in report["bad"]["reason"]
    msg = repo / ".git" / "MERGE_MSG"
    msg.write_text(msg.read_text() + "\n" + _consent(fork, "ann", fork.anns, fork.bobs) + "\n")
    report = staged_report(repo / GAME)
    assert report["ok"] is True, report


def test_the_statement_binds_the_game_and_both_ends(fork: Fork) -> None:
    """What a consent signs changes with the last event left out and the last event kept."""
    after = replay_record(parse_text(fork.bobs.decode()))
    assert after.sealing is not None
    dropped, kept = fork.stale.record.events[-1], fork.main.record.events[-1]
    one = withdrawal_statement(after.sealing, dropped, kept)
    assert one == _statement(fork.anns, fork.bobs)
    assert one != withdrawal_statement(after.sealing, kept, dropped)
    assert one != withdrawal_statement(after.sealing, dropped, fork.main.record.events[-2])
