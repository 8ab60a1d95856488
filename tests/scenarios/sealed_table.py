"""People at a sealed game (issue 15), each on their own machine: their own HOME, data folder
(their key, made with `splendor key new`), config folder, cache (or none), and what they saw.

`equip` gives a `scenarios.table.Player` all that; `choose` picks a move among `moves --json`
(seeded, and eager to buy, so that games end sooner; now and then a blind reserve); `Witness`
keeps every text each player's commands printed and each copy of their game file, with the
number of events their copy had then, so that after the game, once every key is published,
`assert_nothing_seen_too_soon` can open every sealed card and check that nobody saw one before
every player's share of it was in (a blind reserve: but its owner).
"""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
import os
import random
import re
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any

import attrs
from scenarios.table import Player

from splendor_cli import store

SETUPS = ("game_started", "duel_started")
"""The setup events: the only events of a sealed game after the first that nobody signs."""
BLIND = ("card_reserved", "gold_reserved")
"""The events that may reserve a card blind (`blind = true`)."""
BOUGHT = ("card_purchased", "duel_card_bought")


def equip(player: Player, root: Path, *, cache: bool = True, memory: bool = True) -> Player:
    """Give `player` their own HOME, data, config and secrets folders, their own cache
    (`cache=False`: SPLENDOR_NO_CACHE=1), the memory of seen games in their data folder (unless
    `memory=False`), and a key of their own (`splendor key new --name NAME`)."""
    base = root / f"{player.name}-machine"
    folders = {
        "HOME": base,
        "XDG_DATA_HOME": base / "data",
        "XDG_CONFIG_HOME": base / "config",
        "SPLENDOR_SECRETS": base / "secrets",
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    player.env.update({name: str(folder) for name, folder in folders.items()})
    if memory:
        player.env["SPLENDOR_NO_MEMORY"] = ""
    if cache:
        player.env["SPLENDOR_CACHE"] = str(base / "cache")
    else:
        player.env["SPLENDOR_NO_CACHE"] = "1"
    made = player.splendor("key", "new", "--name", player.name).stdout
    assert f"made the keys of {player.name}" in made, made
    return player


def mail_settings(player: Player, port: int) -> None:
    """The player's SMTP settings (their own config folder): the test's server on 127.0.0.1."""
    config = Path(player.env["XDG_CONFIG_HOME"]) / "splendor"
    config.mkdir(parents=True, exist_ok=True)
    (config / "notify.toml").write_text(
        f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\nfrom = "{player.name} <{player.email}>"\n'
    )


class Post:
    """The mail system: each envelope the SMTP server took is delivered into each recipient's Maildir."""

    def __init__(self, sink: Any, root: Path, names: tuple[str, ...]) -> None:
        self.sink, self.done = sink, 0
        self.boxes = {f"{n}@example.org": root / "mail" / n for n in names}
        for box in self.boxes.values():
            box.parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(str(box), create=True)
        self.subjects: dict[str, list[str]] = {n: [] for n in names}

    def box(self, name: str) -> str:
        return str(self.boxes[f"{name}@example.org"])

    def deliver(self) -> int:
        """Deliver what the server took since the last call; how many messages."""
        envelopes = self.sink.envelopes
        for _, rcpts, raw in envelopes[self.done :]:
            message = email.message_from_bytes(raw, policy=email.policy.default)
            for rcpt in rcpts:
                mailbox.Maildir(str(self.boxes[rcpt])).add(raw)
                self.subjects[rcpt.partition("@")[0]].append(str(message["Subject"]))
        count = len(envelopes) - self.done
        self.done = len(envelopes)
        return count


# -- the game file, read as text ----------------------------------------------------------------


def events_of(path: Path) -> list[dict[str, Any]]:
    """The events of a game file, as its TOML says them."""
    events: list[dict[str, Any]] = tomllib.loads(path.read_text())["events"]
    return events


def seq_of(path: Path) -> int:
    """How many events the file holds (its last seq), counted in its text."""
    return path.read_text().count("\n[[events]]\n")


def assert_signed(path: Path) -> int:
    """Every event after the first is signed (128 hex digits) but the setup, which nobody signs;
    the number of signed events."""
    events = events_of(path)
    assert events[0]["type"] == "sealed_asked" and "sig" not in events[0]
    signed = 0
    for event in events[1:]:
        if event["type"] in SETUPS:
            assert "sig" not in event, event
            continue
        assert re.fullmatch(r"[0-9a-f]{128}", event.get("sig", "")), event
        signed += 1
    assert sum(e["type"] in SETUPS for e in events) == 1
    return signed


# -- choosing a move ----------------------------------------------------------------------------


def choose(variant: str, moves: list[dict[str, Any]], rng: random.Random, blind: float = 0.12) -> dict[str, Any]:
    """A move of `moves --json`: the buy worth the most (points, and a Duel's crowns), else now and
    then (`blind`) a blind reserve, else the take of the most tokens; in a Duel, never an optional
    step but a buy."""
    if variant == "duel":
        from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS

        buys = [m for m in moves if m.get("step") == "buy"]
        if buys:
            return max(buys, key=lambda m: (DUEL_CARDS[m["card"]].points + DUEL_CARDS[m["card"]].crowns, rng.random()))
        takes = [m for m in moves if m.get("step") == "take"]
        if takes:
            blinds = [m for m in moves if m.get("step") == "reserve" and "deck" in m]
            if blinds and rng.random() < blind:
                return rng.choice(blinds)
            most = max(len(m["cells"]) for m in takes)
            return rng.choice([m for m in takes if len(m["cells"]) == most])
        return rng.choice([m for m in moves if m.get("step") not in ("privilege", "replenish")] or moves)
    from splendor_cli.variants.base.cards import CARDS

    buys = [m for m in moves if m["action"] == "buy"]
    if buys:
        return max(buys, key=lambda m: (CARDS[m["card"]].points, rng.random()))
    blinds = [m for m in moves if m["action"] == "reserve" and "deck" in m]
    if blinds and rng.random() < blind:
        return rng.choice(blinds)
    takes = [m for m in moves if m["action"] == "take"]
    threes = [m for m in takes if sum(m["gems"].values()) == 3]
    return rng.choice(threes or takes or moves)


def notations(moves_text: str) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = json.loads(moves_text)
    return moves


# -- what each player saw -----------------------------------------------------------------------


CARD_ID = re.compile(r"(?<![\w?-])[1-3]-\d\d(?![\w?-])")
"""A card id as a word of its own (`1-10`; not in `2026-11-10` nor in a hex digest)."""


def card_ids(text: str) -> set[str]:
    return set(CARD_ID.findall(text))


@attrs.define
class Witness:
    """Every text each player's commands printed, and each copy of their game file, with the
    number of events their copy held then."""

    seen: dict[str, list[tuple[int, str, set[str]]]] = attrs.Factory(dict)
    """By player: the seq of their copy, what they ran, and the card ids it printed (or the file held)."""
    times: dict[str, list[float]] = attrs.Factory(dict)
    """The seconds each kind of command took (`apply`, `play`...), to say where a game's time goes."""

    def note(self, player: str, seq: int, what: str, text: str) -> None:
        self.seen.setdefault(player, []).append((seq, what, card_ids(text)))

    def run(self, player: Player, path: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        """`player.splendor(*args)`, its stdout and stderr noted with the seq of their copy after it."""
        started = time.monotonic()
        done = player.splendor(*args, ok=ok)
        took = time.monotonic() - started
        self.times.setdefault(args[0], []).append(took)
        if os.environ.get("SEALED_TRACE"):  # where a scenario's time goes, as it goes
            with open(os.environ["SEALED_TRACE"], "a") as trace:
                trace.write(f"{took:6.2f}s {player.name} {' '.join(args)[:80]} -> {done.returncode}\n")
        seq = seq_of(path) if path.exists() else 0
        self.note(player.name, seq, " ".join(args[:2]), done.stdout + done.stderr)
        return done

    def copy(self, player: Player, path: Path) -> None:
        """The player's copy of the game file, as it is now."""
        self.note(player.name, seq_of(path), "file", path.read_text())

    def timing(self) -> str:
        """Each kind of command: how many ran, their mean and total seconds."""
        rows = sorted(self.times.items(), key=lambda kv: -sum(kv[1]))
        return ", ".join(f"{k} {len(v)}x{sum(v) / len(v):.2f}s={sum(v):.0f}s" for k, v in rows)


def truth_of(path: Path) -> dict[str, str]:
    """Every placeholder of a finished sealed game, opened with every published key."""
    from sealed_helpers import truth

    sealing = store.read(str(path)).game.sealing
    assert sealing is not None and set(sealing.published) == set(sealing.players), "every key published"
    return truth(sealing)


@attrs.frozen
class Kept:
    """What `assert_nothing_seen_too_soon` looked at."""

    texts: int
    """The texts looked at (command outputs, copies of the file)."""
    sealed: int
    """The cards that stayed sealed to the end (never revealed to all)."""
    blind: dict[str, tuple[str, ...]]
    """Each player's blind reserves, opened."""
    watched: dict[str, int]
    """By player: their texts made while another player held a blind reserve they had not shown."""


def assert_nothing_seen_too_soon(path: Path, witness: Witness) -> Kept:
    """Nobody saw a card before every player's share of it was in, but the owner of a blind
    reserve (their own: every share but theirs is in once the others have moved): in nothing their
    commands printed, nor in their copy of the file, while that copy had not every share of it.

    Once every key is published (the game is over), every placeholder is opened; a card dealt
    face up is seen by all once its last share is in (its reveal), a card reserved blind once its
    owner shows their share (buying it), a card still in a deck never."""
    events = events_of(path)
    players = tuple(events[0]["players"])
    opened = truth_of(path)
    shares: dict[str, set[str]] = {}
    revealed: dict[str, int] = {}  # the seq that made each card public
    for event in events:
        if event["type"] == "cards_shown":
            for card in event["cards"]:
                shares.setdefault(card, set()).add(event["player"])
                if shares[card] == set(players) and card not in revealed:
                    revealed[card] = event["seq"]
    blind = [e for e in events if e["type"] in BLIND and e["blind"]]
    owners = {e["card"]: e["player"] for e in blind}
    never = len(events) + 1
    looked = 0
    watched: dict[str, int] = {}
    for player, texts in witness.seen.items():
        hidden = sorted(
            (revealed.get(placeholder, never), card)
            for placeholder, card in opened.items()
            if owners.get(placeholder) != player
        )
        held = [(e["seq"], revealed.get(e["card"], never)) for e in blind if e["player"] != player]
        for seq, what, ids in texts:
            looked += 1
            early = {card for until, card in hidden if seq < until}
            assert not ids & early, f"{player} saw {sorted(ids & early)} in `{what}` with #{seq} in their copy"
            if any(start <= seq < end for start, end in held):
                watched[player] = watched.get(player, 0) + 1
    reserves: dict[str, tuple[str, ...]] = {}
    for event in blind:
        reserves[event["player"]] = (*reserves.get(event["player"], ()), opened[event["card"]])
    return Kept(
        texts=looked,
        sealed=sum(placeholder not in revealed for placeholder in opened),
        blind=reserves,
        watched=watched,
    )


def outstanding(path: Path, owner: str) -> list[str]:
    """The placeholders of `owner`'s blind reserves that their share has not shown yet."""
    events = events_of(path)
    reserved = [e["card"] for e in events if e["type"] in BLIND and e["blind"] and e["player"] == owner]
    shown = {c for e in events if e["type"] == "cards_shown" and e["player"] == owner for c in e["cards"]}
    return [card for card in reserved if card not in shown]
