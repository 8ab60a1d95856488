"""Sealed games at the command line (issue 15), through the real entry point (`entry.main`, in
this process: fast), each player on their own "machine": their own data folder (their key, made
with `splendor key new`) and cache.

What a sealed game refuses (`new` with a seed or a bot, `seal` without a key or in an open game,
a move by a key that is not the seat's), a forged file (one hex digit of a signature or a share
flipped: exit 4, naming the event, the file left as it was), what each seat sees (a blind
reserve opened only with its owner's key; `moves` offers buying it when affordable), the log
lines of the protocol, and `verify --json`'s `sealed` object.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from splendor_cli.app import entry
from splendor_cli.events.codec import format_record, full_digest, link_length
from splendor_cli.model import Gem
from splendor_cli.variants.base.cards import CARDS

_DROPPED = ("SPLENDOR_PLAYER", "SPLENDOR_GAME", "SPLENDOR_NO_CACHE", "SPLENDOR_DEBUG", "SPLENDOR_NO_MEMORY")


@attrs.frozen
class Done:
    code: int
    out: str
    err: str


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in (*values, *_DROPPED)}
    for name in _DROPPED:
        os.environ.pop(name, None)
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@attrs.define
class Machine:
    """One player's computer: a data folder (their key, if they made one), a cache, and a memory
    of the games seen unless `forgetful`."""

    name: str
    root: Path
    forgetful: bool = True
    """Without the memory of seen games (the most tests rewrite a file on purpose)."""
    cache: Path | None = None
    """Another cache folder than the machine's own (`root/cache`)."""

    def env(self) -> dict[str, str]:
        env = {
            "HOME": str(self.root),
            "XDG_DATA_HOME": str(self.root / "data"),
            "SPLENDOR_CACHE": str(self.cache or self.root / "cache"),
            "NO_COLOR": "1",
            "COLUMNS": "100",
        }
        if self.forgetful:
            env["SPLENDOR_NO_MEMORY"] = "1"
        return env

    def __call__(self, *args: object) -> Done:
        """`splendor ARGS` on this machine, through the console entry point."""
        out, err = io.StringIO(), io.StringIO()
        argv = sys.argv
        sys.argv = ["splendor", *map(str, args)]
        code: Any = 0
        try:
            with _environment(self.env()), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    entry.main()
                except SystemExit as exc:
                    code = exc.code
        finally:
            sys.argv = argv
        return Done(code if isinstance(code, int) else (0 if code is None else 1), out.getvalue(), err.getvalue())

    def ok(self, *args: object) -> str:
        done = self(*args)
        assert done.code == 0, (self.name, args, done)
        return done.out

    def key(self) -> Machine:
        assert f"made the keys of {self.name}" in self.ok("key", "new", "--name", self.name)
        return self


def machines(root: Path, *names: str) -> list[Machine]:
    return [Machine(name, root / f"{name}-machine") for name in names]


def dealt(root: Path) -> tuple[Path, Machine, Machine]:
    """A sealed 2-player base game, dealt: ann and bob each with their key; ann to move."""
    ann, bob = (m.key() for m in machines(root, "ann", "bob"))
    path = root / "sealed.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    bob.ok("seal", "-g", path, "--as", "bob")  # joins, shuffles
    ann.ok("seal", "-g", path)  # shuffles, shows the face-up cards
    bob.ok("seal", "-g", path)  # shows them: the deal
    assert "ann to move" in ann.ok("seal", "-g", path)
    return path, ann, bob


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Path]:
    """The bytes of one dealt game and the folder of its machines (made once: a deal costs)."""
    root = tmp_path_factory.mktemp("sealed")
    path, _, _ = dealt(root)
    return path.read_bytes(), root


@pytest.fixture
def table(start: tuple[bytes, Path], tmp_path: Path) -> tuple[Path, Machine, Machine]:
    """A copy of the dealt game, and ann's and bob's machines (their keys are the deal's)."""
    data, root = start
    path = tmp_path / "sealed.toml"
    path.write_bytes(data)
    for name in ("ann", "bob"):  # each test its own copy of the machines: a key goes on in one history
        shutil.copytree(root / f"{name}-machine", tmp_path / f"{name}-machine", symlinks=True)
    ann, bob = machines(tmp_path, "ann", "bob")
    return path, ann, bob


def state(machine: Machine, path: Path, *extra: object) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(machine.ok("state", "-g", path, "--json", *extra))
    return view


def seat(view: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [p for p in view["players"] if p["name"] == name]
    return dict(found)


def moves(machine: Machine, path: Path) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = json.loads(machine.ok("moves", "-g", path, "--json"))
    return listed


# -- what a sealed game refuses -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--players", "ann,bob", "--seed", "3"], "it excludes --seed and --commit-seed"),
        (["--players", "ann,bob", "--commit-seed"], "it excludes --seed and --commit-seed"),
        (["--players", "ann,bob", "--variant", "duel", "--seed", "1"], "it excludes --seed and --commit-seed"),
        (["--players", "ann,bot:greedy"], "a sealed game has no bot seat"),
    ],
    ids=["seed", "commit-seed", "duel-seed", "bot"],
)
def test_new_sealed_refuses_a_seed_and_bots(tmp_path: Path, extra: list[str], said: str) -> None:
    (ann,) = machines(tmp_path, "ann")
    done = ann("new", "-g", tmp_path / "g.toml", "--sealed", *extra)
    assert done.code == 2 and said in done.err and done.err.count("\n") == 1, done
    assert not (tmp_path / "g.toml").exists()


def test_seal_without_a_key_says_how_to_make_one(tmp_path: Path) -> None:
    (ann,) = machines(tmp_path, "ann")
    path = tmp_path / "g.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    before = path.read_bytes()
    done = ann("seal", "-g", path, "--as", "ann")
    assert done.code == 2 and "make your key first with `splendor key new`" in done.err, done
    assert path.read_bytes() == before


def test_seal_in_an_open_game_is_refused(tmp_path: Path) -> None:
    (ann,) = machines(tmp_path, "ann")
    ann.key()
    path = tmp_path / "open.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob")
    done = ann("seal", "-g", path, "--as", "ann")
    assert done.code == 2 and "is not a sealed game (`splendor new --sealed` makes one)" in done.err, done


def test_a_seat_is_played_by_the_key_that_joined_it(table: tuple[Path, Machine, Machine], tmp_path: Path) -> None:
    """ann's key plays ann: not bob (exit 2), and not out of turn; a key that joined no seat, or
    no key at all, plays nobody; nothing is written."""
    path, ann, bob = table
    before = path.read_bytes()
    done = ann("play", "-g", path, "--as", "bob", "take", "white", "blue", "green")
    assert done.code == 2 and "your key plays ann in this game, not 'bob'" in done.err, done
    done = bob("play", "-g", path, "take", "white", "blue", "green")  # bob's key is here, ann's is not
    assert done.code == 3 and "it is ann's turn, not bob's" in done.err, done
    cy, nobody = machines(tmp_path, "cy", "nobody")
    cy.key()
    done = cy("play", "-g", path, "take", "white", "blue", "green")
    assert done.code == 2 and "your key has not joined this game: say which seat is yours with --as" in done.err
    done = cy("play", "-g", path, "--as", "ann", "take", "white", "blue", "green")
    assert done.code == 3 and "ann joined this game with another key than yours" in done.err, done
    done = nobody("play", "-g", path, "take", "white", "blue", "green")
    assert done.code == 2 and "make your key first with `splendor key new`" in done.err, done
    assert path.read_bytes() == before
    assert "#9 ann: take white blue green" in ann.ok("play", "-g", path, "take", "white", "blue", "green")


# -- a forged file ------------------------------------------------------------------------------


def _blocks(text: str) -> list[str]:
    return text.split("\n[[events]]\n")


def flip(text: str, seq: int, field: str) -> str:
    """`text` with one digit of event `seq`'s `field` (hex or base64; its first value, for a list)
    changed."""
    blocks = _blocks(text)
    found = re.search(rf"""(?m)^{field} = \[?['"]([0-9A-Za-z+/=]+)['"]""", blocks[seq])
    assert found, (seq, field)
    at = found.start(1) + 7
    blocks[seq] = blocks[seq][:at] + ("0" if blocks[seq][at] != "0" else "1") + blocks[seq][at + 1 :]
    return "\n[[events]]\n".join(blocks)


def rechain(text: str) -> str:
    """`text` with every event's `parent` made right again (what a forger would do)."""
    blocks = _blocks(text)
    size = link_length(tomllib.loads(blocks[0])["format"])
    for at in range(2, len(blocks)):
        parent = full_digest(tomllib.loads(blocks[at - 1]))[:size]
        blocks[at] = re.sub(r'(?m)^parent = "[0-9a-f]+"', f'parent = "{parent}"', blocks[at], count=1)
    return "\n[[events]]\n".join(blocks)


@pytest.mark.parametrize(
    ("seq", "field", "said"),
    [
        (10, "sig", "event #10: cards_shown: the signature is not ann's"),
        (10, "shares", "event #10: cards_shown: the signature is not ann's"),
        (9, "sig", "event #9: card_reserved: the signature is not ann's"),
        (4, "deck_1", "event #4: deck_shuffled: the signature is not bob's"),
        (2, "possession", "event #2: the signature of ann's proof of possession does not verify"),
    ],
    ids=["last-sig", "share", "move-sig", "shuffle", "join"],
)
def test_a_forged_event_is_refused_naming_it_and_the_file_is_left_alone(
    table: tuple[Path, Machine, Machine], seq: int, field: str, said: str
) -> None:
    """ann reserves a face-up card (#9) and shows her share of the card dealt in its place (#10);
    one hex digit flipped (the chain made right again after it, as a forger would) makes every
    reader refuse the file (exit 4), even one that read the genuine file before (its cache)."""
    path, ann, bob = table
    card = next(m["card"] for m in moves(ann, path) if m["action"] == "reserve" and "card" in m)
    played = ann.ok("play", "-g", path, "reserve", card)
    assert f"#9 ann: reserve {card}" in played and "#10 ann: shows decryption shares of 1?05" in played
    for machine in (ann, bob):
        machine.ok("show", "-g", path)  # read once whole: what the cache remembers as verified
    forged = rechain(flip(path.read_text(), seq, field))
    path.write_text(forged)
    for machine in (ann, bob):
        for command in (["show"], ["state", "--json"], ["moves"], ["log"]):
            done = machine(*command, "-g", path)
            assert done.code == 4 and said in done.err and done.err.count("\n") == 1, (command, done)
    assert bob("play", "-g", path, "take", "white", "blue", "green").code == 4
    assert bob("seal", "-g", path).code == 4
    assert path.read_text() == forged


# -- what each seat sees ------------------------------------------------------------------------


def _take(options: list[dict[str, Any]], need: dict[str, int], sign: int = 1) -> dict[str, Any]:
    """The take that gives the most of `need` (`sign=-1`: the least), then the most gems."""
    takes = [m for m in options if m["action"] == "take"]
    return max(
        takes,
        key=lambda m: (sign * sum(min(n, need.get(g, 0)) for g, n in m["gems"].items()), sum(m["gems"].values())),
    )


def test_a_blind_reserve_is_seen_by_its_owner_alone_until_bought(
    table: tuple[Path, Machine, Machine], tmp_path: Path
) -> None:
    """ann reserves blind: once bob's share is in (it rides on his move), `state --json --as ann`
    with ann's key opens it, and so does her machine without a seat (her key's seat is the
    default view); on bob's machine, or `--as ann` without her key, it is the placeholder.
    `moves --json` offers ann to buy it once she can; buying it shows it to all."""
    path, ann, bob = table
    played = ann.ok("play", "-g", path, "reserve", "deck", "1")
    assert "#9 ann: reserve deck 1" in played
    assert seat(state(ann, path), "ann")["reserved_blind"] == ["1?05"]
    assert seat(state(ann, path, "--as", "ann"), "ann")["reserved"] == ["1?05"]  # without bob's share, not even ann
    played = bob.ok("play", "-g", path, "take", "white", "blue", "green")
    assert "#10 bob: shows decryption shares of 1?05\n#11 bob: take white blue green" in played
    mine = seat(state(ann, path, "--as", "ann"), "ann")
    (card,) = mine["reserved"]
    assert card in CARDS and mine["reserved_blind"] == [card]
    (stranger,) = machines(tmp_path, "stranger")
    assert seat(state(ann, path), "ann")["reserved"] == [card]  # her machine: her key's seat by default
    for view in (
        state(bob, path),
        state(bob, path, "--as", "bob"),
        state(bob, path, "--as", "ann"),
        state(stranger, path, "--as", "ann"),
    ):
        assert seat(view, "ann")["reserved"] == ["1?05"], view
    for machine, extra in ((bob, ()), (bob, ("--as", "bob")), (ann, ("--as", "bob"))):
        shown = machine.ok("show", "-g", path, *extra)
        assert "? level 1" in shown and "(blind)" in shown and card not in shown
    assert card in ann.ok("show", "-g", path, "--as", "ann") and card in ann.ok("show", "-g", path)
    assert card not in path.read_text() and card not in bob.ok("log", "-g", path)

    cost = CARDS[card].cost
    for _ in range(10):  # ann takes what her card costs; bob takes what she does not need
        offered = moves(ann, path)
        if any(m["notation"].startswith(f"buy {card}") for m in offered):
            break
        tokens = seat(state(ann, path), "ann")["tokens"]
        need = {g.value: max(cost[g] - tokens.get(g.value, 0), 0) for g in Gem if g.value not in ("gold", "pearl")}
        ann.ok("play", "-g", path, _take(offered, need)["notation"])
        bob.ok("play", "-g", path, _take(moves(bob, path), need, sign=-1)["notation"])
    buy = next(m for m in moves(ann, path) if m["notation"].startswith(f"buy {card}"))
    assert buy["action"] == "buy" and buy["card"] == card
    refused = bob("moves", "-g", path, "--json")  # not bob's turn: his key says so (no moves of ann's for him)
    assert refused.code == 3 and "it is ann's turn, not bob's" in refused.err and card not in refused.err
    bought = ann.ok("play", "-g", path, buy["notation"])
    assert re.search(rf"#\d+ ann: shows decryption shares of 1\?05\n#\d+ ann: buy {card}", bought), bought
    for view in (state(bob, path), state(ann, path)):
        assert card in seat(view, "ann")["cards"] and seat(view, "ann")["reserved_blind"] == []


def test_state_and_moves_for_a_seat_that_is_not_to_move(table: tuple[Path, Machine, Machine]) -> None:
    """bob's moves are not listed while ann is to move (`moves --as bob` is refused); a seat
    that does not play is refused too."""
    path, _, bob = table
    done = bob("moves", "-g", path, "--as", "bob")
    assert done.code == 3 and "it is ann's turn, not bob's" in done.err
    for command in (["state", "--json"], ["show"]):
        done = bob(*command, "-g", path, "--as", "zed")
        assert done.code == 2 and "'zed' does not play in this game (players: ann, bob)" in done.err, done


# -- mail before the deal ------------------------------------------------------------------------


def test_apply_before_the_deal_takes_the_events_in(tmp_path: Path) -> None:
    """ann mails the new game with her join; bob's `apply` creates his copy (exit 0); bob joins and
    shuffles (`seal`) and mails that back; ann's `apply` takes it in and adds her shuffle and
    shares (exit 0)."""
    ann, bob = (m.key() for m in machines(tmp_path, "ann", "bob"))
    mine, his = tmp_path / "ann.toml", tmp_path / "bob.toml"
    ann.ok("new", "-g", mine, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", mine, "--as", "ann")
    (tmp_path / "first.eml").write_text(ann.ok("export", "-g", mine, "--whole"))
    created = bob("apply", "-g", his, tmp_path / "first.eml")
    assert "applied #2 ann: joins" in created.out and his.exists()  # the events are in (this holds today)
    bob.ok("seal", "-g", his, "--as", "bob")
    (tmp_path / "second.eml").write_text(bob.ok("export", "-g", his, "--last", "2"))
    answered = ann("apply", "-g", mine, tmp_path / "second.eml")
    assert mine.read_text().count("[[events]]") == 6  # and ann's shuffle and shares (this holds today too)
    assert (created.code, answered.code) == (0, 0), (created, answered)


# -- the log and verify ---------------------------------------------------------------------------

_RANDOM = [
    (re.compile(r"[0-9a-f]{16}\.\.\."), "<hex>..."),
    (re.compile(r"\b(?:[0-9a-f]{4} ){4}[0-9a-f]{4}\b"), "<fingerprint>"),
    (re.compile(r"\b[1-3]-\d\d\b"), "<card>"),
    (re.compile(r"\bN\d\d\b"), "<noble>"),
]


def test_the_log_names_each_step_of_the_protocol(table: tuple[Path, Machine, Machine], snapshot: Any) -> None:
    """The log of the deal, a blind reserve and bob's share of it (the random parts, hex digits
    and card ids, replaced): a snapshot."""
    path, ann, bob = table
    ann.ok("play", "-g", path, "reserve", "deck", "1")
    bob.ok("play", "-g", path, "take", "white", "blue", "green")
    text = ann.ok("log", "-g", path, "--color", "never")
    for pattern, placeholder in _RANDOM:
        text = pattern.sub(placeholder, text)
    assert text == snapshot


def test_a_whole_game_logs_the_keys_and_verify_reports_the_audit(tmp_path: Path) -> None:
    """A finished sealed game (played in memory, every key published): `log` has each player's
    keys, `verify` passes, and `verify --json` has the `sealed` object: signatures, reveals,
    shuffles re-made, cards opened, the blind reserves nobody bought."""
    from sealed_helpers import sealed_game

    record, _ = sealed_game("base", 2, seed=2)
    path = tmp_path / "whole.toml"
    path.write_text(format_record(record))
    (reader,) = machines(tmp_path, "reader")
    log = reader.ok("log", "-g", path, "--color", "never")
    for words in (
        "ann  joins with their keys",
        "bob  shuffles and seals the decks",
        "shows decryption shares of",
        "the cards are dealt from the sealed decks",
        "ann  publishes their keys of the game",
        "bob  publishes their keys of the game",
    ):
        assert words in log, words
    report = json.loads(reader.ok("verify", "-g", path, "--json"))
    sealed = report["sealed"]
    assert report["ok"] and report["finished"]
    assert sealed["signed"] == len(record.events) - 2 and sealed["problems"] == [] and sealed["unpublished"] == []
    assert sealed["shuffles_checked"] == 6 and sealed["cards_opened"] == 90
    assert set(sealed["blind_reserves"]) <= {"ann", "bob"}
    text = reader.ok("verify", "-g", path)
    assert "audit: 6 shuffles re-made from their seeds, 90 sealed cards opened" in text
