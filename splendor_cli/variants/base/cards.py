"""The cards and nobles of Splendor, read once from `data/*.csv` in this package.

The data is the project's reference data, ids kept (where it comes from: docs/rules/PROVENANCE.md).
"""

from __future__ import annotations

import attrs

from ...model import Card, Gem, Tokens
from ..common.data import cost, rows

LEVELS = (1, 2, 3)


@attrs.frozen
class Noble:
    """A noble tile: visits the first player whose bonuses meet `requires`."""

    id: str
    points: int
    requires: Tokens

    def __repr__(self) -> str:
        return f"Noble({self.id!r})"


CARDS: dict[str, Card] = {
    row["id"]: Card(
        id=row["id"],
        level=int(row["level"]),
        bonus=Gem(row["bonus"]),
        points=int(row["points"]),
        cost=cost(row),
    )
    for row in rows(__package__ or __name__, "splendor_cards.csv")
}
NOBLES: dict[str, Noble] = {
    row["id"]: Noble(id=row["id"], points=int(row["points"]), requires=cost(row))
    for row in rows(__package__ or __name__, "splendor_nobles.csv")
}
DECKS: dict[int, tuple[str, ...]] = {
    level: tuple(card.id for card in CARDS.values() if card.level == level) for level in LEVELS
}
