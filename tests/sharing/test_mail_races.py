"""Races settle by mail too (issue 32, item 1): mail has no side pushed first, so one rule, the
same on every machine, orders a race of protocol steps against a move: the steps first, then the
move, played again by its player. A sealed game of ann, bob and cy, each on their own machine:
ann reserves the top of deck 3 blind, bob shows his share of it and plays at once, while cy shows
hers. Where the copies part, a share goes before a move and the earlier seat's share before the
later's: cy's share is shown again after bob's, bob's move is played again after both, each by
its own machine's `apply`, and both copies end the same game. Before, each `apply` wrote a fork
for `resolve` (exit 5)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli
from sealed_helpers import Table

from splendor_cli.events.codec import format_record

NAMES = ("ann", "bob", "cy")


def _machines(tmp_path: Path) -> dict[str, tuple[Path, dict[str, str]]]:
    """Each player's copy of a dealt sealed game and their environment (their keys, no memory)."""
    table = Table.new("base", NAMES, 5, game="mailed").deal()
    assert table.state.player.name == "ann"
    machines = {}
    for name in NAMES:
        data = tmp_path / f"{name}-data"
        table.install_keys(name, data / "splendor-cli" / "keys")
        path = tmp_path / name / "g.toml"
        path.parent.mkdir()
        path.write_text(format_record(table.record))
        machines[name] = (path, {"XDG_DATA_HOME": str(data), "SPLENDOR_NO_MEMORY": "1", "SPLENDOR_NO_CACHE": "1"})
    return machines


def test_a_move_that_raced_a_share_by_mail_is_played_again_after_it(tmp_path: Path) -> None:
    machines = _machines(tmp_path)

    def run(name: str, *args: object) -> str:
        path, env = machines[name]
        code, out, err = cli(*args, "-g", path, env=env)
        assert code == 0, (name, args, out, err)
        return out

    def mail(name: str, last: int) -> Path:
        block = tmp_path / f"mail-{len(list(tmp_path.glob('mail-*')))}.txt"
        block.write_text(run(name, "export", "--last", last))
        return block

    run("ann", "play", "reserve", "deck", "3")
    reserve = mail("ann", 1)
    for name in ("bob", "cy"):  # each takes it in, and shows their share of ann's card at once
        run(name, "apply", reserve)
    bob_share, cy_share = mail("bob", 1), mail("cy", 1)
    moves = json.loads(run("bob", "moves", "--json"))
    move = next(m["notation"] for m in moves if m["notation"].startswith("take "))
    run("bob", "play", *move.split())  # bob plays at once, cy's share not in yet
    first = mail("bob", 1)

    said = run("bob", "apply", cy_share)  # the earlier seat's share goes first: cy shows hers again
    assert "raced bob's part of the table: cy shows it again after it" in said, said
    said = run("cy", "apply", bob_share)  # so, on cy's machine, hers is shown again after bob's
    assert "raced bob's part of the table: cy shows it again after it" in said, said
    said = run("cy", "apply", first)  # bob's move: a share goes before it, so bob plays it again
    assert "raced cy's part of the table: bob plays it again after it" in said, said
    said = run("bob", "apply", mail("cy", 1))  # cy's share, shown again: bob's move gives way
    assert f"your move {move!r} raced cy's part: played again after it" in said, said
    run("cy", "apply", mail("bob", 1))  # bob's move, played again
    assert machines["bob"][0].read_bytes() == machines["cy"][0].read_bytes()
    for name in ("bob", "cy"):
        run(name, "verify")
