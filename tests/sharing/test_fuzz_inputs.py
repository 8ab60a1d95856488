"""The fuzz tier for what comes from other players besides game files: mail blocks (`apply`) and
the three inputs of the merge driver. Whatever the damage, the answer is a result or one
SplendorError of one line (exit 2 to 5), never a crash, never a hang, and nothing invalid is
ever kept (like tests/test_fuzz.py does for game files). Hypothesis damages the inputs here; each
is applied or merged in a child process (tests/child.py), so that one that never returns fails
the test (which waits PATIENCE seconds in all), with no clock on any one input."""

from __future__ import annotations

import random

import pytest
from child import Child
from helpers import BASE, DUEL, deal, deal_duel, examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from splendor_cli import store
from splendor_cli.errors import SplendorError
from splendor_cli.events.codec import Header, Record, chained, format_record
from splendor_cli.forks import split_fork
from splendor_cli.projection import Game
from splendor_cli.sharing import gitmerge, inbox, mail

pytestmark = pytest.mark.slow


def _record(variant: str, moves: int, seed: int) -> Record:
    """A game of `moves` random legal moves, as its file holds it."""
    game_of = BASE if variant == "base" else DUEL
    rng = random.Random(seed)
    setup = deal(("ann", "bob"), rng) if variant == "base" else deal_duel(("ann", "bob"), rng)
    header = Header(game=f"fuzz-{variant}", variant=variant, players=("ann", "bob"), created="2026-12-03T00:00:00Z")
    record = Record(header=header, events=())
    record = Record(header=header, events=(chained(record, setup),))
    game = Game(variant=game_of).apply(record.events[0])
    for _ in range(moves):
        if game.table.finished:
            break
        event = chained(record, game.decide(game_of.random_move(game.state, rng)))
        game = game.apply(event)
        record = Record(header=header, events=(*record.events, event))
    return record


RECORDS = {variant: _record(variant, 12, seed) for variant, seed in (("base", 3), ("duel", 4))}


def _mutate(text: str, data: st.DataObject) -> str:
    """One damage of a few kinds to a text: bytes flipped, lines dropped, doubled, swapped,
    re-indented or quoted, a value changed, garbage inserted, a cut."""
    lines = text.split("\n")
    kind = data.draw(st.sampled_from(["char", "drop", "double", "swap", "value", "insert", "cut", "quote"]))
    at = data.draw(st.integers(0, max(0, len(lines) - 1)))
    if kind == "char" and lines[at]:
        i = data.draw(st.integers(0, len(lines[at]) - 1))
        lines[at] = lines[at][:i] + data.draw(st.characters()) + lines[at][i + 1 :]
    elif kind == "drop":
        del lines[at]
    elif kind == "double":
        lines.insert(at, lines[at])
    elif kind == "swap" and at + 1 < len(lines):
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    elif kind == "value" and " = " in lines[at]:
        key = lines[at].split(" = ")[0]
        value = data.draw(
            st.sampled_from(['""', "0", "-1", "true", "[]", '["red"]', "9" * 5000, "[" * 3000 + "]" * 3000])
        )
        lines[at] = f"{key} = {value}"
    elif kind == "insert":
        lines.insert(at, data.draw(st.text(max_size=200)))
    elif kind == "cut":
        return "\n".join(lines[:at])
    elif kind == "quote":
        lines = [("> " + line) if i >= at else line for i, line in enumerate(lines)]
    return "\n".join(lines)


_SETTINGS = settings(
    max_examples=examples(4),
    # the child process is one for the module, its clock started once for the whole test
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@_SETTINGS
@given(variant=st.sampled_from(sorted(RECORDS)), last=st.integers(1, 4), data=st.data())
def test_a_damaged_mail_block_is_applied_whole_or_refused_in_one_line(
    child: Child, variant: str, last: int, data: st.DataObject
) -> None:
    """A block of the last moves, damaged on the way: either found and applied to the copy that
    lacks those moves (every event legal: the result replays), or one SplendorError."""
    text = _mutate(mail.export_text(RECORDS[variant], last), data)
    event(child.call("sharing.test_fuzz_inputs", "apply_block", variant, last, text))


def apply_block(variant: str, last: int, text: str) -> str:
    """In the child process: the damaged block applied to the copy without the last moves; what came of it."""
    record = RECORDS[variant]
    game_of = BASE if variant == "base" else DUEL
    before = Record(header=record.header, events=record.events[:-last])
    game = Game(variant=game_of)
    for known in before.events:
        game = game.apply(known)
    try:
        blocks = mail.find_blocks(text, game_of)
        outcome = inbox.apply_blocks(before, game, blocks)
    except SplendorError as exc:
        assert 2 <= exc.exit_code <= 5 and "\n" not in str(exc) and len(str(exc)) < 1000
        return f"refused, exit {exc.exit_code}"
    after = Record(header=record.header, events=(*before.events, *outcome.events))
    store.from_bytes("merged.toml", format_record(after).encode())  # what would be written reads back
    return "applied" if outcome.events else "nothing to apply"


@_SETTINGS
@given(variant=st.sampled_from(sorted(RECORDS)), side=st.sampled_from(["ours", "theirs", "base"]), data=st.data())
def test_a_damaged_merge_input_never_yields_an_invalid_game(
    child: Child, variant: str, side: str, data: st.DataObject
) -> None:
    """The merge driver on a damaged input (ours, theirs or the ancestor): a clean merge is a
    game that reads; a conflict leaves ours as it was or writes a forked file; never a crash."""
    record = RECORDS[variant]
    full = format_record(record)
    short = format_record(Record(header=record.header, events=record.events[:-3]))
    inputs = {
        "base": short,
        "ours": format_record(Record(header=record.header, events=record.events[:-1])),
        "theirs": full,
    }
    inputs[side] = _mutate(inputs[side], data)
    raw = {name: text.encode("utf-8", "surrogatepass") for name, text in inputs.items()}
    event(child.call("sharing.test_fuzz_inputs", "merge", raw["base"], raw["ours"], raw["theirs"]))


def merge(base: bytes, ours: bytes, theirs: bytes) -> str:
    """In the child process: the merge driver on the three inputs, its result checked; what came of it."""
    result = gitmerge.merge(base, ours, theirs)
    assert "\n" not in result.message and len(result.message) < 2000
    if not result.conflict:
        store.from_bytes("merged.toml", result.data)
    elif result.data != ours:
        assert split_fork(result.data) is not None
    return "conflict" if result.conflict else "merged"


def test_the_fuzz_bases_are_valid() -> None:
    """The records the fuzz damages read and replay as they are (so the damage is the only fault)."""
    for record in RECORDS.values():
        store.from_bytes("game.toml", format_record(record).encode())
        assert mail.find_blocks(mail.export_text(record, 2), BASE if record.header.variant == "base" else DUEL)
