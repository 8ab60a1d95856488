"""Chance, in any game: a seeded random source, or SHA-256 when the players deal together (pure).

Dealing by commit-then-reveal means nobody alone chooses the shuffle. Each player commits to a
secret (the SHA-256 of their name and the secret), then, once all have committed, reveals it.
The shuffle is drawn from SHA-256 of all the secrets in turn order, by a Fisher-Yates shuffle
fed by SHA-256 in counter mode: spelled out here, so that it never changes with Python's
`random` module. The setup event that follows must be exactly the deal the game makes with
that `SeededChance`. The same stream also decides draws the log makes (a Duel's replenish).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from ..errors import IllegalMoveError
from ..events import SeedCommitted, SeedRevealed

if TYPE_CHECKING:
    import random


def commitment(player: str, secret: str) -> str:
    """What a player commits to: SHA-256 of their name and secret (the name binds it to them)."""
    return hashlib.sha256(f"splendor-seed:{player}:{secret}".encode()).hexdigest()


class _Stream:
    """Whole numbers drawn from SHA-256 in counter mode."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.counter, self.pool = seed, 0, b""

    def below(self, n: int) -> int:
        """A uniform whole number in [0, n), by rejection of the biased top of 32 bits."""
        limit = (1 << 32) // n * n
        while True:
            if len(self.pool) < 4:
                self.pool += hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
                self.counter += 1
            value, self.pool = int.from_bytes(self.pool[:4], "big"), self.pool[4:]
            if value < limit:
                return value % n


def shuffled(items: Sequence[str], seed: bytes, label: str) -> tuple[str, ...]:
    """`items` shuffled by Fisher-Yates fed from SHA-256 of `seed` and `label`: the same everywhere."""
    out = list(items)
    stream = _Stream(hashlib.sha256(seed + label.encode()).digest())
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@attrs.frozen
class SeededChance:
    """Chance that follows from `seed` alone: every reader computes the same draws."""

    seed: bytes

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        return shuffled(items, self.seed, label)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return shuffled(items, self.seed, label)[:count]


@attrs.frozen
class RandomChance:
    """Chance from a `random.Random` (a new game's deal, a simulated game); labels are ignored."""

    rng: random.Random

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        out = list(items)
        self.rng.shuffle(out)
        return tuple(out)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return tuple(self.rng.sample(list(items), count))


@attrs.frozen(kw_only=True)
class Seeding:
    """Where a commit-then-reveal deal stands: who has committed, who has revealed."""

    players: tuple[str, ...]
    commitments: tuple[tuple[str, str], ...] = ()
    secrets: tuple[tuple[str, str], ...] = ()

    def waiting(self) -> str:
        """Who the deal is waiting for, and for what."""
        committed = dict(self.commitments)
        if len(committed) < len(self.players):
            late = [p for p in self.players if p not in committed]
            return f"waiting for {', '.join(late)} to commit a seed (`splendor seed --as NAME`)"
        revealed = dict(self.secrets)
        late = [p for p in self.players if p not in revealed]
        if late:
            return f"waiting for {', '.join(late)} to reveal their seed (`splendor seed --as NAME`)"
        return "every seed is revealed: the cards can be dealt"

    @property
    def complete(self) -> bool:
        """Every secret is revealed: the deal can be made."""
        return len(self.secrets) == len(self.players)

    def next_step(self, player: str) -> str:
        """What `player` does next: "commit", "reveal", or "" when they have nothing to do."""
        if player not in dict(self.commitments):
            return "commit"
        if len(self.commitments) == len(self.players) and player not in dict(self.secrets):
            return "reveal"
        return ""

    def commit(self, event: SeedCommitted) -> Seeding:
        self._check_player(event.player)
        if self.next_step(event.player) != "commit":
            raise IllegalMoveError(f"{event.player} has committed a seed already", rule="seed")
        if len(event.commitment) != 64 or any(c not in "0123456789abcdef" for c in event.commitment):
            raise IllegalMoveError("a commitment is 64 hex digits (SHA-256)", rule="seed")
        return attrs.evolve(self, commitments=(*self.commitments, (event.player, event.commitment)))

    def reveal(self, event: SeedRevealed) -> Seeding:
        self._check_player(event.player)
        if self.next_step(event.player) != "reveal":
            why = "has revealed already" if event.player in dict(self.secrets) else "must wait for every commitment"
            raise IllegalMoveError(f"{event.player} {why}", rule="seed")
        if commitment(event.player, event.secret) != dict(self.commitments)[event.player]:
            raise IllegalMoveError(f"{event.player}'s secret does not match their commitment", rule="seed")
        return attrs.evolve(self, secrets=(*self.secrets, (event.player, event.secret)))

    def chance(self) -> SeededChance:
        """The chance the revealed secrets give (in turn order), once every one is revealed."""
        if not self.complete:
            raise IllegalMoveError(f"the cards cannot be dealt yet: {self.waiting()}", rule="seed")
        revealed = dict(self.secrets)
        return SeededChance(hashlib.sha256("|".join(revealed[p] for p in self.players).encode()).digest())

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise IllegalMoveError(f"{player!r} does not play in this game", rule="seed")
