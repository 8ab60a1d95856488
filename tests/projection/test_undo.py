"""The undo policy of asynchronous play, and what the log says of undone turns."""

from __future__ import annotations

import attrs
import pytest
from helpers import new_game, step

from splendor_cli.errors import CorruptLogError, IllegalMoveError, UsageError
from splendor_cli.projection import Game
from splendor_cli.projection.log import log_entries


def _undo(game: Game, **kwargs: object) -> Game:
    return game.apply(attrs.evolve(game.decide_undo(**kwargs), seq=game.seq + 1))  # type: ignore[arg-type]


def _two_turns() -> Game:
    game = step(new_game(), "take red red", player="ann")
    return step(game, "take blue blue", player="bob")


def test_a_player_may_take_back_their_own_last_turn() -> None:
    """With a name, a player takes back their own turn while it is the last one."""
    game = _undo(_two_turns(), by="bob")
    assert game.state.turn == 1 and game.state.player.name == "bob"


def test_a_player_may_not_take_back_a_turn_someone_moved_after() -> None:
    """ann may not take back her turn once bob has moved, nor bob's turn: an agreed rewind needs forcing."""
    game = _two_turns()
    with pytest.raises(IllegalMoveError, match="use --force") as refused:
        game.decide_undo(by="ann")
    assert refused.value.rule == "undo"
    with pytest.raises(IllegalMoveError, match="bob's"):
        game.decide_undo(by="ann", to=1)
    forced = _undo(game, by="ann", to=1, forced=True)
    assert forced.state.turn == 0 and forced.events[-1].forced  # type: ignore[union-attr]


def test_without_a_name_the_undo_is_signed_by_the_player_whose_turn_it_takes_back() -> None:
    """Without --as, the undo records the player whose turns it takes back; a rewind over two
    players' turns needs --force (and then a name) even so: nobody takes back a turn silently."""
    game = _undo(_two_turns())
    assert game.state.turn == 1 and game.events[-1].by == "bob"  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError, match="ann's and bob's turns: agree on it and use --force"):
        _two_turns().decide_undo(to=1)
    with pytest.raises(UsageError, match="--as NAME"):
        _two_turns().decide_undo(to=1, forced=True)


def test_a_hand_made_undo_that_breaks_the_policy_is_refused_on_load() -> None:
    """The policy is re-checked when the file is read: an undo of another player's turn without
    `forced` is refused, naming the event."""
    game = _two_turns()
    bad = attrs.evolve(game.decide_undo(), seq=game.seq + 1, by="ann")
    with pytest.raises(CorruptLogError, match="event #4"):
        game.apply(bad)


def test_the_log_says_which_cards_an_undone_turn_showed() -> None:
    """Undoing a turn that dealt a card to the board or reserved one blind is allowed, and the log
    names the cards that were seen."""
    game = step(new_game(), "reserve deck 2", player="ann")
    blind = game.events[-1].card  # type: ignore[union-attr]
    game = _undo(game, by="ann")
    row = game.state.board[0]
    game = step(game, f"reserve {row[0]}", player="ann")
    drawn = game.events[-1].drawn  # type: ignore[union-attr]
    game = _undo(game, by="ann")
    entries = log_entries(game)
    assert entries[2].revealed == (blind,) and entries[4].revealed == (drawn,)
    assert entries[1].undone and entries[3].undone and not entries[2].undone
    assert entries[2].to_json()["revealed"] == [blind] and "revealed" not in entries[1].to_json()
