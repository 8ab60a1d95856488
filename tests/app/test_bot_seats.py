"""A bot seat's moves are its bot's: in a game that `splendor new` made with bot seats (format 3),
every reader computes each bot seat's move again from the file alone (the bot, the table, and a
source seeded by the game's id and the events before the move), and a different move is damage
(exit 4, naming the event); `play` refuses it before writing (exit 3, rule `bot`). Files of
formats 1 and 2 read as they were written."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from helpers import cli

from splendor_cli import store
from splendor_cli.events.codec import Record, chained, format_record


def _bot_game(tmp_path: Path) -> Path:
    """ann against bot:greedy; ann has taken, the bot is to move."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bot:greedy", "--seed", 2)[0] == 0
    assert cli("take", "w", "u", "g", "-g", path)[0] == 0
    return path


def _played_for_the_bot(path: Path, move: str) -> None:
    """Append `move` as the bot seat's, past the command line (as a hand-edited file would)."""
    loaded = store.read(path)
    event = loaded.game.decide(loaded.game.variant.parse_moves(move)[0])
    store.write(store.stage(loaded, event))


def _in_format(path: Path, fmt: int) -> bytes:
    """The file's events under a header of format `fmt`, the chain made again."""
    record = store.read(path).record
    remade = Record(header=attrs.evolve(record.header, format=fmt), events=())
    for event in record.events:
        remade = attrs.evolve(remade, events=(*remade.events, chained(remade, event)))
    return format_record(remade).encode()


def test_a_new_game_with_bot_seats_is_format_3_and_its_bot_moves_read(tmp_path: Path) -> None:
    """`splendor bot` plays the bot's move; every reader computes it again and agrees."""
    path = _bot_game(tmp_path)
    assert "format = 3\n" in path.read_text()
    assert cli("bot", "-g", path)[0] == 0
    code, out, err = cli("verify", "-g", path)
    assert code == 0 and "ok (format 3)" in out, err


def test_playing_a_bot_seats_turn_otherwise_is_refused(tmp_path: Path) -> None:
    """`take r r --as bot:greedy`, where the bot takes black black: exit 3 (rule bot), naming the
    bot's move; the file is unchanged. The bot's own move, said by a person, is accepted."""
    path = _bot_game(tmp_path)
    before = path.read_bytes()
    code, _, err = cli("take", "r", "r", "-g", path, "--as", "bot:greedy")
    assert code == 3 and "its bot plays 'take black black'" in err and "(rule: bot)" in err, err
    assert path.read_bytes() == before
    code, _, err = cli("take", "r", "r", "-g", path, "--for", "bot:greedy")
    assert code == 3 and path.read_bytes() == before
    assert cli("take", "k", "k", "-g", path, "--as", "bot:greedy")[0] == 0


@pytest.mark.parametrize("command", [("log",), ("state", "--json"), ("verify",), ("take", "w", "u", "g")])
def test_a_bot_seats_move_that_is_not_its_bots_is_damage(tmp_path: Path, command: tuple[str, ...]) -> None:
    """A file whose bot seat took red red (its bot takes black black): exit 4 for every reader,
    naming event #3; a write leaves the file as it is."""
    path = _bot_game(tmp_path)
    _played_for_the_bot(path, "take red red")
    before = path.read_bytes()
    code, _, err = cli(*command, "-g", path)
    assert code == 4 and "event #3: bot:greedy played 'take red red'" in err and err.count("\n") == 1, err
    assert path.read_bytes() == before


def test_a_file_of_format_2_reads_as_it_was_written(tmp_path: Path) -> None:
    """The same moves in a file of format 2 (before the rule): read, verified, played on."""
    path = _bot_game(tmp_path)
    _played_for_the_bot(path, "take red red")
    path.write_bytes(_in_format(path, 2))
    code, out, err = cli("verify", "-g", path)
    assert code == 0 and "ok (format 2)" in out, err
    assert cli("take", "w", "u", "k", "-g", path)[0] == 0


def test_the_bots_source_is_the_files_alone(tmp_path: Path) -> None:
    """An mcts seat (playouts, reproducible) played by `splendor bot` in one copy reads in
    another place: the move depends on nothing but the file."""
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bot:mcts:30", "--seed", 5)[0] == 0
    assert cli("play", "-g", path, "--bots", "take", "w", "u", "g")[0] == 0
    other = tmp_path / "elsewhere" / "copy.toml"
    other.parent.mkdir()
    other.write_bytes(path.read_bytes())
    code, out, err = cli("verify", "-g", other)
    assert code == 0 and "ok (format 3)" in out, err


def _renamed(path: Path, old: str, new: str) -> None:
    """Rename the seat `old` to `new` in the header and the setup of the new game at `path` (as a
    hand-edited file would), the chain made again."""
    record = store.read(path).record
    (started,) = record.events
    players = tuple(new if name == old else name for name in record.header.players)
    remade = Record(header=attrs.evolve(record.header, players=players), events=())
    event = attrs.evolve(started, players=tuple(new if name == old else name for name in started.players))
    path.write_bytes(format_record(attrs.evolve(remade, events=(chained(remade, event),))).encode())


@pytest.mark.parametrize("spec", ["Greedy", "greedy:300", "nobody"])
def test_a_bot_seat_that_names_no_bot_is_refused_at_new_and_at_its_first_move(tmp_path: Path, spec: str) -> None:
    """Bot specs are case-sensitive: `new` refuses `bot:Greedy` (exit 2, nothing written); typed
    into a header by hand, the seat's moves cannot be computed again, so its first move is damage
    for every reader (exit 4, naming the event), never a seat anybody may play unchecked."""
    code, _, err = cli("new", "-g", tmp_path / "n.toml", "--players", f"ann,bot:{spec}")
    assert code == 2 and err.count("\n") == 1 and not (tmp_path / "n.toml").exists(), err
    path = tmp_path / "g.toml"
    assert cli("new", "-g", path, "--players", "ann,bot:greedy", "--seed", 2)[0] == 0
    _renamed(path, "bot:greedy", f"bot:{spec}")
    assert cli("take", "w", "u", "g", "-g", path)[0] == 0
    _played_for_the_bot(path, "take black black")  # its bot's move, were it greedy
    for command in (("log",), ("verify",), ("state", "--json")):
        code, _, err = cli(*command, "-g", path)
        assert code == 4 and f"event #3: bot:{spec} is a bot seat" in err and err.count("\n") == 1, (command, err)
