"""A finished sealed game whose keys are not all published is a finding: its end-of-game audit
cannot open the sealed cards nor re-make the shuffles of whoever keeps their keys. `verify`
exits 6 naming them (`keys_owed` in `--json`, the error code `keys-owed`), `show` says it in
one line; once they publish (`splendor seal`), all is well again. While the game goes on,
unpublished keys are normal: no finding."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import cli
from sealed_helpers import Table

from splendor_cli.events.codec import format_record
from splendor_cli.sealing.events import KeysPublished

pytestmark = pytest.mark.slow  # slow tier: sealed games made through the command line; CI runs every tier


def _finished(path: Path) -> Table:
    """A 2-player sealed game played to the end, where bob published his keys and ann did not."""
    table = Table.new("base", 2, 3).deal()
    while not table.state.finished:
        table.step()
    owed = True
    while owed:  # the shares still owed (the last purchase's card), every player's keys aside
        owed = False
        for player in table.players:
            for event in table.duties(player):
                if not isinstance(event, KeysPublished):
                    table.add(event, player)
                    owed = True
    table.add(next(e for e in table.duties("bob") if isinstance(e, KeysPublished)), "bob")
    assert [type(e) for e in table.duties("ann")] == [KeysPublished]
    path.write_text(format_record(table.record), encoding="utf-8")
    return table


def test_verify_names_who_owes_the_keys_of_a_finished_game_until_they_publish(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = _finished(path)
    code, out, err = cli("verify", "-g", path)
    assert code == 6, err
    assert "KEYS OWED" in out and "ann" in out.split("KEYS OWED:")[-1]
    assert err.count("\n") == 1 and "the keys of ann are not published" in err and "splendor seal" in err
    code, out, err = cli("verify", "-g", path, "--json")
    report = json.loads(out)
    assert code == 6 and report["keys_owed"] == ["ann"] and report["ok"] is True and report["finished"] is True
    assert report["sealed"]["unpublished"] == ["ann"]
    error = json.loads(err)["error"]
    assert error["code"] == "keys-owed" and error["exit"] == 6 and "ann" in error["message"]
    code, out, err = cli("show", "-g", path)
    owed = [line for line in out.splitlines() if "keys of" in line]
    assert code == 0 and owed == [
        "the game is over, but the keys of ann are not published: the audit cannot open the sealed cards"
        " nor re-make their shuffles (`splendor seal` publishes them)"
    ]

    table.install_keys("ann", Path(os.environ["XDG_DATA_HOME"]) / "splendor-cli" / "keys")
    code, out, err = cli("seal", "-g", path)
    assert code == 0, err
    code, out, err = cli("verify", "-g", path, "--json")
    report = json.loads(out)
    assert code == 0, err
    assert report["keys_owed"] == [] and report["ok"] is True and report["sealed"]["cards_opened"] > 0
    code, out, _ = cli("verify", "-g", path)
    assert code == 0 and "KEYS OWED" not in out and "audit:" in out
    code, out, _ = cli("show", "-g", path)
    assert code == 0 and "keys of" not in out


@pytest.mark.parametrize("moves", [0, 6])
def test_unpublished_keys_are_no_finding_while_the_game_goes_on(tmp_path: Path, moves: int) -> None:
    """Before the end nobody publishes: verify says the audit waits for the keys, exit 0."""
    table = Table.new("base", 2, 3).deal()
    for _ in range(moves):
        table.step()
    path = tmp_path / "g.toml"
    path.write_text(format_record(table.record), encoding="utf-8")
    code, out, err = cli("verify", "-g", path, "--json")
    assert code == 0, err
    assert json.loads(out)["keys_owed"] == [] and json.loads(out)["sealed"]["unpublished"] == ["ann", "bob"]
    code, out, _ = cli("verify", "-g", path)
    assert code == 0 and "the audit waits for the keys of ann, bob" in out and "KEYS OWED" not in out
    code, out, _ = cli("show", "-g", path)
    assert code == 0 and "keys of" not in out


def test_an_open_game_owes_no_keys(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--seed", 1)[0] == 0
    code, out, _ = cli("verify", "-g", path, "--json")
    assert code == 0 and json.loads(out)["keys_owed"] == []
