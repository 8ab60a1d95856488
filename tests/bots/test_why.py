"""Moves explained (issue 32, item 6): `hint --why` and `bot --why` give the bot's best few moves,
its own first, each with its estimate of the mover's chance of winning after it and one reason
a player would give; `--json` gives the same as data."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, cli, deal

from splendor_cli import store
from splendor_cli.bots.why import reason
from splendor_cli.events.codec import Header, Record, chained, format_event, format_header


def _game(path: Path, players: str = "ann,bot:expert", *turns: str) -> None:
    assert cli("new", "-g", path, "--players", players, "--seed", 3)[0] == 0
    for turn in turns:
        assert cli("play", "-g", path, "--bots", turn)[0] == 0


def _fixed(path: Path) -> None:
    """A game of ann and bob with a fixed id and deal (a bot's source is seeded by the id)."""
    header = Header(game="why", variant="base", players=("ann", "bob"), created="2026-12-06T00:00:00Z")
    sealed = chained(Record(header=header, events=()), deal(("ann", "bob"), random.Random(3)))
    path.write_text(format_header(header) + format_event(sealed), encoding="utf-8")


def test_hint_why_lists_the_best_moves_with_a_chance_and_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: Any
) -> None:
    """`hint --why` (expert): the hint's line, then its three best moves, the hint first, each
    with a chance of winning and a reason (snapshot: what the player reads)."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "g.toml"
    _fixed(path)
    for turn in ("take white blue green", "take red black white", "take white blue black"):
        assert cli("play", "-g", "g.toml", turn)[0] == 0
    before = path.read_bytes()
    code, out, err = cli("hint", "-g", "g.toml", "--why")
    assert code == 0, err
    assert out == snapshot
    lines = out.splitlines()
    hinted = lines[0].split(": ", 1)[1].split("   (", 1)[0]
    assert len(lines) == 5 and lines[2].split("%  ", 1)[1].startswith(hinted)
    assert path.read_bytes() == before


def test_hint_why_json_gives_the_same_as_data(tmp_path: Path) -> None:
    """`hint --why --json`: `why` holds --top move items, the hint's first, each with `chance`
    in [0, 1] and a `reason`; greedy's too."""
    path = tmp_path / "g.toml"
    _game(path, "ann,bot:expert", "take white blue green")
    for bot, top in (("expert", 3), ("greedy", 5)):
        code, out, err = cli("hint", "-g", path, "--why", "--json", "--bot", bot, "--top", top)
        assert code == 0, err
        hinted = json.loads(out)
        why = hinted["why"]
        assert len(why) == top and why[0]["notation"] == hinted["notation"]
        assert all(0 <= item["chance"] <= 1 and item["reason"] and item["action"] for item in why)
        assert len({item["notation"] for item in why}) == top
    code, out, _ = cli("hint", "-g", path, "--json")
    assert code == 0 and "why" not in json.loads(out)


def test_bot_why_explains_each_bot_move(tmp_path: Path) -> None:
    """`bot --why`: under each bot move, its best moves, the one played first; `--json` gives
    them by the event's seq."""
    path = tmp_path / "g.toml"
    _game(path, "ann,bot:greedy#1,bot:greedy#2")
    assert cli("take", "-g", path, "w", "u", "g")[0] == 0
    copy = tmp_path / "copy.toml"
    copy.write_bytes(path.read_bytes())
    code, out, err = cli("bot", "-g", path, "--why")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("#3 bot:greedy#1: ") and lines[1].startswith("  greedy's best moves for bot:greedy#1")
    played = lines[0].split(": ", 1)[1]
    assert lines[2].split("%  ", 1)[1].startswith(played)
    code, out, err = cli("bot", "-g", copy, "--why", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert [w["seq"] for w in shown["why"]] == [3, 4]
    assert [w["moves"][0]["notation"] for w in shown["why"]] == [e["notation"] for e in _events(copy)[2:4]]


def _events(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(cli("log", "-g", path, "--json")[1]))


def test_reasons_say_what_a_move_gains() -> None:
    """Over the moves of a whole sample game: a move that gains points is said to (a noble by its
    id), each with the points it gains; a card named as denied is one that an opponent could buy."""
    game = store.read(ROOT / "games" / "sample-3p.toml").game
    variant = game.variant
    said: set[str] = set()
    for state in game.states:
        if state.finished:
            continue
        seat = state.to_move
        for move in variant.legal_moves(state):
            item = variant.move_json(state, move)
            if item["action"] not in ("buy", "reserve"):
                continue
            after = variant.play(state, move)
            gained = after.players[seat].points - state.players[seat].points
            text = reason(variant, state, move)
            if after.finished and state.players[seat].name in after.winners():
                assert text == "wins the game"
            elif after.players[seat].nobles != state.players[seat].nobles:
                assert "visits" in text and text.endswith(f"{gained} points")
                said.add("noble")
            elif gained:
                assert text == f"buys {item['card']}: {gained} point{'s' if gained > 1 else ''}"
                said.add("points")
            elif "could buy on their turn" in text:
                said.add("denies")
            elif "affordable next turn" in text:
                said.add("affordable")
    assert said >= {"noble", "points", "denies"}
