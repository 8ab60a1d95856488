"""Issue 15's "done means", by mail: two people play a sealed game to the end with nothing but
mail (a real SMTP server on 127.0.0.1, real Maildirs), each on their own machine: their own HOME,
data folder and key (`splendor key new`), their own cache (ann) or none (bob).

ann starts the game (`new --sealed`), joins it (`seal --as ann`) and mails it whole; bob takes it
in (`apply --maildir`) and joins (`seal --as bob`, the only time he says who he is); from then on
each mail taken in brings the sender's events, and `apply` writes the local player's part of the
protocol (shuffle, shares, keys) on its own. The player to move looks (`moves --json`), plays,
and mails every event the other lacks (`export --to`). After the last move each runs `seal`
(nothing is left: the keys went out with the last mails), both copies are the same bytes, every
event but the first and the setup is signed, `verify` re-makes every shuffle, and, once the
keys open every sealed card, nobody saw a card before every share of it was in (a blind reserve:
before its owner bought it; a card left in a deck: never), in what their commands printed (`show`,
`state --json`, `moves --json`, `log`, `apply`, `play`) or in their copy of the file. Each player
looks at the table every way (`show`, `state --json`, `log`) whenever the other holds a new blind
reserve.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path

import pytest
from scenarios.sealed_table import (
    Post,
    Witness,
    assert_nothing_seen_too_soon,
    assert_signed,
    choose,
    equip,
    mail_settings,
    outstanding,
    seq_of,
)
from scenarios.table import Player
from sharing.test_notify import smtp_sink

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

NAMES = ("ann", "bob")
TURNS = {"base": 200, "duel": 300}
"""The most moves (a Duel's steps) played before the test gives up: far more than a game takes."""


class MailGame:
    """Two people, a mail server, and the game file each holds."""

    def __init__(self, tmp_path: Path, post: Post, variant: str, seed: int) -> None:
        self.variant, self.post, self.rng = variant, post, random.Random(seed)
        self.people: dict[str, Player] = {}
        for name in NAMES:
            player = Player(name=name, home=tmp_path / name)
            (player.home / "games").mkdir(parents=True)
            equip(player, tmp_path, cache=name == "ann")
            mail_settings(player, post.sink.port)
            self.people[name] = player
        self.paths: dict[str, Path] = {}
        self.witness = Witness()
        self.to_move: str | None = None
        self.finished = False
        self.moves = 0
        self.waited = 0
        """Moves that had to wait for the other's share (exit 3), and were played after the next mail."""
        self.looked: set[tuple[str, str]] = set()
        """Who looked at the table (`show`, `state`, `log`) for which of the other's blind reserves."""
        self.opened: set[tuple[str, str]] = set()
        """Who saw which of their own blind reserves face up (`state --as`)."""

    def other(self, name: str) -> str:
        return NAMES[1 - NAMES.index(name)]

    def run(self, name: str, *args: str, ok: bool = True) -> str:
        done = self.witness.run(self.people[name], self.paths.get(name, Path("-")), *args, ok=ok)
        return str(done.stdout)

    def mail(self, sender: str, *extra: str) -> None:
        """`sender` mails the other every event they lack; it is delivered."""
        receiver = self.other(sender)
        missing = seq_of(self.paths[sender]) - (seq_of(self.paths[receiver]) if receiver in self.paths else 0)
        assert missing > 0
        to = f"{receiver}@example.org"
        sent = self.run(sender, "export", "-g", str(self.paths[sender]), "--to", to, "--last", str(missing), *extra)
        assert sent.startswith("sent #"), sent
        assert self.post.deliver() == 1

    def take_in(self, name: str) -> str:
        """`name` applies every mail of their Maildir (the first time, it creates their copy)."""
        path = self.paths.get(name, Path("-"))
        done = self.witness.run(self.people[name], path, "apply", "--maildir", self.post.box(name), ok=False)
        created = re.search(r"created (games/\S+\.toml)", done.stdout)
        if created:
            self.paths[name] = self.people[name].home / created.group(1)
        assert done.returncode == 0 and "0 failed" in done.stdout, (done.stdout, done.stderr)
        self.witness.copy(self.people[name], self.paths[name])
        return done.stdout

    def started(self, name: str) -> bool:
        """Whether the cards are dealt in `name`'s copy."""
        text = self.paths[name].read_text()
        return 'type = "game_started"' in text or 'type = "duel_started"' in text

    def look(self, name: str) -> None:
        """When the other holds a blind reserve: what `name` sees of the table, every way."""
        path = str(self.paths[name])
        hidden = outstanding(self.paths[name], self.other(name))
        if not {(name, card) for card in hidden} - self.looked:
            return  # looked at once for each blind reserve: enough, and the game stays short
        self.looked |= {(name, card) for card in hidden}
        shown = self.run(name, "show", "-g", path, "--as", name, "--color", "never")
        seen = json.loads(self.run(name, "state", "-g", path, "--json", "--as", name))
        spectator = json.loads(self.run(name, "state", "-g", path, "--json"))
        self.run(name, "log", "-g", path, "--color", "never")
        for view in (seen, spectator):
            (theirs,) = [p for p in view["players"] if p["name"] == self.other(name)]
            assert set(hidden) <= set(theirs["reserved_blind"]), (hidden, theirs)
        assert "(blind)" in shown

    def see_own(self, name: str) -> None:
        """The player to move sees every card they reserved blind (their turn waits for that)."""
        held = {(name, card) for card in outstanding(self.paths[name], name)}
        if not held - self.opened:
            return
        self.opened |= held
        seen = json.loads(self.run(name, "state", "-g", str(self.paths[name]), "--json", "--as", name))
        (mine,) = [p for p in seen["players"] if p["name"] == name]
        assert mine["reserved_blind"] and not any("?" in card for card in mine["reserved"]), mine

    def turn(self, name: str) -> None:
        """`name` plays while it is their turn: look, list the moves, play one."""
        path = str(self.paths[name])
        self.look(name)
        self.see_own(name)
        while self.to_move == name and not self.finished:
            moves = json.loads(self.run(name, "moves", "-g", path, "--json"))
            assert moves, f"{name} is to move and has no move"
            move = choose(self.variant, moves, self.rng)
            done = self.witness.run(
                self.people[name], self.paths[name], "play", "-g", path, "--json", move["notation"], ok=False
            )
            if done.returncode == 3 and "your move waits" in done.stderr:
                # a Duel's extra turn, right after a card was dealt face up: it waits for the
                # other's share of it, which comes back with the next mail
                assert f"{self.other(name)}'s decryption share" in done.stderr, done.stderr
                self.waited += 1
                return
            assert done.returncode == 0, (done.stdout, done.stderr)
            played = json.loads(done.stdout)
            self.to_move, self.finished = played["to_move"], played["finished"]
            self.moves += 1
            assert self.moves < TURNS[self.variant], "the game does not end"

    def whose_turn(self, name: str) -> None:
        """Once the cards are dealt: whose turn it is, as `name` sees it (asked once)."""
        if self.to_move is None and self.started(name):
            now = json.loads(self.run(name, "state", "-g", str(self.paths[name]), "--json", "--as", name))
            self.to_move, self.finished = now["to_move"], now["finished"]


def play_by_mail(tmp_path: Path, variant: str, seed: int) -> tuple[MailGame, dict[str, str]]:
    """A whole sealed game by mail; the game, and each player's `verify` report."""
    with smtp_sink() as smtp:
        game = MailGame(tmp_path, Post(smtp, tmp_path, NAMES), variant, seed)
        ann_path = game.people["ann"].home / "games" / "sealed.toml"
        game.paths["ann"] = ann_path
        players = ",".join(f"{n}={n}@example.org" for n in NAMES)
        game.run("ann", "new", "-g", str(ann_path), "--players", players, "--sealed", "--variant", variant)
        joined = game.run("ann", "seal", "-g", str(ann_path), "--as", "ann")
        assert "#2 ann: joins with their keys" in joined and "waiting for bob to join" in joined
        game.mail("ann", "--whole")

        assert "created games/" in game.take_in("bob")
        assert seq_of(game.paths["bob"]) == 2  # no key had joined bob's seat: apply wrote nothing of his
        joined = game.run("bob", "seal", "--as", "bob", "-g", str(game.paths["bob"]))
        assert "#3 bob: joins" in joined and "#4 bob: shuffles" in joined

        sender = "bob"
        while True:
            receiver = game.other(sender)
            game.mail(sender)
            game.take_in(receiver)
            game.whose_turn(receiver)
            game.turn(receiver)
            if seq_of(game.paths[receiver]) == seq_of(game.paths[sender]):
                break  # nothing new to send back
            sender = receiver
        assert game.finished, "the game ended"

        # every player's `seal` (their keys went out already: nothing is left to do)
        for name in NAMES:
            done = game.run(name, "seal", "-g", str(game.paths[name]))
            assert f"{name} has nothing to do now" in done, done
        reports = {}
        for name in NAMES:
            path = str(game.paths[name])
            game.witness.copy(game.people[name], game.paths[name])
            verified = game.people[name].splendor("verify", "-g", path)
            reports[name] = verified.stdout
            sealed = json.loads(game.people[name].splendor("verify", "-g", path, "--json").stdout)["sealed"]
            assert sealed, sealed
        assert game.paths["ann"].read_bytes() == game.paths["bob"].read_bytes()
    return game, reports


FULL = bool(os.environ.get("SPLENDOR_FULL_SCENARIOS"))
"""Also play the Duel by mail to the end (two minutes more: the base game is the suite's)."""


@pytest.mark.parametrize(
    ("variant", "seed"),
    [
        ("base", 3),
        pytest.param("duel", 4, marks=pytest.mark.skipif(not FULL, reason="SPLENDOR_FULL_SCENARIOS=1 plays it")),
    ],
)
def test_two_people_play_a_sealed_game_by_mail_to_the_end(tmp_path: Path, variant: str, seed: int) -> None:
    started = time.monotonic()
    game, reports = play_by_mail(tmp_path, variant, seed)
    path = game.paths["ann"]
    signed = assert_signed(path)
    assert signed == seq_of(path) - 2
    shuffles = len(NAMES) * 3
    for report in reports.values():
        assert " ok " in report or ": ok" in report, report
        assert f"sealed: {signed} events signed, each checked" in report, report
        assert f"audit: {shuffles} shuffles re-made from their seeds" in report, report
    assert game.looked and game.opened, "blind reserves were made, seen by their owner, looked at by the other"
    kept = assert_nothing_seen_too_soon(path, game.witness)
    assert kept.blind and kept.watched and kept.sealed, kept  # blind reserves were held while the other looked
    print(
        f"\n{variant}: {game.moves} moves ({game.waited} waited for a share), {seq_of(path)} events,"
        f" {time.monotonic() - started:.1f}s\n{game.witness.timing()}\n{kept}\n{reports['bob']}"
    )
