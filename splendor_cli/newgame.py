"""Dealing a new game: the one place where chance enters, recorded as its outcome."""

from __future__ import annotations

import random

from .cards import DECKS, NOBLES
from .errors import UsageError
from .events import GameStarted


def parse_players(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`alice=alice@example.org,bob`: the names, and the e-mails (empty when none is given).

    Raises:
        UsageError: a bad name, a bad address, or not 2 to 4 distinct players.
    """
    names, emails = [], []
    for item in text.split(","):
        name, _, email = item.partition("=")
        email = email.strip()
        if email and ("@" not in email or any(c.isspace() or c in ",;\"'<>" for c in email)):
            raise UsageError(f"bad e-mail address {email!r} for {name.strip()!r}")
        names.append(name)
        emails.append(email)
    return check_players(names), tuple(emails) if any(emails) else ()


def check_players(players: list[str]) -> tuple[str, ...]:
    """Refuse a player list the game cannot have: 2 to 4 distinct, non-empty, simple names."""
    names = tuple(p.strip() for p in players)
    if not 2 <= len(names) <= 4:
        raise UsageError(f"Splendor is for 2 to 4 players, not {len(names)}")
    for name in names:
        if not name or any(c.isspace() or c in ",=;\"'" for c in name):
            raise UsageError(f"bad player name {name!r}: use letters, digits, '-', '_', '.', ':' or '@'")
    if len(set(names)) != len(names):
        raise UsageError(f"player names must differ: {', '.join(names)}")
    return names


def deal(players: tuple[str, ...], rng: random.Random) -> GameStarted:
    """Shuffle the decks and reveal players + 1 nobles; the event records the outcome."""
    decks = []
    for level in (1, 2, 3):
        deck = list(DECKS[level])
        rng.shuffle(deck)
        decks.append(tuple(deck))
    nobles = tuple(rng.sample(sorted(NOBLES), len(players) + 1))
    return GameStarted.of(players, tuple(decks), nobles)
