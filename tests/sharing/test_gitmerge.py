"""The git merge driver: appends merge by events, forks stop as a conflict, `resolve` keeps one branch."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import deal, require_program
from sharing.gitrepos import identity, init

from splendor_cli import store
from splendor_cli.errors import ConflictError, GameFileError, UsageError
from splendor_cli.events.codec import Header, chained, format_event
from splendor_cli.model import Gem
from splendor_cli.sharing import gitmerge
from splendor_cli.variants.base.events import TokensTaken
from splendor_cli.variants.base.notation import parse_move

GAME = Path("games/g.toml")


def _new(path: Path, game: str = "t") -> store.Loaded:
    header = Header(game=game, variant="base", players=("ann", "bob"), created="2026-12-02T00:00:00Z")
    return store.create(path, header, deal(("ann", "bob"), random.Random(3)))


def _play(loaded: store.Loaded, *moves: str) -> store.Loaded:
    """Play each move for whoever is to move, through `decide` and `store.append`, as the CLI does."""
    for move in moves:
        loaded = store.append(loaded, loaded.game.decide(parse_move(move)))
    return loaded


def _copies(tmp_path: Path, *branches: tuple[str, ...]) -> tuple[bytes, ...]:
    """The bytes of a new game, then of one copy of it per branch of moves played on it."""
    base = _new(tmp_path / "base.toml")
    out = [base.data]
    for i, moves in enumerate(branches):
        path = tmp_path / f"copy{i}.toml"
        path.write_bytes(base.data)
        out.append(_play(store.read(path), *moves).data)
    return tuple(out)


def _read(tmp_path: Path, data: bytes) -> store.Loaded:
    path = tmp_path / "read.toml"
    path.write_bytes(data)
    return store.read(path)


def _out_of_turn(data: bytes, tmp_path: Path) -> bytes:
    """`data` with a turn appended for bob when he is not to move: a valid chain, an illegal turn."""
    loaded = _read(tmp_path, data)
    assert loaded.game.state.player.name == "ann"
    event = TokensTaken(seq=0, parent="", player="bob", gems=(Gem.RED, Gem.RED), returned=(), noble="")
    return data + format_event(chained(loaded.record, event)).encode()


# -- merge on bytes --------------------------------------------------------------------------------


def test_identical_appends_merge_cleanly(tmp_path: Path) -> None:
    """Both sides appended the same turn: the merge is ours, byte for byte, and no conflict."""
    base, ours, theirs = _copies(tmp_path, ("take red red",), ("take red red",))
    assert ours == theirs
    result = gitmerge.merge(base, ours, theirs)
    assert (result.data, result.conflict) == (ours, False)


def test_same_events_written_differently_merge_to_ours(tmp_path: Path) -> None:
    """Sides with the same events but different bytes (a comment added) merge cleanly to ours."""
    base, ours = _copies(tmp_path, ("take red red",))
    theirs = ours + b"# a comment\n"
    result = gitmerge.merge(base, ours, theirs)
    assert (result.data, result.conflict) == (ours, False)


@pytest.mark.parametrize("longer", ["ours", "theirs"])
def test_one_side_extending_the_other_fast_forwards(tmp_path: Path, longer: str) -> None:
    """When one side holds the other's events and more, the longer side is the result, cleanly."""
    base, short, long = _copies(tmp_path, ("take red red",), ("take red red", "take white blue green"))
    ours, theirs = (long, short) if longer == "ours" else (short, long)
    result = gitmerge.merge(base, ours, theirs)
    assert (result.data, result.conflict) == (long, False)
    assert "take white blue green" in result.message
    assert _read(tmp_path, result.data).game.seq == 3


def test_a_fork_of_two_legal_turns_is_a_conflict_and_a_forked_file(tmp_path: Path) -> None:
    """Two legal turns after one parent: a conflict whose file holds the common events, ours, theirs."""
    base, ours, theirs = _copies(tmp_path, ("take red red",), ("take white blue green", "take red red"))
    result = gitmerge.merge(base, ours, theirs)
    assert result.conflict
    assert result.data == ours + theirs[len(base) :]
    assert "\n" not in result.message
    fork = gitmerge.split_fork(result.data)
    assert fork is not None
    ours_ref, theirs_ref = fork.label("ours"), fork.label("theirs")
    assert result.message == (
        f"game forked after event #1: ann's 'take red red' (#2) [{ours_ref}] (ours) and ann's 'take white blue"
        f" green' (#2) and 1 more event [{theirs_ref}] (theirs) both follow it; ann was to move;"
        f" keep one with `splendor resolve --keep {ours_ref}` or `--keep {theirs_ref}`"
    )
    assert fork.prefix == base
    assert fork.seq == 1
    assert [e.seq for e in fork.ours.events] == [2]
    assert [e.seq for e in fork.theirs.events] == [2, 3]
    assert fork.ours.events[0].parent == fork.theirs.events[0].parent
    assert fork.prefix + fork.ours.data == ours
    assert fork.prefix + fork.theirs.data == theirs
    assert gitmerge.describe_fork(fork) == result.message


def test_a_forked_file_is_read_as_a_conflict(tmp_path: Path) -> None:
    """The reader refuses a forked file with a conflict (exit 5), never as a game."""
    base, ours, theirs = _copies(tmp_path, ("take red red",), ("take white blue green",))
    forked = gitmerge.merge(base, ours, theirs).data
    with pytest.raises(ConflictError) as caught:
        _read(tmp_path, forked)
    assert caught.value.exit_code == 5


@pytest.mark.parametrize("illegal", ["ours", "theirs"])
def test_a_fork_where_one_turn_is_illegal_keeps_the_legal_one(tmp_path: Path, illegal: str) -> None:
    """If the player on one side was not to move, the other side is kept, cleanly, and the dropped turn named."""
    base, legal = _copies(tmp_path, ("take red red",))
    bad = _out_of_turn(base, tmp_path)
    ours, theirs = (bad, legal) if illegal == "ours" else (legal, bad)
    result = gitmerge.merge(base, ours, theirs)
    assert (result.data, result.conflict) == (legal, False)
    assert f"dropped bob's 'take red red' (#2) from {illegal}" in result.message
    assert "it was ann's turn" in result.message


def test_base_not_a_prefix_of_both_sides_is_a_conflict(tmp_path: Path) -> None:
    """A common ancestor whose events one side lacks (history rewritten): conflict, ours untouched."""
    _, base, ours, theirs = _copies(
        tmp_path, ("take red red",), ("take white blue green",), ("take red red", "take white blue green")
    )
    result = gitmerge.merge(base, ours, theirs)
    assert (result.data, result.conflict) == (ours, True)
    assert "ours does not continue the events of the common ancestor" in result.message


def test_different_games_do_not_merge(tmp_path: Path) -> None:
    """Two files with different headers (two games at one path): conflict, ours untouched."""
    ours = _new(tmp_path / "a.toml").data
    theirs = _play(_new(tmp_path / "b.toml", game="u"), "take red red").data
    result = gitmerge.merge(b"", ours, theirs)
    assert (result.data, result.conflict) == (ours, True)
    assert "different games" in result.message


def test_a_side_that_is_not_a_game_file_is_a_conflict(tmp_path: Path) -> None:
    """A side that does not parse (conflict markers, a forked file) stops the merge; ours stays as it is."""
    base, ours, theirs = _copies(tmp_path, ("take red red",), ("take white blue green",))
    garbage = theirs + b"<<<<<<< HEAD\n"
    result = gitmerge.merge(base, ours, garbage)
    assert (result.data, result.conflict) == (ours, True)
    assert result.message.startswith("cannot merge the game: theirs: ")
    forked = gitmerge.merge(base, ours, theirs).data
    result = gitmerge.merge(base, forked, theirs)
    assert (result.data, result.conflict) == (forked, True)


def test_no_common_ancestor_merges_by_the_events(tmp_path: Path) -> None:
    """Without a common ancestor (the file added on both sides), the events still decide."""
    _, short, long = _copies(tmp_path, ("take red red",), ("take red red", "take white blue green"))
    result = gitmerge.merge(b"", short, long)
    assert (result.data, result.conflict) == (long, False)


# -- split_fork and resolve --------------------------------------------------------------------------


def test_split_fork_is_none_for_a_straight_game(tmp_path: Path) -> None:
    """A game whose events form one chain is not forked."""
    _, ours = _copies(tmp_path, ("take red red", "take white blue green"))
    assert gitmerge.split_fork(ours) is None
    assert gitmerge.split_fork(b"not toml [") is None


@pytest.mark.parametrize("keep", ["ours", "theirs"])
def test_resolve_keeps_one_branch_after_the_common_prefix(tmp_path: Path, keep: str) -> None:
    """Resolving keeps the common bytes and the chosen branch's bytes: the file reads as that side's game."""
    base, ours, theirs = _copies(tmp_path, ("take red red",), ("take white blue green", "take red red"))
    forked = gitmerge.merge(base, ours, theirs).data
    fork = gitmerge.split_fork(forked)
    assert fork is not None
    side, resolved = gitmerge.resolve(forked, keep)
    assert side == keep
    assert gitmerge.resolve(forked, fork.label(keep)) == (keep, resolved)  # by the digest of its first event
    assert resolved.startswith(base)
    assert resolved == (ours if keep == "ours" else theirs)
    loaded = _read(tmp_path, resolved)
    assert loaded.record.events == _read(tmp_path, ours if keep == "ours" else theirs).record.events


def test_resolve_refuses_a_file_that_has_not_forked(tmp_path: Path) -> None:
    """Nothing to resolve in a straight game (UsageError); `keep` must name exactly one side."""
    base, ours, theirs = _copies(tmp_path, ("take red red",), ("take white blue green",))
    with pytest.raises(UsageError, match="has not forked"):
        gitmerge.resolve(ours, "ours")
    with pytest.raises(UsageError, match="'mine' names neither side"):
        gitmerge.resolve(gitmerge.merge(base, ours, theirs).data, "mine")
    with pytest.raises(UsageError, match="'ann' names both sides"):  # ann made both: the digest tells them apart
        gitmerge.resolve(gitmerge.merge(base, ours, theirs).data, "ann")
    with pytest.raises(GameFileError):
        gitmerge.resolve(b"format = 1\n", "ours")


def test_resolve_refuses_to_keep_an_illegal_branch(tmp_path: Path) -> None:
    """A forked file whose chosen branch breaks the rules is not resolved to it: the game stays valid."""
    base, legal = _copies(tmp_path, ("take red red",))
    bad = _out_of_turn(base, tmp_path)
    forked = legal + bad[len(base) :]
    assert gitmerge.split_fork(forked) is not None
    fork = gitmerge.split_fork(forked)
    assert fork is not None
    assert gitmerge.resolve(forked, "ours") == ("ours", legal)
    with pytest.raises(GameFileError, match=f"keep {fork.label('ours')}"):
        gitmerge.resolve(forked, "theirs")


# -- install -----------------------------------------------------------------------------------------


@pytest.fixture
def git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Git with no user or system configuration: each repository sets its own."""
    require_program("git")
    config = tmp_path / "gitconfig"
    config.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def _git(cwd: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if ok:
        assert done.returncode == 0, f"git {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


def _repo(path: Path, *, clone: Path | None = None) -> Path:
    """A new repository at `path` (or a clone of `clone`), whose user is named after its folder."""
    if clone is None:
        init(path)
    else:
        _git(path.parent, "clone", "-q", str(clone), path.name)
    identity(path, path.name)
    return path


def test_install_adds_the_attribute_once_and_sets_the_driver(tmp_path: Path, git_env: None) -> None:
    """`git install` writes one .gitattributes line (idempotent) and the driver command in the repo config."""
    repo = _repo(tmp_path / "r")
    (repo / ".gitattributes").write_text("*.png binary")  # no final newline
    first = gitmerge.install(repo, "splendor")
    second = gitmerge.install(repo / ".git" / "..", "/opt/splendor")
    assert (repo / ".gitattributes").read_text() == "*.png binary\ngames/**/*.toml merge=splendor\n"
    assert "added" in first[0] and "already has" in second[0]
    driver = _git(repo, "config", "merge.splendor.driver").stdout.strip()
    assert driver == "/opt/splendor merge-driver %O %A %B"
    attr = _git(repo, "check-attr", "merge", "--", "games/a/b.toml", "games/g.toml", "pyproject.toml").stdout
    assert attr.splitlines() == [
        "games/a/b.toml: merge: splendor",
        "games/g.toml: merge: splendor",
        "pyproject.toml: merge: unspecified",
    ]
    (tmp_path / "elsewhere").mkdir()
    with pytest.raises(UsageError, match="is not in a git repository: run `splendor git install` in your clone"):
        gitmerge.install(tmp_path / "elsewhere", "splendor")


# -- through real git ------------------------------------------------------------------------------

_CLI = [sys.executable, "-m", "splendor_cli"]


def _driver(tmp_path: Path) -> str:
    """The command git runs as the driver: this very installation of splendor."""
    return shlex.join(_CLI)


def _two_clones(tmp_path: Path) -> tuple[Path, Path]:
    """A bare remote, clone `a` that created the game and pushed it, and clone `b` of it; both installed."""
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", remote.name)
    a = _repo(tmp_path / "a")
    command = _driver(tmp_path)
    gitmerge.install(a, command)
    _new(a / GAME)
    _git(a, "add", "-A")
    _git(a, "commit", "-q", "-m", "new game")
    _git(a, "remote", "add", "origin", str(remote))
    _git(a, "push", "-q", "-u", "origin", "main")
    b = _repo(tmp_path / "b", clone=remote)
    gitmerge.install(b, command)
    assert _git(b, "status", "--porcelain").stdout == ""  # .gitattributes came with the clone
    return a, b


def _turn(repo: Path, move: str, *, push: bool = True) -> bytes:
    loaded = _play(store.read(repo / GAME), move)
    _git(repo, "commit", "-q", "-am", move)
    if push:
        _git(repo, "push", "-q")
    return loaded.data


def test_two_clones_that_both_move_stop_as_a_conflict_and_resolve(tmp_path: Path, git_env: None) -> None:
    """Two stale clones move for ann; the pull stops as a conflict with a forked file; resolving gives a game."""
    a, b = _two_clones(tmp_path)
    pushed = _turn(a, "take red red")
    mine = _turn(b, "take white blue green", push=False)
    pull = _git(b, "pull", "--no-rebase", "origin", "main", ok=False)
    assert pull.returncode != 0
    assert "CONFLICT" in pull.stdout + pull.stderr
    assert "game forked after event #1" in pull.stderr
    data = (b / GAME).read_bytes()
    fork = gitmerge.split_fork(data)
    assert fork is not None
    assert fork.prefix + fork.ours.data == mine
    assert fork.prefix + fork.theirs.data == pushed
    assert f"ann's 'take white blue green' (#2) [{fork.label('ours')}] (ours)" in gitmerge.describe_fork(fork)
    with pytest.raises(ConflictError):
        store.read(b / GAME)
    settled = subprocess.run(  # the side named as every clone names it: by the digest of its first event
        [*_CLI, "resolve", "-g", str(b / GAME), "--keep", fork.label("theirs")], capture_output=True, text=True
    )
    assert settled.returncode == 0 and "kept theirs" in settled.stdout, settled.stderr
    _git(b, "add", str(GAME))
    _git(b, "commit", "-q", "--no-edit")
    assert (b / GAME).read_bytes() == pushed
    assert store.read(b / GAME).game.state.player.name == "bob"
    _turn(b, "take white blue green")  # bob plays on, and a's clone catches up with a fast-forward
    _git(a, "pull", "-q", "--no-rebase")
    assert store.read(a / GAME).game.seq == 3


def test_identical_and_fast_forward_appends_merge_cleanly_through_git(tmp_path: Path, git_env: None) -> None:
    """The same turn in both clones merges cleanly; so does a clone whose file the other only extends."""
    a, b = _two_clones(tmp_path)
    pushed = _turn(a, "take red red")
    assert _turn(b, "take red red", push=False) == pushed
    _git(b, "pull", "-q", "--no-rebase", "origin", "main")
    assert (b / GAME).read_bytes() == pushed
    _git(b, "push", "-q")
    _git(a, "pull", "-q", "--no-rebase")
    # b receives a's next turn by e-mail and commits it; a plays on; the pull merges through the driver
    mailed = _turn(a, "take white blue green")
    (b / GAME).write_bytes(mailed)
    _git(b, "commit", "-q", "-am", "bob's turn, by mail")
    pushed = _turn(a, "take red blue green")
    pull = _git(b, "pull", "--no-rebase", "origin", "main")
    assert (b / GAME).read_bytes() == pushed
    assert store.read(b / GAME).game.seq == 4
    assert "Automatic merge failed" not in pull.stdout
