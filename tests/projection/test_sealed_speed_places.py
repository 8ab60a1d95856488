"""Where a state keeps its cards (`SealedCards.card_places`), as the sealed fold reads it instead of
walking the state: at every state of whole sealed games, base and Duel (blind reserves, reveals,
undos), the placeholders it finds are the ones a walk of the whole state finds, in the same
order; and `substitute` replaces exactly what a plain rebuild of the state replaces, keeping
every part without a revealed card as the very same object."""

from __future__ import annotations

import contextlib
from typing import Any

import attrs
import pytest
from sealed_helpers import Table, strings
from toy_game import OPEN as TOY

from splendor_cli.errors import IllegalMoveError, UsageError
from splendor_cli.sealing.capability import ask
from splendor_cli.sealing.events import SealedAsked
from splendor_cli.sealing.placeholders import is_placeholder
from splendor_cli.sealing.reveal import placeholders, substitute
from splendor_cli.sealing.table import Sealing


def rebuilt(value: Any, cards: dict[str, str]) -> Any:
    """`value` with the placeholders of `cards` replaced, every part made anew (the reference)."""
    if isinstance(value, str):
        return cards.get(value, value)
    if isinstance(value, tuple):
        return tuple(rebuilt(item, cards) for item in value)
    if isinstance(value, dict):
        return {rebuilt(k, cards): rebuilt(v, cards) for k, v in value.items()}
    if attrs.has(type(value)):
        return attrs.evolve(
            value, **{f.name: rebuilt(getattr(value, f.name), cards) for f in attrs.fields(type(value))}
        )
    return value


def walked(state: Any) -> tuple[list[str], dict[str, list[str]]]:
    """The placeholders of an attrs state, found by walking it (the reference): face up, and by
    owner for one in the `reserved` of a part with a `name`; decks (and `blind`) skipped."""
    face_up: list[str] = []
    reserved: dict[str, list[str]] = {}

    def walk(value: Any, owner: str) -> None:
        if isinstance(value, str):
            if is_placeholder(value):
                (reserved.setdefault(owner, []) if owner else face_up).append(value)
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item, owner)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key, owner)
                walk(item, owner)
        elif attrs.has(type(value)):
            name = getattr(value, "name", None) if hasattr(value, "reserved") else None
            for field in attrs.fields(type(value)):
                if field.name not in ("decks", "blind"):
                    mine = field.name == "reserved" and isinstance(name, str)
                    walk(getattr(value, field.name), str(name) if mine else owner)

    walk(state, "")
    return face_up, reserved


def _states(variant: str, seed: int) -> tuple[Sealing, list[Any]]:
    table = Table.new(variant, 2, seed)
    table.deal()
    states = []
    for turn in range(400):
        if table.state.finished:
            break
        table.step(blind=0.3)
        if turn % 17 == 5 and len(table.game.after) > 2:
            with contextlib.suppress(IllegalMoveError):  # a card the other saw since: theirs to agree
                table.undo()
        states.append(table.state)
    return table.sealing, [*table.game.states, *states]


@pytest.mark.parametrize(("variant", "seed"), [("base", 3), ("duel", 4)])
def test_the_places_say_what_a_walk_of_the_state_finds(variant: str, seed: int) -> None:
    table, states = _states(variant, seed)
    blind = found = 0
    for state in states:
        face_up, reserved = placeholders(table, state)
        walked_face_up, walked_reserved = walked(state)
        assert (face_up, reserved) == (walked_face_up, walked_reserved)
        blind += sum(map(len, reserved.values()))
        found += len(face_up)
        places_face_up, places_reserved = table.game.card_places(state)
        assert [card for card in places_face_up if is_placeholder(card)] == face_up
        assert None not in places_face_up
        assert all(set(cards) <= set(places_reserved[owner]) for owner, cards in reserved.items())
    assert blind and found  # the games met blind reserves and face-up cards being revealed


@pytest.mark.parametrize(("variant", "seed"), [("base", 5), ("duel", 6)])
def test_substitute_replaces_what_a_rebuild_replaces_and_keeps_the_rest(variant: str, seed: int) -> None:
    table = Table.new(variant, 2, seed)
    table.deal()
    table.play_to_end(blind=0.3)
    truth = table.truth()
    for state in table.game.states[:: max(1, len(table.game.states) // 25)]:
        for cards in (truth, {k: v for k, v in truth.items() if k.startswith("1")}, {}):
            done = substitute(table.sealing, state, cards)
            assert done == rebuilt(state, cards)
            if not any(card in cards for card in _strings(state)):
                assert done is state
            else:
                assert done.players is state.players or any(
                    card in cards for player in state.players for card in _strings(player)
                )


def _strings(value: Any) -> list[str]:
    return list(strings(value))


def test_a_game_that_declares_no_sealed_cards_cannot_be_sealed() -> None:
    """The toy declares no sealed cards: the first event of a sealed game of it is refused where
    it is made (a usage error, exit 2), and a file that holds one anyway where it is read."""
    assert TOY.sealed_cards is None
    with pytest.raises(UsageError, match=r"^toy cannot be sealed"):
        ask(TOY, ("ann", "bob"))
    with pytest.raises(IllegalMoveError, match="toy cannot be sealed"):
        Sealing.start(TOY, SealedAsked(seq=1, variant="toy", players=("ann", "bob")))
