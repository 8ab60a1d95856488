"""Revealed cards put in place of their placeholders, anywhere in an attrs value (pure).

The default substitution of a game that declares `SealedDecks` (capability.py), and how a board
turns another player's blind reserves face down (`variants.common.display.hide_blind`): a light
module of its own, so that hiding a card on an open game's board does not load the sealed
protocol's declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs


def substitute_anywhere(value: Any, cards: Mapping[str, str]) -> Any:
    """`value` (an attrs state or event, a tuple, a dict) with every placeholder of `cards`
    replaced by its card, wherever it is: only the parts that hold one are made anew, the others
    are kept as they are (the very objects)."""
    if not cards:
        return value
    return _substituted(value, cards)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in attrs.fields(cls))
    return names


_PARTS: dict[type, bool] = {}
"""Whether values of a type may hold cards (a tuple, a dict, an attrs class), by type."""


def _has_parts(kind: type) -> bool:
    known = _PARTS.get(kind)
    if known is None:
        known = _PARTS[kind] = kind is tuple or kind is dict or attrs.has(kind)
    return known


def _substituted(value: Any, cards: Mapping[str, str]) -> Any:
    kind = type(value)
    if kind is str:
        return cards.get(value, value)
    if kind is tuple:
        items: list[Any] = []
        changed = False
        new: Any
        for item in value:
            inner = type(item)
            if inner is str:
                new = cards.get(item, item)
            elif _has_parts(inner):
                new = _substituted(item, cards)
            else:
                new = item  # None, a number, a gem: no card in it
            changed = changed or new is not item
            items.append(new)
        return tuple(items) if changed else value
    if kind is dict:
        pairs = [(_substituted(k, cards), _substituted(v, cards)) for k, v in value.items()]
        changed = any(k is not old_k or v is not old_v for (k, v), (old_k, old_v) in zip(pairs, value.items()))
        return dict(pairs) if changed else value
    if _has_parts(kind):
        changes = {}
        for name in _field_names(kind):
            old = getattr(value, name)
            inner = type(old)
            if inner is str:
                new = cards.get(old, old)
            elif _has_parts(inner):
                new = _substituted(old, cards)
            else:
                continue
            if new is not old:
                changes[name] = new
        return attrs.evolve(value, **changes) if changes else value
    return value


__all__ = ["substitute_anywhere"]
