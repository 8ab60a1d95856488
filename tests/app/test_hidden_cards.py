"""Blind reserves are face down on every board but their owner's: the terminal board, the SVG,
the replay page and `state --json`, whoever asks (`--as`, $SPLENDOR_PLAYER, the one person of a
game against bots, else a spectator); `--all` turns them face up once it spoils nothing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, cli, deal

from splendor_cli import store
from splendor_cli.events.codec import Header

PLACEHOLDER = re.compile(r"[1-3]\?[0-9]{2}")
CREATED = "2026-01-01T00:00:00Z"


def _ok(*args: object, env: dict[str, str] | None = None) -> str:
    code, out, err = cli(*args, env=env)
    assert code == 0, err
    return out


def _reserved(out: str, name: str) -> tuple[list[str], list[str]]:
    state: dict[str, Any] = json.loads(out)
    (player,) = (p for p in state["players"] if p["name"] == name)
    return player["reserved"], player["reserved_blind"]


def _blind_card(path: Path, name: str) -> str:
    """The card `name` reserved blind, as their own view shows it."""
    (card,), _ = _reserved(_ok("state", "-g", path, "--json", "--as", name), name)
    assert not PLACEHOLDER.fullmatch(card)
    return card


@pytest.fixture
def open_game(tmp_path: Path) -> tuple[Path, str]:
    """An open game of two people where ann reserved blind from deck 2: the file, her card."""
    path = tmp_path / "g.toml"
    _ok("new", "-g", path, "--players", "ann,bob", "--seed", 3)
    _ok("play", "-g", path, "reserve", "deck", "2")
    return path, _blind_card(path, "ann")


def test_the_terminal_board_hides_blind_reserves_but_from_their_owner(open_game: tuple[Path, str]) -> None:
    """`show` without a viewer is a spectator's: ann's blind card face down (`? level 2`), its id
    nowhere; `--as bob` the same; `--as ann` and $SPLENDOR_PLAYER=ann show it."""
    path, card = open_game
    for args, env in (((), None), (("--as", "bob"), None), ((), {"SPLENDOR_PLAYER": "bob"})):
        shown = _ok("show", "-g", path, "--color", "never", *args, env=env)
        assert "? level 2" in shown and "(blind)" in shown and card not in shown
    assert card in _ok("show", "-g", path, "--as", "ann")
    assert card in _ok("show", "-g", path, env={"SPLENDOR_PLAYER": "ann"})
    assert card not in _ok("show", "-g", path, env={"SPLENDOR_PLAYER": "zed"})  # not a player here: a spectator


def test_state_json_shows_a_hidden_card_as_its_placeholder(open_game: tuple[Path, str]) -> None:
    """`state --json` (and `show --json`, `--at`) without a viewer: ann's blind reserve is a
    placeholder `L?NN`, as a sealed game's, in `reserved` and `reserved_blind` alike; `--as ann`
    gives its id; every other key is as before."""
    path, card = open_game
    for args in ((), ("--at", "2"), ("--as", "bob")):
        for command in ("state", "show"):
            out = _ok(command, "-g", path, "--json", *args)
            reserved, blind = _reserved(out, "ann")
            assert reserved == blind and PLACEHOLDER.fullmatch(reserved[0]) and reserved[0][0] == "2"
            assert card not in out
    assert _reserved(_ok("state", "-g", path, "--json", "--as", "ann"), "ann") == ([card], [card])
    assert _ok("state", "-g", path, "--json") == _ok("state", "-g", path, "--json")  # cached: the same


def test_the_svg_and_the_replay_hide_it_too(open_game: tuple[Path, str], tmp_path: Path) -> None:
    """`show --svg` and `replay --html`: the card's id is in no picture but ann's."""
    path, card = open_game
    assert f"card-{card}" not in _ok("show", "-g", path, "--svg")
    assert f"card-{card}" in _ok("show", "-g", path, "--svg", "--as", "ann")
    page = tmp_path / "g.html"
    _ok("replay", "-g", path, "-o", page)
    assert card not in page.read_text()
    _ok("replay", "-g", path, "-o", page, "--as", "ann")
    assert card in page.read_text()


def test_all_is_refused_while_people_play(open_game: tuple[Path, str]) -> None:
    """`--all` would spoil a game under way between people: exit 2, one line, for every board."""
    path, _ = open_game
    for args in (("show",), ("state", "--json"), ("show", "--svg"), ("replay", "-o", "-")):
        code, out, err = cli(*args, "-g", path, "--all")
        assert code == 2 and "--all" in err and err.count("\n") == 1 and out == ""


def test_against_bots_the_person_sees_their_own_and_not_the_bots(tmp_path: Path) -> None:
    """Alone against a bot that reserved blind: the default view is the one person's (their own
    blind reserve face up, the bot's face down); `--all` shows the bot's (a game against bots)."""
    path = tmp_path / "b.toml"
    header = Header(game="against-a-bot-5", variant="base", players=("ann", "bot:random"), created=CREATED)
    store.create(path, header, deal(header.players, random.Random(5)))  # a file whose bot reserves blind
    played = _ok("play", "-g", path, "--bots", "reserve", "deck", "1")
    assert "#3 bot:random: reserve deck 3" in played
    mine, bots = _blind_card(path, "ann"), _blind_card(path, "bot:random")
    for args in (("show",), ("show", "--svg"), ("state", "--json")):
        shown = _ok(*args, "-g", path)
        assert mine in shown and bots not in shown, args
    for args in (("show",), ("show", "--svg"), ("state", "--json")):
        shown = _ok(*args, "-g", path, "--all")
        assert mine in shown and bots in shown, args


def test_a_finished_game_may_be_reviewed_with_all() -> None:
    """The sample game is over: `--all` shows every blind reserve; without it a spectator's
    board still hides them."""
    sample = ROOT / "games" / "sample-3p.toml"
    everything = json.loads(_ok("state", "-g", sample, "--json", "--all"))
    spectator = json.loads(_ok("state", "-g", sample, "--json"))
    blind = [c for p in everything["players"] for c in p["reserved_blind"]]
    hidden = [c for p in spectator["players"] for c in p["reserved_blind"]]
    assert blind and not any(PLACEHOLDER.fullmatch(c) for c in blind)
    assert len(hidden) == len(blind) and all(PLACEHOLDER.fullmatch(c) for c in hidden)
    assert all(c in _ok("show", "-g", sample, "--all") for c in blind)


def test_a_duel_hides_a_blind_reserve_as_well(tmp_path: Path) -> None:
    """A Duel's reserve from a deck: face down on bob's board and the spectator's, in the text,
    the picture and the JSON; face up on ann's."""
    path = tmp_path / "d.toml"
    _ok("new", "-g", path, "--variant", "duel", "--players", "ann,bob", "--seed", 3)
    _ok("play", "-g", path, "reserve", "deck", "1", "c2")
    card = _blind_card(path, "ann")
    for extra in ((), ("--as", "bob")):
        for args in (("show",), ("show", "--svg"), ("state", "--json")):
            assert card not in _ok(*args, "-g", path, *extra), (args, extra)
    assert card in _ok("show", "-g", path, "--as", "ann")
