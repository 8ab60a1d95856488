"""Hypothesis strategies: shuffled setups and random legal games of 2 to 4 players.

A game is played by drawing, at each turn, an index into `choices(state)` (the legal turns,
fully specified) and folding the event `decide` makes of it, as `splendor play` does. Now and
then (when asked) the last turn is undone instead, so that undone turns are in the logs too.
"""

from __future__ import annotations

import attrs
from helpers import BASE, step, undo
from hypothesis import strategies as st

from splendor_cli.events import Event
from splendor_cli.events.codec import Header, Record, chained
from splendor_cli.projection import Game
from splendor_cli.variants.base.cards import DECKS, NOBLES
from splendor_cli.variants.base.events import GameStarted
from splendor_cli.variants.base.rules import choices

NAMES = ("ann", "bob", "cat", "dan")


@st.composite
def setups(draw: st.DrawFn, players: st.SearchStrategy[int] = st.integers(2, 4)) -> GameStarted:
    """A `game_started` event: 2-4 players, each deck shuffled, players + 1 nobles revealed."""
    n = draw(players)
    decks = tuple(tuple(draw(st.permutations(DECKS[level]))) for level in (1, 2, 3))
    nobles = tuple(draw(st.permutations(sorted(NOBLES)))[: n + 1])
    return GameStarted(seq=1, parent="", variant="base", players=NAMES[:n], decks=decks, nobles=nobles)


@st.composite
def histories(
    draw: st.DrawFn,
    max_turns: int = 80,
    undo_rate: int = 0,
    players: st.SearchStrategy[int] = st.integers(2, 4),
) -> tuple[Game, ...]:
    """A random legal game, as the Game after each of its events (the setup first).

    It stops when the game is over or after `max_turns` events. With `undo_rate` n > 0, about
    one event in n is an undo of the last turn instead of a turn.
    """
    game = Game(variant=BASE).apply(draw(setups(players)))
    history = [game]
    for _ in range(max_turns):
        if game.state.finished:
            break
        if undo_rate and len(game.after) > 1 and draw(st.integers(0, undo_rate - 1)) == 0:
            game = undo(game)
        else:
            options = choices(game.state)
            game = step(game, options.move(draw(st.integers(0, len(options) - 1))))
        history.append(game)
    return tuple(history)


def games(max_turns: int = 80, undo_rate: int = 0) -> st.SearchStrategy[Game]:
    """A random legal game (its last Game only)."""
    return histories(max_turns=max_turns, undo_rate=undo_rate).map(lambda history: history[-1])


def header_for(game: Game) -> Header:
    return Header(game="hypothesis", variant="base", players=game.players, created="2026-01-01T00:00:00Z")


def sealed(events: tuple[Event, ...], header: Header) -> Record:
    """The record a store would have written: each event sealed onto the ones before it."""
    record = Record(header=header, events=())
    for event in events:
        record = attrs.evolve(record, events=(*record.events, chained(record, event)))
    return record
