"""`player` and `by` declared once, for every play event of every game (`events.PlayEvent`), as
the envelope is; and every game file keeps its bytes.

Each envelope wraps the one it derives from around the payload (`events.WRITTEN`): `seq`,
`parent`, then `player` first; the payload; then `by`, then `sig`, each only when set. That is
where each play event wrote them when each class declared its own, so every file reads and is
written again byte for byte: the sample games, the fixtures (turns played for another player,
sealed games) and the TOML snapshots.
"""

from __future__ import annotations

import inspect

import attrs
import pytest
import toy_game
from helpers import ROOT

from splendor_cli.events import WRITTEN, PlayEvent, Signable
from splendor_cli.events.codec import event_to_dict, format_event, format_record
from splendor_cli.model import Gem
from splendor_cli.records import parse_text, replay_record
from splendor_cli.variants.base.events import TURN_TYPES, CardReserved, TokensTaken
from splendor_cli.variants.duel.events import STEP_TYPES, LineTaken

PLAY_TYPES = (*TURN_TYPES, *STEP_TYPES, toy_game.CardTaken, toy_game.CardBurned)
GAME_FILES = sorted(
    [
        *(ROOT / "games").glob("*.toml"),
        *(ROOT / "tests" / "fixtures").rglob("*.toml"),
        *(path for path in (ROOT / "tests").rglob("__snapshots__/**/*.toml") if "[[events]]" in path.read_text()),
    ]
)


def test_every_play_event_derives_player_and_by_from_one_class() -> None:
    """Every turn of Splendor, every step of a Duel and every move of the toy derives from
    `PlayEvent`; none declares `player`, `by`, `seq`, `parent` or `sig` itself."""
    assert len(PLAY_TYPES) == 16
    for cls in PLAY_TYPES:
        assert issubclass(cls, PlayEvent) and issubclass(cls, Signable), cls
        assert not {"player", "by", "seq", "parent", "sig"} & set(inspect.get_annotations(cls)), cls
    fields = attrs.fields_dict(PlayEvent)
    assert fields["player"].metadata[WRITTEN] == "first" and fields["player"].default is attrs.NOTHING
    assert fields["by"].metadata[WRITTEN] == "last" and fields["by"].default == ""


@pytest.mark.parametrize("cls", PLAY_TYPES, ids=lambda cls: cls.TYPE)
def test_a_play_event_writes_player_first_and_by_before_sig(cls: type[PlayEvent]) -> None:
    """The table of any play event: `type`, `seq`, `parent`, `player`, the payload in the order
    its class declares it, `by` when set, `sig` when signed (the innermost envelope's last field
    first): where each class wrote them when it declared its own `player` and `by`."""
    payload = [f.name for f in attrs.fields(cls) if f.name not in ("seq", "parent", "sig", "player", "by")]
    assert list(_layout(cls, by="", sig="")) == ["type", "seq", "parent", "player", *payload]
    assert list(_layout(cls, by="bob", sig="")) == ["type", "seq", "parent", "player", *payload, "by"]
    assert list(_layout(cls, by="", sig="ab")) == ["type", "seq", "parent", "player", *payload, "sig"]
    assert list(_layout(cls, by="bob", sig="ab")) == ["type", "seq", "parent", "player", *payload, "by", "sig"]


def _layout(cls: type[PlayEvent], *, by: str, sig: str) -> dict[str, object]:
    """The table of an event of `cls` with every payload field filled (its type's empty value)."""
    empty = {str: "x", int: 0, bool: False, Gem: Gem.RED}
    values = {
        f.name: empty.get(f.type, ()) if isinstance(f.type, type) else ()
        for f in attrs.fields(attrs.resolve_types(cls))
        if f.name not in ("seq", "parent", "sig", "player", "by")
    }
    event = cls(seq=2, parent="0" * 16, player="ann", by=by, sig=sig, **values)  # type: ignore[call-arg]
    return event_to_dict(event)


def test_the_bytes_of_a_turn_played_for_another_are_those_of_before() -> None:
    """Literally, as the file of a turn played for another and of a signed step were written."""
    taken = TokensTaken(seq=2, parent="aaf1e567e8911f0f", player="ann", gems=(Gem.RED,), returned=(), noble="")
    assert format_event(attrs.evolve(taken, by="bob")) == (
        '\n[[events]]\ntype = "tokens_taken"\nseq = 2\nparent = "aaf1e567e8911f0f"\nplayer = "ann"\n'
        'gems = ["red"]\nreturned = []\nnoble = ""\nby = "bob"\n'
    )
    reserved = CardReserved(
        player="bob", card="1?05", blind=True, gold=False, drawn="", returned=(), noble="", by="ann", sig="cd"
    )
    assert list(event_to_dict(reserved))[-3:] == ["noble", "by", "sig"]
    line = LineTaken(seq=3, parent="1" * 16, player="bob", cells=("a1",), gems=(Gem.BLUE,), sig="ef")
    assert format_event(line).splitlines()[5:] == ['player = "bob"', 'cells = ["a1"]', 'gems = ["blue"]', 'sig = "ef"']


def test_the_game_files_are_all_there() -> None:
    """The sample games, the previous release's files, the turns played for another, the sealed
    games written before the deck list, and the TOML snapshots of whole games."""
    names = {path.relative_to(ROOT).as_posix() for path in GAME_FILES}
    assert {"games/sample-3p.toml", "games/sample-duel.toml"} <= names
    assert {"tests/fixtures/played-for/base.toml", "tests/fixtures/played-for/duel.toml"} <= names
    assert {"tests/fixtures/sealed-release/base-3p.toml", "tests/fixtures/sealed-release/duel.toml"} <= names
    assert sum(name.startswith("tests/fixtures/previous-release/") for name in names) == 7
    assert any("__snapshots__" in name for name in names)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_game_file_is_written_again_byte_for_byte(path: object) -> None:
    """Read (every event by the classes of its game), then written again: the very same text, and
    the chain's digests computed from the events are the ones read (`Record.digests`)."""
    text = path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    record = parse_text(text)
    assert format_record(record) == text
    from splendor_cli.events.codec import full_digest

    assert [full_digest(event_to_dict(event)) for event in record.events] == list(record.digests)


@pytest.mark.parametrize("name", ["base", "duel"])
def test_turns_played_for_another_read_and_replay(name: str) -> None:
    """The games of turns played for another (written before `PlayEvent`) replay to the end, every
    other move's `by` naming the other player."""
    record = parse_text((ROOT / "tests" / "fixtures" / "played-for" / f"{name}.toml").read_text(encoding="utf-8"))
    game = replay_record(record)
    assert game.state.finished
    played = [event for event in record.events if isinstance(event, PlayEvent)]
    assert played and all(event.by in ("", *record.header.players) and event.by != event.player for event in played)
    assert sum(bool(event.by) for event in played) >= len(played) // 3
