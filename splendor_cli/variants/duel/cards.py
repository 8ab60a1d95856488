"""The jewel cards, royal cards and board spiral of Splendor Duel, read once from `data/*.csv`.

The data is the project's reference data, ids kept (where it comes from: docs/rules/PROVENANCE.md).
`duel_spiral.csv` is the spiral table of `duel_board.md`, as CSV. A Duel card's id may also be a
base card's: each game looks ids up in its own table only.
"""

from __future__ import annotations

import attrs

from ...model import COLOURS, Card, Gem
from ..common.data import cost, rows

LEVELS = (1, 2, 3)


@attrs.frozen
class Royal:
    """A royal card: points and perhaps an ability, taken at 3 and 6 crowns."""

    id: str
    points: int
    ability: str


CARDS: dict[str, Card] = {
    row["id"]: Card(
        id=row["id"],
        level=int(row["level"]),
        bonus=Gem(row["bonus"]) if row["bonus"] in COLOURS else None,
        bonus_count=int(row["bonus_count"]),
        points=int(row["points"]),
        cost=cost(row, (*COLOURS, Gem.PEARL)),
        crowns=int(row["crowns"]),
        ability=row["ability"],
        wild=row["bonus"] == "wild",
    )
    for row in rows(__package__ or __name__, "duel_cards.csv")
}
DECKS: dict[int, tuple[str, ...]] = {
    level: tuple(card.id for card in CARDS.values() if card.level == level) for level in LEVELS
}
ROYALS: dict[str, Royal] = {
    row["id"]: Royal(id=row["id"], points=int(row["points"]), ability=row["ability"])
    for row in rows(__package__ or __name__, "duel_royals.csv")
}
SPIRAL: tuple[int, ...] = tuple(
    int(row["index"]) for row in sorted(rows(__package__ or __name__, "duel_spiral.csv"), key=lambda r: int(r["step"]))
)
"""The cells of the board in the order a refill walks them (flat index: 5 * (row - 1) + column - 1)."""
