"""Reading a game's reference tables: CSV files shipped in its package's `data/` folder.

Reading a package resource is the only input the games do.
"""

from __future__ import annotations

import csv
import pkgutil

from ...model import COLOURS, Gem, Tokens


def rows(package: str, name: str) -> list[dict[str, str]]:
    """The rows of `data/NAME` in `package`, as dicts keyed by the header line."""
    data = pkgutil.get_data(package, f"data/{name}")
    if data is None:  # pragma: no cover - only with an exotic loader
        raise RuntimeError(f"package data {package}/data/{name} is missing")
    return list(csv.DictReader(data.decode("utf-8").splitlines()))


def cost(row: dict[str, str], gems: tuple[Gem, ...] = COLOURS) -> Tokens:
    """The tokens a row's gem columns count."""
    return Tokens.of({gem: int(row[gem.value]) for gem in gems})
