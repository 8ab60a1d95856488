"""Applying move blocks to a game file, as a service of the sharing floor: the events that taking
blocks in appends (`apply_blocks`), each judged by the rules, and the file that a forking block
makes of it (`forked_file`, the fork written as git's merge driver writes one). What a mail is,
and how blocks reach a game file, is sharing/inbox.py's; no filesystem here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import attrs

from ..errors import CorruptLogError, GameFileError, IllegalMoveError, StaleBlockError, UsageError, excerpt
from ..events import Event, actor
from ..events.codec import Record, chained, event_digest, format_event
from ..projection import Game
from ..projection.log import event_notation
from ..projection.variant import AnyVariant
from .mail import BEGIN, END, MoveBlock


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
        GameFileError: (exit 4) at a table of keys, the event is not its author's (`_forged`),
            refused whatever the rules say, as every reader of a file holding it refuses it;
            nothing is applied.
    """
    try:
        return game.apply(event, check=True)
    except CorruptLogError as exc:
        entry = _entry(game.variant, event)
        if _forged(game, event):
            raise GameFileError(f"refused in the block: {exc} ({entry}); nothing applied") from None
        raise IllegalMoveError(f"illegal move in the block: {exc} ({entry}); nothing applied", rule="block") from None


def _forged(game: Game, event: Event) -> bool:
    """Whether `event` (refused already) is refused as not its player's own in a game whose events
    are signed: a move claiming to be played for its player by another (`by`: each seat plays
    its own turns), or an event not signed by its author's key (`sealing.signing.check_signature`,
    as its protocol checks it; but the setup, which nobody signs, and a join, checked by the
    key it brings)."""
    from ..events import PlayEvent
    from ..sealing.events import KeyJoined
    from ..sealing.signing import check_signature

    signers = game.protocol.signers() if game.protocol.signed else None
    if signers is None or not game.events or isinstance(event, (game.variant.setup_type, KeyJoined)):
        return False
    if isinstance(event, PlayEvent) and event.by:
        return True
    try:
        check_signature(signers.keys, event, game.events[-1], rule=game.protocol.name)
    except IllegalMoveError:
        return True
    return False


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
    """How `play` reports an event: `#7 bob: take white blue green`, `#9 undo: back to ...`, a
    protocol's event by its author as a mailed whole game's are (`notify.entry`): `#3 bob: joins ...`."""
    notation = event_notation(variant, event)
    who = actor(event)
    if who and not notation.startswith("undo"):
        return f"#{event.seq} {who}: {notation}"
    return f"#{event.seq} {notation}"


def _digest_before(record: Record, seq: int) -> str:
    """The digest that the event `seq` of `record` must name as its parent."""
    return record.link_before(seq)


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
