"""Signed games at the command line (issue 31, item 3), through the real command line
(`python -m splendor_cli`, a process per command), each player on their own "machine": their own
HOME and data folder, so their own key (`splendor key new`).

A signed game (`new --signed`) is an open game whose every event is signed by its author: the key
says who you are, not `--as`. The security review's reproductions, each refused here (and each
accepted, or not even possible, before signed games): `--as bob` on eve's machine cannot make
bob's move; a move claiming `by = "bob"` that eve signed is exit 4 naming the event; in a sealed
game, a player's own move claiming `by = "bob"` is exit 4 too. The fingerprint that `key show`
prints is the one `show`, `log` and `verify` print for the seat that key joined. And a whole
signed game, played to its end by two machines passing the file.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import attrs
import pytest

pytestmark = pytest.mark.slow  # slow tier: many CLI runs and real processes; CI runs every tier

ROOT = Path(__file__).resolve().parents[2]
FINGERPRINT = re.compile(r"\b(?:[0-9a-f]{4} ){4}[0-9a-f]{4}\b")


@attrs.frozen
class Done:
    code: int
    out: str
    err: str


@attrs.frozen
class Machine:
    """One player's computer: a HOME (their key, their cache), and no memory of seen games (the
    tests rewrite files on purpose)."""

    name: str
    root: Path

    def __call__(self, *args: object) -> Done:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "HOME": str(self.root),
            "XDG_DATA_HOME": str(self.root / "data"),
            "XDG_CACHE_HOME": str(self.root / "cache"),
            "SPLENDOR_CACHE": str(self.root / "cache" / "answers"),
            "SPLENDOR_NO_MEMORY": "1",
            "NO_COLOR": "1",
            "COLUMNS": "100",
        }
        done = subprocess.run(
            [sys.executable, "-m", "splendor_cli", *map(str, args)],
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
            check=False,
        )
        return Done(done.returncode, done.stdout, done.stderr)

    def ok(self, *args: object) -> str:
        done = self(*args)
        assert done.code == 0, (self.name, args, done)
        return done.out

    def key(self) -> Machine:
        self.root.mkdir(parents=True, exist_ok=True)
        assert f"made the keys of {self.name}" in self.ok("key", "new", "--name", self.name)
        return self

    def secret(self) -> object:
        """This machine's secret key (as splendor reads it)."""
        from splendor_cli.crypto.keys import SecretKey

        return SecretKey.from_toml((self.root / "data" / "splendor-cli" / "keys" / "secret.toml").read_text())


def machines(root: Path, *names: str) -> list[Machine]:
    return [Machine(name, root / f"{name}-machine").key() for name in names]


def dealt(root: Path, *names: str) -> tuple[Path, list[Machine]]:
    """A signed base game between `names`, dealt: each joined with their key (`seal --as`), each
    showed their share of the deal; the first player to move."""
    players = machines(root, *names)
    path = root / "signed.toml"
    said = players[0].ok("new", "-g", path, "--players", ",".join(names), "--signed")
    assert "new game" in said
    header = tomllib.loads(path.read_text(encoding="utf-8"))
    assert header["format"] == 4 and header["table"] == "signed"
    for machine in players:
        machine.ok("seal", "-g", path, "--as", machine.name)
    while "to move" not in (said := players[0].ok("seal", "-g", path)):
        for machine in players[1:]:
            machine.ok("seal", "-g", path)
    assert f"{names[0]} to move" in said
    return path, players


def forged(path: Path, move: str, secret: object, *, by: str = "") -> bytes:
    """The bytes of `path` with the move of the player to move appended as the rules make it
    (`by`: the player it claims played it for them), signed by `secret` (the Python API, as a
    cheat would write it)."""
    from splendor_cli import store
    from splendor_cli.events.codec import chained, format_record
    from splendor_cli.sealing.signing import sign

    loaded = store.read(path)
    (parsed,) = loaded.game.variant.parse_moves(move)
    event = chained(loaded.record, loaded.game.decide(parsed, by=by))
    event = sign(event, loaded.record.events[-1], secret)  # type: ignore[arg-type]
    return format_record(attrs.evolve(loaded.record, events=(*loaded.record.events, event))).encode("utf-8")


def test_new_signed_refuses_bot_seats_and_other_deals(tmp_path: Path) -> None:
    (ann,) = machines(tmp_path, "ann")
    for extra in (
        ["--players", "ann,bot:greedy"],
        ["--players", "ann,bob", "--seed", "1"],
        ["--players", "ann,bob", "--sealed"],
    ):
        done = ann("new", "-g", tmp_path / "x.toml", "--signed", *extra)
        assert done.code == 2, done
    assert not (tmp_path / "x.toml").exists()


def test_the_key_says_who_you_are_not_as(tmp_path: Path) -> None:
    """The review's first reproduction: on eve's machine, `--as bob` makes no move of bob's. Her
    key plays eve: `play --as bob` and `undo --as bob` are refused (exit 2), `--for bob` too,
    and the file is unchanged; a move she signs as bob's by hand is exit 4 naming it."""
    path, (ann, _, eve) = dealt(tmp_path, "ann", "bob", "eve")
    ann.ok("play", "-g", path, "take", "white", "blue", "green")  # bob to move
    before = path.read_bytes()
    for args in (
        ["play", "--as", "bob", "take", "red", "red"],
        ["undo", "--as", "bob"],
        ["play", "--for", "bob", "take", "red", "red"],
    ):
        done = eve(*args[:1], "-g", path, *args[1:])
        assert done.code == 2, (args, done)
        assert path.read_bytes() == before
    assert "your key plays eve in this game, not 'bob'" in eve("play", "-g", path, "--as", "bob", "pass").err
    path.write_bytes(forged(path, "take red red", eve.secret()))  # bob's turn, signed by eve
    done = ann("show", "-g", path)
    assert done.code == 4, done
    assert "event #" in done.err and "the signature is not bob's" in done.err


def test_a_false_played_by_is_exit_4(tmp_path: Path) -> None:
    """The review's second reproduction: `--for ann --as bob` recorded a false "played by bob".
    In a signed game `--for` is refused (each seat plays its own turns), and a move for ann that
    claims `by = "bob"` but eve signed is exit 4 naming the event, in every command."""
    path, (ann, bob, eve) = dealt(tmp_path, "ann", "bob", "eve")
    before = path.read_bytes()
    done = eve("play", "-g", path, "--for", "ann", "--as", "bob", "take", "red", "red")
    assert done.code == 2 and path.read_bytes() == before, done
    seq = len(tomllib.loads(before.decode())["events"]) + 1
    path.write_bytes(forged(path, "take red red", eve.secret(), by="bob"))
    for machine, args in ((ann, ["log"]), (bob, ["verify"]), (eve, ["show"])):
        done = machine(args[0], "-g", path)
        assert done.code == 4, (args, done)
        assert f"event #{seq}" in done.err and "not bob's" in done.err, done


def test_a_self_signed_played_by_in_a_sealed_game_is_exit_4(tmp_path: Path) -> None:
    """The review's third reproduction: in a sealed game, ann signs her own move with
    `by = "bob"`: it showed as "(played by bob)". Now a move claiming `by` is its `by`'s to sign:
    exit 4, naming the event."""
    ann, bob = machines(tmp_path, "ann", "bob")
    path = tmp_path / "sealed.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    bob.ok("seal", "-g", path, "--as", "bob")
    ann.ok("seal", "-g", path)
    bob.ok("seal", "-g", path)
    assert "ann to move" in ann.ok("seal", "-g", path)
    seq = len(tomllib.loads(path.read_text())["events"]) + 1
    path.write_bytes(forged(path, "take white blue green", ann.secret(), by="bob"))
    for machine, command in ((ann, "log"), (bob, "verify"), (bob, "show")):
        done = machine(command, "-g", path)
        assert done.code == 4, (command, done)
        assert f"event #{seq}" in done.err and "not bob's" in done.err, done
        assert "played by bob" not in done.out


def test_fingerprints_can_be_checked(tmp_path: Path) -> None:
    """What `key show` prints is what `show`, `log` and `verify` print for the seat its key
    joined, in the same form, in signed and sealed games alike."""
    path, (ann, bob) = dealt(tmp_path, "ann", "bob")
    prints = {m.name: json.loads(m.ok("key", "show", "--json"))["fingerprint"] for m in (ann, bob)}
    assert all(FINGERPRINT.fullmatch(p) for p in prints.values()) and prints["ann"] != prints["bob"]
    assert f"fingerprint  {prints['ann']}" in ann.ok("key", "show")
    for text in (bob.ok("show", "-g", path), bob.ok("verify", "-g", path)):
        assert f"ann signs with {prints['ann']}" in text and f"bob signs with {prints['bob']}" in text
    log = bob.ok("log", "-g", path)
    assert f"ann  joins with their key (fingerprint {prints['ann']})" in log
    report = json.loads(bob.ok("verify", "-g", path, "--json"))
    assert report["signed"]["fingerprints"] == prints and report["ok"]
    sealed = tmp_path / "sealed.toml"
    ann.ok("new", "-g", sealed, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", sealed, "--as", "ann")
    assert f"ann signs with {prints['ann']}" in bob.ok("show", "-g", sealed)
    assert f"(fingerprint {prints['ann']})" in bob.ok("log", "-g", sealed)
    assert json.loads(bob.ok("verify", "-g", sealed, "--json"))["sealed"]["fingerprints"] == {"ann": prints["ann"]}


@pytest.mark.slow
def test_a_whole_signed_game_by_two_machines_over_files(tmp_path: Path) -> None:
    """ann and bob each keep their own copy of the file and send it over (a copy): each plays
    what greedy suggests on their turn, the first move carrying ann's share and the deal, until
    the game is over; every copy verifies, every event after the first but the deal is signed."""
    ann, bob = machines(tmp_path, "ann", "bob")
    mine, theirs = tmp_path / "ann-machine" / "game.toml", tmp_path / "bob-machine" / "game.toml"
    ann.ok("new", "-g", mine, "--players", "ann,bob", "--signed")
    ann.ok("seal", "-g", mine, "--as", "ann")
    shutil.copy(mine, theirs)
    bob.ok("seal", "-g", theirs, "--as", "bob")  # joins, and shows his share (everyone joined)
    shutil.copy(theirs, mine)
    first = ann.ok("play", "-g", mine, "take", "white", "blue", "green")  # her share, the deal, her turn
    assert "ann: shows their share of the deal" in first and "deal: the cards are dealt" in first
    shutil.copy(mine, theirs)
    machine, path, other = bob, theirs, mine
    for turn in range(600):
        if turn % 5 == 4:  # now and then a move drawn by a source seeded by its number: greedy against
            # greedy can take and give back the same tokens for ever, and the deal is new every run
            moves = [m["notation"] for m in json.loads(machine.ok("moves", "-g", path, "--json"))]
            notation = random.Random(f"turn {turn}").choice(moves)
        else:
            notation = json.loads(machine.ok("hint", "-g", path, "--bot", "greedy", "--json"))["notation"]
        said = machine.ok("play", "-g", path, notation)
        shutil.copy(path, other)
        if "wins" in said or "share the victory" in said or "game over" in said.lower():
            break
        machine, path, other = (bob, theirs, mine) if machine is ann else (ann, mine, theirs)
    state = json.loads(ann.ok("state", "-g", mine, "--json"))
    assert state["finished"] and state["winners"], state
    for who, where in ((ann, theirs), (bob, mine)):
        report = json.loads(who.ok("verify", "-g", where, "--json"))
        assert report["ok"] and report["finished"] and report["format"] == 4
        assert report["signed"]["signed"] == report["events"] - 2  # all but the first event and the deal
    assert mine.read_bytes() == theirs.read_bytes()
