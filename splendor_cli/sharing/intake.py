"""Taking one game's mailed move blocks and whole files in, under its write lock (`take_game`),
for `inbox.take_in`; and what became of each mail's blocks (`Mail`), from which inbox.py
remembers the mail as read, or what of it waits.

Every block is tried on its own and is either dealt with (applied, applied already, refused for
good, or written into the file as a fork) or waits: for the turns before it, or, once a block
forked the game, until the fork is settled (`splendor resolve`): the file holds both sides now,
and nothing more goes onto it in this run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from hashlib import sha256
from typing import TYPE_CHECKING

import attrs

from ..errors import ConflictError, GameFileError, SplendorError, StaleBlockError
from ..events.codec import event_digest
from .applying import apply_blocks
from .mail import FoundBlock, MoveBlock
from .mail_desk import Desk, MailForked, Memo, write_fork

if TYPE_CHECKING:
    from ..store import Loaded
    from .mailbox import RawMessage


@attrs.frozen(kw_only=True)
class Whole:
    """A whole game file a mail carried, read; `key` names it as a block's key does."""

    label: str
    loaded: Loaded
    key: str


@attrs.define(eq=False)
class Mail:
    """One mail being taken in: what it carries, and what became of each of its blocks."""

    message: RawMessage
    before: Memo | None = None
    """What was remembered of it (None: a mail not read before)."""
    done: set[str] = attrs.Factory(set)
    """The keys of its blocks and whole files dealt with (those of `before` too)."""
    blocks: list[FoundBlock] = attrs.Factory(list)
    wholes: dict[str, list[Whole]] = attrs.Factory(dict)
    """Its whole game files not dealt with before, by game."""
    waits: set[str] = attrs.Factory(set)
    """The games not here that some of its blocks wait for."""
    again: bool = False
    """Some of its blocks wait for turns, a fork settled or a game that could be opened."""
    _by_game: dict[str, list[FoundBlock]] | None = attrs.field(default=None, init=False, repr=False)

    def games(self) -> list[str]:
        """The games of its blocks not dealt with, in the order of the mail."""
        return list(dict.fromkeys(b.game for b in self.blocks if b.game and b.key not in self.done))

    def blocks_of(self, game: str) -> list[FoundBlock]:
        """Its blocks of `game` not dealt with."""
        if self._by_game is None:
            self._by_game = {}
            for block in self.blocks:
                self._by_game.setdefault(block.game, []).append(block)
        return [b for b in self._by_game.get(game, []) if b.key not in self.done]

    def drop(self, games: set[str]) -> None:
        """Its blocks of `games` are dealt with: dropped."""
        self.done |= {b.key for b in self.blocks if b.game in games}

    def memo(self) -> Memo:
        """What to remember of it now."""
        return Memo(done=frozenset(self.done), games=frozenset(self.waits), again=self.again)


class Tally:
    """What `apply` did with a mailbox, for its summary and its exit code."""

    def __init__(self, say: Callable[..., None]) -> None:
        self.say = say
        self.applied = 0
        self.games: set[str] = set()
        self.known = 0
        self.skipped = 0
        self.failures: list[SplendorError] = []

    def fail(self, where: str, exc: SplendorError) -> None:
        exc.args = (f"{where}: {' '.join(str(exc).split())}",)
        self.failures.append(exc)
        self.say(f"failed: {exc}")

    def summary(self, messages: int) -> str:
        return (
            f"{count(messages, 'message')} read: {count(self.applied, 'event')} applied to"
            f" {count(len(self.games), 'game')}, {count(self.known, 'block')} applied already,"
            f" {self.skipped} skipped, {len(self.failures)} failed"
        )


def count(number: int, noun: str) -> str:
    """`1 message`, `2 messages`."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def take_mail(desk: Desk, mail: Mail, tally: Tally, *, strict: bool) -> None:
    """Find what `mail` carries: its blocks (not read yet) and its whole game files (read). A
    mail that cannot be read (over a bound of `mail_bounds`, or not parsing) is skipped with a
    note: nothing of it waits, so it is remembered as read.

    Raises:
        GameFileError: with `strict` (one mail given), the mail cannot be read.
    """
    from .. import store
    from .mail import find_game_files, found_blocks

    label = mail.message.label
    notes: list[str] = []
    try:
        files = find_game_files(mail.message.data)
        mail.blocks = found_blocks(mail.message.data, notes)
    except GameFileError as exc:
        if strict:
            raise
        desk.note(f"skipped {label}: {' '.join(str(exc).split())}")
        tally.skipped += 1
        return
    desk.note(*(f"{label}: {note}" for note in notes))
    for number, data in enumerate(files, start=1):
        key = "file " + sha256(data).hexdigest()[:24]
        if key in mail.done:
            continue
        try:
            whole = store.from_bytes(f"{label}: attached game file {number}", data)
        except (GameFileError, ConflictError) as exc:
            mail.done.add(key)
            tally.fail(label, exc)
            continue
        mail.wholes.setdefault(whole.record.header.game, []).append(Whole(label=label, loaded=whole, key=key))


def take_game(
    desk: Desk,
    path: str,
    gid: str,
    mails: Sequence[Mail],
    wholes: Sequence[tuple[Mail, Whole]],
    *,
    tally: Tally,
) -> None:
    """The whole files and the blocks of game `gid` that `mails` carry, taken in under its write
    lock, each on its own (see the module docstring).

    Raises:
        SplendorError: the game file cannot be opened (nothing of it was tried: it all waits).
    """
    from .mail import read_block

    with desk.gate.writing(path, behind_ok=True) as loaded:  # a copy behind what you saw: apply brings it up to date
        before = loaded.game.seq
        forked = False
        for mail, whole in wholes:
            mail.done.add(whole.key)
            try:
                loaded = _take_whole(desk, loaded, whole, tally=tally)
            except SplendorError as exc:
                tally.fail(f"{gid} ({whole.label})", exc)
                if isinstance(exc, MailForked):
                    forked = True
                    break
        blocks: dict[MoveBlock, list[tuple[Mail, FoundBlock]]] = {}
        for mail in mails:
            for found in mail.blocks_of(gid):
                if forked:
                    mail.again = True
                    continue
                try:
                    block = read_block(found, loaded.game.variant)
                except GameFileError as exc:
                    mail.done.add(found.key)
                    tally.fail(f"{gid} ({mail.message.label})", exc)
                    continue
                blocks.setdefault(block, []).append((mail, found))
        waiting = 0
        for block, holders in sorted(blocks.items(), key=lambda pair: (pair[0].first, pair[0].last)):
            if forked:  # the file holds both sides now: this block waits until the fork is settled
                waiting += 1
                for mail, _ in holders:
                    mail.again = True
                continue
            loaded, forked = _take_block(desk, loaded, gid, block, holders, tally=tally, before=before)
        if waiting:
            desk.say(
                f"{gid}: {count(waiting, 'later move block')} {'waits' if waiting == 1 else 'wait'} until the fork"
                " is settled (splendor resolve), then read again"
            )
        changed = loaded.game.seq > before
    if changed:
        tally.games.add(gid)
        desk.changed(loaded)


def _take_block(
    desk: Desk,
    loaded: Loaded,
    gid: str,
    block: MoveBlock,
    holders: Sequence[tuple[Mail, FoundBlock]],
    *,
    tally: Tally,
    before: int,
) -> tuple[Loaded, bool]:
    """One block onto the game (held under its write lock): the game after it, and whether the
    block forked it (the fork is written, and said).

    `before` is the last seq the file had before this run: a block whose events this run brought
    already (the whole file the mail carries, or another block of this run) is said once, as
    applied, never also as applied already."""
    span = f"#{block.first}" if block.first == block.last else f"#{block.first}-{block.last}"
    where = f"{gid} {span} ({holders[0][0].message.label})"
    forked = False
    try:
        outcome = apply_blocks(loaded.record, loaded.game, [block])
        if outcome.is_noop and block.last > before:  # brought by this run: said as applied
            pass
        elif outcome.is_noop:
            tally.known += 1
            desk.say(f"{gid}: {span} applied already")
        else:
            loaded = desk.add(loaded, outcome.events)
            tally.applied += len(outcome.events)
            desk.say(*(f"{gid}: {line}" for line in outcome.message.splitlines() if line.startswith("applied")))
    except StaleBlockError as exc:
        if exc.missing:  # its turns may come in a later mail: it waits, and its mail is read again then
            for mail, _ in holders:
                mail.again = True
            tally.fail(where, exc)
            return loaded, False
        try:
            settled = write_fork(desk, loaded, [block])
        except MailForked as fork:
            forked = True
            tally.fail(where, fork)
        else:
            if settled is None:
                tally.fail(where, exc)
            else:  # a race of protocol steps against a move: settled by its rule
                desk.say(f"{gid}: {settled.message}")
                loaded = settled.loaded
    except SplendorError as exc:  # refused for good: an illegal move, a move the gate refuses
        tally.fail(where, exc)
    for mail, found in holders:
        mail.done.add(found.key)
    return loaded, forked


def _take_whole(desk: Desk, loaded: Loaded, whole: Whole, *, tally: Tally) -> Loaded:
    """The events of a whole game file (mailed) that this copy lacks, appended; it must extend this copy.

    Raises:
        MailForked: it forks this copy (the fork is written into the file).
        ConflictError: it is another game's (another header), or forks this copy where no fork can be written.
    """
    from . import notify

    ours, theirs = loaded.record, whole.loaded.record
    if theirs.header != ours.header:
        raise ConflictError(f"the attached game file has another header than {loaded.path}: not the same game")
    for mine, other in zip(ours.events, theirs.events):
        if event_digest(mine) != event_digest(other):
            settled = write_fork(desk, loaded, [MoveBlock(game=ours.header.game, events=theirs.events[1:])])
            if settled is not None:  # a race of protocol steps against a move: settled by its rule
                desk.say(f"{ours.header.game}: {settled.message}")
                return settled.loaded
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
