"""The memory of seen games: a copy that rewrites an earlier turn and recomputes the whole chain
reads and verifies on its own, but not where its earlier events were seen (as SSH's known hosts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

from splendor_cli import store
from splendor_cli.events.codec import Record, chained, format_record


@pytest.fixture(autouse=True)
def memory_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPLENDOR_NO_MEMORY")


def _rewritten(path: Path) -> bytes:
    """The file with its first turn replaced by another legal one, every parent recomputed."""
    import attrs

    loaded = store.read(path)
    first = loaded.record.events[1]
    forged = attrs.evolve(first, gems=("red", "red")) if hasattr(first, "gems") else first
    events: list[object] = [loaded.record.events[0]]
    record = Record(header=loaded.record.header, events=())
    record = attrs.evolve(record, events=(chained(record, events[0]),))  # type: ignore[arg-type]
    record = attrs.evolve(record, events=(*record.events, chained(record, forged)))
    return format_record(record).encode()


def test_a_recomputed_chain_is_refused_where_the_game_was_seen(tmp_path: Path) -> None:
    """Alice saw ann's first turn; a copy where it is another turn, its chain recomputed, reads
    well on its own (verify of a fresh eye passes) but Alice's splendor refuses it (exit 4),
    naming the first event that differs, and leaves it as it is."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    assert cli("state", "-g", path, "--json")[0] == 0  # seen
    forged = _rewritten(path)
    path.write_bytes(forged)
    store.read(path)  # a valid file on its own: only memory can tell
    code, _, err = cli("state", "-g", path)
    assert code == 4 and "event #2 is not the event #2 you saw" in err and err.count("\n") == 1
    code, _, err = cli("take", "black", "black", "-g", path)
    assert code == 4 and path.read_bytes() == forged
    assert cli("forget", "-g", path)[0] == 0  # all the players agree to this copy
    assert cli("state", "-g", path, "--json")[0] == 0


def test_a_copy_with_events_removed_is_refused(tmp_path: Path) -> None:
    """A copy that stops before the last event seen, and agrees with what was seen up to there:
    behind, not tampered (exit 3, rule `behind`; test_stale.py)."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    before = path.read_bytes()
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    path.write_bytes(before)
    code, _, err = cli("state", "-g", path)
    assert code == 3 and "this copy is behind" in err


def test_extending_a_seen_game_is_fine_and_remembered(tmp_path: Path) -> None:
    """Moves appended by others (a newer copy) extend what was seen: taken, and remembered."""
    path, other = tmp_path / "g.toml", tmp_path / "other.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    other.write_bytes(path.read_bytes())
    assert cli("take", "white", "blue", "green", "-g", other)[0] == 0
    assert cli("take", "red", "red", "-g", other)[0] == 0
    path.write_bytes(other.read_bytes())
    assert cli("state", "-g", path, "--json")[0] == 0


def _forged_turn(path: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """The file with its first turn replaced by another legal one whose digest, a 64-bit
    collision (monkeypatched), has the 16 hex digits of the first: the parents after it are the
    file's own, and the chain still links."""
    import attrs
    from app.test_verified_prefix import collide

    record = store.read(path).record
    first = record.events[1]
    forged = attrs.evolve(first, gems=("green", "red", "black"))
    assert forged != first
    collide(monkeypatch, forged, first)
    return format_record(attrs.evolve(record, events=(record.events[0], forged, *record.events[2:]))).encode()


def test_a_rewritten_turn_is_refused_even_when_the_short_digests_collide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memory keeps each event's full SHA-256: a turn swapped for another with the same
    16-digit digest (the chain's link, a 64-bit collision a player can find) is refused."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    assert cli("take", "white", "blue", "red", "-g", path)[0] == 0
    assert cli("state", "-g", path, "--json")[0] == 0  # seen
    forged = _forged_turn(path, monkeypatch)
    path.write_bytes(forged)
    store.read(path)  # the chain links: only the full digests tell
    code, _, err = cli("state", "-g", path)
    assert code == 4 and "event #2 is not the event #2 you saw" in err, err


def _known(path: Path) -> Path:
    from splendor_cli.app.services.folders import memory_folder
    from splendor_cli.gate import Seen

    file = Seen(memory_folder()).file(store.read(path).record.header.game)
    assert file is not None
    return Path(file)


def test_a_memory_of_short_digests_still_defends_and_is_rewritten_full(tmp_path: Path) -> None:
    """A memory written by an earlier release (16 hex digits an event) is read: its entries are
    compared on their 16 digits (a rewritten copy is still refused), and the next read that
    extends it writes it again with full digests."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    assert cli("take", "white", "blue", "green", "-g", path)[0] == 0
    known = _known(path)
    record = store.read(path).record
    known.parent.mkdir(parents=True, exist_ok=True)
    known.write_text("".join(f"{d}\n" for d in [e.parent for e in record.events[1:]] + [record.head]))
    honest = path.read_bytes()
    path.write_bytes(_rewritten(path))
    code, _, err = cli("state", "-g", path)
    assert code == 4 and "event #2 is not the event #2 you saw" in err
    path.write_bytes(honest)
    assert cli("state", "-g", path, "--json")[0] == 0
    lines = known.read_text().split()
    assert len(lines) == 2 and all(len(line) == 64 for line in lines)
    assert [line[:16] for line in lines] == [record.events[1].parent, record.head]


def test_a_relayed_turn_seen_gives_way_to_its_seats_own_or_to_itself_and_to_nothing_else(tmp_path: Path) -> None:
    """A turn played for ann by bob (`--for ann`) and seen here gives way to ann's own turn there,
    or to the same move typed by another (issue 32: the rule chooses, every clone agrees); never
    to another move relayed for her: that is a rewritten turn (exit 4)."""
    base = tmp_path / "base.toml"
    assert cli("new", "-g", base, "--players", "ann,bob,cy", "--seed", 1)[0] == 0
    own = ("take", "white", "blue", "green")
    relayed, other = ("play", "--for", "ann", *own), ("play", "--for", "ann", "take", "red", "black", "green")
    cases = [
        (relayed, own, "bob", "ann", True),
        (relayed, relayed, "bob", "cy", True),
        (relayed, other, "bob", "cy", False),
    ]
    for n, (seen, copy, seen_by, copy_by, taken) in enumerate(cases):
        memory = {"XDG_DATA_HOME": str(tmp_path / f"data-{n}")}
        path, theirs = tmp_path / f"g{n}.toml", tmp_path / f"theirs{n}.toml"
        elsewhere = {"XDG_DATA_HOME": str(tmp_path / f"elsewhere-{n}")}  # another player's machine
        for target, args, who, where in ((path, seen, seen_by, memory), (theirs, copy, copy_by, elsewhere)):
            target.write_bytes(base.read_bytes())
            code, _, err = cli(*args, "-g", target, env={**where, "SPLENDOR_PLAYER": who})
            assert code == 0, err
        path.write_bytes(theirs.read_bytes())  # the copy that came in over what was seen
        code, _, err = cli("state", "-g", path, "--json", env=memory)
        assert (code == 0) == taken, (n, code, err)
        if not taken:
            assert code == 4 and "event #2 is not the event #2 you saw" in err
            continue
        code, _, err = cli("take", "red", "red", "-g", path, env={**memory, "SPLENDOR_PLAYER": "bob"})
        assert code == 0, err  # remembered as it is now: it goes on
