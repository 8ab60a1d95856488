"""The order in which `moves` lists the legal moves (text and `--json`): those that bring the game
nearer to its end first, so that a script that plays the first item (the README's bot loop) ends
a game.

Read off the move items alone (docs/contract.md, the same for every game): purchases (and a
Duel's royal cards) first; then what a purchase owes (a Duel's token and steal abilities, a
return); then takes, those that give back none of what they take first, the most tokens kept
first; then reserves; then the optional steps (a Duel's privilege, replenish); `pass` last. The
rules list the moves in their own order (`Variant.legal_moves`, which the bots read): only what
is shown is sorted, stably.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_RANK = {"buy": 0, "royal": 0, "token": 1, "steal": 1, "return": 1, "take": 2, "reserve": 3, "pass": 9}
_OTHER = 4


def in_order(items: list[dict[str, Any]]) -> list[int]:
    """The indices of `items` (move items, as `moves --json` gives them) in the order listed."""
    return sorted(range(len(items)), key=lambda i: _key(items[i]))


def _key(item: dict[str, Any]) -> tuple[int, bool, int]:
    kind = str(item.get("action") or item.get("step") or "")
    rank = _RANK.get(kind, _OTHER)
    if kind != "take":
        return rank, False, 0
    if "cells" in item:  # a Duel's line: the longest first
        return rank, False, -len(item["cells"])
    gems: dict[str, int] = item.get("gems", {})
    back: dict[str, int] = item.get("return", {})
    return rank, any(colour in back for colour in gems), sum(back.values()) - sum(gems.values())
