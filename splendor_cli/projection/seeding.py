"""Chance, in any game: a seeded random source, or SHA-256 when the players deal together (pure).

Dealing by commit-then-reveal means nobody alone chooses the shuffle. Each player commits to a
secret (the SHA-256 of their name and the secret), then, once all have committed, reveals it.
The shuffle is drawn from SHA-256 of all the secrets in turn order, by a Fisher-Yates shuffle
fed by SHA-256 in counter mode: spelled out here, so that it never changes with Python's
`random` module. The setup event that follows must be exactly the deal the game makes with
that `SeededChance`. The same stream also decides draws the log makes (a Duel's replenish).

A stuck deal starts over (`SeedsRestarted`, `splendor seed --as NAME --restart`). The last
player to reveal can work out the deal before anyone else, and may then never reveal. So once
every player has committed, at least one has revealed and at least one has not, a player who
has revealed may restart the deal, naming exactly the players who have not revealed (in turn
order) in `without`. The rule after a restart is the simple one: the round starts over among
all the players. Every commitment and every secret before it stops counting, and each player
commits a NEW secret. A revealed secret is public, so a commitment made in an earlier round may
not be made again (the CLI draws a fresh secret each round and keeps it in a file named with the
round). The deal follows from the new round's secrets alone. A player named in `without` plays
on and commits again like anyone; but they may never ask for a restart themselves, in this
round or a later one. What is left to the players: each restart gives a withholding player one
more look at a deal, so the log names them in every `without` for all to see, and the others
may refuse to go on with a player who withholds again.
"""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import sha256
from typing import TYPE_CHECKING

import attrs

from ..errors import IllegalMoveError, excerpt
from ..events import SeedCommitted, SeedRevealed, SeedsRestarted

if TYPE_CHECKING:
    import random


def commitment(player: str, secret: str) -> str:
    """What a player commits to: SHA-256 of their name and secret (the name binds it to them)."""
    return sha256(f"splendor-seed:{player}:{secret}".encode()).hexdigest()


class _Stream:
    """Whole numbers drawn from SHA-256 in counter mode."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.counter, self.pool = seed, 0, b""

    def below(self, n: int) -> int:
        """A uniform whole number in [0, n), by rejection of the biased top of 32 bits."""
        limit = (1 << 32) // n * n
        while True:
            if len(self.pool) < 4:
                self.pool += sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
                self.counter += 1
            value, self.pool = int.from_bytes(self.pool[:4], "big"), self.pool[4:]
            if value < limit:
                return value % n


def shuffled(items: Sequence[str], seed: bytes, label: str) -> tuple[str, ...]:
    """`items` shuffled by Fisher-Yates fed from SHA-256 of `seed` and `label`: the same everywhere."""
    out = list(items)
    stream = _Stream(sha256(seed + label.encode()).digest())
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
    """Where a commit-then-reveal deal stands: who has committed, who has revealed.

    `round` counts the rounds (1, then one more after each restart); `spent` holds the
    commitments of the rounds before, which may not be made again; `withheld` the players named
    in a restart's `without`, who may not ask for a restart.
    """

    players: tuple[str, ...]
    commitments: tuple[tuple[str, str], ...] = ()
    secrets: tuple[tuple[str, str], ...] = ()
    round: int = 1
    spent: frozenset[str] = frozenset()
    withheld: tuple[str, ...] = ()

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
        if event.commitment in self.spent:
            raise IllegalMoveError(
                f"{event.player} commits to a secret of a round before the restart: commit a new one", rule="seed"
            )
        return attrs.evolve(self, commitments=(*self.commitments, (event.player, event.commitment)))

    def reveal(self, event: SeedRevealed) -> Seeding:
        self._check_player(event.player)
        if self.next_step(event.player) != "reveal":
            why = "has revealed already" if event.player in dict(self.secrets) else "must wait for every commitment"
            raise IllegalMoveError(f"{event.player} {why}", rule="seed")
        if commitment(event.player, event.secret) != dict(self.commitments)[event.player]:
            raise IllegalMoveError(f"{event.player}'s secret does not match their commitment", rule="seed")
        return attrs.evolve(self, secrets=(*self.secrets, (event.player, event.secret)))

    def stuck(self) -> tuple[str, ...]:
        """The players whose reveal the deal waits for, when a restart may be asked (else ()):
        every player has committed, at least one has revealed, and at least one has not."""
        if len(self.commitments) < len(self.players) or not self.secrets:
            return ()
        revealed = dict(self.secrets)
        return tuple(p for p in self.players if p not in revealed)

    def restart(self, event: SeedsRestarted) -> Seeding:
        """A new round: every commitment and secret so far stops counting (see the module's docstring)."""
        self._check_player(event.by)
        late = self.stuck()
        if not late:
            raise IllegalMoveError(
                f"the deal is not stuck on a player who does not reveal, so it may not restart: {self.waiting()}",
                rule="seed",
            )
        if event.by in self.withheld:
            raise IllegalMoveError(f"{event.by} withheld a seed before, so may not ask for a restart", rule="seed")
        if event.by not in dict(self.secrets):
            raise IllegalMoveError(f"only a player who has revealed may ask for a restart, not {event.by}", rule="seed")
        if tuple(event.without) != late:
            raise IllegalMoveError(
                f"a restart names exactly the players who have not revealed: {', '.join(late)}", rule="seed"
            )
        return Seeding(
            players=self.players,
            round=self.round + 1,
            spent=self.spent | {c for _, c in self.commitments},
            withheld=(*self.withheld, *(p for p in late if p not in self.withheld)),
        )

    def chance(self) -> SeededChance:
        """The chance the revealed secrets give (in turn order), once every one is revealed."""
        if not self.complete:
            raise IllegalMoveError(f"the cards cannot be dealt yet: {self.waiting()}", rule="seed")
        revealed = dict(self.secrets)
        return SeededChance(sha256("|".join(revealed[p] for p in self.players).encode()).digest())

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise IllegalMoveError(f"{excerpt(player)} does not play in this game", rule="seed")
