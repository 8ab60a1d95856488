"""Moves by e-mail: export a block, find it in a mail however it was quoted or encoded, apply it."""

from __future__ import annotations

import hashlib
import html
import random
import re
import shutil
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import BASE, deal

from splendor_cli import store
from splendor_cli.errors import ConflictError, GameFileError, IllegalMoveError, StaleBlockError, UsageError
from splendor_cli.events.codec import Header, chained, event_digest, format_event
from splendor_cli.model import Gem
from splendor_cli.sharing import inbox, mail
from splendor_cli.sharing.mail import MoveBlock
from splendor_cli.variants.base.events import TokensTaken
from splendor_cli.variants.base.notation import parse_move


def find_blocks(data: str | bytes) -> list[mail.MoveBlock]:
    """The blocks of a mail for a game of base (`splendor apply` reads them so)."""
    return mail.find_blocks(data, BASE)


def format_block(game: str, events: list[Any]) -> str:
    return mail.format_block(game, events, BASE)


GAME_ID = "2026-12-02-ann-bob-1a2b"


def _new(path: Path, players: tuple[str, str] = ("ann", "bob"), game: str = GAME_ID) -> store.Loaded:
    header = Header(game=game, variant="base", players=players, created="2026-12-02T00:00:00Z")
    return store.create(path, header, deal(players, random.Random(3)))


def _play(loaded: store.Loaded, *moves: str) -> store.Loaded:
    for move in moves:
        loaded = store.append(loaded, loaded.game.decide(parse_move(move)))
    return loaded


def _pair(tmp_path: Path, players: tuple[str, str] = ("ann", "bob")) -> tuple[store.Loaded, store.Loaded]:
    """Two copies of the same new game, as its two players would each keep one."""
    mine = _new(tmp_path / "mine.toml", players)
    shutil.copy(mine.path, tmp_path / "theirs.toml")
    return mine, store.read(tmp_path / "theirs.toml")


def _take_in(loaded: store.Loaded, text: str | bytes) -> tuple[store.Loaded, inbox.Applied]:
    """What `splendor apply` does: find the blocks, decide, append each event."""
    outcome = inbox.apply_blocks(loaded.record, loaded.game, find_blocks(text))
    for event in outcome.events:
        loaded = store.append(loaded, event)
    return loaded, outcome


def _quote(text: str, prefix: str = "> ") -> str:
    return "".join(f"{prefix}{line}".rstrip() + "\n" for line in text.splitlines())


# -- export ----------------------------------------------------------------------------------


def test_export_of_one_event_is_a_summary_then_the_file_block(tmp_path: Path) -> None:
    """One event: game, seq, parent, player and move lines, then exactly the event's lines as
    `format_event` writes them in the file, then a check line, between BEGIN and END markers."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    event = loaded.record.events[-1]
    lines = mail.export_text(loaded.record).splitlines()
    assert lines[:-2] == [
        "-----BEGIN SPLENDOR MOVE-----",
        f"game: {GAME_ID}",
        "seq: 2",
        f"parent: {event_digest(loaded.record.events[0])}",
        "player: ann",
        "move: take white blue green",
        *format_event(event).rstrip("\n").split("\n"),
        "",
    ]
    assert re.fullmatch(r"check: [0-9a-f]{16}", lines[-2])
    assert lines[-1] == "-----END SPLENDOR MOVE-----"
    assert find_blocks("\n".join(lines)) == [MoveBlock(game=GAME_ID, events=(event,))]


def test_export_of_several_events_carries_them_all_in_one_block(tmp_path: Path) -> None:
    """`last=3` puts the last three events, an undo among them, in one block with seq 2-4 and a
    player/move pair for each; it reads back as those very events."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    loaded = store.append(loaded, loaded.game.decide_undo(by="ann"))
    loaded = _play(loaded, "take red red")
    text = mail.export_text(loaded.record, last=3)
    assert text.count("-----BEGIN SPLENDOR MOVE-----") == 1
    assert "seq: 2-4\n" in text
    assert "player: ann\nmove: undo: back to just after #1 (asked by ann)\n" in text
    assert "player: ann\nmove: take red red\n" in text
    [block] = find_blocks(text)
    assert block.events == loaded.record.events[1:]
    assert (block.first, block.last, block.parent) == (2, 4, event_digest(loaded.record.events[0]))


@pytest.mark.parametrize("last", [0, -1, 3])
def test_export_refuses_a_count_outside_the_log(tmp_path: Path, last: int) -> None:
    """`last` must name between 1 and all of the events: anything else is a usage error."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    with pytest.raises(UsageError, match="between 1 and 2"):
        mail.export_text(loaded.record, last=last)


# -- round trip ------------------------------------------------------------------------------


def test_round_trip_makes_the_two_copies_byte_identical(tmp_path: Path) -> None:
    """Ann plays on her copy and exports; Bob applies the block to his copy. The events keep
    their seq and parent (sealing leaves them unchanged), so both files end byte for byte equal."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    outcome = inbox.apply_blocks(theirs.record, theirs.game, find_blocks(mail.export_text(mine.record)))
    assert outcome.message == "applied #2 ann: take white blue green"
    assert not outcome.is_noop
    for event in outcome.events:
        assert chained(theirs.record, event) == event
        theirs = store.append(theirs, event)
    assert Path(theirs.path).read_bytes() == Path(mine.path).read_bytes()

    # and back: Bob answers, Ann applies
    theirs = _play(theirs, "take red red")
    mine, outcome = _take_in(mine, mail.export_text(theirs.record))
    assert outcome.message == "applied #3 bob: take red red"
    assert Path(mine.path).read_bytes() == Path(theirs.path).read_bytes()


def test_an_undo_travels_like_a_turn(tmp_path: Path) -> None:
    """An undo event is exported and applied as any other event; the copies stay equal."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    theirs, _ = _take_in(theirs, mail.export_text(mine.record))
    mine = store.append(mine, mine.game.decide_undo(by="ann"))
    theirs, outcome = _take_in(theirs, mail.export_text(mine.record))
    assert outcome.message == "applied #3 undo: back to just after #1 (asked by ann)"
    assert Path(theirs.path).read_bytes() == Path(mine.path).read_bytes()
    assert theirs.game.undone == frozenset({2})


def test_applying_a_block_twice_is_a_noop_that_says_so(tmp_path: Path) -> None:
    """The second time, every event is in the file already: nothing to append, and the message
    says "already applied"."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    text = mail.export_text(mine.record)
    theirs, _ = _take_in(theirs, text)
    before = Path(theirs.path).read_bytes()
    theirs, outcome = _take_in(theirs, text)
    assert outcome.is_noop
    assert outcome.known == (mine.record.events[-1],)
    assert outcome.message.splitlines() == [
        "already applied: #2 ann: take white blue green",
        "nothing to do: the file has every event of the block already",
    ]
    assert Path(theirs.path).read_bytes() == before


def test_a_block_partly_applied_appends_only_the_rest(tmp_path: Path) -> None:
    """A block of #2-#3 on a copy that has #2: #2 is reported as already applied, #3 appended."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    theirs, _ = _take_in(theirs, mail.export_text(mine.record))
    mine = _play(mine, "take red red")
    theirs, outcome = _take_in(theirs, mail.export_text(mine.record, last=2))
    assert outcome.message.splitlines() == [
        "already applied: #2 ann: take white blue green",
        "applied #3 bob: take red red",
    ]
    assert Path(theirs.path).read_bytes() == Path(mine.path).read_bytes()


def test_a_reply_with_blocks_out_of_order_applies_them_in_seq_order(tmp_path: Path) -> None:
    """A reply holds the new block (#3) above the quoted old one (#2): both are taken in, in seq
    order, and a block quoted twice counts once."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    old = mail.export_text(mine.record)
    mine = _play(mine, "take red red")
    new = mail.export_text(mine.record)
    reply = f"My move:\n\n{new}\nOn Tuesday, ann wrote:\n{_quote(old)}\n{_quote(_quote(old))}"
    assert len(find_blocks(reply)) == 2
    theirs, outcome = _take_in(theirs, reply)
    assert [e.seq for e in outcome.events] == [2, 3]
    assert Path(theirs.path).read_bytes() == Path(mine.path).read_bytes()


# -- finding the block in a mail -------------------------------------------------------------


@pytest.mark.parametrize(
    "wrap",
    [
        pytest.param(lambda t: f"Hi Bob,\n\nhere is my move.\n\n{t}\n-- \nAnn\n", id="in-a-body"),
        pytest.param(lambda t: "\n\n   " + t.replace("\n", "\n   ") + "   \n\n", id="indented"),
        pytest.param(lambda t: _quote(t), id="quoted-once"),
        pytest.param(lambda t: _quote(_quote(t)), id="quoted-twice-tight"),
        pytest.param(lambda t: _quote(t, "> > "), id="quoted-twice-spaced"),
        pytest.param(lambda t: _quote(t, ">> "), id="quoted-twice-doubled"),
        pytest.param(lambda t: _quote(t).replace("\n", "\r\n"), id="quoted-crlf"),
        pytest.param(lambda t: t.replace("\n", "\r\n"), id="crlf"),
        pytest.param(lambda t: t.replace("\n\n", "\n\n\n").replace("\n", "\n\n", 3), id="blank-lines-added"),
        pytest.param(lambda t: t.replace("\n\n", "\n"), id="blank-lines-dropped"),
    ],
)
def test_the_block_is_found_however_the_mail_body_holds_it(tmp_path: Path, wrap: Callable[[str], str]) -> None:
    """Text around it, indentation, `> ` quoting once or twice in any style, CRLF line ends and
    blank lines added or dropped: the same block is found, and it applies."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    body = wrap(mail.export_text(mine.record))
    assert find_blocks(body) == [MoveBlock(game=GAME_ID, events=(mine.record.events[-1],))]
    assert find_blocks(body.encode("utf-8")) == find_blocks(body)
    theirs, _ = _take_in(theirs, body)
    assert Path(theirs.path).read_bytes() == Path(mine.path).read_bytes()


def _eml(body: str, cte: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Zoë <zoe@example.org>"
    message["To"] = "ann@example.org"
    message["Subject"] = "Re: splendor, my move"
    message.set_content(body, cte=cte, charset="utf-8")
    return message


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_the_block_is_found_in_an_eml_file_whatever_its_transfer_encoding(tmp_path: Path, cte: str) -> None:
    """A whole .eml whose text part is quoted-printable or base64 (and UTF-8: signed Zoë; player
    names are ASCII): the part is decoded before it is scanned, as bytes or as text."""
    mine, theirs = _pair(tmp_path, ("zoe", "bob"))
    mine = _play(mine, "take white blue green")
    eml = _eml(f"Bonjour,\n\n{_quote(mail.export_text(mine.record))}\nZoë\n", cte).as_bytes()
    assert b"Zo\xc3\xab" not in eml  # the raw bytes are encoded
    if cte == "base64":
        assert b"move: take" not in eml  # the block is not even readable as it is
    expected = [MoveBlock(game=GAME_ID, events=(mine.record.events[-1],))]
    assert find_blocks(eml) == expected
    assert find_blocks(eml.decode("ascii")) == expected
    theirs, outcome = _take_in(theirs, eml)
    assert outcome.message == "applied #2 zoe: take white blue green"
    assert Path(theirs.path).read_bytes() == Path(mine.path).read_bytes()


def test_the_block_is_found_in_a_multipart_mail_once(tmp_path: Path) -> None:
    """A text/plain part with an html alternative: the block is taken from the text, once."""
    mine, _ = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    text = mail.export_text(mine.record)
    message = _eml(f"My move:\n{text}", "quoted-printable")
    message.add_alternative(f"<p>My move:</p><pre>{html.escape(text)}</pre>", subtype="html")
    assert find_blocks(message.as_bytes()) == [MoveBlock(game=GAME_ID, events=(mine.record.events[-1],))]


@pytest.mark.parametrize("plain", ["", "Sent from my phone."])
def test_the_block_is_found_in_the_html_part_when_the_text_has_none(tmp_path: Path, plain: str) -> None:
    """A mail with only an html part, or a text part without the block: the html is scanned,
    its tags dropped and entities decoded."""
    mine, _ = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    text = mail.export_text(mine.record)
    message = EmailMessage()
    message["Subject"] = "move"
    if plain:
        message.set_content(plain)
    page = "<html><body><p>My move:</p>" + html.escape(text).replace("\n", "<br>\n") + "</body></html>"
    if plain:
        message.add_alternative(page, subtype="html", cte="quoted-printable")
    else:
        message.set_content(page, subtype="html", cte="quoted-printable")
    assert find_blocks(message.as_bytes()) == [MoveBlock(game=GAME_ID, events=(mine.record.events[-1],))]


def test_a_format_flowed_mail_has_its_soft_line_breaks_joined(tmp_path: Path) -> None:
    """A mail program that sends format=flowed may break a long line after a space; the part's
    lines are joined again (RFC 3676) before the scan. Read as plain text, the block is damaged."""
    mine, _ = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    quoted = _quote(mail.export_text(mine.record))
    broken = quoted.replace('> gems = ["white", "blue", "green"]\n', '> gems = ["white", \n> "blue", "green"]\n')
    assert broken != quoted
    head = "From: bob@example.org\nSubject: Re: move\nMIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\n"
    flowed = head + "Content-Type: text/plain; charset=utf-8; format=flowed\n\n" + broken
    assert find_blocks(flowed) == [MoveBlock(game=GAME_ID, events=(mine.record.events[-1],))]
    fixed = head + "Content-Type: text/plain; charset=utf-8\n\n" + broken
    with pytest.raises(GameFileError, match="damaged"):
        find_blocks(fixed)


def test_no_block_is_a_usage_error(tmp_path: Path) -> None:
    """A mail without a block yields no block, and applying nothing is a usage error (exit 2)."""
    loaded = _new(tmp_path / "g.toml")
    assert find_blocks("Hi Bob,\nI will play tomorrow.\n") == []
    with pytest.raises(UsageError, match="no move block found") as caught:
        inbox.apply_blocks(loaded.record, loaded.game, [])
    assert caught.value.exit_code == 2


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        pytest.param(lambda t: t.replace('"green"]', '"red"]'), "damaged", id="gem-changed"),
        pytest.param(lambda t: t.replace("seq: 2\n", "seq: 3\n"), "damaged", id="summary-changed"),
        pytest.param(lambda t: t.replace('noble = ""\n', ""), "damaged", id="line-removed"),
        pytest.param(lambda t: t.replace("player = ", "player  =  "), "damaged", id="spacing-changed"),
        pytest.param(lambda t: t.replace("green", "gre\nen"), "damaged", id="line-rewrapped"),
        pytest.param(lambda t: t.replace("check: ", "check: 0"), "damaged", id="check-changed"),
        pytest.param(lambda t: t.replace("-----END SPLENDOR MOVE-----\n", ""), "cut short", id="no-end"),
        pytest.param(lambda t: t.split("check:")[0] + "-----END SPLENDOR MOVE-----\n", "no 'check:'", id="no-check"),
        pytest.param(lambda t: t.split("noble")[0] + t, "a new block begins", id="begin-twice"),
    ],
)
def test_a_damaged_block_is_refused_in_one_line(tmp_path: Path, damage: Callable[[str], str], message: str) -> None:
    """Any line changed, added, removed or re-wrapped, or the end cut off: the block is refused
    with a one-line GameFileError (exit 4) naming the block and what is wrong."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    text = damage(mail.export_text(loaded.record))
    with pytest.raises(GameFileError, match=message) as caught:
        find_blocks(text)
    assert caught.value.exit_code == 4
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("move block 1")


def test_a_damaged_block_names_the_suspect_line(tmp_path: Path) -> None:
    """When a changed TOML line still parses, the message shows where the lines disagree."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    text = mail.export_text(loaded.record).replace('"green"]', '"red"]')
    with pytest.raises(GameFileError, match=r"\(seq: 2\) is damaged: .*'move: take white blue green'.*red"):
        find_blocks(text)


def _recheck(text: str) -> str:
    """The block with its check recomputed, as a program could forge it: sha256 over the other
    non-blank lines between the markers, stripped and joined by newlines, first 16 hex digits."""
    lines = text.splitlines()
    body = [line.strip() for line in lines[1:-2] if line.strip()]
    check = hashlib.sha256("\n".join(body).encode("utf-8")).hexdigest()[:16]
    return "\n".join([*lines[:-2], f"check: {check}", lines[-1]]) + "\n"


def test_the_check_is_a_digest_of_the_other_lines(tmp_path: Path) -> None:
    """The check line is exactly the documented digest (so other programs can write blocks)."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    text = mail.export_text(loaded.record)
    assert _recheck(text) == text


def test_a_summary_that_lies_about_its_events_is_refused(tmp_path: Path) -> None:
    """Even with a matching check, the summary lines must be what the events give."""
    loaded = _play(_new(tmp_path / "g.toml"), "take white blue green")
    text = _recheck(mail.export_text(loaded.record).replace("move: take white blue green", "move: take red red"))
    with pytest.raises(GameFileError, match="'move: take red red' does not match its events"):
        find_blocks(text)


def test_a_block_for_another_game_is_refused(tmp_path: Path) -> None:
    """Same players, same deal, another game id: the block is refused (usage error, exit 2)
    naming both games, and the file is not touched."""
    other = _play(_new(tmp_path / "other.toml", game="2026-12-02-ann-bob-ffff"), "take white blue green")
    loaded = _new(tmp_path / "g.toml")
    before = Path(loaded.path).read_bytes()
    with pytest.raises(UsageError, match=r"game '2026-12-02-ann-bob-ffff', but this file is game '2026-") as caught:
        _take_in(loaded, mail.export_text(other.record))
    assert caught.value.exit_code == 2
    assert Path(loaded.path).read_bytes() == before


@pytest.mark.parametrize(
    ("turns", "missing", "says"),
    [
        (["take red red"], range(2, 3), "turn #2 is missing"),
        (["take red red", "take black black"], range(2, 4), "turns #2 to #3 are missing"),
    ],
)
def test_a_block_after_missing_turns_is_a_conflict_naming_them(
    tmp_path: Path, turns: list[str], missing: range, says: str
) -> None:
    """The receiver lacks turns before the block (a mail got lost): ConflictError (exit 5) that
    names the missing turns and how to get them; nothing is written."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green", *turns)
    before = Path(theirs.path).read_bytes()
    with pytest.raises(StaleBlockError, match=says) as caught:
        _take_in(theirs, mail.export_text(mine.record))
    assert isinstance(caught.value, ConflictError)
    assert caught.value.exit_code == 5
    assert caught.value.missing == missing
    assert f"export --last {len(turns) + 1}" in str(caught.value)
    assert Path(theirs.path).read_bytes() == before


def test_a_block_that_contradicts_the_file_is_a_conflict_naming_the_turn(tmp_path: Path) -> None:
    """Both copies have a #2, but not the same: the block's #2 conflicts with the file's #2."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green")
    theirs = _play(theirs, "take red red")
    with pytest.raises(StaleBlockError, match=r"conflicts with this file at #2: .*forked after #1") as caught:
        _take_in(theirs, mail.export_text(mine.record))
    assert caught.value.seq == 2


def test_a_block_that_follows_another_history_is_a_conflict(tmp_path: Path) -> None:
    """The block's #3 follows a #2 that this file does not have: the copies forked at or before #2."""
    mine, theirs = _pair(tmp_path)
    mine = _play(mine, "take white blue green", "take red red")
    theirs = _play(theirs, "take black black")
    with pytest.raises(StaleBlockError, match="forked at or before #2") as caught:
        _take_in(theirs, mail.export_text(mine.record))
    assert caught.value.seq == 3


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        pytest.param({"player": "bob"}, "it was ann's turn", id="out-of-turn"),
        pytest.param({"gems": (Gem.RED, Gem.RED, Gem.BLUE)}, "illegal tokens_taken", id="three-with-a-pair"),
    ],
)
def test_an_illegal_move_in_a_well_formed_block_is_refused(
    tmp_path: Path, change: dict[str, object], rule: str
) -> None:
    """A block that is intact and follows the file, but whose move the rules forbid, is refused
    as an illegal move (exit 3) with the rule's message; nothing is written."""
    loaded = _new(tmp_path / "g.toml")
    legal = chained(loaded.record, loaded.game.decide(parse_move("take white blue green")))
    illegal = attrs.evolve(legal, **change)  # type: ignore[arg-type]
    assert isinstance(illegal, TokensTaken)
    text = format_block(GAME_ID, [illegal])
    assert find_blocks(text) == [MoveBlock(game=GAME_ID, events=(illegal,))]  # intact, well formed
    before = Path(loaded.path).read_bytes()
    with pytest.raises(IllegalMoveError, match=f"illegal move in the block: event #2: .*{rule}") as caught:
        _take_in(loaded, text)
    assert caught.value.exit_code == 3
    assert "\n" not in str(caught.value)
    assert Path(loaded.path).read_bytes() == before
