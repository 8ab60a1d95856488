"""Who may take which turns back: every undo names who asked, a rewind over another player's turn
is forced, and the bots' answers to a player's turn go back with it."""

from __future__ import annotations

import attrs
import pytest
from helpers import new_game, step

from splendor_cli.bots import seat_spec
from splendor_cli.errors import CorruptLogError, IllegalMoveError, UsageError
from splendor_cli.events import TurnUndone
from splendor_cli.projection import Game
from splendor_cli.projection.undo_policy import is_bot_seat

TAKES = ("take white blue green", "take red black white", "take blue green red", "take black white blue")


def _played(players: tuple[str, ...], turns: int) -> Game:
    game = new_game(players)
    for n in range(turns):
        game = step(game, TAKES[n % len(TAKES)])
    return game


def _undone(game: Game, event: TurnUndone) -> Game:
    return game.apply(attrs.evolve(event, seq=game.seq + 1))


@pytest.mark.parametrize(
    "name", ["ann", "bot:greedy", "bot:mcts:400#2", "bot:", "bot:#2", "bot", "robot:greedy", "Bot:greedy", "bot:x#"]
)
def test_the_core_knows_a_bot_seat_as_the_bots_do(name: str) -> None:
    """`is_bot_seat` (the core may not import the bots) agrees with `bots.seat_spec`."""
    assert is_bot_seat(name) == bool(seat_spec(name))


def test_a_plain_undo_is_signed_by_the_player_whose_turn_it_takes_back() -> None:
    """No name given: the undo records the player of the last turn, and needs no --force."""
    game = _played(("ann", "bob"), 2)
    event = game.decide_undo()
    assert (event.by, event.to, event.forced) == ("bob", 2, False)


def test_nobody_takes_back_another_players_turn_without_force() -> None:
    """A rewind over two players' turns is refused without --force, whoever asks (named or
    not); forced, it must say who asks; an unknown name is refused."""
    game = _played(("ann", "bob", "cy"), 3)
    for by in ("", "ann", "cy"):
        with pytest.raises(IllegalMoveError, match="use --force") as refused:
            game.decide_undo(to=2, by=by)
        assert refused.value.rule == "undo"
    with pytest.raises(UsageError, match="say who asks"):
        game.decide_undo(to=2, forced=True)
    event = game.decide_undo(to=2, by="cy", forced=True)
    assert (event.by, event.forced) == ("cy", True)
    with pytest.raises(IllegalMoveError, match="does not play"):
        game.decide_undo(by="zed")


def test_a_player_takes_back_their_turn_with_the_bots_answers_to_it() -> None:
    """ann's turn and the answers of the bot seats after it are ann's to take back: a plain undo
    (named or not) goes back before ann's turn, signed by ann, unforced; and bob may not."""
    players = ("ann", "bot:greedy", "bot:random#2", "bob")
    game = _played(players, 3)  # ann, then the two bots' answers; bob is to move
    for by in ("", "ann"):
        event = game.decide_undo(by=by)
        assert (event.by, event.to, event.forced) == ("ann", 1, False)
        back = _undone(game, event)
        assert back.table.turn == 0 and back.table.player.name == "ann"
    with pytest.raises(IllegalMoveError, match="bot:random#2's"):
        game.decide_undo(by="bob")  # bob's plain undo is of the last answer only: not his
    assert game.decide_undo(to=1, by="ann").by == "ann"


def test_a_bots_turn_before_the_players_own_is_not_theirs() -> None:
    """A bot's turn taken back that came before any turn of the asker's counts as another's."""
    game = _played(("bot:greedy", "ann"), 2)  # the bot, then ann
    assert game.decide_undo(by="ann").to == 2  # her own turn: fine
    with pytest.raises(IllegalMoveError, match="bot:greedy's"):
        game.decide_undo(to=1, by="ann")


def test_only_bots_moved_the_undo_is_the_bots() -> None:
    """When the last turns are all one bot's (no person's turn before them), a plain undo takes
    back the last one, signed by that seat."""
    game = _played(("bot:greedy", "ann"), 1)
    event = game.decide_undo()
    assert (event.by, event.to) == ("bot:greedy", 1)


def test_an_event_that_does_not_exist_is_a_usage_error_as_in_show_at() -> None:
    """`undo --to 999` and `show --at 999` refuse alike: exit 2, the same words."""
    game = _played(("ann", "bob"), 2)
    with pytest.raises(UsageError) as undo:
        game.decide_undo(to=999)
    with pytest.raises(UsageError) as at:
        game.at(999)
    assert str(undo.value) == str(at.value) == "there is no event #999: the log has events #1 to #3"
    with pytest.raises(IllegalMoveError, match="is the last turn"):
        game.decide_undo(to=3)


def test_files_read_as_written_the_policy_judges_signed_undos() -> None:
    """On read, an unsigned undo (as earlier releases wrote them) stands; a signed one that takes
    back another's turn unforced is refused, naming the event; the bots' answers pass."""
    game = _played(("ann", "bob"), 2)
    legacy = TurnUndone(seq=game.seq + 1, parent="", by="", to=1)
    assert _undone(game, legacy).table.turn == 0
    with pytest.raises(CorruptLogError, match="event #4"):
        game.apply(TurnUndone(seq=game.seq + 1, parent="", by="ann", to=1))
    bots = _played(("ann", "bot:greedy"), 2)
    assert bots.apply(TurnUndone(seq=bots.seq + 1, parent="", by="ann", to=1)).table.turn == 0
