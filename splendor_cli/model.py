"""Pure value types every game shares: gems, token multisets, cards."""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Iterable, Mapping

import attrs


class Gem(enum.StrEnum):
    """A token colour. The value is exactly what the file and the JSON store."""

    WHITE = "white"
    BLUE = "blue"
    GREEN = "green"
    RED = "red"
    BLACK = "black"
    GOLD = "gold"
    PEARL = "pearl"
    """Splendor Duel only: two pearls, which no bonus ever discounts."""

    @property
    def letter(self) -> str:
        """One letter per gem, as on a compact board: w u g r k, and * for gold."""
        return _LETTERS[self]


_LETTERS = {
    Gem.WHITE: "w",
    Gem.BLUE: "u",
    Gem.GREEN: "g",
    Gem.RED: "r",
    Gem.BLACK: "k",
    Gem.GOLD: "*",
    Gem.PEARL: "p",
}
COLOURS: tuple[Gem, ...] = (Gem.WHITE, Gem.BLUE, Gem.GREEN, Gem.RED, Gem.BLACK)
"""The five gem colours that cards cost and give; gold is a wildcard, never a bonus."""
GEMS: tuple[Gem, ...] = (*COLOURS, Gem.GOLD)
"""The tokens of base Splendor."""
DUEL_GEMS: tuple[Gem, ...] = (*COLOURS, Gem.PEARL, Gem.GOLD)
"""The tokens of Splendor Duel, in the order they are shown."""
KINDS: tuple[Gem, ...] = (*GEMS, Gem.PEARL)
"""Every kind of token, in the order of `Tokens.counts`."""
_INDEX = {gem: i for i, gem in enumerate(KINDS)}
_new = object.__new__


@attrs.frozen(repr=False)
class Tokens:
    """A multiset of tokens, one count per kind in `KINDS` order (pearl last). No count is ever negative."""

    counts: tuple[int, int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0, 0)

    def __attrs_post_init__(self) -> None:
        if len(self.counts) != len(KINDS) or min(self.counts) < 0:
            raise ValueError(f"bad token counts {self.counts!r}")

    @classmethod
    def of(cls, counts: Mapping[Gem, int] | None = None, /, **named: int) -> Tokens:
        """Build from a mapping or keywords: `Tokens.of(red=2, gold=1)`."""
        values = [0] * len(KINDS)
        for gem, n in (counts or {}).items():
            values[_INDEX[Gem(gem)]] += n
        for name, n in named.items():
            values[_INDEX[Gem(name)]] += n
        return cls(tuple(values))  # type: ignore[arg-type]

    @classmethod
    def from_gems(cls, gems: Iterable[Gem]) -> Tokens:
        """Count a sequence of gems: `Tokens.from_gems([RED, RED])` holds two red."""
        return _count(tuple(gems))

    @classmethod
    def _trusted(cls, counts: tuple[int, ...]) -> Tokens:
        """Build without validation, for counts already known to be fine (the hot path of games)."""
        tokens = _new(cls)
        _set_counts(tokens, counts)
        return tokens

    def __getitem__(self, gem: Gem) -> int:
        return self.counts[_INDEX[gem]]

    # Unrolled: token arithmetic is most of the work of applying a turn.
    def __add__(self, other: Tokens) -> Tokens:
        if other is EMPTY:
            return self
        a, b = self.counts, other.counts
        return Tokens._trusted(
            (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5], a[6] + b[6])
        )

    def __sub__(self, other: Tokens) -> Tokens:
        if other is EMPTY:
            return self
        a, b = self.counts, other.counts
        left = (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5], a[6] - b[6])
        if min(left) < 0:
            raise ValueError(f"cannot remove {other} from {self}")
        return Tokens._trusted(left)

    def __le__(self, other: Tokens) -> bool:
        """Multiset inclusion: every count of self is at most other's."""
        return all(map(operator.le, self.counts, other.counts))

    def __bool__(self) -> bool:
        return any(self.counts)

    def total(self) -> int:
        return sum(self.counts)

    def items(self) -> Iterable[tuple[Gem, int]]:
        """The (gem, count) pairs with a positive count, in `KINDS` order."""
        return ((gem, n) for gem, n in zip(KINDS, self.counts) if n)

    def gems(self) -> tuple[Gem, ...]:
        """The tokens as a sorted sequence of gems, each repeated by its count."""
        return _spell(self.counts)

    def to_dict(self) -> dict[str, int]:
        """The contract's token count: colour name to positive integer, zeros left out."""
        return {str(gem): n for gem, n in self.items()}

    def __repr__(self) -> str:
        return f"Tokens.of({', '.join(f'{g}={n}' for g, n in self.items())})"

    def __str__(self) -> str:
        return " ".join(str(g) for g in self.gems()) or "nothing"


_set_counts = Tokens.__dict__["counts"].__set__
"""`object.__setattr__(tokens, "counts", ...)` through the slot itself: quicker."""
EMPTY = Tokens()


@functools.lru_cache(maxsize=4096)
def _count(gems: tuple[Gem, ...]) -> Tokens:
    if not gems:
        return EMPTY
    values = [0] * len(KINDS)
    for gem in gems:
        values[_INDEX[Gem(gem)]] += 1
    return Tokens(tuple(values))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=4096)
def _spell(counts: tuple[int, ...]) -> tuple[Gem, ...]:
    return tuple(gem for gem, n in zip(KINDS, counts) for _ in range(n))


@attrs.frozen
class Card:
    """A card of either game: `2-14` is tier 2, card 14 of its reference table.

    `bonus` is the colour it gives, `bonus_count` times (Duel has double bonuses), or None for a
    card without a bonus, or with a wild one (`wild`, Duel: its colour is chosen when it is
    bought). `gives` is that bonus as tokens. `crowns` and `ability` are Duel's (0 and "" in the
    base game); a cost may include pearls in Duel.
    """

    id: str
    level: int
    bonus: Gem | None
    points: int
    cost: Tokens
    bonus_count: int = 1
    crowns: int = 0
    ability: str = ""
    wild: bool = False
    gives: Tokens = attrs.field(init=False, eq=False)

    @gives.default
    def _gives(self) -> Tokens:
        return Tokens.of({self.bonus: self.bonus_count}) if self.bonus else EMPTY

    def __repr__(self) -> str:
        return f"Card({self.id!r})"
