"""Fuzzing the loader: mutated game files are either read or refused with one line, never a crash.

Short games of 2, 3 and 4 players (undos included) are written as the store writes them, then
damaged: bytes flipped, inserted or deleted, the file cut at a byte or a line, lines deleted or
doubled, numbers, digits and names changed, values given another TOML type, keys renamed, event
blocks swapped, doubled, moved or deleted, comments and blank lines added. Each mutated file is
read the way the CLI reads it (`store.read`: UTF-8, `codec.parse`, the hash chain, `replay`
judging every event, the header checks). The properties, in every test:

* the file is read, or refused with a GameFileError (exit 4) whose message is one line: no
  other exception, and no load hangs: the loads run in a child process (tests/child.py), and
  one that never returns fails the test, which waits PATIENCE seconds in all, never a time per
  load (several mutations on one file may also forge a fork, two different events with one
  parent: a ForkError, exit 5, one line);
* a file that is read has the original header, and all its events but the last are the
  original events at the same places (the chain pins every event that has a successor);
* a change of a number or a name inside the header or a past event (one with a successor) is
  refused, unless the TOML value is the same (`0x1` for `1`); whitespace and comments are not
  changes, and dropping the last event leaves a valid game.

The hypothesis tests run 464 times the profile's number of examples (tests/conftest.py; `dev`:
9,280, about 20 s on two cores; `ci`: 46,400, about 100 s; a file made twice is loaded once).
They are in the slow tier, and check every file they make; how many differ, and how many are
read or refused, is hypothesis's business (see `--hypothesis-show-statistics`). What each kind
of damage must come to (files read and files refused, so that the loader neither lets
everything through nor refuses everything) is checked by a seeded sweep, which draws the same
files on every run, and 50 files go through the real CLI.
"""

from __future__ import annotations

import functools
import json
import random
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import hypothesis
import pytest
import tomli_w
from child import Child
from helpers import DUEL, EVENT_TYPES, deal_duel, examples, random_game, step, undo
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from splendor_cli import store
from splendor_cli.app.cli import app
from splendor_cli.errors import ForkError, GameFileError
from splendor_cli.events.codec import Header, Record, chained, format_record
from splendor_cli.model import Gem
from splendor_cli.projection import Game
from splendor_cli.variants.base.cards import DECKS, NOBLES
from splendor_cli.variants.base.events import CardPurchased
from splendor_cli.variants.base.rules import choices
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel.state import DuelState

# -- the base games --------------------------------------------------------------------------


@attrs.frozen(eq=False)
class Base:
    """A valid game file, as bytes, and what it reads as."""

    name: str
    data: bytes = attrs.field(repr=False)
    record: Record = attrs.field(repr=False)


def _play(game: Game, rng: random.Random) -> Game:
    options = choices(game.state)
    return step(game, options.move(rng.randrange(len(options))))


def _base(players: int, seed: int, turns: int, tail: str, emails: tuple[str, ...] = ()) -> Base:
    """A game of `turns` random turns, then `tail`: u = undo the last turn, U = undo two, t = a turn,
    b = turns until a card is bought."""
    rng = random.Random(seed)
    game = random_game(seed, players=players, max_turns=turns)
    for op in tail:
        if op == "t":
            game = _play(game, rng)
        elif op == "b":
            while not isinstance(game.events[-1], CardPurchased):
                options = choices(game.state)
                buys = [i for i in range(len(options)) if options.move(i).action == "buy"]
                game = step(game, options.move(buys[0])) if buys else _play(game, rng)
        elif op == "U":  # two players' turns: an agreed rewind
            game = undo(game, to=game.after[-3], by=game.players[0], forced=True)
        else:
            game = undo(game)
    header = Header(
        game=f"fuzz-{players}p", variant="base", players=game.players, created="2026-01-01T00:00:00Z", emails=emails
    )
    record = Record(header=header, events=())
    for event in game.events:
        record = attrs.evolve(record, events=(*record.events, chained(record, event)))
    return Base(name=f"{players}p-seed{seed}", data=format_record(record).encode("utf-8"), record=record)


def _duel_base(seed: int, steps: int) -> Base:
    """A Duel of `steps` random steps, with an undo of the step before the last, sealed as it is
    played (a replenish's draw follows from the digests of the sealed events)."""
    rng = random.Random(seed)
    header = Header(game="fuzz-duel", variant="duel", players=("ann", "bob"), created="2026-01-01T00:00:00Z")
    record = Record(header=header, events=(chained(Record(header=header, events=()), deal_duel(("ann", "bob"), rng)),))
    game = Game(variant=DUEL).apply(record.events[0])
    for n in range(steps):
        state = game.state
        assert isinstance(state, DuelState)
        if state.finished:
            break
        event = game.decide_undo() if n == steps - 2 else game.decide(rng.choice(duel.legal_steps(state)))
        record = attrs.evolve(record, events=(*record.events, chained(record, event)))
        game = game.apply(record.events[-1])
    return Base(name=f"duel-seed{seed}", data=format_record(record).encode("utf-8"), record=record)


BASES = (
    _base(2, 1, 4, "uttU"),  # ends with an undo to an earlier turn
    _base(3, 2, 4, "utb"),  # ends with a purchase
    _base(4, 3, 5, "ut", emails=("a@example.org", "", "c@example.org", "d@example.org")),
    _base(2, 4, 1, ""),  # the setup and one turn
    _duel_base(5, 40),  # a Duel: steps of every kind early in a game, an undo
)

# -- where a mutation's choices come from ----------------------------------------------------

_EDGE_INTEGERS = (0, 1, -1, 2**31, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 10**40)


class Draws:
    """The choices of a mutation: from hypothesis (`st.data()`) or from a seeded `random.Random`."""

    def index(self, n: int) -> int:
        """A place in the file, or an item of a list: 0 to n - 1, spread evenly."""
        raise NotImplementedError

    def integer(self) -> int:
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError

    def pick(self, items: Sequence[Any]) -> Any:
        """One of a few kinds (a base game, a mutation): what hypothesis reports and shrinks."""
        return self.choice(items)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.index(len(items))]


class HypothesisDraws(Draws):
    """Hypothesis picks the base, the mutations, the new integers and texts (its edge cases); places
    come from a `random.Random` it seeds: spread over the file, where its own integers crowd the
    ends, so that the files differ."""

    _integers = st.one_of(st.integers(-2, 40), st.sampled_from(_EDGE_INTEGERS), st.integers())

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.rng = data.draw(st.randoms(use_true_random=True))

    def index(self, n: int) -> int:
        return self.rng.randrange(n)

    def integer(self) -> int:
        return self.data.draw(self._integers)

    def text(self) -> str:
        return self.data.draw(st.text(max_size=6))

    def pick(self, items: Sequence[Any]) -> Any:
        return self.data.draw(_sampled(tuple(items)))


@functools.lru_cache(maxsize=64)
def _sampled(items: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from(items)


class RandomDraws(Draws):
    """Plain seeded choices, for the CLI test (no hypothesis there)."""

    _alphabet = 'ab1-_ é"\\\n\t\x00\u2028#=[]{}'

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def index(self, n: int) -> int:
        return self.rng.randrange(n)

    def integer(self) -> int:
        return self.rng.choice((*_EDGE_INTEGERS, self.rng.randint(-50, 50), self.rng.getrandbits(70)))

    def text(self) -> str:
        return "".join(self.rng.choice(self._alphabet) for _ in range(self.rng.randrange(7)))


# -- a file as lines, blocks and value slots -------------------------------------------------

_KEY_LINE = re.compile(r"([A-Za-z_]+) = ")
_TOKEN = re.compile(r'"[^"\\\n]*"|-?\d+|true|false')
_SEP = "\n[[events]]\n"


@attrs.frozen
class Slot:
    """One scalar value written in the file: a string, an integer or a boolean (array items too)."""

    line: int
    start: int
    end: int
    owner: int  # 0 for the header, k for event #k
    kind: str  # s string, i integer, b boolean


class Doc:
    """A file's text cut into lines, each line owned by the header (0) or an event (1, 2, ...).

    Any bytes make a Doc (undecodable bytes survive as surrogates), so mutations can be stacked.
    """

    def __init__(self, data: bytes) -> None:
        self.text = data.decode("utf-8", "surrogateescape")
        self.lines = self.text.splitlines(keepends=True)
        self.owner: list[int] = []
        events = 0
        for line in self.lines:
            if line.rstrip("\r\n") == "[[events]]":
                events += 1
            self.owner.append(events)
        self.events = events
        self.keys = [i for i, line in enumerate(self.lines) if _KEY_LINE.match(line)]

    @functools.cached_property
    def slots(self) -> list[Slot]:
        return [
            Slot(line=i, start=m.start(), end=m.end(), owner=self.owner[i], kind=_kind(m.group()))
            for i in self.keys
            for m in _TOKEN.finditer(self.lines[i], _KEY_LINE.match(self.lines[i]).end())  # type: ignore[union-attr]
        ]

    @staticmethod
    @functools.lru_cache(maxsize=8)
    def of(data: bytes) -> Doc:
        """The Doc of a base file, made once."""
        return Doc(data)

    def is_past(self, owner: int) -> bool:
        """The header and every event but the last are pinned by the digest that follows them."""
        return owner < self.events

    def pick_slot(self, d: Draws, kinds: str = "sib") -> Slot | None:
        """A slot of one of `kinds` (s string, i integer, b boolean): half the time in the last event."""
        slots = [s for s in self.slots if s.kind in kinds]
        last = [s for s in slots if s.owner == self.events and self.events]
        if last and d.index(2):
            return d.choice(last)  # type: ignore[no-any-return]
        return d.choice(slots) if slots else None


def _kind(token: str) -> str:
    return "s" if token.startswith('"') else "b" if token in ("true", "false") else "i"


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# -- mutations -------------------------------------------------------------------------------


@attrs.frozen
class Mutant:
    """A mutated file and what the loader must make of it.

    `expect`: None (read or refused, both fine), "refused", "unchanged" (read, the same record),
    "one fewer" (read, the record without its last event) or "stacked" (several mutations: read,
    refused, or refused as a fork, exit 5, when an event block was copied and then changed).
    """

    data: bytes
    what: str
    expect: str | None = None


Mutation = Callable[[Doc, Draws], Mutant]


def flip_bits(doc: Doc, d: Draws) -> Mutant:
    data = bytearray(_encode(doc.text))
    i, mask = d.index(len(data)), 1 + d.index(255)
    data[i] ^= mask
    return Mutant(bytes(data), f"byte {i} xor {mask:#04x}")


def set_byte(doc: Doc, d: Draws) -> Mutant:
    data = bytearray(_encode(doc.text))
    i, value = d.index(len(data)), d.index(256)
    if data[i] == value:
        value ^= 0x20
    data[i] = value
    return Mutant(bytes(data), f"byte {i} set to {value:#04x}")


def insert_bytes(doc: Doc, d: Draws) -> Mutant:
    data = _encode(doc.text)
    i = d.index(len(data) + 1)
    new = bytes(d.choice((d.index(256), *b" \n\t\"'#=[]{}.,0\r\\")) for _ in range(1 + d.index(3)))
    return Mutant(data[:i] + new + data[i:], f"{new!r} inserted at byte {i}")


def delete_bytes(doc: Doc, d: Draws) -> Mutant:
    data = _encode(doc.text)
    i = d.index(len(data))
    n = 1 + d.index(16)
    return Mutant(data[:i] + data[i + n :], f"{n} bytes deleted at byte {i}")


def cut_at_byte(doc: Doc, d: Draws) -> Mutant:
    data = _encode(doc.text)
    i = d.index(len(data))
    return Mutant(data[:i], f"cut after byte {i}")


def cut_at_line(doc: Doc, d: Draws) -> Mutant:
    k = d.index(len(doc.lines))
    return Mutant(_encode("".join(doc.lines[:k])), f"cut after line {k}")


def delete_line(doc: Doc, d: Draws) -> Mutant:
    k = d.index(len(doc.lines))
    return Mutant(_encode("".join(doc.lines[:k] + doc.lines[k + 1 :])), f"line {k + 1} deleted: {doc.lines[k]!r}")


def duplicate_line(doc: Doc, d: Draws) -> Mutant:
    k, to = d.index(len(doc.lines)), d.index(len(doc.lines) + 1)
    lines = [*doc.lines[:to], doc.lines[k], *doc.lines[to:]]
    return Mutant(_encode("".join(lines)), f"line {k + 1} {doc.lines[k]!r} copied before line {to + 1}")


BYTE_MUTATIONS: tuple[Mutation, ...] = (
    flip_bits,
    set_byte,
    insert_bytes,
    delete_bytes,
    cut_at_byte,
    cut_at_line,
    delete_line,
    duplicate_line,
)


def _strict_same(a: Any, b: Any) -> bool:
    """Equal and of the same type all the way down (1 is not 1.0 nor True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _replace(doc: Doc, slot: Slot, token: str, what: str, *, refused: bool = False) -> Mutant:
    """The file with the slot's token replaced. A different TOML value in the header or a past
    event must be refused, and a value that is not TOML any more (or that `refused` says no field
    takes) wherever it is."""
    old = doc.lines[slot.line]
    new = old[: slot.start] + token + old[slot.end :]
    lines = [*doc.lines]
    lines[slot.line] = new
    if refused:
        must = True
    else:
        try:
            before = tomllib.loads(f"v = {old[slot.start : slot.end]}")
            changed = not _strict_same(before, tomllib.loads(f"v = {token}"))
            must = changed and doc.is_past(slot.owner)
        except ValueError:  # not TOML (tomllib's own error is a ValueError)
            must = True
    where = "the header" if slot.owner == 0 else f"event #{slot.owner}"
    shown = repr(new) if len(new) < 200 else f"{new[:80]!r}...({len(new)} characters)"
    return Mutant(
        _encode("".join(lines)), f"{where}, line {slot.line + 1}: {what} -> {shown}", "refused" if must else None
    )


def _toml_string(value: str) -> str:
    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def change_number(doc: Doc, d: Draws) -> Mutant:
    slot = doc.pick_slot(d, "i")
    if slot is None:
        return flip_bits(doc, d)
    token = doc.lines[slot.line][slot.start : slot.end]
    old = int(token) if len(token) < 100 else None  # not one of extreme_value's
    new = d.integer()
    if new == old:
        new += 1
    return _replace(doc, slot, str(new), f"number {old} -> {new}")


def change_digit(doc: Doc, d: Draws) -> Mutant:
    """A digit inside any value: a seq, a card id, a digest, a date."""
    slot = doc.pick_slot(d)
    token = doc.lines[slot.line][slot.start : slot.end] if slot else ""
    digits = [i for i, c in enumerate(token) if c in "0123456789"]  # not "²": isdigit() says yes
    if slot is None or not digits:
        return change_name(doc, d)
    i = d.choice(digits)
    new = str((int(token[i]) + 1 + d.index(9)) % 10)
    return _replace(doc, slot, token[:i] + new + token[i + 1 :], f"digit {i} of {token}")


_NAMES = (
    "",
    "p1",
    "p2",
    "p3",
    "p4",
    "p5",
    "ann",
    "P1",
    "p1 ",
    *(g.value for g in Gem),
    "purple",
    "White",
    *DECKS[1][:3],
    *DECKS[2][:2],
    *DECKS[3][:2],
    "1-41",
    "0-01",
    "1-1",
    *sorted(NOBLES)[:4],
    "N99",
    "base",
    "tokens_taken",
    "card_reserved",
    "card_purchased",
    "turn_passed",
    "turn_undone",
    "game_started",
    "duel",
    "c3",
    "e5",
    "f6",
    "R1",
    "line_taken",
    "duel_card_bought",
    "0000000000000000",
    "1-01\n",  # line breaks, for the messages that quote a name
    "N0\u20281",
    "p1\r",
    "\x85",
)


def change_name(doc: Doc, d: Draws) -> Mutant:
    """A string value (a player, a card, a gem, a noble, a digest, the variant) set to another."""
    slot = doc.pick_slot(d, "s")
    if slot is None:
        return flip_bits(doc, d)
    token = doc.lines[slot.line][slot.start : slot.end]
    try:
        old = tomllib.loads(f"v = {token}")["v"]
    except tomllib.TOMLDecodeError:  # a control character put there by an earlier mutation
        old = token[1:-1]
    new = d.choice(_NAMES) if d.index(4) else d.text()
    if new == old:
        new += "x"
    return _replace(doc, slot, _toml_string(new), f"name {old!r} -> {new!r}")


_OTHER_TYPES = (
    "1",
    "-1",
    "1.0",
    "2.5",
    "inf",
    "nan",
    "true",
    "false",
    '""',
    '"1"',
    "'white'",
    '"""red"""',
    "0x1",
    "1_0",
    "+2",
    "[]",
    "[1]",
    '["white"]',
    "[[]]",
    "{}",
    "{ a = 1 }",
    "1979-05-27",
    "07:32:00",
    "1979-05-27T07:32:00Z",
)


def retype(doc: Doc, d: Draws) -> Mutant:
    """A value (or an item of an array) written as another TOML type, or the same in another way."""
    slot = doc.pick_slot(d)
    if slot is None:
        return flip_bits(doc, d)
    token = d.choice(_OTHER_TYPES)
    return _replace(doc, slot, token, f"value {doc.lines[slot.line][slot.start : slot.end]} -> {token}")


def extreme_value(doc: Doc, d: Draws) -> Mutant:
    """A value at tomllib's limits: an integer of 4300 to 5200 digits (int() stops at 4300), arrays
    or inline tables nested 100 to 1000 deep (Python's recursion stops at some hundreds), or a
    string of some thousand characters."""
    slot = doc.pick_slot(d)
    if slot is None:
        return flip_bits(doc, d)
    n = 100 + d.index(900)
    how = d.index(5)
    token = (
        "9" * (4200 + n),
        "-" + "1" * (4200 + n),
        "[" * n + "]" * n,
        "{a=" * n + "1" + "}" * n,
        f'"{"x" * 9 * n}"',
    )[how]
    what = f"value {doc.lines[slot.line][slot.start : slot.end]} -> {len(token)} characters"
    return _replace(doc, slot, token, what, refused=how < 4)  # no field takes a 4300-digit number nor a nest


VALUE_MUTATIONS: tuple[Mutation, ...] = (change_number, change_digit, change_name, change_name, retype, extreme_value)

_KEYS = sorted(
    {"type", "format", "game", "variant", "players", "created", "emails"}
    | {f.name for cls in EVENT_TYPES.values() for f in attrs.fields(cls)}
)


def rename_key(doc: Doc, d: Draws) -> Mutant:
    """Every key is required (or, for `emails`, must be spelt right): a renamed key is refused."""
    if not doc.keys:
        return flip_bits(doc, d)
    i = d.choice(doc.keys)
    old = _KEY_LINE.match(doc.lines[i]).group(1)  # type: ignore[union-attr]
    new = d.choice((*_KEYS, old + "s", old[:-1] or "x", old.upper(), "_" + old, "events"))
    if new == old:
        new += "_"
    lines = [*doc.lines]
    lines[i] = new + lines[i][len(old) :]
    return Mutant(_encode("".join(lines)), f"line {i + 1}: key {old!r} renamed {new!r}", "refused")


def _blocks(doc: Doc) -> tuple[str, list[str]]:
    head, *blocks = doc.text.split(_SEP)
    return head, blocks


def _join(head: str, blocks: list[str]) -> bytes:
    return _encode(head + "".join(_SEP + b for b in blocks))


def swap_blocks(doc: Doc, d: Draws) -> Mutant:
    head, blocks = _blocks(doc)
    if len(blocks) < 2:
        return delete_line(doc, d)
    i = d.index(len(blocks) - 1)
    j = i + 1 + d.index(len(blocks) - i - 1)
    blocks[i], blocks[j] = blocks[j], blocks[i]
    return Mutant(_join(head, blocks), f"events #{i + 1} and #{j + 1} swapped", "refused")


def duplicate_block(doc: Doc, d: Draws) -> Mutant:
    head, blocks = _blocks(doc)
    if not blocks:
        return delete_line(doc, d)
    i, to = d.index(len(blocks)), d.index(len(blocks) + 1)
    blocks.insert(to, blocks[i])
    return Mutant(_join(head, blocks), f"event #{i + 1} copied before #{to + 1}", "refused")


def move_block(doc: Doc, d: Draws) -> Mutant:
    head, blocks = _blocks(doc)
    if len(blocks) < 2:
        return delete_line(doc, d)
    i = d.index(len(blocks))
    to = (i + 1 + d.index(len(blocks) - 1)) % len(blocks)
    blocks.insert(to, blocks.pop(i))
    return Mutant(_join(head, blocks), f"event #{i + 1} moved to #{to + 1}", "refused")


def delete_block(doc: Doc, d: Draws) -> Mutant:
    """Only the last event can go (the game is then as it was before it); any other is missed."""
    head, blocks = _blocks(doc)
    if len(blocks) < 2:
        return delete_line(doc, d)
    i = d.index(len(blocks))
    last = i == len(blocks) - 1
    del blocks[i]
    return Mutant(_join(head, blocks), f"event #{i + 1} deleted", "one fewer" if last else "refused")


_HARMLESS = ("\n", "# edited by hand\n", "   \n", "\t# [[events]] seq = 1\n")


def harmless_edit(doc: Doc, d: Draws) -> Mutant:
    """Blank lines, comments, trailing blanks and CRLF line ends are not changes: read the same."""
    lines = [*doc.lines]
    how = d.index(3)
    if how == 0:
        k, extra = d.index(len(lines) + 1), d.choice(_HARMLESS)
        lines.insert(k, extra)
        what = f"{extra!r} inserted before line {k + 1}"
    elif how == 1:
        k, extra = d.index(len(lines)), d.choice((" ", "\t", "  # note", " #"))
        lines[k] = lines[k].rstrip("\n") + extra + "\n"
        what = f"{extra!r} appended to line {k + 1}"
    else:
        lines = [line.replace("\n", "\r\n") for line in lines]
        what = "CRLF line ends"
    return Mutant(_encode("".join(lines)), what, "unchanged")


STRUCTURE_MUTATIONS: tuple[Mutation, ...] = (
    rename_key,
    swap_blocks,
    duplicate_block,
    move_block,
    delete_block,
    harmless_edit,
)
ALL_MUTATIONS = BYTE_MUTATIONS + VALUE_MUTATIONS + STRUCTURE_MUTATIONS

# -- loading and judging ---------------------------------------------------------------------


class MemoryPath(type(Path())):  # type: ignore[misc]
    """A path whose bytes are held in memory: the file is read as `store.read` reads it
    (`store.from_bytes`), but for the disk, which on a slow one costs more than the load itself
    (writing and reading back 10,000 files)."""

    data = b""

    def read_bytes(self) -> bytes:
        return self.data


def judge(child: Child, base: Base, mutant: Mutant, path: Path | None = None) -> str:
    """The mutant loaded as the CLI loads it (from memory, or written to `path` first) and the
    properties checked, in the child process: "read", "refused" or "fork"."""
    where = None if path is None else str(path)
    verdict: str = child.call("test_fuzz", "judged", BASES.index(base), mutant.data, mutant.what, mutant.expect, where)
    return verdict


_MEMORY = MemoryPath("fuzzed.toml")


def judged(base: int, data: bytes, what: str, expect: str | None, path: str | None) -> str:
    """`_judge` of a mutant of BASES[base], called in the child process (plain values in and out)."""
    return _judge(BASES[base], Mutant(data, what, expect), _MEMORY if path is None else Path(path))


def _judge(base: Base, mutant: Mutant, path: Path) -> str:
    """Load the mutant as the CLI does and check the properties; "read" or "refused"."""
    if isinstance(path, MemoryPath):
        path.data = mutant.data
    else:
        path.write_bytes(mutant.data)
    try:
        loaded = store.from_bytes(path, path.data) if isinstance(path, MemoryPath) else store.read(path)
    except (GameFileError, ForkError) as exc:
        message = str(exc)
        assert len(message.splitlines()) == 1, f"{mutant.what}: a message of several lines: {message!r}"
        assert mutant.expect in (None, "refused", "stacked"), f"{mutant.what}: refused ({message})"
        if isinstance(exc, ForkError):  # two different events with one parent: only edits can make that
            assert mutant.expect == "stacked", f"{mutant.what}: refused as a fork ({message})"
            return "fork"
        return "refused"
    except Exception as exc:
        raise AssertionError(f"{mutant.what}: {type(exc).__name__} escaped the loader: {exc}") from exc
    record = loaded.record
    assert mutant.expect != "refused", f"{mutant.what}: read, but it must be refused"
    assert record.header == base.record.header, f"{mutant.what}: read with another header"
    n = len(record.events)
    assert 1 <= n <= len(base.record.events), f"{mutant.what}: read with {n} events"
    assert record.events[:-1] == base.record.events[: n - 1], f"{mutant.what}: a past event changed"
    if mutant.expect == "unchanged":
        assert record == base.record, f"{mutant.what}: read as another game"
    if mutant.expect == "one fewer":
        assert record.events == base.record.events[:-1], f"{mutant.what}: read as another game"
    return "read"


def fuzz(mutations: Sequence[Mutation], files: int, child: Child, stack: int = 1) -> None:
    """Feed the loader `files` mutated files, one per hypothesis example (`stack` > 1: 2 to `stack`
    mutations on each), and judge each. Each outcome and mutation is a hypothesis `event`:
    `--hypothesis-show-statistics` shows how they spread."""
    seen: set[bytes] = set()
    firsts = [(base, mutation) for base in BASES for mutation in mutations]

    @settings(
        max_examples=files,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(st.data())
    def run(data: st.DataObject) -> None:
        draws = HypothesisDraws(data)
        base, mutation = draws.pick(firsts)  # one draw for both: each draw costs hypothesis time
        mutant = Mutant(base.data, base.name)
        for i in range(1 if stack == 1 else draws.pick(range(2, stack + 1))):
            if not mutant.data:
                break  # nothing left to damage
            if i:
                mutation = draws.pick(mutations)
            step = mutation(Doc.of(base.data) if mutant.data is base.data else Doc(mutant.data), draws)
            mutant = attrs.evolve(step, what=f"{mutant.what}; {mutation.__name__}: {step.what}")
        if stack > 1:
            mutant = attrs.evolve(mutant, expect="stacked")  # only the general properties hold
        if mutant.data in seen:
            return  # the same file again (the loader is deterministic): counted once, loaded once
        note(mutant.what)
        hypothesis.event(f"{'first' if stack == 1 else 'last'} mutation: {mutation.__name__}")
        hypothesis.event(f"outcome: {judge(child, base, mutant)}")
        seen.add(mutant.data)  # only once judged: a failing file is judged again as hypothesis shrinks

    run()


def test_the_base_games_are_valid(child: Child) -> None:
    """Each base file reads back as the record it was written from, with 2 to 4 players and undos,
    and a Duel with a replenish among its steps."""
    for base in BASES:
        assert judge(child, base, Mutant(base.data, base.name, "unchanged")) == "read"
    assert sorted(len(b.record.header.players) for b in BASES) == [2, 2, 2, 3, 4]
    assert all(any(e.TYPE == "turn_undone" for e in b.record.events) for b in (*BASES[:3], BASES[-1]))
    assert BASES[-1].record.header.variant == "duel"
    assert any(e.TYPE == "board_replenished" for e in BASES[-1].record.events)


@pytest.mark.parametrize(
    "mutations",
    [BYTE_MUTATIONS, VALUE_MUTATIONS, STRUCTURE_MUTATIONS],
    ids=["bytes-and-lines", "numbers-and-names", "keys-and-events"],
)
def test_a_seeded_sweep_of_each_kind_of_damage_reads_some_files_and_refuses_others(
    child: Child, mutations: tuple[Mutation, ...]
) -> None:
    """Each mutation of the kind, 6 times on each base game, drawn by one seeded `random.Random`
    (the same files on every run): every file is judged (read or refused in one line as it must
    be), and some are read and some refused: the loader neither refuses every damaged file nor
    lets every one through."""
    draws = RandomDraws(random.Random(20261203))
    outcomes: Counter[str] = Counter()
    for base in BASES:
        for mutation in mutations:
            for _ in range(6):
                mutant = mutation(Doc.of(base.data), draws)
                outcomes[judge(child, base, attrs.evolve(mutant, what=f"{base.name}; {mutant.what}"))] += 1
    assert outcomes["read"] > 0 and outcomes["refused"] > 0, outcomes


@pytest.mark.slow
def test_damaged_bytes_and_lines_are_read_or_refused_in_one_line(child: Child) -> None:
    """Bytes flipped, set, inserted or deleted, the file cut at a byte or a line, lines deleted or
    copied: every file is read or refused with one line, and a file read keeps every past event."""
    fuzz(BYTE_MUTATIONS, examples(84), child)  # dev: 1,260 files; ci: 8,400


@pytest.mark.slow
def test_changed_numbers_and_names_in_past_events_are_refused(child: Child) -> None:
    """A number, a digit, a name or a value's type changed in the header or a past event is refused;
    in the last event it is judged by the rules: read or refused in one line, never a crash."""
    fuzz(VALUE_MUTATIONS, examples(60), child)  # dev: 900 files; ci: 6,000


@pytest.mark.slow
def test_renamed_keys_and_moved_events_are_refused(child: Child) -> None:
    """A key renamed, an event block swapped, copied, moved or deleted is refused (but for the
    last event deleted: the game before it); blank lines, comments and CRLF change nothing."""
    fuzz(STRUCTURE_MUTATIONS, examples(32), child)  # dev: 480 files; ci: 3,200 (few blocks to move)


@pytest.mark.slow
def test_stacked_mutations_are_read_or_refused_in_one_line(child: Child) -> None:
    """Two to four mutations of any kind on one file: read or refused in one line, and a file read
    has the original header and past events."""
    fuzz(ALL_MUTATIONS, examples(80), child, stack=4)  # dev: 1,200 files; ci: 8,000


def test_the_cli_exits_0_or_4_with_one_line_on_mutated_files(tmp_path: Path, child: Child) -> None:
    """`splendor state -g FILE --json` on 50 mutated files: exit 0 with the JSON state, or exit 4
    with one JSON line on stderr (the error's code, exit and message); never a traceback, and the
    same verdict as `store.read`."""
    runner = CliRunner()
    rng = random.Random(20261202)
    draws = RandomDraws(rng)
    path = tmp_path / "game.toml"
    codes: Counter[int] = Counter()
    for i in range(50):
        base = BASES[i % len(BASES)]
        mutation = ALL_MUTATIONS[i % len(ALL_MUTATIONS)]
        mutant = mutation(Doc.of(base.data), draws)
        verdict = judge(child, base, mutant, path)
        result = runner.invoke(app, ["state", "-g", str(path), "--json"])
        what = f"{base.name}; {mutation.__name__}: {mutant.what}"
        assert "Traceback" not in result.stdout + result.stderr, what
        assert result.exit_code == (0 if verdict == "read" else 4), (what, result.exit_code, result.stderr)
        if result.exit_code == 0:
            assert result.stderr == "" and json.loads(result.stdout)["seq"] >= 1, what
        else:
            assert result.stdout == "" and len(result.stderr.splitlines()) == 1, (what, result.stderr)
            error = json.loads(result.stderr)["error"]
            assert error["code"] == "bad-game-file" and error["exit"] == 4, (what, error)
            assert str(path) in error["message"], (what, error)
        codes[result.exit_code] += 1
    assert codes[0] > 0 and codes[4] > 0, codes
