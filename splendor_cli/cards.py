"""The card, noble and royal tables, read once from the CSV files shipped in `splendor_cli/data/`.

The data is the reference data of the project (`shared/reference/`), ids kept; see its
PROVENANCE.md. `duel_spiral.csv` is the spiral table of `duel_board.md`, as CSV. Reading a
package resource is the only input this module does.
"""

from __future__ import annotations

import csv
import pkgutil

from .model import COLOURS, Card, Gem, Noble, Royal, Tokens

LEVELS = (1, 2, 3)


def _rows(name: str) -> list[dict[str, str]]:
    data = pkgutil.get_data(__package__ or "splendor_cli", f"data/{name}")
    if data is None:  # pragma: no cover - only with an exotic loader
        raise RuntimeError(f"package data {name} is missing")
    return list(csv.DictReader(data.decode("utf-8").splitlines()))


def _cost(row: dict[str, str], gems: tuple[Gem, ...] = COLOURS) -> Tokens:
    return Tokens.of({gem: int(row[gem.value]) for gem in gems})


CARDS: dict[str, Card] = {
    row["id"]: Card(
        id=row["id"],
        level=int(row["level"]),
        bonus=Gem(row["bonus"]),
        points=int(row["points"]),
        cost=_cost(row),
    )
    for row in _rows("splendor_cards.csv")
}
NOBLES: dict[str, Noble] = {
    row["id"]: Noble(id=row["id"], points=int(row["points"]), requires=_cost(row))
    for row in _rows("splendor_nobles.csv")
}
DECKS: dict[int, tuple[str, ...]] = {
    level: tuple(card.id for card in CARDS.values() if card.level == level) for level in LEVELS
}

DUEL_CARDS: dict[str, Card] = {
    row["id"]: Card(
        id=row["id"],
        level=int(row["level"]),
        bonus=Gem(row["bonus"]) if row["bonus"] in COLOURS else None,
        bonus_count=int(row["bonus_count"]),
        points=int(row["points"]),
        cost=_cost(row, (*COLOURS, Gem.PEARL)),
        crowns=int(row["crowns"]),
        ability=row["ability"],
        wild=row["bonus"] == "wild",
    )
    for row in _rows("duel_cards.csv")
}
DUEL_DECKS: dict[int, tuple[str, ...]] = {
    level: tuple(card.id for card in DUEL_CARDS.values() if card.level == level) for level in LEVELS
}
ROYALS: dict[str, Royal] = {
    row["id"]: Royal(id=row["id"], points=int(row["points"]), ability=row["ability"])
    for row in _rows("duel_royals.csv")
}
SPIRAL: tuple[int, ...] = tuple(
    int(row["index"]) for row in sorted(_rows("duel_spiral.csv"), key=lambda r: int(r["step"]))
)
"""The cells of the Duel board in the order a refill walks them (flat index: 5 * (row - 1) + column - 1)."""
