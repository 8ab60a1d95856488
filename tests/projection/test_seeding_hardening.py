"""Hardening of the commit-then-reveal deal: a player who never reveals, and a second copy that commits."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import cli

from splendor_cli import store
from splendor_cli.errors import CorruptLogError
from splendor_cli.events import SeedCommitted, SeedsRestarted
from splendor_cli.projection.seeding import commitment


def _secrets() -> Path:
    return Path(os.environ["SPLENDOR_SECRETS"])


def _new(path: Path, players: str = "ann,bob,cy") -> str:
    code, _, err = cli("new", "-g", path, "--players", players, "--commit-seed")
    assert code == 0, err
    return store.read(path).record.header.game


def _steps(path: Path, *names: str) -> None:
    for name in names:
        code, _, err = cli("seed", "-g", path, "--as", name)
        assert code == 0, err


def test_a_player_who_never_reveals_cannot_stop_the_game(tmp_path: Path) -> None:
    """cy, last to reveal, could work out the deal and withhold: bob, who revealed, restarts the
    deal; every player commits a new secret and the game is dealt from the new round alone."""
    path = tmp_path / "g.toml"
    game_id = _new(path)
    _steps(path, "ann", "bob", "cy", "ann", "bob")  # all commit; cy never reveals
    code, _, err = cli("seed", "-g", path, "--as", "cy", "--restart")
    assert code == 3 and "only a player who has revealed" in err
    code, out, err = cli("seed", "-g", path, "--as", "bob", "--restart")
    assert code == 0, err
    assert "restarted the deal without cy" in out
    seeding = store.read(path).game.seeding
    assert seeding is not None and seeding.round == 2 and not seeding.commitments and seeding.withheld == ("cy",)
    code, out, _ = cli("log", "-g", path)
    assert code == 0 and "restarts the deal without a reveal from cy: all commit new seeds" in out
    _steps(path, "ann", "bob", "cy")  # a new commitment each, from a new secret file
    for name in ("ann", "bob", "cy"):
        assert (_secrets() / f"{game_id}.{name}.1.secret").exists()
        assert (_secrets() / f"{game_id}.{name}.2.secret").exists()
        assert (_secrets() / f"{game_id}.{name}.1.secret").read_text() != (
            _secrets() / f"{game_id}.{name}.2.secret"
        ).read_text()
    _steps(path, "cy", "ann")
    # Stuck again, on bob this time: cy, who withheld before, may not ask for a restart.
    code, _, err = cli("seed", "-g", path, "--as", "cy", "--restart")
    assert code == 3 and "withheld a seed before" in err
    _steps(path, "bob")
    loaded = store.read(path)
    assert loaded.game.states and loaded.game.seeding is None  # dealt, and the file reads again
    assert cli("show", "-g", path)[0] == 0


def test_a_restart_is_refused_unless_the_deal_is_stuck_on_a_reveal(tmp_path: Path) -> None:
    """Before every commitment, before any reveal, and once dealt, --restart is refused and
    nothing is written."""
    path = tmp_path / "g.toml"
    _new(path, "ann,bob")
    before = path.read_bytes()
    code, _, err = cli("seed", "-g", path, "--as", "ann", "--restart")
    assert code == 2 and "--restart" in err
    _steps(path, "ann")
    assert cli("seed", "-g", path, "--as", "ann", "--restart")[0] == 2
    _steps(path, "bob")
    middle = path.read_bytes()
    assert cli("seed", "-g", path, "--as", "ann", "--restart")[0] == 2  # nobody revealed yet
    assert path.read_bytes() == middle and middle.startswith(before)
    _steps(path, "ann", "bob")
    assert cli("seed", "-g", path, "--as", "ann", "--restart")[0] == 3  # dealt already


def test_the_log_checks_a_restart_and_refuses_an_old_commitment(tmp_path: Path) -> None:
    """Read from the file: `without` must be exactly who has not revealed, asked by one who has;
    after a restart, a commitment of the round before may not be made again."""
    path = tmp_path / "g.toml"
    _new(path)
    _steps(path, "ann", "bob", "cy", "ann")
    game = store.read(path).game
    seq = game.seq + 1
    for by, without, why in (
        ("ann", ("cy",), "exactly the players who have not revealed"),
        ("ann", ("cy", "bob"), "exactly the players who have not revealed"),
        ("bob", ("bob", "cy"), "only a player who has revealed"),
    ):
        with pytest.raises(CorruptLogError, match=why):
            game.apply(SeedsRestarted(seq=seq, parent="", by=by, without=without))
    old = dict(game.seeding.commitments if game.seeding else ())["bob"]
    restarted = game.apply(SeedsRestarted(seq=seq, parent="", by="ann", without=("bob", "cy")))
    with pytest.raises(CorruptLogError, match="a new one"):
        restarted.apply(SeedCommitted(seq=seq + 1, parent="", player="bob", commitment=old))
    fresh = commitment("bob", "f" * 64)
    assert restarted.apply(SeedCommitted(seq=seq + 1, parent="", player="bob", commitment=fresh)).seq == seq + 1


def test_a_second_copy_cannot_overwrite_the_secret_of_the_first(tmp_path: Path) -> None:
    """ann commits from one copy of the game, then again from a second copy: the second is
    refused (exit 3), writes nothing, and the first copy still reveals and deals."""
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    game_id = _new(first, "ann,bob")
    shutil.copy(first, second)
    _steps(first, "ann")
    kept = (_secrets() / f"{game_id}.ann.1.secret").read_text()
    before = second.read_bytes()
    code, _, err = cli("seed", "-g", second, "--as", "ann")
    assert code == 3 and "exists already" in err and "another copy" in err
    assert second.read_bytes() == before
    assert (_secrets() / f"{game_id}.ann.1.secret").read_text() == kept
    _steps(first, "bob", "ann", "bob")
    assert store.read(first).game.states


def test_a_secret_kept_by_an_earlier_release_still_reveals(tmp_path: Path) -> None:
    """Round 1 reads the unnumbered file name of earlier releases, and a commit will not go over it."""
    path = tmp_path / "g.toml"
    game_id = _new(path, "ann,bob")
    _steps(path, "ann", "bob")
    numbered, legacy = _secrets() / f"{game_id}.ann.1.secret", _secrets() / f"{game_id}.ann.secret"
    numbered.rename(legacy)
    _steps(path, "ann", "bob")
    assert store.read(path).game.states
    other = tmp_path / "h.toml"
    other_id = _new(other, "ann,bob")
    (_secrets() / f"{other_id}.ann.secret").write_text("0" * 64 + "\n")
    code, _, err = cli("seed", "-g", other, "--as", "ann")
    assert code == 3 and "exists already" in err
