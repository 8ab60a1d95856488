"""The setup of a sealed game at the command line: a stacked deck refused at once; a forked
setup (two players shuffle from the same copy at the same moment).

`resolve` keeps one side and says what happens to the other's shuffle (its player shuffles again
from the decks kept: bound to its new input, the new shuffle shares nothing with the dropped one,
crypto/shuffle.py); the player's machine then shuffles again. But a machine never shuffles in a
copy that is behind a shuffle it wrote (that would fork the game again): exit 3, saying to sync.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import attrs
import pytest
from app.test_sealed_cli import machines

from splendor_cli.sharing.gitmerge import merge

pytestmark = pytest.mark.slow  # slow tier: sealed games made through the command line; CI runs every tier


def test_a_forked_setup_is_resolved_and_the_dropped_player_shuffles_again(tmp_path: Path) -> None:
    ann, bob, cy = (m.key() for m in machines(tmp_path, "ann", "bob", "cy"))
    path = tmp_path / "sealed.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob,cy", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    bob.ok("seal", "-g", path, "--as", "bob")
    cy.ok("seal", "-g", path, "--as", "cy")  # joins, then shuffles first (everyone has joined)
    base = path.read_bytes()
    mine, theirs = tmp_path / "ann.toml", tmp_path / "bob.toml"
    shutil.copy(path, mine)
    shutil.copy(path, theirs)
    ann.ok("seal", "-g", mine)  # ann and bob shuffle the decks cy left, each in their own copy
    bob.ok("seal", "-g", theirs)
    merged = merge(base, mine.read_bytes(), theirs.read_bytes())
    assert merged.conflict
    path.write_bytes(merged.data)
    said = ann.ok("resolve", "-g", path, "--keep", "ann")
    assert "bob's shuffle (#6) is dropped: bob shuffles again from the decks kept" in said
    assert "waiting for bob to shuffle the sealed decks" in said
    # bob's machine wrote a shuffle as #6, but this copy holds ann's there: he shuffles again.
    bob.ok("seal", "-g", path)
    for machine in (cy, ann, bob, cy):
        machine.ok("seal", "-g", path)
    report = json.loads(ann.ok("verify", "-g", path, "--json"))
    assert report["ok"] and report["events"] > 10
    assert "ann to move" in ann.ok("seal", "-g", path)


def test_a_copy_behind_your_own_shuffle_is_not_shuffled_again(tmp_path: Path) -> None:
    ann, bob = (m.key() for m in machines(tmp_path, "ann", "bob"))
    path = tmp_path / "sealed.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    older = tmp_path / "older.toml"
    shutil.copy(path, older)
    bob.ok("seal", "-g", path, "--as", "bob")  # joins and shuffles (#4)
    before = older.read_bytes()
    done = bob("seal", "-g", older, "--as", "bob")  # the join would do, the shuffle would fork the game
    assert done.code == 3, done
    assert older.read_bytes() == before
    assert "bob shuffled this game's decks as event #4, and this copy ends at #3: it is behind" in done.err


def test_a_stacked_deck_written_with_the_python_api_is_exit_4_at_once(tmp_path: Path) -> None:
    """The issue's first cheat, as a player would make it: bob, shuffling last, writes fresh
    encryptions under the joint key of an order he chose (the proofs of his honest shuffle
    copied), signs the event with his own key, and appends it. Every command refuses the file at
    once (`show`, `verify`), exit 4 naming bob, before any card is dealt."""
    from projection.test_sealing import _stacked
    from sealed_helpers import Table

    from splendor_cli.events.codec import format_record

    table = Table.new("base", 2, 51)
    table.join()
    table.add(table.duties("ann")[0], "ann")
    stacked = table.signed(_stacked(table, "bob"), "bob")
    path = tmp_path / "stacked.toml"
    path.write_text(format_record(attrs.evolve(table.record, events=(*table.record.events, stacked))), encoding="utf-8")
    (viewer,) = machines(tmp_path, "eve")
    for command in (("show",), ("verify",), ("state", "--json")):
        done = viewer(*command, "-g", path)
        assert done.code == 4, (command, done)
        assert f"event #{stacked.seq}: bob's shuffle of deck 1 fails its proof" in done.err, done.err
