"""The last show before a sealed Duel's deal chooses no draw, at the command line (issue 31, item 2).

bob shows the last shares of the face-up cards, which deals the game. He keeps a copy of the file
before his show and runs `splendor seal` on a fresh copy of it again and again: his own machine
refuses the second (his key showed its shares in one branch of the game: key_history.py), so he
puts his machine back as it was before each show, as a cheat would. Every show carries proofs
with fresh nonces, so each copy holds another `cards_shown` and another setup event (their links
differ). The two players then play the same moves in every copy, up to the first draw
from the bag (a replenish of the board). Before format 4 the draw followed the whole setup
event, envelope included, and the copies drew differently: bob could publish the copy whose draw
suited him. Now every copy draws the same.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from app.test_sealed_cli import Machine, machines

COPIES = 4


def state(machine: Machine, path: Path) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(machine.ok("state", "-g", path, "--json"))
    return view


def mixed(bag: dict[str, int]) -> bool:
    """A bag whose order is a real draw: 4 tokens or more, of 3 colours or more (a bag of one
    colour lands the same whatever the chance)."""
    return sum(bag.values()) >= 4 and sum(1 for count in bag.values() if count) >= 3


def play_to_the_first_draw(path: Path, players: dict[str, Machine]) -> tuple[dict[str, Any], list[str]]:
    """Both players do their part, then the player to move plays: a replenish as soon as one is
    legal and the bag is `mixed` (the first draw), else a purchase, else one of the other moves
    (a take, a return...) drawn by a source seeded by the move's number, the same in every copy
    of the game (a fixed choice can loop, taking and returning the same tokens). The table after
    the draw, and the moves played."""
    played: list[str] = []
    for _ in range(300):
        for machine in players.values():
            machine.ok("seal", "-g", path)
        table = state(players["ann"], path)
        mover = players[table["to_move"]]
        moves = [m["notation"] for m in json.loads(mover.ok("moves", "-g", path, "--json"))]
        replenish = [m for m in moves if m.startswith("replenish") and mixed(table["bag"])]
        buys = [m for m in moves if m.startswith("buy")]
        others = [m for m in moves if not m.startswith(("replenish", "buy"))] or moves
        move = (replenish or buys or [random.Random(f"move {len(played)}").choice(others)])[0]
        mover.ok("play", "-g", path, *move.split())
        played.append(move)
        if replenish:
            return state(players["ann"], path), played
    raise AssertionError(f"no replenish after {len(played)} moves: {played}")


def test_the_last_show_made_again_chooses_no_draw(tmp_path: Path) -> None:
    ann, bob = (m.key() for m in machines(tmp_path, "ann", "bob"))
    path = tmp_path / "sealed.toml"
    ann.ok("new", "-g", path, "--variant", "duel", "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    bob.ok("seal", "-g", path, "--as", "bob")  # joins, shuffles
    ann.ok("seal", "-g", path)  # shuffles, shows her shares of the face-up cards
    links, tables, moves = set(), [], set()
    saved = {machine.name: tmp_path / f"{machine.name}-before" for machine in (ann, bob)}
    for machine in (ann, bob):  # the machines before bob's show, to go back to
        shutil.copytree(machine.root, saved[machine.name], symlinks=True)
    for copy in range(COPIES):
        remade = tmp_path / f"copy-{copy}.toml"
        shutil.copy(path, remade)
        if copy == 1:  # his own machine shows in one history of a game only (key_history.py)
            done = bob("seal", "-g", remade)
            assert done.code == 3 and "it is behind" in done.err, done
        for machine in (ann, bob):  # so a cheat goes back, as his own machine will not re-make the show
            shutil.rmtree(machine.root)
            shutil.copytree(saved[machine.name], machine.root, symlinks=True)
        assert "ann to move" in bob.ok("seal", "-g", remade)  # bob's last show: the deal
        links.add(remade.read_text().rsplit("[[events]]", 1)[1].split("parent = ", 1)[1].split("\n", 1)[0])
        table, played = play_to_the_first_draw(remade, {"ann": ann, "bob": bob})
        tables.append({key: table[key] for key in ("board", "bag")})
        moves.add(tuple(played))
    assert len(links) == COPIES  # every show made again gave a setup event of its own
    assert len(moves) == 1  # the same game, move for move, up to the draw
    assert all(table == tables[0] for table in tables), tables  # and the same draw
