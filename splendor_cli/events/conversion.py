"""The conversion between a header's or an event's attrs value and its flat TOML table.

Strict both ways: a table is built into its class only when it has exactly the class's fields,
each of exactly its type (`structure`), and a value becomes the plain table the file writes and
the chain hashes (`plain`). cattrs is the reference: it judges every table that is not exactly
right, and a test holds the plain readers and writers used for the tables that are to its
results. How a class lays its fields out in a table (`layout`) and writes them when not as they
are (`written_form`) is here too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..errors import GameFileError, excerpt
from ..model import Gem
from . import WRITTEN, WrittenForm


def written_form(cls: type) -> WrittenForm | None:
    """How the tables of an event class are written, when not as its fields are (`events.WrittenForm`)."""
    form = getattr(cls, "FORM", None)
    return form if isinstance(form, WrittenForm) else None


Layout = tuple[tuple[str, ...], tuple[str, ...], dict[str, int], tuple[str, ...]]
"""How the file lays out the fields of a class: see `layout`."""
_LAYOUT: dict[type, Layout] = {}


def layout(cls: type) -> Layout:
    """How the file lays out the fields of a class (`events.WRITTEN`): the names that must be
    written although they have a default (the chain's), the names written after the payload, each
    name's place in the table, and the names in that order: the fields written first in the
    order they are declared (the outermost envelope's first), the payload in the order it is
    declared, the fields written last in the reverse order (the innermost envelope's first)."""
    layout = _LAYOUT.get(cls)
    if layout is None:
        fields = attrs.fields(cls)
        first = [f for f in fields if f.metadata.get(WRITTEN) == "first"]
        required = tuple(f.name for f in first if f.default is not attrs.NOTHING)
        last = tuple(f.name for f in reversed(fields) if f.metadata.get(WRITTEN) == "last")
        payload = [f.name for f in fields if f.metadata.get(WRITTEN) not in ("first", "last")]
        order = (*(f.name for f in first), *payload, *last)
        layout = _LAYOUT[cls] = (required, last, {name: place for place, name in enumerate(order)}, order)
    return layout


def structure(raw: dict[str, Any], cls: type[Any], where: str) -> Any:
    """Build `cls` from a raw TOML table, strictly: no missing, unknown or mistyped key (GameFileError).

    Tables are flat (docs/file-format.md), so each field is a string, an integer, a boolean, a
    gem, or an array of strings or gems (or, in a class with a written form, an array of arrays of
    strings, which its form read from flat keys), and a value must have exactly its field's TOML
    type ("3" is not 3, 1 is not true, 8.0 is not 8): the readers below coerce nothing.

    cattrs is the judge (`_converter`: its extra keys forbidden, every error of a table gathered,
    through those readers as its hooks), and its errors become one line naming the table
    (`where`): the missing keys, else the unknown ones, else the first field that names no gem,
    else every field of the wrong type. A table that is exactly right is built without it
    (`_quick`: the same readers, field by field), so that reading a game costs neither cattrs'
    import nor its code generation; a test holds the two to the same results.
    """
    body = {key: value for key, value in raw.items() if key != "type"}
    required, _, order, _ = layout(cls)
    absent = [name for name in required if name not in body]  # cattrs would fill in their defaults
    built = _quick(body, cls) if not absent else _REFUSED
    if built is _REFUSED:
        from cattrs.errors import ClassValidationError

        try:
            built = _converter().structure(body, _flat(cls))
        except ClassValidationError as group:
            raise GameFileError(f"{where}: {_problem(group, raw, absent, order)}") from None
    if absent:
        raise GameFileError(f"{where}: missing {', '.join(repr(m) for m in absent)}")
    return built


_REFUSED = object()
"""What `_quick` gives for a table that is not exactly right: cattrs says what is wrong."""


def _quick(body: dict[str, Any], cls: type[Any]) -> Any:
    """`cls` built from `body` by the readers of its fields (`_plan`), as cattrs builds it; or
    `_REFUSED` when a key is unknown or missing, or a value is not of its field's type."""
    readers, needed = _plan(cls)
    values = {}
    try:
        for key, value in body.items():
            values[key] = readers[key](value, None)
    except (KeyError, _WrongType, _NotGems):
        return _REFUSED
    if not needed <= values.keys():
        return _REFUSED
    return cls(**values)


_PLANS: dict[type, tuple[dict[str, Any], frozenset[str]]] = {}


def _plan(cls: type[Any]) -> tuple[dict[str, Any], frozenset[str]]:
    """The reader of each field of `cls` (the converter's hook of its type), and the fields
    without a default."""
    plan = _PLANS.get(cls)
    if plan is None:
        fields = attrs.fields(_flat(cls))
        readers = {field.name: _READERS[field.type] for field in fields}
        needed = frozenset(field.name for field in fields if field.default is attrs.NOTHING)
        plan = _PLANS[cls] = (readers, needed)
    return plan


class _WrongType(Exception):
    """A value that is not of its field's TOML type."""


class _NotGems(Exception):
    """A string (or array of strings) that is not only gem names."""


def _exactly(kind: type) -> Any:
    def read(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise _WrongType
        return value

    return read


def _read_strs(value: Any, _: Any) -> tuple[str, ...]:
    if type(value) is not list or any(type(v) is not str for v in value):
        raise _WrongType
    return tuple(value)


def _read_strss(value: Any, _: Any) -> tuple[tuple[str, ...], ...]:
    if type(value) is not list:
        raise _WrongType
    return tuple(_read_strs(v, None) for v in value)


def _read_gem(value: Any, _: Any) -> Gem:
    if type(value) is not str:
        raise _WrongType
    gem = _GEMS.get(value)
    if gem is None:
        raise _NotGems
    return gem


def _read_gems(value: Any, _: Any) -> tuple[Gem, ...]:
    return tuple(_read_gem(v, None) for v in _read_strs(value, None))


@functools.cache
def _converter() -> Any:
    """The strict cattrs converter of headers and events, its hooks the readers and writers of
    `_READERS` and `_WRITERS` (built, and cattrs imported, on the first table that is not exactly
    right: reading a good file never pays for it)."""
    import cattrs

    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for simple in (str, int, bool, Gem):
        converter.register_structure_hook(simple, _READERS[simple])
    converter.register_unstructure_hook(Gem, _WRITERS[Gem])
    for kind in (tuple[str, ...], tuple[Gem, ...], _SPREAD):  # generic aliases: matched by a predicate
        converter.register_structure_hook_func(functools.partial(_is, kind), _READERS[kind])
        converter.register_unstructure_hook_func(functools.partial(_is, kind), _WRITERS[kind])
    return converter


def _is(kind: Any, other: Any) -> bool:
    return bool(other == kind)


def _problem(group: BaseException, raw: dict[str, Any], absent: list[str], order: Mapping[str, int]) -> str:
    """What cattrs found wrong with a table, in one line (see `structure`): `absent` are the missing
    keys cattrs let through (the chain's, which have defaults); `order`, each field's place in the
    table, by which the names are said."""
    from cattrs.errors import AttributeValidationNote, ForbiddenExtraKeysError

    missing: list[str] = list(absent)
    extra: list[str] = []
    not_gems: list[str] = []
    wrong: list[str] = []
    for error in getattr(group, "exceptions", ()):
        if isinstance(error, ForbiddenExtraKeysError):
            extra += sorted(error.extra_fields)
            continue
        names = [n.name for n in getattr(error, "__notes__", ()) if isinstance(n, AttributeValidationNote)]
        name = names[0] if names else "?"
        if isinstance(error, KeyError):
            missing.append(name)
        elif isinstance(error, _NotGems):
            not_gems.append(name)
        else:
            wrong.append(name)
    missing.sort(key=lambda name: order.get(name, len(order)))
    not_gems.sort(key=lambda name: order.get(name, len(order)))
    wrong.sort(key=lambda name: order.get(name, len(order)))
    if missing:
        return f"missing {', '.join(repr(m) for m in missing)}"
    if extra:
        return f"unknown {', '.join(excerpt(x) for x in extra[:5])}{', ...' * (len(extra) > 5)}"
    if not_gems:
        return f"{not_gems[0]!r} holds {excerpt(raw.get(not_gems[0]))}, not only gem names"
    return f"wrong type for {', '.join(repr(k) for k in wrong)}"


_GEMS = {gem.value: gem for gem in Gem}
_FLAT = (str, int, bool, Gem, tuple[str, ...], tuple[Gem, ...])
"""The types a header's or an event's field may have: the converter's hooks read exactly these."""
_SPREAD = tuple[tuple[str, ...], ...]
"""The type a field of an event class with a written form may have besides (`events.WrittenForm`):
arrays of strings, which the form writes one key each (`events.numbered_form`: a setup's `decks`,
written `deck_1`, `deck_2`, `deck_3`), so that the table as written stays flat."""


_CHECKED: set[type] = set()


def _flat(cls: type[Any]) -> type[Any]:
    """`cls`, once checked to have only flat fields, or, for a class with a written form, fields
    its form spreads flat (`_SPREAD`): any other type would meet cattrs' lenient default hooks
    instead of the strict ones."""
    if cls not in _CHECKED:
        allowed = _FLAT if written_form(cls) is None else (*_FLAT, _SPREAD)
        for field in attrs.fields(attrs.resolve_types(cls)):
            if field.type not in allowed:  # pragma: no cover - a payload that is not flat
                raise TypeError(f"{cls.__name__}.{field.name}: {field.type} is not a flat payload type")
        _CHECKED.add(cls)
    return cls


def plain(value: Any) -> dict[str, Any]:
    """An attrs value (header or event) as a plain dict, as cattrs unstructures it through the
    converter's hooks: every field in order, arrays as lists, gems as strings."""
    writers = _WRITERS_OF.get(type(value))
    if writers is None:
        fields = attrs.fields(_flat(type(value)))
        writers = _WRITERS_OF[type(value)] = tuple((field.name, _WRITERS[field.type]) for field in fields)
    return {name: write(getattr(value, name)) for name, write in writers}


def _same(value: Any) -> Any:
    return value


_READERS: dict[Any, Callable[[Any, Any], Any]] = {
    str: _exactly(str),
    int: _exactly(int),
    bool: _exactly(bool),
    Gem: _read_gem,
    tuple[str, ...]: _read_strs,
    tuple[Gem, ...]: _read_gems,
    _SPREAD: _read_strss,
}
"""The reader of each flat type: the converter's structure hook of that type."""
_WRITERS: dict[Any, Callable[[Any], Any]] = {
    str: _same,
    int: _same,
    bool: _same,
    Gem: str,
    tuple[str, ...]: list,
    tuple[Gem, ...]: lambda value: [str(g) for g in value],
    _SPREAD: lambda value: [list(v) for v in value],
}
"""The writer of each flat type: the converter's unstructure hook of that type."""
_WRITERS_OF: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}
