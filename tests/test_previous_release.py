"""Game files written by the previous release (commit a00b2cc, before the restructuring) still read,
verify and mean what they meant: tests/fixtures/previous-release/ (how they were made: its README).

Every fixture is read by `store.read` and passes `splendor verify`; `state --json` and
`log --json` print what the previous release printed for it (expected/, captured with that
release); nothing touches the fixture's bytes. And the current code, given the same commands for a
base game with a fixed seed, writes the same file but for what a new game draws afresh (its id,
its creation time, and so each event's parent digest).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import ROOT, cli

from splendor_cli import store

FIXTURES = ROOT / "tests" / "fixtures" / "previous-release"
EXPECTED = FIXTURES / "expected"
FILES = sorted(FIXTURES.glob("*.toml"))
WAITING = "commit-waiting"
"""The commit-then-reveal game still waiting for two reveals: nothing dealt, no state to print."""


def test_the_fixtures_are_all_there() -> None:
    """Base games of 2, 3 and 4 players (e-mails, undos, commit-then-reveal dealt or waiting) and Duels."""
    assert [path.stem for path in FILES] == [
        "base-2p",
        "base-4p",
        "base-emails",
        "commit-dealt",
        "commit-waiting",
        "duel-commit",
        "duel",
    ]
    text = {path.stem: path.read_text(encoding="utf-8") for path in FILES}
    assert 'type = "turn_undone"' in text["base-2p"] and "forced = true" in text["base-2p"]
    assert 'players = ["ann", "bob", "cat", "dan"]' in text["base-4p"]
    assert 'emails = ["alice@example.org", "bob@example.org"]' in text["base-emails"]
    assert all(text[name].count('type = "seed_revealed"') == 2 for name in ("commit-dealt", "duel-commit"))
    assert text[WAITING].count('type = "seed_revealed"') == 1 and 'type = "game_started"' not in text[WAITING]
    assert 'type = "board_replenished"' in text["duel"] and 'type = "turn_undone"' in text["duel"]


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_each_fixture_reads(path: Path) -> None:
    """`store.read` takes the file as it is: the whole chain, every event replayed by the rules."""
    before = path.read_bytes()
    loaded = store.read(path)
    assert loaded.data == before and len(loaded.record.events) == before.count(b"\n[[events]]\n")
    assert path.read_bytes() == before


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_each_fixture_verifies(path: Path) -> None:
    """`splendor verify -g FILE` exits 0 with its report, and leaves the file byte for byte."""
    before = path.read_bytes()
    code, out, err = cli("verify", "-g", path)
    assert code == 0, err
    assert out.startswith(f"{path}: ok (format 1)\n") and err == ""
    if path.stem == WAITING:  # a deal under way is reported, not refused
        assert "the deal is under way: waiting for" in out and "reveal" in out
    assert path.read_bytes() == before


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
@pytest.mark.parametrize("view", ["state", "log"])
def test_each_fixture_prints_what_the_previous_release_printed(path: Path, view: str) -> None:
    """`state --json` and `log --json`, as the previous release printed them for the same file
    (`state` of the waiting game: exit 3, nothing dealt yet, as it was)."""
    before = path.read_bytes()
    code, out, err = cli(view, "-g", path, "--json")
    expected = EXPECTED / f"{path.stem}.{view}.json"
    if view == "state" and path.stem == WAITING:
        assert not expected.exists()
        assert code == 3 and "the cards are not dealt yet" in err and out == ""
    else:
        assert code == 0, err
        printed = json.loads(out)
        if view == "state":  # the keys added since, which the contract allows
            assert printed.pop("current_turn") == (None if printed["finished"] else printed["turn"] + 1)
            # each player's blind reserves face down but to them (a placeholder): each as they see it
            for k, player in enumerate(printed["players"]):
                hidden = [card for card in player["reserved_blind"] if "?" in card]
                assert hidden == player["reserved_blind"]
                if hidden:
                    code, mine, err = cli(view, "-g", path, "--json", "--as", player["name"])
                    assert code == 0, err
                    printed["players"][k] = json.loads(mine)["players"][k]
        assert printed == json.loads(expected.read_text(encoding="utf-8"))
    assert path.read_bytes() == before


# -- the same commands, the same file -----------------------------------------------------------

SAME_COMMANDS = {
    "base-2p": (
        ("new", "--players", "ann,bob", "--seed", "1"),
        ("play", "take blue green red"),
        ("play", "take white red black"),
        ("play", "take white blue black"),
        ("play", "reserve 2-21"),
        ("play", "buy 1-02"),
        ("play", "take blue green black"),
        ("undo", "--as", "bob"),
        ("play", "take green green"),
        ("play", "reserve deck 1"),
        ("undo", "--as", "bob", "--to", "6", "--force"),
        ("play", "take blue green black"),
    ),
    "base-4p": (
        ("new", "--players", "ann,bob,cat,dan", "--seed", "2"),
        ("play", "take white blue green"),
        ("play", "take red black white"),
        ("play", "take blue blue"),
        ("play", "take green red black"),
        ("play", "reserve deck 2"),
        ("play", "take white green red"),
        ("play", "take white blue red"),
        ("play", "take white blue black"),
        ("play", "buy 1-27 pay white blue green gold"),
        ("play", "buy 1-28"),
        ("play", "take white blue green"),
        ("play", "take white blue red"),
    ),
    "base-emails": (
        ("new", "--players", "alice=alice@example.org,bob=bob@example.org", "--seed", "3"),
        ("play", "take white blue green"),
        ("play", "take red red"),
        ("play", "reserve 1-06"),
    ),
}
"""The commands that wrote these fixtures (with the previous release, in this order)."""

_DRAWN_AFRESH = re.compile(r'^(game|created|parent) = "[^"]*"$', re.MULTILINE)


def _without_what_is_drawn_afresh(data: bytes) -> str:
    return _DRAWN_AFRESH.sub(r'\1 = "..."', data.decode("utf-8"))


@pytest.mark.parametrize("name", sorted(SAME_COMMANDS))
def test_the_same_commands_write_the_same_file(tmp_path: Path, name: str) -> None:
    """The current code, given the commands that wrote the fixture, writes the same bytes but for
    the game's id and creation time (and so the parent digests that chain from the header)."""
    path = tmp_path / f"{name}.toml"
    for command, *args in SAME_COMMANDS[name]:
        code, _, err = cli(command, "-g", path, *args)
        assert code == 0, (command, args, err)
    fixture = (FIXTURES / f"{name}.toml").read_bytes()
    written = path.read_bytes()
    assert len(_DRAWN_AFRESH.findall(written.decode())) == 2 + fixture.decode().count("[[events]]")
    assert _without_what_is_drawn_afresh(written) == _without_what_is_drawn_afresh(fixture)
