"""Taking mail in, as a service of the sharing floor: the move blocks and whole game files of one
mail, a Maildir or an mbox, applied to the game files they are for (`take_in`, `apply_mail`),
every event through the user's gate; `splendor apply` and `splendor watch` only say what it said.

What it needs of the user's machine (their gate, their sealed games' part, git commits, the mails
read before, where to say things) comes in as `Desk`, as sync's does as `sync.Local`: this module
reads no environment and prints nothing itself.

For each game it knows (the game files under a folder, by the id in their header, and one more
file) it applies every new block in order of seq, once (a block applied already is a no-op); a
mail that carries a whole game file (the first mail of a game) creates `<folder>/<id>.toml` after
replaying it. A failure (a damaged block, a stale one, a move the gate refuses) stops only its
game's blocks; the first is raised at the end, after every game was done, so that the exit code
says it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NoReturn, Protocol

import attrs

from ..errors import (
    ConflictError,
    CorruptLogError,
    GameFileError,
    IllegalMoveError,
    SplendorError,
    StaleBlockError,
    UsageError,
    excerpt,
)
from ..events import Event, actor
from ..events.codec import Record, chained, event_digest, format_event, header_digest
from ..projection import Game
from ..projection.log import event_notation
from ..projection.variant import AnyVariant
from .mail import BEGIN, END, MoveBlock

if TYPE_CHECKING:
    from ..gate import Gate
    from ..store import Loaded
    from .mailbox import RawMessage


@attrs.frozen(kw_only=True)
class Applied:
    """What taking blocks in means for a game file.

    `events` are to be appended in order through the gate (sealing leaves each unchanged:
    its seq and parent already follow the file); `known` were in the file already. `message`
    says, one line per event, what was applied and what was there already.
    """

    events: tuple[Event, ...]
    known: tuple[Event, ...]
    message: str

    @property
    def is_noop(self) -> bool:
        """True when every event was in the file already."""
        return not self.events


# -- applying --------------------------------------------------------------------------------


def apply_blocks(record: Record, game: Game, blocks: Sequence[MoveBlock]) -> Applied:
    """The events that `record` must append to take in `blocks`, each judged by the rules.

    Blocks are taken in order of their first seq. An event already in the file (same seq, same
    digest) is skipped; a block whose events are all there is a no-op that says "already
    applied". Nothing is applied unless every block can be: the caller appends `events`.

    Raises:
        UsageError: no block, or a block of another game.
        StaleBlockError: (a ConflictError, exit 5) the file lacks the turns before the block,
            or holds other events where the block has its own (the copies forked).
        IllegalMoveError: (exit 3) an event the file lacks breaks the rules or the undo rules;
            the block is well formed, so the fault is the move, not a file.
    """
    if not blocks:
        raise UsageError(f"no move block found: nothing between {BEGIN} and {END}")
    for block in blocks:
        if block.game != record.header.game:
            raise UsageError(
                f"the move block is for game {excerpt(block.game)}, but this file is game {record.header.game!r}:"
                " apply it to that game's file (-g)"
            )
    have = len(record.events)
    new: list[Event] = []
    known: dict[int, Event] = {}
    for block in sorted(blocks, key=lambda b: b.first):
        for event in block.events:
            if event.seq <= len(record.events):
                _check_known(game.variant, record, event)
                if event.seq <= have:  # not one that an earlier block brought
                    known.setdefault(event.seq, event)
                continue
            if event.seq > len(record.events) + 1:
                _missing(record, block)
            if event.parent != record.head:
                _forked(record, event)
            if chained(record, event) != event:  # pragma: no cover - seq and parent were just checked
                raise StaleBlockError(f"move block event #{event.seq} does not follow this file", seq=event.seq)
            game = _judged(game, event)
            record = attrs.evolve(record, events=(*record.events, event))
            new.append(event)
    lines = [f"already applied: {_entry(game.variant, known[seq])}" for seq in sorted(known)]
    lines += [f"applied {_entry(game.variant, e)}" for e in new]
    if not new:
        lines.append("nothing to do: the file has every event of the block already")
    return Applied(events=tuple(new), known=tuple(known[seq] for seq in sorted(known)), message="\n".join(lines))


def _judged(game: Game, event: Event) -> Game:
    """`game` after a block's `event`, judged by the rules.

    Raises:
        IllegalMoveError: (exit 3) the event breaks the rules; nothing is applied.
    """
    try:
        return game.apply(event, check=True)
    except CorruptLogError as exc:
        raise IllegalMoveError(
            f"illegal move in the block: {exc} ({_entry(game.variant, event)}); nothing applied", rule="block"
        ) from None


def forked_file(data: bytes, record: Record, game: Game, blocks: Sequence[MoveBlock]) -> bytes | None:
    """The game file `data` (read as `record` and `game`) with the branch that `blocks` fork
    from it appended after its own events, as git's merge driver writes a fork (`gitmerge`,
    `forks.split_fork`: the common events, this file's branch, then the blocks'), so that
    `splendor resolve --keep` settles a fork met by mail as it settles one met by git; None when
    the blocks fork nothing (they follow the file, are in it, or lack the events between).

    The blocks fork the file at their first event that differs from the file's at the same seq
    while naming the same parent: their events from there on, consecutive, are the other branch,
    judged by the rules after the common events (as `apply_blocks` judges them).

    Raises:
        IllegalMoveError: (exit 3) an event of the blocks' branch breaks the rules.
    """
    from ..forks import split_fork

    by_seq: dict[int, Event] = {}
    for block in sorted(blocks, key=lambda b: b.first):
        for event in block.events:
            by_seq.setdefault(event.seq, event)
    have = len(record.events)
    start = next(
        (
            seq
            for seq in sorted(by_seq)
            if seq <= have and event_digest(by_seq[seq]) != event_digest(record.events[seq - 1])
        ),
        None,
    )
    if start is None or start < 2 or by_seq[start].parent != _digest_before(record, start):
        return None
    theirs: list[Event] = []
    while start + len(theirs) in by_seq:
        theirs.append(by_seq[start + len(theirs)])
    side = game.at(start - 1)
    for event in theirs:
        side = _judged(side, event)
    text = data.decode("utf-8")
    forked = (text + ("" if text.endswith("\n") else "\n") + "".join(format_event(e) for e in theirs)).encode("utf-8")
    try:
        fork = split_fork(forked)
    except GameFileError:  # pragma: no cover - both branches were just judged
        return None
    return forked if fork is not None else None


def _entry(variant: AnyVariant, event: Event) -> str:
    """How `play` reports an event: `#7 bob: take white blue green`, `#9 undo: back to ...`."""
    if isinstance(event, variant.play_types):
        return f"#{event.seq} {actor(event)}: {event_notation(variant, event)}"
    return f"#{event.seq} {event_notation(variant, event)}"


def _digest_before(record: Record, seq: int) -> str:
    """The digest that the event `seq` of `record` must name as its parent."""
    return header_digest(record.header) if seq == 1 else event_digest(record.events[seq - 2])


def _check_known(variant: AnyVariant, record: Record, event: Event) -> None:
    """An event of the block at a seq the file has: it must be the file's event."""
    ours = record.events[event.seq - 1]
    if event_digest(ours) == event_digest(event):
        return
    if event.parent != _digest_before(record, event.seq):
        _forked(record, event)
    raise StaleBlockError(
        f"the move block conflicts with this file at #{event.seq}: the block has {_entry(variant, event)},"
        f" the file has {_entry(variant, ours)}; the two copies forked after #{event.seq - 1}",
        seq=event.seq,
    )


def _missing(record: Record, block: MoveBlock) -> NoReturn:
    have = len(record.events)
    gap = range(have + 1, block.first)
    turns = f"turn #{gap[0]} is" if len(gap) == 1 else f"turns #{gap[0]} to #{gap[-1]} are"
    raise StaleBlockError(
        f"the move block starts at #{block.first}, but this file ends at #{have}: {turns} missing;"
        f" apply their block first, or ask for `splendor export --last {block.last - have}`",
        missing=gap,
    )


def _forked(record: Record, event: Event) -> NoReturn:
    before = event.seq - 1
    raise StaleBlockError(
        f"the move block's #{event.seq} follows another #{before} than this file's"
        f" (its parent is {event.parent!r}, this file's #{before} hashes to {_digest_before(record, event.seq)!r}):"
        f" the two copies forked at or before #{before}",
        seq=event.seq,
    )


# -- taking mail in ------------------------------------------------------------------------------


class ReadBefore(Protocol):
    """The mails read to the end before (kept in the user's own cache), not read again."""

    def has(self, data: bytes) -> bool: ...

    def add(self, mails: Iterable[bytes]) -> None: ...


@attrs.frozen(kw_only=True)
class Desk:
    """What taking mail in asks of the user's machine (the command line gives each)."""

    gate: Gate
    """The user's gate: every event of a mail enters through it."""
    add: Callable[[Loaded, Sequence[Event]], Loaded]
    """Append events to a game through the gate (signed, a sealed game's, by the local key), then
    write the local player's part of a sealed game (and commit them, `apply --commit`); the game
    after it."""
    changed: Callable[[Loaded], None]
    """Called with each game that the mail changed, as it is now (the cache's views, a notice)."""
    say: Callable[..., None]
    """Say lines that quote mails (made safe by the caller)."""
    note: Callable[..., None]
    """Say on the side (stderr) what was left out."""
    read_before: ReadBefore | None = None
    """The mails read before (None: every mail is read every time)."""
    commit: Callable[[Loaded], None] | None = None
    """Commit a game file created from a mail to git (`apply --commit`); None: not committed."""


def apply_mail(desk: Desk, path: str, data: bytes) -> None:
    """The blocks of one mail onto one game file, all or none (what `apply MAIL` always did)."""
    from .mail import find_blocks

    notes: list[str] = []
    with desk.gate.writing(path, behind_ok=True) as loaded:  # a copy behind what you saw: apply brings it up to date
        blocks = find_blocks(data, loaded.game.variant, notes)
        desk.note(*notes)
        try:
            outcome = apply_blocks(loaded.record, loaded.game, blocks)
        except StaleBlockError as exc:
            if not exc.missing:
                write_fork(desk, loaded, blocks)
            raise
        if outcome.events:
            loaded = desk.add(loaded, outcome.events)
    desk.say(outcome.message)
    if outcome.events:
        desk.changed(loaded)


def write_fork(desk: Desk, loaded: Loaded, blocks: Sequence[MoveBlock]) -> None:
    """When `blocks` fork the game (the copies forked: a stale block), write the fork into the
    file as git's merge driver writes one (`forked_file`), under the write lock the caller
    holds, and raise the ConflictError that says so and how `resolve` settles it; return when
    they fork nothing that can be written (the caller raises its own error)."""
    from ..forks import describe_fork, split_fork

    forked = forked_file(loaded.data, loaded.record, loaded.game, blocks)
    fork = split_fork(forked) if forked is not None else None
    if forked is None or fork is None:
        return
    desk.gate.write_fork(loaded.path, forked, read=loaded.data)  # each side judged; ConflictError: the file changed
    raise ConflictError(
        f"the mail's move forks the game (the copies forked after #{fork.seq}): {loaded.path} now holds"
        f" both sides; {describe_fork(fork)}"
    )


def peek_id(path: str) -> str:
    """The game id a file's header gives, read from its first lines ("" when none is seen)."""
    from .. import store

    try:
        head = store.read_bytes(path, 8192, head=True)
    except (OSError, GameFileError):
        return ""
    return id_in(head)


def id_in(data: bytes) -> str:
    """The game id in the header of a game file's bytes ("" when none is seen)."""
    import re

    found = re.search(rb'(?m)^game = "([^"\\\n]{1,100})"', data[:8192].split(b"\n[[events]]", 1)[0])
    return found.group(1).decode("utf-8", "replace") if found else ""


def same_game(path: str, games: Sequence[str]) -> None:
    """-g names a game file: the mail must be for its game (a mail of another game is refused,
    rather than taken in elsewhere beside the file named)."""
    mine = peek_id(path)
    others = [gid for gid in dict.fromkeys(games) if gid]
    if mine and others and mine not in others:
        raise UsageError(
            f"the mail is for game {excerpt(others[0])}, but {path} is game {excerpt(mine)}:"
            " give that game's file with -g, or leave -g out to take the mail in under --dir"
        )


_MAX_GAMES = 10_000
"""The most game files looked at under --dir."""


def known_games(folder: str | None, game: str | None) -> tuple[dict[str, str], list[str]]:
    """The game files under `folder` (none: not looked at) and `game`, by the id in their header;
    notes on doubles."""
    known: dict[str, str] = {}
    notes: list[str] = []
    paths: list[str] = []
    if game is not None:
        paths.append(game)
    for root, dirs, files in os.walk(folder, followlinks=False) if folder is not None else ():
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [os.path.join(root, name) for name in sorted(files) if name.endswith(".toml")]
        if len(paths) > _MAX_GAMES:
            notes.append(f"more than {_MAX_GAMES} files under {folder}: the rest not looked at")
            break
    for path in paths:
        found = peek_id(path)
        if not found:
            continue
        if found in known and os.path.realpath(known[found]) != os.path.realpath(path):
            notes.append(f"game {found} is in {known[found]} and in {path}: {known[found]} is used")
            continue
        known.setdefault(found, path)
    return known, notes


class Tally:
    """What `apply` did with a mailbox, for its summary and its exit code."""

    def __init__(self, say: Callable[..., None]) -> None:
        self.say = say
        self.applied = 0
        self.games: set[str] = set()
        self.known = 0
        self.skipped = 0
        self.failures: list[SplendorError] = []
        self.retry: set[str] = set()
        """The messages (by label) to read again on the next run: a block of theirs waits for
        turns this copy lacks, or for a game not here yet."""

    def fail(self, where: str, exc: SplendorError) -> None:
        exc.args = (f"{where}: {' '.join(str(exc).split())}",)
        self.failures.append(exc)
        self.say(f"failed: {exc}")

    def summary(self, messages: int) -> str:
        return (
            f"{_count(messages, 'message')} read: {_count(self.applied, 'event')} applied to"
            f" {_count(len(self.games), 'game')}, {_count(self.known, 'block')} applied already,"
            f" {self.skipped} skipped, {len(self.failures)} failed"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def take_in(
    desk: Desk,
    messages: Sequence[RawMessage],
    *,
    extra: str | None,
    new_path: str | None,
    folder: str,
    strict: bool,
) -> None:
    """Every block and whole game file of `messages`, game by game (see the module docstring).

    `extra` is a game file known besides those of `folder` (-g); `new_path` is where a game mailed
    whole is created (-g naming a missing file: then, for one mail, the games of `folder` are
    not looked at), else `folder/<id>.toml`.
    `strict` (one mail given): a block for a game not here is an error (exit 2), not a note. A
    failure (a damaged block, a stale one, an illegal move) stops only its game's blocks; the
    first is raised at the end, after every game was done, so that the exit code says it.
    """
    from .. import store
    from .mail import block_games, find_game_files

    known, notes = known_games(None if strict and new_path else folder, extra)
    desk.say(*(f"note: {note}" for note in notes))
    tally = Tally(desk.say)
    holding: dict[str, list[RawMessage]] = {}
    wholes: dict[str, list[tuple[str, Loaded]]] = {}
    seen = desk.read_before if not strict else None
    fresh = [message for message in messages if seen is None or not seen.has(message.data)]
    if seen is not None and len(fresh) < len(messages):
        desk.say(f"{_count(len(messages) - len(fresh), 'message')} read before, not read again")
    for message in fresh:
        label = message.label
        try:
            files = find_game_files(message.data)
            games = block_games(message.data)
        except GameFileError as exc:  # a mail that does not parse: skipped, the others are read
            if strict:
                raise
            desk.note(f"skipped {label}: {exc}")
            tally.skipped += 1
            continue
        for number, data in enumerate(files, start=1):
            try:
                whole = store.from_bytes(f"{label}: attached game file {number}", data)
            except (GameFileError, ConflictError) as exc:
                tally.fail(label, exc)
                continue
            wholes.setdefault(whole.record.header.game, []).append((label, whole))
        for found in games:
            holding.setdefault(found, []).append(message)
    for gid in sorted({*holding, *wholes}):
        path = known.get(gid)
        if path is None and gid not in wholes:
            where = ", ".join(sorted({m.label for m in holding[gid]})[:3])
            if strict:
                tally.fail(where, UsageError(f"a move block for game {excerpt(gid)}, which is not in {folder}/ nor -g"))
            else:
                tally.skipped += 1
                tally.retry.update(m.label for m in holding[gid])
                desk.say(f"skipped: {where}: a move block for game {gid}, which is not in {folder}/ (nor -g)")
            continue
        try:
            if path is None:
                path = _create(desk, gid, wholes[gid][0], folder=folder, path=new_path)
                new_path = None
                known[gid] = path
            _take_game(desk, path, gid, holding.get(gid, []), wholes.get(gid, []), tally=tally)
        except SplendorError as exc:
            tally.fail(gid, exc)
    if seen is not None:
        seen.add(message.data for message in fresh if message.label not in tally.retry)
    desk.say(tally.summary(len(messages)))
    if tally.failures:
        first = tally.failures[0]
        if len(tally.failures) > 1:
            first.args = (f"{first} (and {len(tally.failures) - 1} more failures: see above)",)
        raise first


_SAFE_ID = r"[A-Za-z0-9][A-Za-z0-9_.@+-]{0,99}"
"""A game id that may name a file anywhere (no `:` nor `#`), without `..`."""


def _create(desk: Desk, gid: str, whole: tuple[str, Loaded], *, folder: str, path: str | None) -> str:
    """Create the game that a mail carried whole, at `path` when given, else `folder/<id>.toml`;
    the setup only (the rest is appended as turns, see `_take_game`)."""
    import re

    label, loaded = whole
    if path is None:
        if not re.fullmatch(_SAFE_ID, gid) or ".." in gid:
            raise UsageError(f"{label}: the game id {excerpt(gid)} cannot name a file: create it yourself with -g FILE")
        path = os.path.join(folder, f"{gid}.toml")
        if os.path.lexists(path):
            raise UsageError(f"{path} exists and is not game {gid}: create it elsewhere with -g FILE")
    created = desk.gate.create(path, loaded.record.header, loaded.record.events[0])
    desk.say(f"created {path}: game {gid} ({', '.join(loaded.record.header.players)}), from {label}")
    if desk.commit is not None:
        desk.commit(created)
    return path


def _take_game(
    desk: Desk,
    path: str,
    gid: str,
    messages: Sequence[RawMessage],
    wholes: Sequence[tuple[str, Loaded]],
    *,
    tally: Tally,
) -> None:
    """The whole files and the blocks of one game, taken in under its write lock."""
    from .mail import find_game_blocks

    with desk.gate.writing(path, behind_ok=True) as loaded:  # a copy behind what you saw: apply brings it up to date
        before = loaded.game.seq
        for label, whole in wholes:
            try:
                loaded = _take_whole(desk, loaded, whole, label, tally=tally)
            except SplendorError as exc:
                tally.fail(f"{gid} ({label})", exc)
        blocks: dict[MoveBlock, str] = {}
        for message in messages:
            notes: list[str] = []
            try:
                found = find_game_blocks(message.data, gid, loaded.game.variant, notes)
            except SplendorError as exc:
                tally.fail(f"{gid} ({message.label})", exc)
                continue
            finally:
                desk.note(*(f"{message.label}: {note}" for note in notes))
            for block in found:
                blocks.setdefault(block, message.label)
        for block, label in sorted(blocks.items(), key=lambda pair: (pair[0].first, pair[0].last)):
            span = f"#{block.first}" if block.first == block.last else f"#{block.first}-{block.last}"
            try:
                outcome = apply_blocks(loaded.record, loaded.game, [block])
                if outcome.is_noop:
                    tally.known += 1
                    desk.say(f"{gid}: {span} applied already")
                    continue
                loaded = desk.add(loaded, outcome.events)
            except SplendorError as exc:
                if isinstance(exc, StaleBlockError) and exc.missing:
                    tally.retry.add(label)  # its turn may come in a later mail: read it again then
                elif isinstance(exc, StaleBlockError):
                    try:
                        write_fork(desk, loaded, [block])
                    except ConflictError as forked:  # the file is forked now: nothing more goes onto it
                        tally.fail(f"{gid} {span} ({label})", forked)
                        break
                tally.fail(f"{gid} {span} ({label})", exc)
                continue
            tally.applied += len(outcome.events)
            desk.say(*(f"{gid}: {line}" for line in outcome.message.splitlines() if line.startswith("applied")))
        changed = loaded.game.seq > before
    if changed:
        tally.games.add(gid)
        desk.changed(loaded)


def _take_whole(desk: Desk, loaded: Loaded, whole: Loaded, label: str, *, tally: Tally) -> Loaded:
    """The events of a whole game file (mailed) that this copy lacks, appended; it must extend this copy."""
    from . import notify

    ours, theirs = loaded.record, whole.record
    if theirs.header != ours.header:
        raise ConflictError(f"the attached game file has another header than {loaded.path}: not the same game")
    for mine, other in zip(ours.events, theirs.events):
        if event_digest(mine) != event_digest(other):
            from .mail import MoveBlock

            write_fork(desk, loaded, [MoveBlock(game=ours.header.game, events=theirs.events[1:])])
            raise ConflictError(
                f"the attached game file differs from {loaded.path} at #{mine.seq}:"
                f" the copies forked after #{mine.seq - 1}"
            )
    new = theirs.events[len(ours.events) :]
    if not new:
        if len(theirs.events) > 1:
            tally.known += 1
        return loaded
    loaded = desk.add(loaded, new)
    tally.applied += len(new)
    desk.say(*(f"{ours.header.game}: applied {notify.entry(loaded, event)}" for event in new))
    return loaded
