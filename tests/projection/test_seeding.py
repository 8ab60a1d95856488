"""Dealing by commit-then-reveal: nobody alone chooses the shuffle, and the file proves the deal."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
from helpers import seeded_deal as deal
from typer.testing import CliRunner

from splendor_cli import store
from splendor_cli.app.cli import app
from splendor_cli.events import SeedRevealed
from splendor_cli.projection.seeding import _Stream, commitment
from splendor_cli.variants.base.cards import DECKS, NOBLES
from splendor_cli.variants.duel.events import DuelStarted


def cli(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_the_deal_follows_from_all_the_secrets_and_nothing_else() -> None:
    """The same secrets give the same deal; changing any one secret changes it; it is a real shuffle."""
    one = deal(("ann", "bob"), ("a" * 64, "b" * 64))
    assert one == deal(("ann", "bob"), ("a" * 64, "b" * 64))
    assert one != deal(("ann", "bob"), ("a" * 64, "c" * 64))
    assert one != deal(("ann", "bob"), ("c" * 64, "b" * 64))
    for level, deck in enumerate(one.decks, start=1):
        assert sorted(deck) == sorted(DECKS[level]) and deck != DECKS[level]
    assert len(set(one.nobles)) == 3 and set(one.nobles) <= set(NOBLES)


def test_the_stream_stays_in_range_and_covers_it() -> None:
    """The shuffle's number source gives every value below n, and none outside."""
    stream = _Stream(b"seed")
    seen = {stream.below(7) for _ in range(500)}
    assert seen == set(range(7))


def _commit_and_reveal(path: Path, players: list[str]) -> None:
    for name in players:
        assert cli("seed", "-g", path, "--as", name)[0] == 0
    for name in players:
        assert cli("seed", "-g", path, "--as", name)[0] == 0


def test_a_game_dealt_by_commit_then_reveal(tmp_path: Path) -> None:
    """new --commit-seed, then each player commits and reveals; the last reveal deals the cards,
    and the deal in the file is exactly the one the revealed secrets give."""
    path = tmp_path / "g.toml"
    code, out, _ = cli("new", "-g", path, "--players", "ann,bob,cy", "--commit-seed")
    assert code == 0 and "splendor seed" in out
    code, out, _ = cli("show", "-g", path)  # shows who the deal waits for
    assert code == 0 and "not dealt yet" in out and "waiting for ann, bob, cy to commit" in out
    code, _, err = cli("state", "-g", path, "--json")  # no state to print yet
    assert code == 3 and "not dealt yet" in err
    code, _, err = cli("seed", "-g", path, "--as", "ann")
    assert code == 0
    code, _, err = cli("seed", "-g", path, "--as", "ann")
    assert code == 3 and "waiting for bob, cy to commit" in err
    _commit_and_reveal(path, ["bob", "cy"])  # their commitments; then bob and cy reveal
    code, out, _ = cli("seed", "-g", path, "--as", "ann")  # the last reveal deals
    assert code == 0 and "the cards are dealt: ann to move" in out
    state = json.loads(cli("state", "-g", path, "--json")[1])
    assert state["seq"] == 8 and state["to_move"] == "ann" and len(state["nobles"]) == 4
    log = json.loads(cli("log", "-g", path, "--json")[1])
    secrets = {e["player"]: e for e in log if e["type"] == "seed_revealed"}
    assert set(secrets) == {"ann", "bob", "cy"}
    assert cli("verify", "-g", path)[0] == 0
    assert cli("take", "-g", path, "--as", "ann", "red", "red")[0] == 0


def test_a_secret_that_does_not_match_its_commitment_is_refused(tmp_path: Path) -> None:
    """A reveal edited by hand (or a secret swapped) does not match its commitment: the file is refused."""
    path = tmp_path / "g.toml"
    cli("new", "-g", path, "--players", "ann,bob", "--commit-seed")
    _commit_and_reveal(path, ["ann", "bob"])
    text = path.read_text()
    start = text.index('secret = "') + len('secret = "')
    forged = text[:start] + ("0" if text[start] != "0" else "1") + text[start + 1 :]
    path.write_text(forged)
    code, _, err = cli("state", "-g", path, "--json")
    assert code == 4 and len(err.strip().splitlines()) == 1


def test_commit_seed_refusals(tmp_path: Path) -> None:
    """--seed cannot choose a commit-then-reveal deal; `seed` needs a name; a dealt game has no seeds."""
    code, _, err = cli("new", "-g", tmp_path / "a.toml", "--players", "ann,bob", "--commit-seed", "--seed", "3")
    assert code == 2 and "exclude each other" in err
    cli("new", "-g", tmp_path / "b.toml", "--players", "ann,bob", "--commit-seed")
    code, _, err = cli("seed", "-g", tmp_path / "b.toml")
    assert code == 2 and "--as NAME" in err
    cli("new", "-g", tmp_path / "c.toml", "--players", "ann,bob")
    code, _, err = cli("seed", "-g", tmp_path / "c.toml", "--as", "ann")
    assert code == 3 and "dealt already" in err


def test_commitments_bind_the_player() -> None:
    """The same secret committed by two players gives two commitments: one cannot copy another's."""
    assert commitment("ann", "x" * 64) != commitment("bob", "x" * 64)
    assert commitment("ann", "x" * 64) != commitment("ann", "y" * 64)
    assert len(commitment("ann", "x" * 64)) == 64


def test_a_duel_dealt_by_commit_then_reveal(tmp_path: Path) -> None:
    """A Duel too: the secrets shuffle the three Duel decks and draw the bag onto the board; the
    file's duel_started is exactly that deal, and the Duel is then played as usual."""
    path = tmp_path / "d.toml"
    assert cli("new", "-g", path, "--players", "ann,bob", "--variant", "duel", "--commit-seed")[0] == 0
    _commit_and_reveal(path, ["ann", "bob"])
    state = json.loads(cli("state", "-g", path, "--json")[1])
    assert (state["variant"], state["seq"], state["to_move"], state["phase"]) == ("duel", 6, "ann", "main")
    events = store.read(path).record.events
    secrets = tuple(e.secret for e in events if isinstance(e, SeedRevealed))
    dealt = deal(("ann", "bob"), secrets, "duel")
    assert isinstance(dealt, DuelStarted) and attrs.evolve(dealt, seq=6, parent=events[-1].parent) == events[-1]
    assert list(dealt.board) != sorted(dealt.board)  # a real draw, not the bag in order
    assert cli("verify", "-g", path)[0] == 0
    first = json.loads(cli("moves", "-g", path, "--json")[1])[0]["notation"]
    assert cli("play", "-g", path, "--as", "ann", first)[0] == 0
    code, _, err = cli(
        "new", "-g", tmp_path / "e.toml", "--players", "ann,bob,cy", "--variant", "duel", "--commit-seed"
    )
    assert code == 2 and "2 players" in err
