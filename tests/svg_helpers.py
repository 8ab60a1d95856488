"""Reading the games' SVG pictures in tests: a picture parsed after checking that it stands alone,
its pieces by id, what it marks as changed, and its outline (what the snapshots hold)."""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

SVG = "{http://www.w3.org/2000/svg}"
EXTERNAL = re.compile(
    r"href|url\(|<script|@import|<image|<foreignObject|<style|javascript:|https?://(?!www\.w3\.org/2000/svg\")"
)
"""What would make a picture fetch or run something: none may hold it."""


def checked(svg: str) -> ET.Element:
    """`svg` parsed, after checking that it is one self-contained document with unique ids."""
    assert EXTERNAL.search(svg) is None
    root = ET.fromstring(svg)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "ids are unique"
    return root


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id")}


def changed(root: ET.Element) -> set[str]:
    """The ids of the elements of class `changed`."""
    return {e.get("id", "") for e in root.iter() if "changed" in (e.get("class") or "").split()}


def inside(root: ET.Element, outer: str, inner: str) -> bool:
    return any(e.get("id") == inner for e in by_id(root)[outer].iter())


# -- the outline -----------------------------------------------------------------------------------


def outline(svg: str) -> str:
    """What a person sees of a picture, as text that a snapshot can hold and a diff can show.

    First the SHA-256 of the bytes (it fails on any change at all: a colour, a position), then the
    size and the accessible name, then a line for each piece with an id (`g#card-1-08.card`,
    `.changed` when outlined), indented under the piece it lies in, with what it says in document
    order: its texts and tooltips, and each group of a class but no id in brackets with its own
    (`[cost: r3 g6 u3]`, `[privilege]`, `[slot reserve]`). A piece of class but no id at the top
    (`[legend: ...]`) has a line of its own. Where the digest changed and the outline did not,
    nothing named changed: look at the picture."""
    root = ET.fromstring(svg)
    lines = [
        f"sha256 {hashlib.sha256(svg.encode()).hexdigest()}",
        f"svg {root.get('width')}x{root.get('height')} {root.get('aria-label')!r}",
    ]
    for child in root:
        _piece_lines(child, 0, lines)
    return "\n".join(lines) + "\n"


def _name(element: ET.Element) -> str:
    tag = element.tag.removeprefix(SVG)
    ident = f"#{element.get('id')}" if element.get("id") else ""
    classes = "".join(f".{c}" for c in (element.get("class") or "").split())
    return f"{tag}{ident}{classes}"


def _piece_lines(element: ET.Element, depth: int, lines: list[str]) -> None:
    """The line of `element` if it is a piece (an id, or a class at the top), then its pieces."""
    if element.tag == f"{SVG}title" and depth == 0:
        return  # the accessible name, on the svg line already
    if not element.get("id") and not (depth == 0 and element.get("class")):
        for child in element:  # a plain group: its pieces, at this depth
            _piece_lines(child, depth, lines)
        return
    said: list[str] = []
    nested: list[ET.Element] = []
    _say(element, said, nested)
    lines.append("  " * depth + _name(element) + (": " + " ".join(said) if said else ""))
    for piece in nested:
        _piece_lines(piece, depth + 1, lines)


def _say(element: ET.Element, said: list[str], nested: list[ET.Element]) -> None:
    """What `element` says (its text, its children's), the pieces with an id in it set aside."""
    if element.text and element.text.strip():
        said.append(element.text.strip())
    for child in element:
        if child.get("id"):
            nested.append(child)
            continue
        classes = " ".join((child.get("class") or "").split())
        if classes:
            inner: list[str] = []
            _say(child, inner, nested)
            said.append(f"[{classes}: {' '.join(inner)}]" if inner else f"[{classes}]")
        else:
            _say(child, said, nested)


class OutlineSnapshot(SingleFileSnapshotExtension):
    """A picture's outline as a text file (`snapshot(extension_class=OutlineSnapshot)`)."""

    file_extension = "txt"
    _write_mode = WriteMode.TEXT
