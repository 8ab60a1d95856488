"""Dealing a new game: the one place where chance enters, recorded as its outcome."""

from __future__ import annotations

import random

from .cards import DECKS, DUEL_DECKS, NOBLES
from .errors import UsageError
from .events import DuelStarted, GameStarted
from .projection.duel import TOKENS, board_of


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
        twins = " (tell two alike bots apart with #: bot:greedy#1,bot:greedy#2)" if any(":" in n for n in names) else ""
        raise UsageError(f"player names must differ: {', '.join(names)}{twins}")
    return names


def _shuffled(decks: dict[int, tuple[str, ...]], rng: random.Random) -> tuple[tuple[str, ...], ...]:
    shuffled = []
    for level in (1, 2, 3):
        deck = list(decks[level])
        rng.shuffle(deck)
        shuffled.append(tuple(deck))
    return tuple(shuffled)


def deal(players: tuple[str, ...], rng: random.Random) -> GameStarted:
    """Shuffle the decks and reveal players + 1 nobles; the event records the outcome."""
    decks = _shuffled(DECKS, rng)
    nobles = tuple(rng.sample(sorted(NOBLES), len(players) + 1))
    return GameStarted.of(players, decks, nobles)


def deal_duel(players: tuple[str, ...], rng: random.Random) -> DuelStarted:
    """Shuffle the three decks, and draw the 25 tokens from the bag onto the board in spiral
    order (duel_board.md); the event records the outcome."""
    deck_1, deck_2, deck_3 = _shuffled(DUEL_DECKS, rng)
    bag = list(TOKENS.gems())
    rng.shuffle(bag)
    return DuelStarted(
        seq=1, parent="", players=players, deck_1=deck_1, deck_2=deck_2, deck_3=deck_3, board=board_of(tuple(bag))
    )
