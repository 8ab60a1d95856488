"""Forked files: a game file holding two events with one parent (two players moved from the same
copy, and a merge kept both), split into its common part and two branches; and the text of a
game file cut into its `[[events]]` blocks, byte for byte, as the merge driver and `resolve`
handle it. Imported only when a file forked or is merged.
"""

from __future__ import annotations

import re

import attrs

from .errors import GameFileError, SplendorError, UsageError, excerpt
from .events import Event, actor
from .events.codec import PAYLOAD_DRAWS_FORMAT, Record, event_digest, load_toml
from .projection.game import replay
from .projection.log import event_notation
from .projection.variant import AnyVariant
from .records import parse_text
from .variants import find_variant

SIDES = ("ours", "theirs")
"""The two branches of a forked file, as git's merge named them (in a rebase, swapped)."""

# The "\n" that starts each `[[events]]` block: the table header alone on its line.
_BLOCK = re.compile(r"\n(?=\[\[events\]\][ \t]*(?:#[^\n]*)?\r?\n)")


# -- the text as blocks ------------------------------------------------------------------------


@attrs.frozen
class Blocks:
    """A game file cut into its header part and one piece per `[[events]]` block."""

    head: str
    blocks: tuple[str, ...]


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"not UTF-8 text (byte {exc.start})") from None


def cut(text: str, count: int) -> Blocks:
    """Cut `text` before each `[[events]]` header line; there must be `count` of them."""
    cuts = [m.start() for m in _BLOCK.finditer(text)]
    if len(cuts) != count:
        raise GameFileError(f"{count} events but {len(cuts)} '[[events]]' lines (the file was reformatted by hand?)")
    if not cuts:
        return Blocks(text, ())
    ends = [*cuts[1:], len(text)]
    return Blocks(text[: cuts[0]], tuple(text[a:b] for a, b in zip(cuts, ends, strict=True)))


# -- naming moves --------------------------------------------------------------------------------


def _turn(variant: AnyVariant, event: Event) -> str:
    """`ann's 'take red red'`: who, and the move in the log's notation."""
    who = actor(event) or ("the setup" if isinstance(event, variant.setup_type) else "someone")
    try:
        notation = event_notation(variant, event)
    except (SplendorError, ValueError):  # a move the rules cannot even read
        notation = event.TYPE
    return f"{who}'s {notation!r}"


def turns(variant: AnyVariant, events: tuple[Event, ...]) -> str:
    """The turns of a branch, first one named: `ann's 'take red red' (#4)` plus how many more."""
    if not events:
        return "nothing"
    first = f"{_turn(variant, events[0])} (#{events[0].seq})"
    more = len(events) - 1
    return first + (f" and {more} more event{'s' if more > 1 else ''}" if more else "")


# -- forked files --------------------------------------------------------------------------------


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

    def branch(self, side: str) -> Branch:
        """The branch named "ours" or "theirs"."""
        return self.ours if side == "ours" else self.theirs

    def label(self, side: str) -> str:
        """How a person names a side: the digest of its first event (6 hex digits), which is the
        same in every clone whatever git calls ours and theirs."""
        return event_digest(self.branch(side).events[0])[:6]

    def choose(self, ref: str) -> str:
        """The side ("ours" or "theirs") that `ref` names: `ours`, `theirs`, a prefix (at least 4
        hex digits) of the digest of the side's first event, or the player who made it.

        Raises:
            UsageError: `ref` names neither side, or both (naming what would tell them apart).
        """
        ref = ref.strip()
        if ref in SIDES:
            return ref
        named = [
            side
            for side in SIDES
            if (len(ref) >= 4 and event_digest(self.branch(side).events[0]).startswith(ref.lower()))
            or actor(self.branch(side).events[0]) == ref
        ]
        choices = ", ".join(f"{self.label(s)} ({actor(self.branch(s).events[0]) or s})" for s in SIDES)
        if len(named) == 1:
            return named[0]
        if named:
            raise UsageError(f"{excerpt(ref)} names both sides of the fork: name one by its digest, {choices}")
        raise UsageError(f"{excerpt(ref)} names neither side of the fork: keep {choices}, or ours or theirs")

    def standing(self) -> str:
        """How the game stood after the common events, in words: who was to move, the deal under way
        (what it waited for: a commit-then-reveal deal, a sealed game's joins and shuffles), or
        the game over."""
        header = self.record.header
        try:
            game = replay(
                find_variant(header.variant),
                self.record.events,
                check=False,
                chained_draws=header.format < 2,
                payload_draws=header.format >= PAYLOAD_DRAWS_FORMAT,
                table=header.table,
            )
        except SplendorError:
            return "where the game stood there is unknown (its common events do not replay)"
        if not game.states:
            waiting = game.dealing()
            return f"the deal was under way ({waiting})" if waiting else "the deal was under way"
        state = game.table
        return "the game was over" if state.finished else f"{state.player.name} was to move"


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
        raw_events = load_toml(text).get("events", [])
    except (UnicodeDecodeError, GameFileError):
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
    blocks = cut(text, len(raw_events))
    prefix = blocks.head + "".join(blocks.blocks[: seq - 1])
    branches = {"ours": "".join(blocks.blocks[seq - 1 : split]), "theirs": "".join(blocks.blocks[split:])}
    records: dict[str, Record] = {}
    for name, branch in branches.items():
        try:
            records[name] = parse_text(prefix + branch)
        except SplendorError as exc:
            raise GameFileError(f"the game forked after event #{seq - 1}, but {name}: {exc}") from None
    ours, theirs = records["ours"], records["theirs"]
    if ours.events[seq - 1] == theirs.events[seq - 1]:
        raise GameFileError(f"event #{split + 1}: a copy of event #{seq} (the file was edited or merged by hand)")
    common = parse_text(prefix)
    return Fork(
        prefix=prefix.encode("utf-8"),
        record=common,
        ours=Branch(data=branches["ours"].encode("utf-8"), events=ours.events[seq - 1 :]),
        theirs=Branch(data=branches["theirs"].encode("utf-8"), events=theirs.events[seq - 1 :]),
    )


def describe_fork(fork: Fork, only: str | None = None) -> str:
    """One line naming both turns that follow the fork point (each with the digest that names
    it), who was to move there, and the command that settles it: either side's, or, when only
    the side `only` may be kept by this user (the audit refuses the other from them), that side's."""
    who = fork.standing()
    variant = find_variant(fork.record.header.variant)
    ours, theirs = (f"{turns(variant, fork.branch(s).events)} [{fork.label(s)}] ({s})" for s in SIDES)
    if only is not None:
        keep = (
            f"keep `splendor resolve --keep {fork.label(only)}` (the other side leaves out moves that are"
            " not yours to withdraw: the audit refuses it from you)"
        )
    else:
        keep = f"keep one with `splendor resolve --keep {fork.label('ours')}` or `--keep {fork.label('theirs')}`"
    return f"game forked after event #{fork.seq}: {ours} and {theirs} both follow it; {who}; {keep}"
