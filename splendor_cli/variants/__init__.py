"""The games, one package each, and the registry that finds one by the name a file header gives.

Adding a game is one package under `splendor_cli/variants/` that defines `VARIANT` (an object
satisfying `splendor_cli.projection.variant.Variant`: usually a `GameVariant`, which writes what
games share once, so that the game writes only what differs) and one line in `_BUILT_IN` below.
A game's package is imported only when a file or a command asks for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import GameFileError, UsageError, excerpt
from ..events import SHARED_TYPES
from ..projection.variant import AnyVariant

_BUILT_IN: dict[str, str] = {
    "base": "splendor_cli.variants.base",  # Splendor, 2-4 players
    "duel": "splendor_cli.variants.duel",  # Splendor Duel, 2 players
}
_REGISTRY: dict[str, str | AnyVariant] = dict(_BUILT_IN)
_TYPES: dict[str, Mapping[str, type[Any]]] = {}


def names() -> tuple[str, ...]:
    """The names of every game this program plays."""
    return tuple(_REGISTRY)


def register(variant: AnyVariant) -> None:
    """Add a game defined elsewhere (a plug-in, or a test's toy game) under `variant.name`."""
    _REGISTRY[variant.name] = variant
    _TYPES.pop(variant.name, None)


def unregister(name: str) -> None:
    """Remove a game added by `register` (built-in games stay)."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in game")
    _REGISTRY.pop(name, None)
    _TYPES.pop(name, None)


def find_variant(name: str) -> AnyVariant:
    """The game a header's `variant` names. Raise UsageError when this program has none of that name."""
    found = _REGISTRY.get(name) if isinstance(name, str) else None
    if found is None:
        raise UsageError(f"unknown variant {excerpt(name)}: this version plays {', '.join(repr(n) for n in _REGISTRY)}")
    if isinstance(found, str):
        found = importlib.import_module(found).VARIANT
        _REGISTRY[name] = found
    return found


class _EventTypes(Mapping[str, type[Any]]):
    """A game's event classes by tag, and the table protocols' own (`table_protocol`), each
    protocol's imported only when one of its tags is asked for (an open game's read imports none);
    iterating it imports them all."""

    def __init__(self, own: dict[str, type[Any]]) -> None:
        self.own = own

    def __getitem__(self, tag: str) -> type[Any]:
        found = self.own.get(tag)
        if found is not None:
            return found
        from ..projection.table_protocol import protocol_event_type

        found = protocol_event_type(tag)
        if found is None:
            raise KeyError(tag)
        self.own[tag] = found
        return found

    def _every(self) -> dict[str, type[Any]]:
        from ..projection.table_protocol import protocol_handlers

        return {**{cls.TYPE: cls for cls in protocol_handlers() if hasattr(cls, "TYPE")}, **self.own}

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())


def event_types(name: str) -> Mapping[str, type[Any]]:
    """Every event class a log of game `name` may hold, by type tag: the game's, the shared ones and
    the table protocols' (a sealed game's: a game that declares no sealed cards refuses them when
    it folds them), a protocol's imported only when one of its tags is asked for.

    Raises:
        GameFileError: no game of that name (a file from a newer version, or edited by hand).
    """
    if name not in _TYPES:
        try:
            variant = find_variant(name)
        except UsageError as exc:
            raise GameFileError(f"header: {exc}") from None
        classes = (*SHARED_TYPES, variant.setup_type, *variant.play_types)
        _TYPES[name] = _EventTypes({cls.TYPE: cls for cls in classes})
    return _TYPES[name]
