"""The bounds a mail keeps before the standard library's `email` parser sees it (`check`).

The parser's cost for a structured header grows with the square of its tokens: one Content-Type
of tens of thousands of parameters (or of comments, or of quoted strings) took 43 s of CPU at
0.25 MiB and more than 300 s and 1.5 GB at 2 MiB, and a mail of thousands of MIME parts costs a
second every few thousand parts. Such a mail stalled `apply --maildir` and `watch` on every run.
So, on the raw bytes and in time linear in them, before anything is parsed:

- the mail's header section (its first lines up to the first that is no header line, as the
  parser reads it) is at most `MAX_HEADER` bytes;
- every Content-Type, Content-Disposition and Content-Transfer-Encoding field (the fields the
  parser is asked to read, in the mail's header and in each part's, folded lines included) is
  at most `MAX_FIELD` bytes, of at most `MAX_PARAMS` parameters, `MAX_COMMENTS` comments and
  `MAX_SEPARATORS` separators (characters other than letters, digits and `%_+-`: spaces, `;`, `=`, `.`, quotes,
  brackets), and the mail holds at most `MAX_CONTENT_FIELDS` of them;
- the mail holds at most `MAX_MULTIPARTS` multipart Content-Types and `MAX_PART_LINES` lines
  that may open a part (a line beginning with `--`, but a move block's or an armoured game's
  own first and last lines).

A field is looked for wherever a line may begin (after `\\n`, `\\r` or `\\r\\n`, as the parser
splits lines), so that a field the parser would read is never missed; a body line that looks
like one counts too (a mail refused by mistake is said, and is no mail of `splendor export`).
Other fields are not parsed (`Subject`, which `apply` quotes, is read by `subject` from at most
`MAX_SUBJECT` bytes).
"""

from __future__ import annotations

import re

from ..errors import GameFileError

MAX_HEADER = 256 << 10
"""The largest header section of a mail (256 KiB; a mail's is a few KiB)."""
MAX_FIELD = 2048
"""The largest Content-* field read (bytes, folded lines included; a mail's are a line or two)."""
MAX_PARAMS = 32
"""The most parameters (`;`) of a Content-* field (a mail's have one to five)."""
MAX_SEPARATORS = 64
"""The most separators of a Content-* field (a mail's have a few to forty)."""
MAX_COMMENTS = 8
"""The most comments (`(`) of a Content-* field (a mail's have none)."""
MAX_CONTENT_FIELDS = 64
"""The most Content-* fields read of a mail (about three a part)."""
MAX_MULTIPARTS = 64
"""The most multipart parts a mail may have (so its nesting is bounded too)."""
MAX_PART_LINES = 1000
"""The most lines of a mail that may open a part (a line beginning with `--`)."""
MAX_SUBJECT = 1024
"""The most bytes of a Subject field that are decoded (`subject`)."""

_HEADER_LINES = re.compile(rb"(?:(?:[\x21-\x39\x3b-\x7e]*:|From |[ \t])[^\r\n]*(?>\r\n|\r|\n|\Z))*")
"""The header section, as `email.feedparser` reads it: lines that begin a field (a name of
printable characters and a colon), continue one (a space or a tab), or are an mbox `From ` line."""
_CONTENT_FIELD = re.compile(rb"(?i)(?<![^\r\n])(content-(?:type|disposition|transfer-encoding)):")
"""Where a field the parser reads begins: at the beginning of the mail or of a line."""
_FIELD_END = re.compile(rb"(?:\r\n|\r|\n)(?![ \t])")
"""The end of a field: a line break that no folded line follows."""
_SEPARATOR = re.compile(rb"[^A-Za-z0-9%_+\-]")
_MULTIPART = re.compile(rb"(?i)multipart")
_PART_LINE = re.compile(rb"(?<![^\r\n])--(?!---(?:BEGIN|END) SPLENDOR (?:MOVE|GAME)-----)")
_SUBJECT = re.compile(rb"(?i)(?<![^\r\n])subject:")


def check(raw: bytes) -> None:
    """Refuse a mail over a bound (see the module docstring), before any parsing.

    Raises:
        GameFileError: one line naming the bound the mail goes over.
    """
    if len(header_section(raw)) > MAX_HEADER:
        raise GameFileError(f"the mail's header is larger than {MAX_HEADER // 1024} KiB: not read")
    multiparts = 0
    for fields, found in enumerate(_CONTENT_FIELD.finditer(raw), start=1):
        name = found.group(1).decode("ascii").title()
        value, whole = _field_value(raw, found.end(), MAX_FIELD)
        if name == "Content-Type" and _MULTIPART.search(value):
            multiparts += 1
            if multiparts > MAX_MULTIPARTS:
                raise GameFileError(f"the mail has more than {MAX_MULTIPARTS} multipart parts: not read")
        if fields > MAX_CONTENT_FIELDS:
            raise GameFileError(f"the mail has more than {MAX_CONTENT_FIELDS} Content-* header fields: not read")
        if value.count(b";") > MAX_PARAMS:
            raise GameFileError(f"the mail has a {name} header field of more than {MAX_PARAMS} parameters: not read")
        if not whole:
            raise GameFileError(f"the mail has a {name} header field larger than {MAX_FIELD} bytes: not read")
        if value.count(b"(") > MAX_COMMENTS:
            raise GameFileError(f"the mail has a {name} header field of more than {MAX_COMMENTS} comments: not read")
        if len(_SEPARATOR.findall(value.strip())) > MAX_SEPARATORS:
            raise GameFileError(
                f"the mail has a {name} header field of more than {MAX_SEPARATORS} separators"
                " (spaces, punctuation, quotes, brackets): not read"
            )
    for lines, _ in enumerate(_PART_LINE.finditer(raw), start=1):
        if lines > MAX_PART_LINES:
            raise GameFileError(f"the mail has more than {MAX_PART_LINES} lines that may open a MIME part: not read")


def header_section(raw: bytes) -> bytes:
    """The mail's header section as the parser reads it, at most `MAX_HEADER` + 1 bytes of it
    (more means too large)."""
    found = _HEADER_LINES.match(raw, 0, MAX_HEADER + 1)
    return raw[: found.end()] if found is not None else b""


def subject(raw: bytes) -> bytes | None:
    """The Subject field of a mail's header section as a field of its own (`Subject: ...`), its
    value cut at `MAX_SUBJECT` bytes; None when it has none. To be parsed as a header."""
    header = header_section(raw)
    found = _SUBJECT.search(header)
    if found is None:
        return None
    value, _ = _field_value(header, found.end(), MAX_SUBJECT)
    return b"Subject:" + value + b"\n"


def _field_value(raw: bytes, start: int, most: int) -> tuple[bytes, bool]:
    """The value of the field whose name ends at `start` (folded lines included), up to its end
    or `most` bytes of it, and whether it ends there (it is not longer than `most` bytes)."""
    end = _FIELD_END.search(raw, start, start + most + 8)  # room for the break and what follows it
    stop = end.start() if end is not None else min(len(raw), start + most + 1)
    return raw[start : min(stop, start + most)], stop - start <= most
