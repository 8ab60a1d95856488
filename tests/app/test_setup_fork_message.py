"""A fork during the deal says so (issue 31, item 7): two players' seed commitments, or two
sealed shuffles, made from the same copy and merged, leave a forked file whose message says the
deal was under way (and what it waited for), never that the game was over."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.test_sealed_cli import machines
from helpers import cli

from splendor_cli.sharing.gitmerge import merge


def _forked(base: Path, mine: Path, theirs: Path, into: Path) -> None:
    merged = merge(base.read_bytes(), mine.read_bytes(), theirs.read_bytes())
    assert merged.conflict
    into.write_bytes(merged.data)


def _says_the_deal_was_under_way(path: Path, waiting: str) -> None:
    for command in (("show",), ("state", "--json"), ("play", "take", "w", "u", "g")):
        code, _, err = cli(*command, "-g", path)
        assert code == 5 and "game forked after event" in err, (command, err)
        assert f"the deal was under way (waiting for {waiting}" in err and "was over" not in err, (command, err)


def test_a_fork_of_two_seed_commitments(tmp_path: Path) -> None:
    base = tmp_path / "g.toml"
    assert cli("new", "-g", base, "--players", "ann,bob", "--commit-seed")[0] == 0
    mine, theirs = tmp_path / "ann.toml", tmp_path / "bob.toml"
    shutil.copy(base, mine)
    shutil.copy(base, theirs)
    assert cli("seed", "-g", mine, "--as", "ann")[0] == 0
    assert cli("seed", "-g", theirs, "--as", "bob")[0] == 0
    forked = tmp_path / "forked.toml"
    _forked(base, mine, theirs, forked)
    _says_the_deal_was_under_way(forked, "ann, bob to commit a seed")


def test_a_fork_of_two_sealed_shuffles(tmp_path: Path) -> None:
    ann, bob, cy = (m.key() for m in machines(tmp_path, "ann", "bob", "cy"))
    base = tmp_path / "sealed.toml"
    ann.ok("new", "-g", base, "--players", "ann,bob,cy", "--sealed")
    for machine in (ann, bob, cy):
        machine.ok("seal", "-g", base, "--as", machine.name)  # joins (cy's shuffles first)
    mine, theirs = tmp_path / "ann.toml", tmp_path / "bob.toml"
    shutil.copy(base, mine)
    shutil.copy(base, theirs)
    ann.ok("seal", "-g", mine)
    bob.ok("seal", "-g", theirs)
    forked = tmp_path / "forked.toml"
    _forked(base, mine, theirs, forked)
    done = ann("show", "-g", forked)
    assert done.code == 5 and "the deal was under way (waiting for" in done.err, done
    assert "was over" not in done.err, done
