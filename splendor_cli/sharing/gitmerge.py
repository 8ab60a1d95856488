"""Git integration: the merge driver for game files, `resolve` for forked files, and `splendor git install`.

A game file only ever grows by `[[events]]` blocks appended at its end, and each event names
the digest of the one before it. So two copies of a game merge by comparing their events:

- the same events on both sides: ours, as it is;
- one side continues the other: the longer one (a fast-forward);
- both continue the common events differently (two players moved from stale copies): the game
  has *forked*. When only one side replays by the rules (the other's turn was played by someone
  who was not to move), that side is kept and the other's turns are named as dropped. When one
  side holds only a copy of the other's first move, or a move relayed for a seat that played its
  own on the other side, it gives way (relays.py: a rule chooses, not a person). When both
  replay, neither can be chosen for the players: the result is a *forked file*, the common
  events followed by our branch and then their branch (two events with one parent), and the
  merge stops as a conflict until `splendor resolve --keep REF` keeps one branch (REF: the
  digest of the branch's first event as the conflict names it, or its player; under a rebase git
  swaps "ours" and "theirs", the digests stay).

Everything works on the blocks of the text, so the bytes kept are the bytes that were written:
a merge never re-serialises a game. Each result is parsed and replayed before it is returned,
so that the merge never writes an invalid game (a forked file is refused by the reader as a
conflict, never mistaken for a game). Never use `merge=union` for game files: it would splice
both sides' blocks together under one chain and break the file.

Nothing here prints; the CLI reports `MergeResult.message` and chooses the exit code.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ..errors import GameFileError, SplendorError, UsageError, safe
from ..events import Event
from ..events.codec import Record
from ..forks import Blocks, cut, decode, describe_fork, split_fork, turns
from ..records import parse_text, replay_record
from ..store import StrPath
from ..variants import find_variant
from .git import Git
from .relays import superseded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..gate import Gate

DRIVER = "splendor"
"""The merge driver's name, as `.gitattributes` and `git config merge.<name>.*` spell it."""

PATTERN = "games/**/*.toml"
"""The game files that the driver merges: every `.toml` under `games/`, where `splendor new`
puts games (and `locate.find_game` looks). A wider pattern would hand `pyproject.toml` and
the like to a driver that only knows games."""


@attrs.frozen(kw_only=True)
class MergeResult:
    """What the merge driver writes to %A, whether the merge stopped as a conflict, and why."""

    data: bytes
    conflict: bool
    message: str
    refused: bool = False
    """A side holds an event the gate refuses (a cheat): the merge stops, ours left as it is."""


@attrs.frozen
class _Side:
    """One input of the merge: its bytes, its record, and its blocks."""

    data: bytes
    record: Record
    text: Blocks


def _side(data: bytes) -> _Side:
    """Parse one input. Raise a SplendorError (GameFileError, or a ConflictError for a fork)."""
    text = decode(data)
    record = parse_text(text)
    return _Side(data, record, cut(text, len(record.events)))


def _fault(record: Record) -> str | None:
    """Why the record does not replay by the rules (as `store.read` replays it); None when it does."""
    try:
        replay_record(record)
    except SplendorError as exc:
        return str(exc)
    return None


def _judged(record: Record, after: int) -> tuple[str | None, str | None]:
    """Why the record does not replay by the rules (`_fault`), and why the gate refuses its events
    after the first `after` though they replay (a cheat, such as a bot seat's move that is not its
    bot's: `gate.judge_events`); None for each that holds."""
    from ..gate import judge_events

    try:
        game = replay_record(record)
    except SplendorError as exc:
        return str(exc), None
    try:
        judge_events(record, game, after=after)
    except GameFileError as exc:
        return None, str(exc)
    return None, None


def _faults(sides: dict[str, _Side], shared: int) -> dict[str, str | None] | str:
    """Why each side does not replay by the rules (None: it does); or, when the gate refuses a
    side's new events though they replay (`_judged`), that refusal, naming the side."""
    faults: dict[str, str | None] = {}
    for name, side in sides.items():
        faults[name], refusal = _judged(side.record, shared)
        if refusal is not None:
            return f"{name}: {refusal}"
    return faults


def _common(a: tuple[Event, ...], b: tuple[Event, ...]) -> int:
    """The number of events the two logs share from the start."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


# -- forked files --------------------------------------------------------------------------------


def resolve(data: bytes, keep: str) -> tuple[str, bytes]:
    """The forked file with only the branch that `keep` names after the common prefix, and the
    side ("ours" or "theirs") it named.

    `keep` is `ours`, `theirs`, a prefix of the digest of the side's first event (what
    `describe_fork` shows: the same in every clone, whether git merged or rebased), or the name
    of the player who made that event. The prefix and the kept blocks are the bytes that were
    there, so the result continues the common prefix as any append would. It is parsed and
    replayed before it is returned.

    Raises:
        UsageError: `keep` names neither side (or both), or the file is not forked.
        GameFileError: the file is broken, or the kept branch does not replay by the rules.
    """
    fork = split_fork(data)
    if fork is None:
        parse_text(decode(data))  # a broken file says how it is broken
        raise UsageError(
            "the game has not forked: there is nothing to resolve (`splendor sync` goes on from here,"
            " and undoes a merge of its own that the audit refuses)"
        )
    side = fork.choose(keep)
    result = fork.prefix + fork.branch(side).data
    fault = _fault(parse_text(result.decode("utf-8")))
    if fault is not None:
        other = fork.label("theirs" if side == "ours" else "ours")
        raise GameFileError(f"keeping {fork.label(side)} gives a game that does not replay ({fault}): keep {other}")
    return side, result


# -- the merge driver ----------------------------------------------------------------------------


def _stop(ours: bytes, message: str) -> MergeResult:
    """A conflict that leaves our file as it is."""
    return MergeResult(data=ours, conflict=True, message=f"{message}; ours left as it is")


def merge(base: bytes, ours: bytes, theirs: bytes) -> MergeResult:
    """Merge two copies of a game that both grew from `base` (empty when there is none).

    Never returns an invalid game: the result is ours, theirs, the one side that replays, or
    (a conflict) a forked file when both replay; when the inputs cannot be merged at all, ours
    is left as it is and the merge is a conflict.
    """
    if ours == theirs:
        return MergeResult(data=ours, conflict=False, message="both sides are the same")
    sides: dict[str, _Side | None] = {}
    for name, data in (("ours", ours), ("theirs", theirs), ("the common ancestor", base)):
        if name == "the common ancestor" and not base.strip():
            sides[name] = None  # no common ancestor: the file was added on both sides
            continue
        try:
            sides[name] = _side(data)
        except SplendorError as exc:
            return _stop(ours, f"cannot merge the game: {name}: {exc}")
    our, their, common = sides["ours"], sides["theirs"], sides["the common ancestor"]
    assert our is not None and their is not None
    if our.record.header != their.record.header:
        return _stop(ours, "cannot merge: ours and theirs are different games (their headers differ)")
    if common is not None:
        for side, name in ((our, "ours"), (their, "theirs")):
            n = len(common.record.events)
            if common.record.header != side.record.header or side.record.events[:n] != common.record.events:
                return _stop(
                    ours,
                    f"cannot merge: {name} does not continue the events of the common ancestor"
                    " (was the file rewritten?)",
                )
    variant = find_variant(our.record.header.variant)
    shared = _common(our.record.events, their.record.events)
    mine, yours = our.record.events[shared:], their.record.events[shared:]
    if not mine and not yours:
        return MergeResult(data=ours, conflict=False, message=f"both sides hold the same {shared} events")
    faults = _faults({"theirs": their, "ours": our}, shared)
    if isinstance(faults, str):  # a cheat is refused, never merged nor dropped in silence
        return MergeResult(data=ours, conflict=True, message=f"{faults}; ours left as it is", refused=True)
    if faults["ours"] is not None and faults["theirs"] is not None:
        return _stop(ours, f"cannot merge: neither side replays (ours: {faults['ours']}; theirs: {faults['theirs']})")
    for keep, drop, kept, dropped in (("ours", "theirs", our, yours), ("theirs", "ours", their, mine)):
        if faults[drop] is not None:
            return MergeResult(
                data=kept.data,
                conflict=False,
                message=f"kept {keep}; dropped {turns(variant, dropped)} from {drop}: {faults[drop]}",
            )
    if not mine:
        return MergeResult(data=theirs, conflict=False, message=f"fast-forward: theirs adds {turns(variant, yours)}")
    if not yours:
        return MergeResult(
            data=ours, conflict=False, message=f"ours already holds theirs, and adds {turns(variant, mine)}"
        )
    for keep, drop, kept, gone in (("theirs", "ours", their, mine), ("ours", "theirs", our, yours)):
        why = superseded(gone, kept.record.events[shared:])  # a relayed turn met its own, or itself
        if why:
            return MergeResult(
                data=kept.data, conflict=False, message=f"kept {keep}; left out {turns(variant, gone)} of {drop}: {why}"
            )
    forked = "".join((our.text.head, *our.text.blocks, *their.text.blocks[shared:])).encode("utf-8")
    fork = split_fork(forked)
    if fork is None:  # pragma: no cover - the blocks were cut from parsed files
        return _stop(ours, "cannot merge: the forked file would not read back")
    return MergeResult(data=forked, conflict=True, message=describe_fork(fork))


def run_driver(base: StrPath, ours: StrPath, theirs: StrPath, gate: Gate) -> MergeResult:
    """Git's `%O %A %B`: merge the three files and write the result over `ours` (%A), through the
    gate (a forked file's sides judged each, a merged game judged whole; nothing remembered: the
    merge may yet be given up)."""
    from ..store import read_bytes

    read = read_bytes(ours)
    result = merge(read_bytes(base), read, read_bytes(theirs))
    if result.data == read:
        return result
    if result.conflict:
        gate.write_fork(ours, result.data, read=read)
    else:
        gate.replace(ours, result.data, read=read, remember=False)
    return result


# -- splendor git install ------------------------------------------------------------------------


def _git(repo: StrPath, *args: str) -> str:
    done = Git(cwd=Path(repo)).run(*args)
    if not done.ok:
        why = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise UsageError(f"git {' '.join(args)}: {safe(why)}")
    return done.text


def install(repo: StrPath, command: str, *, pattern: str = PATTERN, private: bool = False) -> list[str]:
    """Set up the repository holding `repo` so that git merges game files with the driver.

    Adds `<pattern> merge=splendor` to the top-level `.gitattributes` (once) and commits it (so
    that every clone has it), and sets `merge.splendor.name` and `merge.splendor.driver` in the
    repository's own git config. The commit holds `.gitattributes` alone, made on HEAD as sync
    makes its commits (`gitsync.commit_file`): whatever else the user changed or staged stays as
    it was. It is left to the user (and said) when they changed or staged `.gitattributes`
    themselves, or while a merge or a rebase is under way.
    When the user has not said how `git pull` reconciles two histories (`pull.rebase` and
    `pull.ff` unset), sets `pull.rebase=false` in the repository, so that a plain `git pull`
    merges (git 2.27 and later otherwise stop at the first divergence); a choice of the user's
    own is kept. `command` is shell text that runs splendor (`splendor`, found on PATH; or a
    path, quoted: `shlex.quote`). Running it again changes nothing but the command. Returns what
    was done, one line each. `private` puts the attributes line in this clone's own
    `.git/info/attributes` instead of `.gitattributes` (nothing to commit: what `splendor sync`
    does in a clone that lacks the driver).

    Raises:
        UsageError: `repo` is not in a git repository, or git fails.
    """
    try:
        top = Path(_git(repo, "rev-parse", "--show-toplevel"))
    except UsageError as exc:
        if "not a git repository" in str(exc):
            raise UsageError(
                f"{repo} is not in a git repository: run `splendor git install` in your clone of the game's"
                " repository (`git clone URL`, or `git init` to start one)"
            ) from None
        raise
    done = []
    line = f"{pattern} merge={DRIVER}"
    attributes = top / (_git(top, "rev-parse", "--git-path", "info/attributes") if private else ".gitattributes")
    if attributes.is_symlink() or (attributes.exists() and not attributes.is_file()):
        # a clone may hold one (from whoever pushed it): never written through; git reads no
        # symbolic link as .gitattributes either
        raise UsageError(f"{safe(str(attributes))} is a symbolic link or no regular file: not written")
    if attributes.exists() and attributes.stat().st_size > ATTRIBUTES_MOST:
        raise UsageError(f"{safe(str(attributes))} is over {ATTRIBUTES_MOST // 1024} KiB: not read")
    text = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    if line in (row.strip() for row in text.splitlines()):
        done.append(f"{attributes} already has '{line}'")
    else:
        if text and not text.endswith("\n"):
            text += "\n"
        attributes.parent.mkdir(exist_ok=True)
        attributes.write_text(text + line + "\n", encoding="utf-8")
        done.append(f"added '{line}' to {attributes}")
    if not private:
        done.append(_commit_attributes(top, attributes.read_bytes(), text))
    driver = f"{command} merge-driver %O %A %B"
    _git(top, "config", "--local", f"merge.{DRIVER}.name", "splendor game files: append-only event logs")
    _git(top, "config", "--local", f"merge.{DRIVER}.driver", driver)
    done.append(f"set git config merge.{DRIVER}.driver to '{driver}' (each clone runs `splendor git install` once)")
    if not _config(top, "pull.rebase") and not _config(top, "pull.ff"):
        _git(top, "config", "--local", "pull.rebase", "false")
        done.append("set git config pull.rebase to false: a plain `git pull` merges, and game files merge by events")
    return done


ATTRIBUTES_MOST = 1 << 20
"""The largest `.gitattributes` that `install` reads (bytes)."""
ATTRIBUTES_MESSAGE = "splendor git install: game files merge by events (.gitattributes)"
"""The subject of the commit `install` makes of `.gitattributes`."""


def _commit_attributes(top: Path, data: bytes, before: str) -> str:
    """Commit `.gitattributes` (now `data`; `before`: what the work tree held before `install`)
    alone on HEAD, when that is safe (it was untracked, or held what HEAD holds, and is not
    staged); what was done, or what the user is to do, in one line."""
    from . import gitsync

    repo = gitsync.Repo(top=top, rel=".gitattributes")
    ask = "commit it yourself (`git add .gitattributes`, `git commit`), so that every clone has it"
    committed = gitsync.committed(repo)
    if committed == data:
        return ".gitattributes is committed"
    state = gitsync.under_way(repo)
    if state is not None:
        return f"a {state} is under way: once it is done, {ask}"
    staged = Git(cwd=top).run("diff", "--cached", "--quiet", "--", ".gitattributes").returncode != 0
    if staged or (committed is not None and before.encode("utf-8") != committed):
        return f".gitattributes holds changes of yours: {ask}"
    try:
        commit = gitsync.commit_file(repo, ".gitattributes", data, ATTRIBUTES_MESSAGE)
    except UsageError as exc:  # no identity for git yet, say
        return f"could not commit .gitattributes ({exc}): {ask}"
    return (
        f"committed .gitattributes alone ({commit[:8]}; nothing else of yours was committed):"
        " `splendor sync` (or `git push`) shares it with every clone"
    )


def installed(repo: StrPath) -> bool:
    """Whether this clone has a working merge driver set (`splendor git install` ran here): a
    driver that runs a program by a path that is gone (a removed virtual environment) is not."""
    import os
    import shlex

    driver = _config(repo, f"merge.{DRIVER}.driver")
    if not driver:
        return False
    try:
        program = shlex.split(driver)[0]
    except (ValueError, IndexError):
        return True
    return not os.path.isabs(program) or os.path.exists(program)


def _config(repo: StrPath, key: str) -> str:
    """The value of a git config key as git reads it (every level), "" when it is unset."""
    done = Git(cwd=Path(repo)).run("config", "--get", key)
    return done.text if done.ok else ""
