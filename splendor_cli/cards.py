"""The card and noble tables, read once from the CSV files shipped in `splendor_cli/data/`.

The data is the reference data of the project (`shared/reference/`), ids kept; see its
PROVENANCE.md. Reading a package resource is the only input this module does.
"""

from __future__ import annotations

import csv
import pkgutil

from .model import COLOURS, Card, Gem, Noble, Tokens

LEVELS = (1, 2, 3)


def _rows(name: str) -> list[dict[str, str]]:
    data = pkgutil.get_data(__package__ or "splendor_cli", f"data/{name}")
    if data is None:  # pragma: no cover - only with an exotic loader
        raise RuntimeError(f"package data {name} is missing")
    return list(csv.DictReader(data.decode("utf-8").splitlines()))


def _cost(row: dict[str, str]) -> Tokens:
    return Tokens.of({gem: int(row[gem.value]) for gem in COLOURS})


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
