"""Names, game ids and the terminal: a game file cannot write to the reader's terminal, nor
make `seed` write outside the secrets folder.

A player name keeps one rule (`NAME_RULE`), checked by `new` (exit 2) and on every read
(exit 4); a header's game id keeps `GAME_ID_RULE`, checked on every read. Whatever text of a
file still reaches a terminal (boards, log, verify, error lines) goes through `safe`. The
hostile files here are written by hand, as `new` can no longer make them.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import cli, deal, deal_duel

from splendor_cli.app.exits import run
from splendor_cli.errors import GameFileError
from splendor_cli.events import Event, SeedsAsked
from splendor_cli.events.codec import GAME_ID, GAME_ID_RULE, Header, Record, chained, format_event, format_header
from splendor_cli.presentation.log_text import log_text
from splendor_cli.presentation.text import UNSAFE, safe
from splendor_cli.projection import Game
from splendor_cli.projection.log import LogEntry
from splendor_cli.projection.variant import NAME_RULE, name_problem
from splendor_cli.sharing import git_audit as audit
from splendor_cli.sharing import verify
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.duel import VARIANT as DUEL

OSC52 = "ann\x1b]52;c;aGFja2Vk\x07"
"""A name that writes `hacked` to the reader's clipboard when printed raw."""
FORGED = "ann\n#3  turn 2  ann  buy 3-01  (resigned: mallory wins)"
"""A name that prints a fake log line."""
HOSTILE_NAMES = [
    OSC52,
    FORGED,
    "ann\x1b[2J\x1b[H",  # clear the screen
    "ann\x9b2J",  # the same through an 8-bit CSI
    "\u202eann",  # right-to-left override
    "ann\u2066x",  # a bidi isolate
    "../../../escape",
    "a/b",
    "a\\b",
    "a..b",
    "x" * 5000,
    "x" * 33,
    "zo\u00eb",
    ".ann",
    "-ann",
    "ann bob",
]
SETUP_PLAYERS_OK = ("ann", "bob")


def unsafe_in(text: str) -> list[str]:
    """The characters of `text` a terminal would act on (its final newline aside)."""
    return [c for c in text.removesuffix("\n") if ord(c) in UNSAFE]


def one_clean_line(err: str) -> None:
    """`err` is one line, with no raw control or bidi character, and short (an excerpt at most)."""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert unsafe_in(err) == [], err
    assert len(err) < 400, err


def write_game(path: Path, header: Header, first: Event) -> Path:
    """A game file written by hand (no check): the header and its first event, sealed."""
    sealed = chained(Record(header=header, events=()), first)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(format_header(header) + format_event(sealed), encoding="utf-8")
    return path


def hostile_base(path: Path, players: tuple[str, ...], game: str = "g") -> Path:
    header = Header(game=game, variant="base", players=players, created="2026-12-02T00:00:00Z")
    return write_game(path, header, deal(players, random.Random(3)))


def hostile_seeds(path: Path, players: tuple[str, ...], game: str = "g") -> Path:
    """A commit-then-reveal game whose deal waits for every player's commitment."""
    header = Header(game=game, variant="base", players=players, created="2026-12-02T00:00:00Z")
    return write_game(path, header, SeedsAsked(seq=1, parent="", variant="base", players=players))


# -- the rule of names ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ann", "Bob2", "bot:mcts:400#2", "bot:greedy#1", "a.b@c+d-e_f", "x" * 32, "7"])
def test_the_rule_accepts_plain_names_and_bot_seats(name: str) -> None:
    assert name_problem(name) == ""


@pytest.mark.parametrize("name", [*HOSTILE_NAMES, ""])
def test_the_rule_refuses_control_characters_paths_and_long_names(name: str) -> None:
    problem = name_problem(name)
    assert problem.startswith("bad player name") and problem.endswith(NAME_RULE)
    assert unsafe_in(problem) == [] and len(problem) < 200


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_new_refuses_a_name_that_breaks_the_rule(tmp_path: Path, name: str) -> None:
    """`new`: exit 2, one line quoting the rule, nothing written."""
    code, _, err = cli("new", "-g", tmp_path / "x.toml", "--players", f"{name},bob")
    assert code == 2, err
    one_clean_line(err)
    assert NAME_RULE in err
    assert not (tmp_path / "x.toml").exists()


def test_new_makes_ids_that_keep_the_rule_of_game_ids(tmp_path: Path) -> None:
    """The id `new` makes from the names (bot seats' `:` and `#` replaced, long names cut) reads back."""
    for players in ("bot:mcts:400#2,bot:greedy#1", ",".join(f"{c}" * 32 for c in "abcd"), "a.b@c+d,e_f-g"):
        path = tmp_path / f"{len(players)}.toml"
        code, out, err = cli("new", "-g", path, "--players", players, "--json")
        assert code == 0, err
        game = json.loads(out)["game"]
        assert GAME_ID.fullmatch(game) and ".." not in game and ":" not in game and "#" not in game
        assert cli("verify", "-g", path)[0] == 0


# -- hostile files: refused on read --------------------------------------------------------------


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("command", ["show", "log", "verify", "state", "moves"])
def test_a_file_with_a_bad_name_is_refused_by_every_reader(tmp_path: Path, name: str, command: str) -> None:
    """A setup (and header) naming a player against the rule: exit 4, one clean short line."""
    path = hostile_base(tmp_path / "g.toml", (name, "bob"))
    code, out, err = cli(command, "-g", path)
    assert code == 4, (out, err)
    one_clean_line(err)
    assert "bad player name" in err and NAME_RULE in err
    assert unsafe_in(out) == []


@pytest.mark.parametrize("name", [OSC52, FORGED, "\u202eann", "../../../escape"])
def test_a_duel_with_a_bad_name_is_refused(tmp_path: Path, name: str) -> None:
    header = Header(game="d", variant="duel", players=(name, "bob"), created="2026-12-02T00:00:00Z")
    path = write_game(tmp_path / "d.toml", header, deal_duel((name, "bob"), random.Random(3)))
    for command in ("show", "log", "verify"):
        code, out, err = cli(command, "-g", path)
        assert code == 4, (out, err)
        one_clean_line(err)
        assert NAME_RULE in err


@pytest.mark.parametrize("name", [OSC52, FORGED, "ann\x9b2J", "\u202eann", "x" * 5000])
def test_the_json_error_holds_no_control_character(tmp_path: Path, name: str) -> None:
    """`--json`: one JSON object on stderr, its message free of control and bidi characters."""
    path = hostile_base(tmp_path / "g.toml", (name, "bob"))
    code, _, err = cli("show", "-g", path, "--json")
    assert code == 4
    assert err.count("\n") == 1 and unsafe_in(err) == []
    error = json.loads(err)["error"]
    assert error["exit"] == 4 and unsafe_in(error["message"]) == [] and len(error["message"]) < 400


@pytest.mark.parametrize("name", [OSC52, FORGED, "../../../escape"])
def test_a_commit_then_reveal_file_with_a_bad_name_is_refused(tmp_path: Path, name: str) -> None:
    """seeds_asked names the players before any deal: the fold checks them there too."""
    path = hostile_seeds(tmp_path / "g.toml", (name, "bob"))
    for command in ("log", "verify", "show"):
        code, _, err = cli(command, "-g", path)
        assert code == 4, err
        one_clean_line(err)
        assert NAME_RULE in err


@pytest.mark.parametrize("game", ["../../escape", "g/../../escape", "a\x1b]52;c;aGk=\x07", "\u202eg", "g" * 5000, ""])
def test_a_header_whose_game_id_breaks_the_rule_is_refused(tmp_path: Path, game: str) -> None:
    path = hostile_base(tmp_path / "g.toml", SETUP_PLAYERS_OK, game=game)
    for command in ("show", "log", "verify"):
        code, _, err = cli(command, "-g", path)
        assert code == 4, err
        one_clean_line(err)
        assert "bad game id" in err and GAME_ID_RULE in err


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("game", "name"),
    [("../../escape", "ann"), ("g", "../../../escape"), ("g", "..")],
    ids=["game-id", "player-name", "dot-dot"],
)
def test_seed_writes_no_secret_outside_the_secrets_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, name: str
) -> None:
    """Path traversal: a header's game id or a player name holding `../` once made `seed` keep
    the secret outside the secrets folder. Both are refused on read now: exit 4, nothing written."""
    secrets = tmp_path / "data" / "splendor" / "secrets"
    monkeypatch.setenv("SPLENDOR_SECRETS", str(secrets))
    path = hostile_seeds(tmp_path / "games" / "g.toml", (name, "bob"), game=game)
    before = _files(tmp_path)
    code, _, err = cli("seed", "-g", path, "--as", name)
    assert code == 4, err
    one_clean_line(err)
    assert _files(tmp_path) == before
    assert not [p for p in tmp_path.rglob("*.secret")]


# -- codec messages quote short, escaped excerpts -----------------------------------------------


def _base_text(tmp_path: Path) -> str:
    path = hostile_base(tmp_path / "ok.toml", SETUP_PLAYERS_OK)
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('type = "game_started"', 'type = "' + "\\u001b]52;c;aGk=\\u0007" * 300 + '"'),
        ('type = "game_started"', 'type = "game_started"\n"\\u001b[2J' + "k" * 5000 + '" = 1'),
        ("format = 2", 'format = "' + "\\u001b" * 5000 + '"'),
        ('parent = "', 'parent = "\\u001b]52;c;aGk=\\u0007' + "p" * 5000),
    ],
    ids=["event-type", "unknown-key", "format", "parent"],
)
def test_codec_messages_quote_an_escaped_excerpt(tmp_path: Path, old: str, new: str) -> None:
    text = _base_text(tmp_path)
    assert old in text
    path = tmp_path / "g.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, _, err = cli("log", "-g", path)
    assert code == 4, err
    one_clean_line(err)
    assert len(err) < 300, err


# -- safe: what reaches a terminal ---------------------------------------------------------------


def test_safe_escapes_controls_c1_and_bidi_and_keeps_the_rest() -> None:
    assert safe(OSC52) == "ann\\x1b]52;c;aGFja2Vk\\x07"
    assert safe(FORGED).count("\n") == 0 and "\\x0a#3" in safe(FORGED)
    assert safe("\x9b2J \x7f \x00 \t \r") == "\\x9b2J \\x7f \\x00 \\x09 \\x0d"
    for code in (0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C):
        assert safe(chr(code)) == f"\\u{code:04x}"
    assert safe("ann 2-14 1pt zoë — ok ✓") == "ann 2-14 1pt zoë — ok ✓"


def test_run_prints_one_escaped_line_whatever_the_message(capsys: pytest.CaptureFixture[str]) -> None:
    """The last guard: an error message quoting raw control characters prints them escaped."""

    def body(**_: Any) -> None:
        raise GameFileError(f"event #2: bad {OSC52} \x9b2J \u202egnp.exe")

    for as_json in (False, True):
        assert run(body, {"json": as_json}) == 4
        err = capsys.readouterr().err
        one_clean_line(err)
        message = json.loads(err)["error"]["message"] if as_json else err
        assert "\\x1b]52" in message and "\\u202e" in message


def test_the_log_prints_file_text_escaped() -> None:
    """log_text: a hostile name, notation or drawn card cannot end a line or send an escape."""
    entries = [
        LogEntry(seq=1, type="game_started", player=None, notation="new game: ann, bob", turn=None, undone=False),
        LogEntry(seq=2, type="gems_taken", player=FORGED, notation=OSC52, turn=1, undone=False, drawn="\x1b[2J"),
        LogEntry(seq=3, type="turn_undone", player="\u202ebob", notation="undo", turn=None, undone=False),
    ]
    text = log_text(entries)
    assert len(text.splitlines()) == 3 and unsafe_in(text.replace("\n", "")) == []
    assert "\\x1b]52" in text and "\\u202ebob" in text


def _unchecked(variant: Any, setup: Event) -> Game:
    """A game holding `setup` without the fold's checks (which would refuse its names)."""
    state = variant.start(setup)
    return attrs.evolve(Game(variant=variant), events=(setup,), states=(state,), after=(1,))


@pytest.mark.parametrize("color", [False, True])
def test_the_boards_print_names_escaped(color: bool) -> None:
    """Defence in depth: were a bad name to get past the rule, the boards would still print it escaped."""
    base = _unchecked(BASE, deal((OSC52, FORGED, "\u202ecy"), random.Random(1)))
    duel = _unchecked(DUEL, deal_duel((OSC52, FORGED), random.Random(1)))
    for game in (base, duel):
        text = game.variant.board_text(game, width=120, color=color, ascii=True)
        raw = text.replace("\x1b[", "") if color else text  # rich's own colour codes (CSI ... m)
        assert "\x1b]" not in text and "\x07" not in text and "\u202e" not in text
        assert unsafe_in(raw.replace("\n", "")) == []
        assert not [line for line in text.splitlines() if line.startswith("#3")]  # no forged line
        assert "\\x1b]52" in text


def test_verify_text_reports_escape_what_the_file_and_git_say() -> None:
    report = {
        "ok": True,
        "path": "g.toml",
        "format": 1,
        "game": "g",
        "variant": "base",
        "created": "2026\x1b]52;c;aGk=\x07",
        "players": [{"name": "ann", "email": "a\x1b[2J@x.org"}, {"name": "bob", "email": None}],
        "events": 1,
        "turns": 0,
        "undos": 0,
        "undone": [],
        "to_move": "ann",
        "finished": False,
        "winners": [],
        "head": "0" * 16,
    }
    text = verify.report_text(report)
    assert unsafe_in(text.replace("\n", "")) == [] and len(text.splitlines()) == 6
    bad = {
        "commit": "c" * 40,
        "author": "m\u202eallory",
        "email": "m@x.org",
        "subject": "fine\n#2 ann's turn: ok",
        "reason": "writes a file that does not read: \x1b[2J",
    }
    git_text = audit.git_report_text({"path": "g.toml", "bad": bad, "staged": False, "commits": 1, "range": None})
    assert len(git_text.splitlines()) == 2 and unsafe_in(git_text.replace("\n", "")) == []
    assert "\\u202e" in git_text and "\\x0a#2" in git_text


def test_new_refuses_an_email_with_a_control_character(tmp_path: Path) -> None:
    code, _, err = cli("new", "-g", tmp_path / "x.toml", "--players", "ann=a\x1b[2J@x.org,bob")
    assert code == 2
    one_clean_line(err)
    assert not os.path.exists(tmp_path / "x.toml")
