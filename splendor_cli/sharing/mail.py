"""Moves by e-mail: a plain-text block that carries events from one copy of a game to another.

`export_text` writes the last events of a game as a block that survives a mail body, quoting
(`> `), CRLF line ends and re-encoding; `find_blocks` finds every block in a pasted mail or a
whole `.eml` file (what taking them in appends to a game is sharing/inbox.py's `apply_blocks`).
No filesystem, no terminal.

A block, as `export_text` writes it::

    -----BEGIN SPLENDOR MOVE-----
    game: 2026-12-02-ann-bob-1a2b
    seq: 7
    parent: 9c1e0b7a44d2f3e1
    player: bob
    move: take white blue green

    [[events]]
    type = "tokens_taken"
    seq = 7
    parent = "9c1e0b7a44d2f3e1"
    player = "bob"
    gems = ["white", "blue", "green"]
    returned = []
    noble = ""

    check: 3a61c0de2b9f8e71
    -----END SPLENDOR MOVE-----

`seq` is `7-9` when the block holds events 7 to 9, followed by one `player:`/`move:` pair per
event; `parent` is the first event's. The `[[events]]` lines are exactly `codec.format_event`,
so the events hash as in the sender's file. `check` is a digest of the block's other non-blank
lines (stripped of quoting and surrounding spaces): a line changed, lost or re-wrapped on the
way is refused rather than half understood. The summary lines are checked against the events,
so they cannot lie about what the block does. The check detects damage, not forgery: what a
block may do is limited by the hash chain and by the rules, which judge every event again.
"""

from __future__ import annotations

import email.parser
import email.policy
import html
import re
from collections.abc import Sequence
from email.message import Message
from hashlib import sha256

import attrs

from ..errors import UNSAFE, ConflictError, GameFileError, UsageError
from ..events import Event, actor
from ..events.codec import Record, format_event, format_record, load_toml, read_events
from ..projection.log import event_notation
from ..projection.variant import AnyVariant
from ..variants import event_types, find_variant
from . import mail_bounds

BEGIN = "-----BEGIN SPLENDOR MOVE-----"
_MAX_SEQ = 1_000_000
"""No game comes near this many events: a block claiming more is damaged."""
END = "-----END SPLENDOR MOVE-----"

_QUOTING = re.compile(r"^[\s>]*")
"""Mail quoting and indentation before a line: `> `, `>> `, `> > `, or spaces."""


@attrs.frozen(kw_only=True)
class MoveBlock:
    """The events of one block found in a mail, checked for damage, in order and chained."""

    game: str
    events: tuple[Event, ...]

    @property
    def first(self) -> int:
        """The seq of the first event."""
        return self.events[0].seq

    @property
    def last(self) -> int:
        """The seq of the last event."""
        return self.events[-1].seq

    @property
    def parent(self) -> str:
        """The digest of the event the block follows."""
        return self.events[0].parent

    def format(self, variant: AnyVariant) -> str:
        return format_block(self.game, self.events, variant)


# -- writing ---------------------------------------------------------------------------------


def export_text(record: Record, last: int = 1) -> str:
    """The block that carries the last `last` events of `record` (any event: a turn, an undo).

    Raises:
        UsageError: `last` is not between 1 and the number of events.
    """
    count = len(record.events)
    if not 1 <= last <= count:
        raise UsageError(f"--last must be between 1 and {count} (the events of this game), not {last}")
    return format_block(record.header.game, record.events[count - last :], find_variant(record.header.variant))


def format_block(game: str, events: Sequence[Event], variant: AnyVariant) -> str:
    """The block for these consecutive events of game `game` (as `export_text`, without checks)."""
    body = _body(game, tuple(events), variant)
    return "\n".join([BEGIN, *body, "", f"check: {_check(body)}", END]) + "\n"


def _body(game: str, events: tuple[Event, ...], variant: AnyVariant) -> list[str]:
    """The lines of a block between BEGIN and the check line, blank lines included."""
    first, last = events[0], events[-1]
    lines = [
        f"game: {game}",
        f"seq: {first.seq}" if len(events) == 1 else f"seq: {first.seq}-{last.seq}",
        f"parent: {first.parent}",
    ]
    for event in events:
        lines += [f"player: {_who(event)}", f"move: {event_notation(variant, event)}"]
    for event in events:
        lines += format_event(event).rstrip("\n").split("\n")
    return lines


def _who(event: Event) -> str:
    return actor(event) or "-"


def _canonical(lines: Sequence[str]) -> list[str]:
    """The lines that count: stripped, blank ones left out (mail programs add and drop them)."""
    return [s for s in (line.strip() for line in lines) if s]


def _check(lines: Sequence[str]) -> str:
    text = "\n".join(_canonical(lines))
    return sha256(text.encode("utf-8")).hexdigest()[:16]


# -- finding ---------------------------------------------------------------------------------


MAX_BLOCKS = 1000
"""The most move blocks read from one mail (once each): no game needs more (`export --last N`
puts N events in one block); the rest of a larger mail is left unread, and the caller says so."""


def find_blocks(text: str | bytes, variant: AnyVariant, notes: list[str] | None = None) -> list[MoveBlock]:
    """Every block in a mail body or a whole `.eml` file, in the order found, duplicates dropped
    (by their lines, before they are read: a mail may quote one block many times), at most
    `MAX_BLOCKS` (a note in `notes` says when more were left unread); the events are read as
    `variant`'s (the game of the file the blocks are for).

    A mail's text/plain parts are decoded (quoted-printable, base64, charsets, format=flowed)
    and scanned; when they hold no block, its text/html parts (tags dropped); when those hold
    none either, or `text` is not a mail, the raw text. Quoting prefixes, CRLF line ends and
    indentation are ignored. An empty list means no block was found.

    Raises:
        GameFileError: a block is damaged or cut short (the message names the block and why), or
            the mail goes over a bound of its headers or parts (`mail_bounds.check`).
    """
    bodies = _unique_bodies(_block_bodies(text, strict=True), notes)
    return list(dict.fromkeys(_parse(lines, f"move block {number}", variant) for number, lines in bodies))


def _unique_bodies(
    bodies: list[list[tuple[list[str], bool]]], notes: list[str] | None, game: str | None = None
) -> list[tuple[int, list[str]]]:
    """The complete blocks of `bodies` (`_block_bodies`) with their number in their part, each
    once (by its canonical lines), of game `game` only when given, at most `MAX_BLOCKS`.

    Raises:
        GameFileError: a block (of `game`) is cut short.
    """
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[int, list[str]]] = []
    capped: set[tuple[str, ...]] = set()
    for part in bodies:
        for number, (lines, complete) in enumerate(part, start=1):
            canonical = tuple(_canonical(lines))
            if game is not None and (not canonical or not _is_game_line(canonical[0], game)):
                continue
            if not complete:
                raise GameFileError(f"move block {number} is cut short: no {END} line")
            if canonical in seen:
                continue
            if len(out) >= MAX_BLOCKS:
                capped.add(canonical)
                continue
            seen.add(canonical)
            out.append((number, lines))
    if capped and notes is not None:
        notes.append(f"the mail holds more than {MAX_BLOCKS} move blocks: {len(capped)} more not read")
    return out


def _is_game_line(line: str, game: str) -> bool:
    return line.startswith("game:") and line.removeprefix("game:").strip() == game


def _parsed_mail(raw: bytes) -> Message:
    """A mail parsed (`email.policy.default`), once its headers, parts and nesting are found
    within bounds (`mail_bounds.check`: the parser never sees an unbounded header).

    Raises:
        GameFileError: the mail goes over a bound, or nests deeper than the parser goes.
    """
    mail_bounds.check(raw)
    parser = email.parser.BytesParser(policy=email.policy.default)
    try:
        message = parser.parsebytes(raw)
        list(message.walk())
    except RecursionError:
        raise GameFileError("the mail nests its parts too deep: not read") from None
    return message


def _mail_texts(data: str | bytes) -> tuple[list[str], list[str]]:
    """The decoded text/plain parts of a mail, and its text/html parts as text; none if no mail."""
    message = _parsed_mail(data.encode("utf-8") if isinstance(data, str) else data)
    plain: list[str] = []
    rich: list[str] = []
    if not message.keys():
        return plain, rich
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            plain.append(_part_text(part))
        elif kind == "text/html":
            rich.append(_html_text(_part_text(part)))
    return plain, rich


def _part_text(part: Message) -> str:
    """A text part, its transfer encoding and charset undone."""
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = data.decode(charset, errors="replace")
    except LookupError:  # an unknown charset: most mail is UTF-8 or ASCII anyway
        text = data.decode("utf-8", errors="replace")
    if str(part.get_param("format") or "").lower() == "flowed":
        text = _unflow(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")
    return text


def _unflow(text: str, *, delsp: bool) -> str:
    """Join the soft line breaks of format=flowed text (RFC 3676), keeping the quoting."""
    out: list[str] = []
    pending: tuple[int, str] | None = None
    for line in text.splitlines():
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):  # space-stuffing
            content = content[1:]
        if pending is not None and pending[0] == depth:
            content = pending[1] + content
        elif pending is not None:
            out.append(_quoted(*pending))
        pending = None
        if content.endswith(" ") and content != "-- ":
            pending = (depth, content[:-1] if delsp else content)
        else:
            out.append(_quoted(depth, content))
    if pending is not None:
        out.append(_quoted(*pending))
    return "\n".join(out)


def _quoted(depth: int, content: str) -> str:
    return ">" * depth + (" " if depth else "") + content


def _html_text(text: str) -> str:
    """The text of an html part, roughly: line breaks kept, tags dropped, entities decoded."""
    text = re.sub(r"(?i)<br\s*/?>|</(p|div|pre|blockquote|li|tr)>", "\n", text)
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def _parse(body: list[str], where: str, variant: AnyVariant) -> MoveBlock:
    """One block from its lines between BEGIN and END."""
    lines = _canonical(body)
    if not lines or not lines[-1].startswith("check:"):
        raise GameFileError(f"{where} has no 'check:' line before its end: it was cut short or edited")
    *lines, check_line = lines
    claimed = check_line.removeprefix("check:").strip()
    seq_line = next((line for line in lines if line.startswith("seq:")), "")
    where = f"{where} ({seq_line})" if seq_line else where
    if _check(lines) != claimed:
        raise GameFileError(
            f"{where} is damaged: its lines do not match its check {claimed!r}"
            f" (a line was changed, added, removed or re-wrapped on the way){_suspect(lines, variant)};"
            " ask for it again"
        )
    game, events = _contents(lines, where, variant)
    expected = _canonical(_body(game, events, variant))
    for got, want in zip(lines, expected):
        if got != want:
            raise GameFileError(f"{where}: line {got!r} does not match its events, which give {want!r}")
    if len(lines) != len(expected):  # pragma: no cover - the events come from these very lines
        raise GameFileError(f"{where}: {len(lines)} lines, but its events make {len(expected)}")
    return MoveBlock(game=game, events=events)


def _contents(lines: list[str], where: str, variant: AnyVariant) -> tuple[str, tuple[Event, ...]]:
    """The game id and the events of a block's lines (the check already matched)."""
    if not lines[0].startswith("game:"):
        raise GameFileError(f"{where}: the first line is {lines[0]!r}, not 'game: ...'")
    game = lines[0].removeprefix("game:").strip()
    start = lines.index("[[events]]") if "[[events]]" in lines else len(lines)
    doc = load_toml("\n".join(lines[start:]), f"{where}: its events")
    raw_events = doc.pop("events", [])
    if doc or not isinstance(raw_events, list) or not raw_events:
        raise GameFileError(f"{where}: it must hold [[events]] tables and nothing else")
    first = raw_events[0]
    seq = first.get("seq") if isinstance(first, dict) else None
    parent = first.get("parent") if isinstance(first, dict) else None
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= _MAX_SEQ or not isinstance(parent, str):
        raise GameFileError(f"{where}: its first event has no usable seq and parent")
    try:  # the block's own chain, from the parent its first event names
        events = read_events(raw_events, [""] * (seq - 1) + [parent], event_types(variant.name))
    except (GameFileError, ConflictError) as exc:
        raise GameFileError(f"{where}: {exc}") from None
    try:
        _body(game, events, variant)
    except ValueError as exc:  # move_of cannot read the event back into a move
        raise GameFileError(f"{where}: an event cannot be read as a move: {exc}") from None
    return game, events


def _suspect(lines: list[str], variant: AnyVariant) -> str:
    """A hint at the damaged line of a block whose check failed (or nothing when none is seen)."""
    try:
        game, events = _contents(lines, "", variant)
        expected = _canonical(_body(game, events, variant))
    except (GameFileError, ValueError):
        return ""
    for got, want in zip(lines, expected):
        if got != want:
            return f"; line {got!r} disagrees with the events, which give {want!r}"
    if len(lines) != len(expected):
        return f"; it has {len(lines)} lines where its events make {len(expected)}"
    return ""


# -- mailboxes: blocks of several games, and whole game files ----------------------------------

GAME_BEGIN = "-----BEGIN SPLENDOR GAME-----"
GAME_END = "-----END SPLENDOR GAME-----"
"""An armoured whole game file in a mail body (`armour_game`): the first mail of a game carries
the whole file (as an attachment `GAME.toml`, or so), so that `splendor apply` can create it."""
_MAX_GAME_FILES = 8
"""The most whole game files taken from one mail."""


def armour_game(data: bytes) -> str:
    """A whole game file as text to paste into a mail, between GAME_BEGIN and GAME_END lines."""
    text = data.decode("utf-8")
    return f"{GAME_BEGIN}\n{text}{'' if text.endswith(chr(10)) else chr(10)}{GAME_END}\n"


_PLAIN = frozenset(UNSAFE) - {ord("\n"), ord("\t")}
"""What a game file's text may not carry raw to a terminal (`printable_game`): the unsafe code
points (`errors.UNSAFE`) but the line break and the tab."""
_TOML_ESCAPES = {code: f"\\u{code:04x}" for code in _PLAIN}


def printable_game(data: bytes, record: Record) -> bytes:
    """A game file's bytes to print (`export --whole`): as they are when they hold no control
    or bidirectional character (`errors.UNSAFE`, but line breaks and tabs); else the same game
    written again (`format_record`, every string a basic string) with each such character
    escaped (`\\u202e`): the same values, so the same header and events, with the same digests,
    and nothing a terminal would act on."""
    text = data.decode("utf-8", "replace")
    if not any(ord(char) in _PLAIN for char in text):
        return data
    return format_record(record).translate(_TOML_ESCAPES).encode("utf-8")


def find_game_files(data: str | bytes, limit: int = 32 << 20) -> list[bytes]:
    """The whole game files a mail carries: each attachment named `*.toml` whose text looks like a
    game file, and each armoured block (`armour_game`), in the order found, duplicates dropped,
    at most `limit` bytes each. Only what they look like is checked: the caller reads each with
    `records.parse_text` and `replay_record` (or `store.from_bytes`) before trusting it."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    message = _parsed_mail(raw)
    found: list[bytes] = []
    texts: list[str] = []
    if message.keys():
        for part in message.walk():
            if part.is_multipart():
                continue
            name = part.get_filename() or ""
            if name.lower().endswith(".toml"):
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes) and len(payload) <= limit and looks_like_game(payload):
                    found.append(payload)
            elif part.get_content_type() == "text/plain":
                texts.append(_part_text(part))
    else:
        texts.append(raw.decode("utf-8", errors="replace"))
    for text in texts:
        found += [armoured for armoured in _armoured(text) if len(armoured) <= limit]
    return list(dict.fromkeys(found))[:_MAX_GAME_FILES]


def looks_like_game(data: bytes) -> bool:
    """Whether bytes begin as a game file does: a `format = ` and a `game = ` line before any event."""
    head = b"\n" + data[:8192].split(b"\n[[events]]", 1)[0]
    return b"\nformat = " in head and b"\ngame = " in head


def _armoured(text: str) -> list[bytes]:
    """The armoured game files of a text, each line's quoting (that of its BEGIN line) removed."""
    found: list[bytes] = []
    lines: list[str] | None = None
    prefix = ""
    for line in text.splitlines():
        bare = _QUOTING.sub("", line).strip()
        if bare == GAME_BEGIN:
            lines, prefix = [], line[: len(line) - len(line.lstrip(" >"))]
        elif bare == GAME_END and lines is not None:
            data = ("\n".join(lines) + "\n").encode("utf-8")
            if looks_like_game(data):
                found.append(data)
            lines = None
        elif lines is not None:
            lines.append((line.removeprefix(prefix) if line.startswith(prefix) else line.lstrip(" >")).rstrip("\r"))
    return found


def block_games(data: str | bytes) -> list[str]:
    """The game ids of the move blocks in a mail (as `find_blocks` would find them), in order,
    each once; the blocks' events are not read (`find_game_blocks` reads one game's)."""
    games: dict[str, None] = {}
    for bodies in _block_bodies(data):
        for lines, _ in bodies:
            first = next((line.strip() for line in lines if line.strip()), "")
            if first.startswith("game:"):
                games.setdefault(first.removeprefix("game:").strip())
    return list(games)


@attrs.frozen(kw_only=True)
class FoundBlock:
    """A move block found in a mail, not read yet (`read_block` reads it)."""

    game: str
    """The game its first line names ("" when its first line names none)."""
    number: int
    """Its number in its part of the mail, to name it in messages."""
    lines: tuple[str, ...]
    """Its lines between BEGIN and END."""
    complete: bool
    """Whether its END line was found."""
    key: str
    """What names it whatever the mail around it: a digest of its lines that count."""


def found_blocks(data: str | bytes, notes: list[str] | None = None) -> list[FoundBlock]:
    """Every move block of a mail (the text `find_blocks` reads), in the order found, each once
    (by its lines that count), at most `MAX_BLOCKS` (a note in `notes` says when more were left
    unread); none is read (`read_block`), so that each may be tried on its own.

    Raises:
        GameFileError: the mail goes over a bound of its headers or parts (`mail_bounds.check`).
    """
    seen: set[str] = set()
    found: list[FoundBlock] = []
    capped: set[str] = set()
    for part in _block_bodies(data):
        for number, (lines, complete) in enumerate(part, start=1):
            canonical = _canonical(lines)
            key = sha256("\n".join(canonical).encode("utf-8")).hexdigest()[:24]
            if key in seen or key in capped:
                continue
            if len(found) >= MAX_BLOCKS:
                capped.add(key)
                continue
            seen.add(key)
            first = canonical[0] if canonical else ""
            game = first.removeprefix("game:").strip() if first.startswith("game:") else ""
            found.append(FoundBlock(game=game, number=number, lines=tuple(lines), complete=complete, key=key))
    if capped and notes is not None:
        notes.append(f"the mail holds more than {MAX_BLOCKS} move blocks: {len(capped)} more not read")
    return found


def read_block(found: FoundBlock, variant: AnyVariant) -> MoveBlock:
    """A block found in a mail (`found_blocks`), read as `variant`'s (as `find_blocks` reads it).

    Raises:
        GameFileError: the block is damaged or cut short (the message names it and why).
    """
    if not found.complete:
        raise GameFileError(f"move block {found.number} is cut short: no {END} line")
    return _parse(list(found.lines), f"move block {found.number}", variant)


def find_game_blocks(
    data: str | bytes, game: str, variant: AnyVariant, notes: list[str] | None = None
) -> list[MoveBlock]:
    """The move blocks of game `game` in a mail, read as `variant`'s (as `find_blocks` reads
    them, each once, at most `MAX_BLOCKS`); blocks of other games are left unread.

    Raises:
        GameFileError: a block of this game is damaged or cut short, or the mail nests too many parts.
    """
    found = [
        _parse(lines, f"move block {number}", variant)
        for number, lines in _unique_bodies(_block_bodies(data), notes, game)
    ]
    return list(dict.fromkeys(found))


def _block_bodies(data: str | bytes, *, strict: bool = False) -> list[list[tuple[list[str], bool]]]:
    """The lines of each block (and whether it ended) in the first kind of text of a mail that
    holds a block, as `find_blocks` chooses it: text/plain parts, else text/html, else the raw
    text. One list per part of that kind; [] when no text holds a block. `strict`: a block cut
    short by the next one's BEGIN line is an error (`find_blocks`).

    Raises:
        GameFileError: the mail nests too many parts; with `strict`, a block is cut short.
    """
    raw = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    for texts in (*_mail_texts(data), [raw]):
        bodies = [_raw_blocks(text, strict=strict) for text in texts]
        if any(bodies):
            return bodies
    return []


def _raw_blocks(text: str, *, strict: bool = False) -> list[tuple[list[str], bool]]:
    """The lines between each BEGIN and END line of a text, quoting stripped and mail quoting
    ignored (`> `, indentation, CRLF line ends)."""
    blocks: list[tuple[list[str], bool]] = []
    body: list[str] | None = None
    for line in text.splitlines():
        line = _QUOTING.sub("", line).strip()
        if line == BEGIN:
            if body is not None:
                if strict:
                    raise GameFileError(f"move block {len(blocks) + 1} is cut short: a new block begins before its end")
                blocks.append((body, False))
            body = []
        elif line == END and body is not None:
            blocks.append((body, True))
            body = None
        elif body is not None:
            body.append(line)
    if body is not None:
        blocks.append((body, False))
    return blocks
