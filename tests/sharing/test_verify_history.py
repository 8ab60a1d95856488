"""`verify --git` as an audit of the whole history: side branches, merges, forks settled or
erased, `.mailmap`, renames, deletions, bot seats' answers, unsigned undos, staged changes, and a
long history walked with a few git processes."""

from __future__ import annotations

import os
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import deal, splendor_in
from sharing.gitrepos import commit_all, run_git

from splendor_cli import store
from splendor_cli.events.codec import Header
from splendor_cli.sharing import history
from splendor_cli.sharing.audit_rules import SPLIT_ADVICE
from splendor_cli.sharing.git_audit import git_report, git_report_text, staged_report
from splendor_cli.variants.base.notation import format_move
from splendor_cli.variants.base.rules import choices
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel.notation import format_step
from splendor_cli.variants.duel.state import DuelState

pytestmark = pytest.mark.usefixtures("git_installed")

ANN, BOB = "ann@example.org", "bob@example.org"
PEOPLE = {"ann": ANN, "bob": BOB}
GAME = Path("games") / "g.toml"


def _new(repo: Path, *, emails: tuple[str, ...] = (ANN, BOB), path: Path = GAME) -> store.Loaded:
    """A two-player game (ann, bob) at `path` in `repo`, its players mapped to `emails` (none when empty)."""
    header = Header(game="g", variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z", emails=emails)
    return store.create(repo / path, header, deal(("ann", "bob"), random.Random(3)))


def _play(repo: Path, option: int = 0, *, path: Path = GAME) -> store.Loaded:
    """The player to move takes their legal turn number `option`, appended to the file on disk."""
    loaded = store.read(repo / path)
    return store.append(loaded, loaded.game.decide(choices(loaded.game.state).move(option)))


def _undo(repo: Path, by: str) -> store.Loaded:
    loaded = store.read(repo / GAME)
    return store.append(loaded, attrs.evolve(loaded.game.decide_undo(), by=by))


def _listed_by_git_log(repo: Path) -> list[str]:
    """The commits `git log -- FILE` lists: what the walk saw before it walked every commit."""
    return run_git(repo, "log", "--format=%H", "--", str(GAME)).split()


# -- side branches and merges ------------------------------------------------------------------


def test_a_bad_commit_on_a_merged_side_branch_is_found(repo: Path) -> None:
    """A side branch commits two turns at once; main commits the same turns one by one and merges
    the branch. The merge changes nothing, so `git log -- FILE` never shows the side branch: the
    walk judges every commit, and finds it."""
    _new(repo)
    commit_all(repo, "ann", "new game")
    run_git(repo, "checkout", "-q", "-b", "side")
    _play(repo)
    _play(repo)
    bad = commit_all(repo, "ann", "ann and bob, at once")
    run_git(repo, "checkout", "-q", "main")
    _play(repo)
    commit_all(repo, "ann", "ann: a turn")
    _play(repo)
    commit_all(repo, "bob", "bob: a turn", email=BOB)
    run_git(repo, "merge", "-q", "--no-ff", "--no-edit", "side")
    assert (repo / GAME).read_bytes() == run_git(repo, "show", f"{bad}:{GAME}").encode() + b"\n"
    assert bad not in _listed_by_git_log(repo)
    report = git_report(repo / GAME)
    assert report["ok"] is False
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"] == (
        "appends 2 turns (#2 ann's turn, #3 bob's turn): a commit may append one turn, or one undo"
    )


def _erase(repo: Path) -> tuple[str, str]:
    """ann branches from the commit of bob's #3, plays another #4 there, merges main with `-s ours`
    (keeping only her branch), and fast-forwards main to it: ann's #4 and bob's #5 are gone. The
    merge and the tip it erased."""
    _new(repo)
    commit_all(repo, "ann", "new game")
    for who in ("ann", "bob", "ann", "bob"):
        _play(repo)
        commit_all(repo, who, f"{who}: a turn")
    erased = run_git(repo, "rev-parse", "HEAD")
    run_git(repo, "checkout", "-q", "-b", "rewrite", "HEAD~2")
    _play(repo, 1)
    commit_all(repo, "ann", "ann: another #4")
    run_git(repo, "merge", "-q", "-s", "ours", "--no-edit", "main")
    merge = run_git(repo, "rev-parse", "HEAD")
    run_git(repo, "checkout", "-q", "main")
    run_git(repo, "merge", "-q", "--ff-only", "rewrite")
    return merge, erased


def test_a_merge_that_erases_pushed_turns_is_found(repo: Path) -> None:
    """The `-s ours` erasure: the file's history as `git log -- FILE` gives it skips the merge and
    the erased turns, and every commit it lists is good; the walk judges the merge against both
    parents, and names the turns it drops."""
    merge, erased = _erase(repo)
    assert merge not in _listed_by_git_log(repo) and erased not in _listed_by_git_log(repo)
    report = git_report(repo / GAME)
    assert report["ok"] is False
    assert report["bad"]["commit"] == merge
    assert report["bad"]["email"] == ANN
    assert report["bad"]["reason"] == (
        f"drops #4 ann's turn, #5 bob's turn of parent {erased[:12]}: a merge may only combine its parents' events"
        " (settling a forked game may leave out one player's own moves, by that player: these are ann's and bob's)"
    )
    assert f"first bad commit {merge}" in git_report_text(report)


def test_a_merge_that_cuts_a_parent_is_found(repo: Path) -> None:
    """A merge that keeps the older of two files (no fork: the other only extends it) drops the
    newer one's turns: no exception applies."""
    _new(repo)
    commit_all(repo, "ann", "new game")
    run_git(repo, "checkout", "-q", "-b", "old")
    run_git(repo, "checkout", "-q", "main")
    _play(repo)
    turn = commit_all(repo, "ann", "ann: a turn")
    run_git(repo, "checkout", "-q", "old")
    (repo / "notes.txt").write_text("meanwhile\n")
    commit_all(repo, "ann", "notes")
    run_git(repo, "merge", "-q", "-s", "ours", "--no-edit", "main")
    report = git_report(repo / GAME)
    assert report["bad"]["reason"] == (
        f"drops #2 ann's turn of parent {turn[:12]}: a merge may only combine its parents' events"
    )


def _fork(repo: Path) -> tuple[str, str]:
    """The game with ann's #2; then bob plays #3 on main, and another #3 on branch `desk` (a stale
    clone, say). The two commits of bob's."""
    _new(repo)
    _play(repo)
    commit_all(repo, "ann", "new game, ann's turn")
    run_git(repo, "branch", "desk")
    _play(repo, 0)
    pushed = commit_all(repo, "bob", "bob: take", email=BOB)
    run_git(repo, "checkout", "-q", "desk")
    _play(repo, 1)
    stale = commit_all(repo, "bob", "bob: another take", email=BOB)
    return pushed, stale


@pytest.mark.slow  # the merge driver runs as a process
@pytest.mark.parametrize("resolver", ["bob", "ann"])
def test_settling_a_fork_withdraws_the_resolvers_own_move_only(repo: Path, resolver: str) -> None:
    """Through the merge driver and `splendor resolve`: bob's stale #3 forks the game; keeping
    main's side leaves it out. Bob may withdraw his own move; ann may not withdraw it for him."""
    splendor_in(repo, "git", "install")
    commit_all(repo, "ann", "git install")
    pushed, stale = _fork(repo)
    merged = subprocess.run(
        ["git", "merge", "main"], cwd=repo, capture_output=True, text=True, env=_env(resolver), check=False
    )
    assert merged.returncode != 0 and "game forked after event #2" in merged.stderr, merged
    assert "kept theirs" in splendor_in(repo, "resolve", "-g", str(GAME), "--keep", "theirs")
    merge = commit_all(repo, resolver, "settled: main's #3 kept")
    assert run_git(repo, "show", f"{merge}:{GAME}") == run_git(repo, "show", f"{pushed}:{GAME}")
    report = git_report(repo / GAME)
    if resolver == "bob":
        assert (report["ok"], report["commits"]) == (True, 4), report  # the game, both #3s, the merge
        assert report["head"] == store.read(repo / GAME).record.head
        return
    assert report["bad"]["commit"] == merge
    assert report["bad"]["reason"] == (
        f"drops #3 bob's turn of parent {stale[:12]}: a merge may only combine its parents' events"
        " (settling a forked game may leave out one player's own moves, by that player:"
        f" they are bob's ({BOB}), but the merge's author is {ANN})"
    )


def _env(who: str) -> dict[str, str]:
    email = PEOPLE[who]
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": who,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": who,
        "GIT_COMMITTER_EMAIL": email,
    }


def test_settling_a_fork_never_erases_another_players_turn(repo: Path) -> None:
    """On the stale branch ann has answered bob's stale #3; bob settles the fork keeping main's #3
    (as `resolve --keep` does): that leaves out ann's #4 too, which is not his to withdraw."""
    _fork(repo)
    _play(repo)
    answer = commit_all(repo, "ann", "ann answers the stale #3")
    run_git(repo, "checkout", "-q", "main")
    run_git(repo, "merge", "-q", "-s", "ours", "--no-edit", "desk", who="bob")
    merge = run_git(repo, "rev-parse", "HEAD")
    report = git_report(repo / GAME)
    assert report["bad"]["commit"] == merge
    assert report["bad"]["reason"] == (
        f"drops #3 bob's turn, #4 ann's turn of parent {answer[:12]}: a merge may only combine its parents'"
        " events (settling a forked game may leave out one player's own moves, by that player: these are bob's"
        " and ann's)"
    )


def test_a_merge_that_keeps_the_stale_side_withdraws_the_pushed_move(repo: Path) -> None:
    """Settling works both ways: bob may keep his stale #3 and withdraw the one he pushed (`-s ours`
    on the stale branch gives the bytes `resolve --keep ours` gives); the walk passes."""
    _fork(repo)
    run_git(repo, "merge", "-q", "-s", "ours", "--no-edit", "main", who="bob")
    report = git_report(repo / GAME)
    assert (report["ok"], report["commits"]) == (True, 4), report


# -- authors -------------------------------------------------------------------------------------


def test_a_mailmap_cannot_lend_a_player_another_address(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ann commits a `.mailmap` that maps her address onto bob's, then plays bob's turn: git's
    mailmapped author (%aE) would be bob's address, but the walk and the staged check read the
    author as recorded."""
    _new(repo)
    _play(repo)
    commit_all(repo, "ann", "new game, ann's turn")
    (repo / ".mailmap").write_text(f"bob <{BOB}> <{ANN}>\n")
    commit_all(repo, "ann", "a mailmap")
    _play(repo)
    run_git(repo, "add", "-A")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "ann")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", ANN)
    assert run_git(repo, "check-mailmap", f"ann <{ANN}>") == f"bob <{BOB}>"  # what the map says
    staged = staged_report(repo / GAME)
    assert staged["bad"]["email"] == ANN
    assert staged["bad"]["reason"] == f"turn #3 is bob's ({BOB}), but the commit's author is {ANN}"
    bad = commit_all(repo, "ann", "bob's turn, as ann")
    assert run_git(repo, "log", "-1", "--format=%aE") == BOB
    report = git_report(repo / GAME)
    assert (report["bad"]["commit"], report["bad"]["email"]) == (bad, ANN)
    assert report["bad"]["reason"] == f"turn #3 is bob's ({BOB}), but the commit's author is {ANN}"


@pytest.mark.parametrize("emails", [(ANN, BOB), ()], ids=["with e-mails", "without"])
def test_an_undo_that_names_nobody_is_checked_only_without_emails(repo: Path, emails: tuple[str, ...]) -> None:
    """Who asked for an undo is checked against the commit's author: an undo that names nobody
    cannot be, so it is bad in a game with e-mails, and fine in a game without."""
    _new(repo, emails=emails)
    _play(repo)
    commit_all(repo, "ann", "new game, ann's turn")
    _undo(repo, by="")
    undo = commit_all(repo, "ann", "undo")
    report = git_report(repo / GAME)
    if emails:
        assert report["bad"]["commit"] == undo
        assert report["bad"]["reason"] == "undo #3 names nobody: who asked cannot be checked"
    else:
        assert report["ok"] is True, report


# -- renames and deletions -----------------------------------------------------------------------


@pytest.mark.parametrize("together", [False, True], ids=["mv, then a turn", "mv with a turn"])
def test_a_renamed_game_is_followed(repo: Path, together: bool) -> None:
    """A `git mv` of the game, alone or with a turn appended in the same commit, is neither a
    deletion nor a creation: the walk goes on under the old path, and still finds a bad commit
    made before the rename."""
    new = Path("games") / "friday.toml"
    _new(repo)
    commit_all(repo, "ann", "new game")
    _play(repo)
    _play(repo)
    bad = commit_all(repo, "ann", "two turns")
    _play(repo)
    commit_all(repo, "ann", "ann: a turn")
    run_git(repo, "mv", str(GAME), str(new))
    if not together:
        commit_all(repo, "bob", "rename", email=BOB)
    _play(repo, path=new)
    commit_all(repo, "bob", "bob: a turn" + (", and a rename" if together else ""), email=BOB)
    report = git_report(repo / new)
    assert report["bad"]["commit"] == bad
    assert report["path"] == "games/friday.toml"
    after = git_report(repo / new, f"{bad}..HEAD")
    assert (after["ok"], after["commits"]) == (True, 3 - together), after
    assert after["head"] == store.read(repo / new).record.head


def test_a_renamed_game_is_followed_when_staged(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A staged `git mv` with a turn appended: the staged change is an append to the old path's file."""
    new = Path("games") / "friday.toml"
    _new(repo)
    _play(repo)
    commit_all(repo, "ann", "new game, ann's turn")
    run_git(repo, "mv", str(GAME), str(new))
    _play(repo, path=new)
    run_git(repo, "add", "-A")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "bob")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", BOB)
    report = staged_report(repo / new)
    assert (report["ok"], report["commits"]) == (True, 1), report
    assert staged_report(repo / GAME)["ok"] is True  # the old path: moved away, not deleted


def test_a_deletion_is_bad_even_when_the_file_comes_back(repo: Path) -> None:
    """Deleting the game and restoring it later: the history has a deletion, and it is found."""
    _new(repo)
    commit_all(repo, "ann", "new game")
    run_git(repo, "rm", "-q", str(GAME))
    gone = commit_all(repo, "ann", "gone")
    run_git(repo, "checkout", "HEAD~1", "--", str(GAME))
    commit_all(repo, "ann", "back")
    report = git_report(repo / GAME)
    assert report["bad"]["commit"] == gone
    assert report["bad"]["reason"] == "deletes the game file"


def test_moving_a_game_away_is_no_deletion_of_the_path(repo: Path) -> None:
    """The game at g.toml moves to friday.toml; later a new game starts at g.toml. Both paths'
    histories pass: the move ends the old game's history at g.toml, the new game is a creation."""
    _new(repo)
    _play(repo)
    commit_all(repo, "ann", "new game, ann's turn")
    run_git(repo, "mv", str(GAME), "games/friday.toml")
    commit_all(repo, "ann", "rename")
    _new(repo)
    commit_all(repo, "ann", "another game")
    assert git_report(repo / GAME)["ok"] is True
    assert git_report(repo / "games" / "friday.toml")["ok"] is True


# -- bot seats -----------------------------------------------------------------------------------


def _moves(path: Path) -> list[str]:
    """The legal turns of the player to move, in the notation `play` takes."""
    options = choices(store.read(path).game.state)
    return [format_move(options.move(i)) for i in range(len(options))]


def test_bot_answers_may_share_the_commit_of_the_turn_they_answer(repo: Path) -> None:
    """`play --bots` commits a person's turn and the bot seats' answers at once; `splendor bot`
    commits bot seats' turns alone: both pass, and the author check is the person's turn's alone.
    Two persons' turns in one commit stay bad, bots between them or not."""
    players = f"ann={ANN},bot:greedy,bob={BOB}"
    splendor_in(repo, "new", "-g", str(GAME), "--players", players, "--seed", "3")
    commit_all(repo, "ann", "new game")
    splendor_in(repo, "play", "-g", str(GAME), "--as", "ann", "--bots", _moves(repo / GAME)[0])
    commit_all(repo, "ann", "ann, and the bot's answer")
    splendor_in(repo, "play", "-g", str(GAME), "--as", "bob", _moves(repo / GAME)[0])
    commit_all(repo, "bob", "bob", email=BOB)
    splendor_in(repo, "play", "-g", str(GAME), "--as", "ann", _moves(repo / GAME)[0])
    commit_all(repo, "ann", "ann")
    splendor_in(repo, "bot", "-g", str(GAME))
    commit_all(repo, "carol", "carol runs the bot")
    report = git_report(repo / GAME)
    assert (report["ok"], report["commits"]) == (True, 5), report
    splendor_in(repo, "play", "-g", str(GAME), "--as", "bob", _moves(repo / GAME)[0])
    splendor_in(repo, "play", "-g", str(GAME), "--as", "ann", "--bots", _moves(repo / GAME)[0])
    bad = commit_all(repo, "ann", "bob's turn, mine, and the bot's")
    report = git_report(repo / GAME)
    assert report["bad"]["commit"] == bad
    assert report["bad"]["reason"] == (
        "appends 3 turns (#7 bob's turn, #8 ann's turn, #9 bot:greedy's turn):"
        " a commit may append one turn, or one undo"
    )


def test_a_player_may_withdraw_their_turn_with_the_bots_answer(repo: Path) -> None:
    """A stale `play --bots` forks the game; settling it leaves out ann's turn and the bot's answer
    to it: the bot's turn followed hers, so both are hers to withdraw."""
    splendor_in(repo, "new", "-g", str(GAME), "--players", f"ann={ANN},bot:greedy", "--seed", "3")
    commit_all(repo, "ann", "new game")
    run_git(repo, "branch", "desk")
    splendor_in(repo, "play", "-g", str(GAME), "--as", "ann", "--bots", _moves(repo / GAME)[0])
    commit_all(repo, "ann", "ann, and the bot")
    run_git(repo, "checkout", "-q", "desk")
    splendor_in(repo, "play", "-g", str(GAME), "--as", "ann", "--bots", _moves(repo / GAME)[1])
    commit_all(repo, "ann", "ann's other turn, and the bot")
    run_git(repo, "merge", "-q", "-s", "ours", "--no-edit", "main")
    report = git_report(repo / GAME)
    assert (report["ok"], report["commits"]) == (True, 4), report


def test_a_duel_commit_may_hold_one_players_steps_and_the_bots_steps(repo: Path) -> None:
    """Splendor Duel: `splendor bot` commits the bot's whole turn (several steps); ann's steps with
    the bot's answering steps share one commit."""
    players = f"bot:greedy,ann={ANN}"
    splendor_in(repo, "new", "-g", str(GAME), "--players", players, "--variant", "duel", "--seed", "4")
    commit_all(repo, "ann", "new Duel")
    splendor_in(repo, "bot", "-g", str(GAME))
    commit_all(repo, "ann", "the bot's turn")
    loaded = store.read(repo / GAME)
    said = []
    while True:
        state = loaded.game.state
        assert isinstance(state, DuelState)
        if state.finished or state.player.name != "ann":
            break
        step = duel.legal_steps(state)[0]
        said.append(format_step(step))
        loaded = store.stage(loaded, loaded.game.decide(step))
    splendor_in(repo, "play", "-g", str(GAME), "--as", "ann", "--bots", "; ".join(said))
    commit_all(repo, "ann", "ann's turn and the bot's")
    report = git_report(repo / GAME)
    assert (report["ok"], report["commits"]) == (True, 3), report


# -- the staged change ---------------------------------------------------------------------------


def test_a_staged_change_with_two_turns_says_how_to_split_it(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pre-commit check names the moves and says how to commit them one by one."""
    _new(repo)
    commit_all(repo, "ann", "new game")
    _play(repo)
    _play(repo)
    run_git(repo, "add", "-A")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "ann")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", ANN)
    report = staged_report(repo / GAME)
    assert report["bad"]["reason"] == f"appends 2 turns (#2 ann's turn, #3 bob's turn): {SPLIT_ADVICE}"
    assert "`splendor sync` commits each turn on its own" in git_report_text(report)


def test_a_staged_merge_that_drops_events_is_found(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """During a merge the index may hold HEAD's file while MERGE_HEAD's holds more turns: the
    staged change drops them, though it equals HEAD's file."""
    _new(repo)
    commit_all(repo, "ann", "new game")
    run_git(repo, "branch", "old")
    _play(repo)
    commit_all(repo, "ann", "ann: a turn")
    run_git(repo, "checkout", "-q", "old")
    (repo / "notes.txt").write_text("meanwhile\n")
    commit_all(repo, "ann", "notes")
    run_git(repo, "merge", "-q", "--no-commit", "-s", "ours", "main")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "ann")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", ANN)
    report = staged_report(repo / GAME)
    assert (report["commits"], report["bad"]["commit"]) == (1, None)
    assert report["bad"]["reason"] == "drops #2 ann's turn of MERGE_HEAD: a merge may only combine its parents' events"


# -- the report and a long history ---------------------------------------------------------------


def test_the_report_keeps_its_json_shape(repo: Path) -> None:
    """The keys docs/contract.md documents, and those of `bad`."""
    _erase(repo)
    report = git_report(repo / GAME)
    assert list(report) == ["ok", "path", "range", "staged", "commits", "authors_checked", "head", "bad"]
    assert list(report["bad"]) == ["commit", "author", "email", "subject", "reason"]


def _fast_import(repo: Path, commits: list[dict[str, Any]]) -> None:
    """Write a history in one `git fast-import`: each commit has a `mark`, `who`, `data` (the
    game file), optionally `from` and `merge` (marks) and a `branch`."""
    out = bytearray()
    for n, c in enumerate(commits):
        who = c["who"]
        ident = f"{who} <{PEOPLE.get(who, who + '@example.org')}> {1_800_000_000 + n} +0000"
        message = f"commit {n}".encode()
        out += f"commit refs/heads/{c.get('branch', 'main')}\nmark :{c['mark']}\n".encode()
        out += f"author {ident}\ncommitter {ident}\ndata {len(message)}\n".encode() + message + b"\n"
        if "from" in c:
            out += f"from :{c['from']}\n".encode()
        if "merge" in c:
            out += f"merge :{c['merge']}\n".encode()
        out += f"M 100644 inline {GAME}\ndata {len(c['data'])}\n".encode() + c["data"] + b"\n\n"
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=bytes(out), check=True)
    run_git(repo, "checkout", "-q", "-f", "main")


def _long_history(repo: Path, commits: int) -> int:
    """A four-player game of random turns, committed turn by turn by its players; every other turn
    is taken back and played again (three commits), and every seventh is played on a side branch
    merged back (two). Returns how many commits touch the file."""
    rng = random.Random(7)
    names = ("ann", "bob", "cy", "dee")
    emails = tuple(f"{n}@example.org" for n in names)
    header = Header(game="long", variant="base", players=names, created="2026-12-02T00:00:00Z", emails=emails)
    loaded = store.create(repo / "scratch.toml", header, deal(names, random.Random(7)))
    (repo / "scratch.toml").unlink()
    history: list[dict[str, Any]] = [{"mark": 1, "who": "ann", "data": loaded.data}]

    def add(who: str, data: bytes, **extra: Any) -> None:
        history.append({"mark": len(history) + 1, "who": who, "data": data, **extra})

    def turn() -> tuple[str, store.Loaded]:
        options = choices(loaded.game.state)
        who = loaded.game.state.player.name
        return who, store.stage(loaded, loaded.game.decide(options.move(rng.randrange(len(options)))))

    main = 1
    while len(history) < commits and not loaded.game.state.finished:
        n = len(history)
        who, loaded = turn()
        if n % 7 == 0:
            add(who, loaded.data, branch="side", **{"from": main})
            side = len(history)
            add(who, loaded.data, **{"from": main, "merge": side})
        else:
            add(who, loaded.data, **{"from": main})
        main = len(history)
        if n % 2 == 0 and not loaded.game.state.finished:
            loaded = store.stage(loaded, loaded.game.decide_undo(by=who))
            add(who, loaded.data, **{"from": main})
            who, loaded = turn()
            add(who, loaded.data, **{"from": len(history)})
            main = len(history)
    _fast_import(repo, history)
    return len(history)


@pytest.mark.slow  # builds a long history
def test_a_long_history_is_walked_with_a_few_git_processes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 commits, side branches and merges among them: all good, every one judged, with a
    handful of git processes (not one a commit)."""
    made = _long_history(repo, 300)
    assert made >= 300
    calls: list[str] = []
    real: Callable[..., bytes] = history.git_output

    def counting(args: list[str], cwd: Path, **kwargs: Any) -> bytes:
        calls.append(args[0])
        return real(args, cwd, **kwargs)

    monkeypatch.setattr(history, "git_output", counting)
    report = git_report(repo / GAME)
    assert (report["ok"], report["commits"], report["authors_checked"]) == (True, made, True), report
    assert report["head"] == store.read(repo / GAME).record.head
    assert len(calls) <= 6, calls
    assert calls.count("cat-file") <= 3
