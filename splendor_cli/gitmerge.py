"""Git integration: the merge driver for game files, forked files, and `splendor git install`.

A game file only ever grows by `[[events]]` blocks appended at its end, and each event names
the digest of the one before it. So two copies of a game merge by comparing their events:

- the same events on both sides: ours, as it is;
- one side continues the other: the longer one (a fast-forward);
- both continue the common events differently (two players moved from stale copies): the game
  has *forked*. When only one side replays by the rules (the other's turn was played by someone
  who was not to move), that side is kept and the other's turns are named as dropped. When both
  replay, neither can be chosen for the players: the result is a *forked file*, the common
  events followed by our branch and then their branch (two events with one parent), and the
  merge stops as a conflict until `splendor resolve --keep ours|theirs` keeps one branch.

Everything works on the blocks of the text, so the bytes kept are the bytes that were written:
a merge never re-serialises a game. Each result is parsed and replayed before it is returned,
so that the merge never writes an invalid game (a forked file is refused by the reader as a
conflict, never mistaken for a game). Never use `merge=union` for game files: it would splice
both sides' blocks together under one chain and break the file.

Nothing here prints; the CLI reports `MergeResult.message` and chooses the exit code.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import attrs

from .errors import GameFileError, SplendorError, UsageError
from .events import Event, GameStarted, actor
from .events.codec import Record, parse
from .projection import Game, replay
from .store import replay_record

DRIVER = "splendor"
"""The merge driver's name, as `.gitattributes` and `git config merge.<name>.*` spell it."""

PATTERN = "games/**/*.toml"
"""The game files that the driver merges: every `.toml` under `games/`, where `splendor new`
puts games (and `locate.find_game` looks). A wider pattern would hand `pyproject.toml` and
the like to a driver that only knows games."""

SIDES = ("ours", "theirs")

# The "\n" that starts each `[[events]]` block: the table header alone on its line.
_BLOCK = re.compile(r"\n(?=\[\[events\]\][ \t]*(?:#[^\n]*)?\r?\n)")


@attrs.frozen(kw_only=True)
class MergeResult:
    """What the merge driver writes to %A, whether the merge stopped as a conflict, and why."""

    data: bytes
    conflict: bool
    message: str


@attrs.frozen(kw_only=True)
class Branch:
    """One side of a fork: its `[[events]]` blocks byte for byte, and its events parsed."""

    data: bytes
    events: tuple[Event, ...]


@attrs.frozen(kw_only=True)
class Fork:
    """A forked file: the common events, then two branches that both follow the last of them."""

    prefix: bytes
    """The header and the common events' blocks, byte for byte."""
    record: Record
    """The common events, parsed: the fork is after event #`len(record.events)`."""
    ours: Branch
    """The first chain after the common events, in file order."""
    theirs: Branch
    """The second chain, whose first event has the same seq and parent as ours' first."""

    @property
    def seq(self) -> int:
        """The last event both branches share."""
        return len(self.record.events)

    def to_move(self) -> str | None:
        """Who was to move after the common events (None when the game was over, or unknown)."""
        try:
            state = replay(self.record.events, check=False).state
        except SplendorError:
            return None
        return None if state.finished else state.player.name


# -- the text as blocks ------------------------------------------------------------------------


@attrs.frozen
class _Text:
    """A game file cut into its header part and one piece per `[[events]]` block."""

    head: str
    blocks: tuple[str, ...]


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"not UTF-8 text (byte {exc.start})") from None


def _cut(text: str, count: int) -> _Text:
    """Cut `text` before each `[[events]]` header line; there must be `count` of them."""
    cuts = [m.start() for m in _BLOCK.finditer(text)]
    if len(cuts) != count:
        raise GameFileError(f"{count} events but {len(cuts)} '[[events]]' lines (the file was reformatted by hand?)")
    if not cuts:
        return _Text(text, ())
    ends = [*cuts[1:], len(text)]
    return _Text(text[: cuts[0]], tuple(text[a:b] for a, b in zip(cuts, ends, strict=True)))


@attrs.frozen
class _Side:
    """One input of the merge: its bytes, its record, and its blocks."""

    data: bytes
    record: Record
    text: _Text


def _side(data: bytes) -> _Side:
    """Parse one input. Raise a SplendorError (GameFileError, or a ConflictError for a fork)."""
    text = _decode(data)
    record = parse(text)
    return _Side(data, record, _cut(text, len(record.events)))


def _check(record: Record) -> Game:
    """Replay the record by the rules, as `store.read` does. Raise GameFileError if it fails."""
    return replay_record(record)


def _fault(record: Record) -> str | None:
    """Why the record does not replay by the rules; None when it does."""
    try:
        _check(record)
    except SplendorError as exc:
        return str(exc)
    return None


def _common(a: tuple[Event, ...], b: tuple[Event, ...]) -> int:
    """The number of events the two logs share from the start."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


# -- naming turns ------------------------------------------------------------------------------


def _who(event: Event) -> str:
    return actor(event) or ("the setup" if isinstance(event, GameStarted) else "someone")


def _turn(event: Event) -> str:
    """`ann's 'take red red'`: who, and the move in the log's notation."""
    from .views import event_notation

    try:
        notation = event_notation(event)
    except (SplendorError, ValueError, KeyError):  # a turn the rules cannot even read
        notation = event.TYPE
    return f"{_who(event)}'s {notation!r}"


def _turns(events: tuple[Event, ...]) -> str:
    """The turns of a branch, first one named: `ann's 'take red red' (#4)` plus how many more."""
    if not events:
        return "nothing"
    first = f"{_turn(events[0])} (#{events[0].seq})"
    more = len(events) - 1
    return first + (f" and {more} more event{'s' if more > 1 else ''}" if more else "")


# -- forked files --------------------------------------------------------------------------------


def split_fork(data: bytes) -> Fork | None:
    """The common prefix and the two branches of a forked file; None when the file is not forked.

    A file is forked when an event's seq goes back: the events from there on are a second
    chain that continues the events before that seq. Each branch must read as a game on its own
    after the common prefix.

    Raises:
        GameFileError: the file looks forked, but a branch is not a valid chain.
    """
    try:
        text = data.decode("utf-8")
        raw_events = tomllib.loads(text).get("events", [])
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if not isinstance(raw_events, list):
        return None
    seqs = [raw.get("seq") if isinstance(raw, dict) else None for raw in raw_events]
    split = next((i for i, seq in enumerate(seqs) if seq != i + 1), None)
    if split is None:
        return None
    seq = seqs[split]
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= split:
        return None  # a gap or a bad seq: broken, not forked (the reader says how)
    if any(s != seq + i for i, s in enumerate(seqs[split:])):
        raise GameFileError(f"event #{split + 1}: the game forked, but the second branch is not one chain")
    cut = _cut(text, len(raw_events))
    prefix = cut.head + "".join(cut.blocks[: seq - 1])
    branches = {"ours": "".join(cut.blocks[seq - 1 : split]), "theirs": "".join(cut.blocks[split:])}
    records: dict[str, Record] = {}
    for name, blocks in branches.items():
        try:
            records[name] = parse(prefix + blocks)
        except SplendorError as exc:
            raise GameFileError(f"the game forked after event #{seq - 1}, but {name}: {exc}") from None
    ours, theirs = records["ours"], records["theirs"]
    if ours.events[seq - 1] == theirs.events[seq - 1]:
        raise GameFileError(f"event #{split + 1}: a copy of event #{seq} (the file was edited or merged by hand)")
    common = parse(prefix)
    return Fork(
        prefix=prefix.encode("utf-8"),
        record=common,
        ours=Branch(data=branches["ours"].encode("utf-8"), events=ours.events[seq - 1 :]),
        theirs=Branch(data=branches["theirs"].encode("utf-8"), events=theirs.events[seq - 1 :]),
    )


def describe_fork(fork: Fork) -> str:
    """One line naming both turns that follow the fork point, and who was to move there."""
    to_move = fork.to_move()
    who = f"{to_move} was to move" if to_move else "the game was over"
    return (
        f"game forked after event #{fork.seq}: {_turns(fork.ours.events)} (ours) and"
        f" {_turns(fork.theirs.events)} (theirs) both follow it; {who};"
        " keep one with `splendor resolve --keep ours|theirs`"
    )


def resolve(data: bytes, keep: str) -> bytes:
    """The forked file with only the `keep` branch ("ours" or "theirs") after the common prefix.

    The prefix and the kept blocks are the bytes that were there, so the result continues the
    common prefix as any append would. It is parsed and replayed before it is returned.

    Raises:
        UsageError: `keep` is neither "ours" nor "theirs", or the file is not forked.
        GameFileError: the file is broken, or the kept branch does not replay by the rules.
    """
    if keep not in SIDES:
        raise UsageError(f"keep 'ours' or 'theirs', not {keep!r}")
    fork = split_fork(data)
    if fork is None:
        parse(_decode(data))  # a broken file says how it is broken
        raise UsageError("the game has not forked: there is nothing to resolve")
    branch = fork.ours if keep == "ours" else fork.theirs
    result = fork.prefix + branch.data
    fault = _fault(parse(result.decode("utf-8")))
    if fault is not None:
        other = "theirs" if keep == "ours" else "ours"
        raise GameFileError(f"keeping {keep} gives a game that does not replay ({fault}): keep {other}")
    return result


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
    shared = _common(our.record.events, their.record.events)
    mine, yours = our.record.events[shared:], their.record.events[shared:]
    if not mine and not yours:
        return MergeResult(data=ours, conflict=False, message=f"both sides hold the same {shared} events")
    faults = {"ours": _fault(our.record), "theirs": _fault(their.record)}
    if faults["ours"] is not None and faults["theirs"] is not None:
        return _stop(ours, f"cannot merge: neither side replays (ours: {faults['ours']}; theirs: {faults['theirs']})")
    for keep, drop, kept, dropped in (("ours", "theirs", our, yours), ("theirs", "ours", their, mine)):
        if faults[drop] is not None:
            return MergeResult(
                data=kept.data,
                conflict=False,
                message=f"kept {keep}; dropped {_turns(dropped)} from {drop}: {faults[drop]}",
            )
    if not mine:
        return MergeResult(data=theirs, conflict=False, message=f"fast-forward: theirs adds {_turns(yours)}")
    if not yours:
        return MergeResult(data=ours, conflict=False, message=f"ours already holds theirs, and adds {_turns(mine)}")
    forked = "".join((our.text.head, *our.text.blocks, *their.text.blocks[shared:])).encode("utf-8")
    fork = split_fork(forked)
    if fork is None:  # pragma: no cover - the blocks were cut from parsed files
        return _stop(ours, "cannot merge: the forked file would not read back")
    return MergeResult(data=forked, conflict=True, message=describe_fork(fork))


def run_driver(base: Path, ours: Path, theirs: Path) -> MergeResult:
    """Git's `%O %A %B`: merge the three files and write the result over `ours` (%A)."""
    from .store import write_atomic

    result = merge(base.read_bytes(), ours.read_bytes(), theirs.read_bytes())
    if result.data != ours.read_bytes():
        write_atomic(ours, result.data, exclusive=False)
    return result


# -- splendor git install ------------------------------------------------------------------------


def _git(repo: Path, *args: str) -> str:
    import subprocess

    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed (or not on PATH)") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise UsageError(f"git {' '.join(args)}: {why}")
    return done.stdout.strip()


def install(repo: Path, command: str, *, pattern: str = PATTERN) -> list[str]:
    """Set up the repository holding `repo` so that git merges game files with the driver.

    Adds `<pattern> merge=splendor` to the top-level `.gitattributes` (once) and sets
    `merge.splendor.name` and `merge.splendor.driver` in the repository's own git config.
    `command` is shell text that runs splendor (quote a path with spaces: `shlex.quote`).
    Running it again changes nothing but the command. Returns what was done, one line each.

    Raises:
        UsageError: `repo` is not in a git repository, or git fails.
    """
    top = Path(_git(repo, "rev-parse", "--show-toplevel"))
    done = []
    line = f"{pattern} merge={DRIVER}"
    attributes = top / ".gitattributes"
    text = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    if line in (row.strip() for row in text.splitlines()):
        done.append(f"{attributes} already has '{line}'")
    else:
        if text and not text.endswith("\n"):
            text += "\n"
        attributes.write_text(text + line + "\n", encoding="utf-8")
        done.append(f"added '{line}' to {attributes} (commit it, so that every clone has it)")
    driver = f"{command} merge-driver %O %A %B"
    _git(top, "config", "--local", f"merge.{DRIVER}.name", "splendor game files: append-only event logs")
    _git(top, "config", "--local", f"merge.{DRIVER}.driver", driver)
    done.append(f"set git config merge.{DRIVER}.driver to '{driver}' (each clone runs `splendor git install` once)")
    return done
