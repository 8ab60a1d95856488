"""What the tree searches (`mcts`, `expert`) share: backing an iteration's result up its path."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def back_up(path: Sequence[Any], result: Sequence[float]) -> None:
    """Count a visit to every node of `path` (root first), each adding the result of the seat
    that chose the move to it: its parent's seat. A node has `visits`, `total` and `seat`."""
    root = path[0]
    root.visits += 1
    mover = root.seat
    for node in path[1:]:
        node.visits += 1
        node.total += result[mover]
        mover = node.seat
