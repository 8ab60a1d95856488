"""The fold dispatches each event by a table of handlers, from its type (`projection.game._handlers`).

Every event a game may log has a handler: the game's play events share one, its setup has one,
and so do the events every game shares; an event of another game has no place in it.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from helpers import new_duel, new_game

from splendor_cli.errors import CorruptLogError
from splendor_cli.events import SHARED_TYPES, TurnUndone
from splendor_cli.projection.game import _Fold, _handlers
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base.events import TokensTaken
from splendor_cli.variants.duel import VARIANT as DUEL


@pytest.mark.parametrize("variant", [BASE, DUEL], ids=["base", "duel"])
def test_every_event_a_game_may_log_has_a_handler(variant: Any) -> None:
    """The play events go to one handler; the setup and every shared event type have their own."""
    table = _handlers(variant)
    assert {table[kind] for kind in variant.play_types} == {_Fold._play}
    assert table[variant.setup_type] == _Fold._setup
    assert set(SHARED_TYPES) <= set(table)
    assert table[TurnUndone] == _Fold._undo
    assert _handlers(variant) is table  # built once per game


def test_an_event_of_another_game_has_no_place() -> None:
    """A base game's turn in a Duel is refused, naming the game, as the fold always said it."""
    duel = new_duel()
    taken = TokensTaken(seq=duel.seq + 1, parent="", player="ann", gems=(), returned=(), noble="")
    with pytest.raises(CorruptLogError, match=r"^event #2: a tokens_taken event has no place in Splendor Duel$"):
        duel.apply(taken)


def test_a_subclass_of_an_event_type_is_folded_as_its_base() -> None:
    """Dispatch by type keeps what `isinstance` did: a class derived from a play event is folded as
    a play (the rules, when they judge it again, want the very type they make)."""

    @attrs.frozen(kw_only=True)
    class Taken(TokensTaken):
        pass

    game = new_game()
    event = game.decide(game.variant.parse_moves("take red red")[0])
    derived = Taken(**{f.name: getattr(event, f.name) for f in attrs.fields(TokensTaken)})
    folded = game.apply(attrs.evolve(derived, seq=game.seq + 1), check=False)
    assert folded.state == game.apply(attrs.evolve(event, seq=game.seq + 1)).state
