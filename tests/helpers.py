"""Building games in tests through the core API (no files, no CLI)."""

from __future__ import annotations

import random

import attrs

from splendor_cli.events import Event, GameStarted
from splendor_cli.model import Move
from splendor_cli.newgame import deal
from splendor_cli.notation import parse_move
from splendor_cli.projection import Game
from splendor_cli.projection.rules import choices


def new_game(players: tuple[str, ...] = ("ann", "bob"), seed: int = 1) -> Game:
    """A freshly dealt game, shuffled by `seed`."""
    return Game().apply(deal(players, random.Random(seed)))


def started(
    players: tuple[str, ...], deck_1: list[str], deck_2: list[str], deck_3: list[str], nobles: list[str]
) -> Game:
    """A game whose decks begin with the given cards (the rest of each level follows in id order)."""
    from splendor_cli.cards import DECKS

    decks = []
    for first, level in ((deck_1, 1), (deck_2, 2), (deck_3, 3)):
        decks.append(tuple(first) + tuple(c for c in DECKS[level] if c not in first))
    event = GameStarted.of(players, tuple(decks), tuple(nobles))
    return Game().apply(event)


def step(game: Game, move: Move | str, player: str | None = None) -> Game:
    """Play one turn through `decide`, exactly as the CLI does, and fold it."""
    if isinstance(move, str):
        move = parse_move(move)
    event = game.decide(move, player=player)
    return game.apply(attrs.evolve(event, seq=game.seq + 1))


def undo(game: Game, to: int | None = None) -> Game:
    return game.apply(attrs.evolve(game.decide_undo(to=to), seq=game.seq + 1))


def random_game(seed: int, players: int = 2, max_turns: int | None = None) -> Game:
    """A game of uniformly random legal turns, to the end (or `max_turns`)."""
    rng = random.Random(seed)
    game = new_game(tuple(f"p{i}" for i in range(1, players + 1)), seed)
    while not game.state.finished and (max_turns is None or game.state.turn < max_turns):
        options = choices(game.state)
        game = step(game, options.move(rng.randrange(len(options))))
    return game


def events_of(game: Game) -> tuple[Event, ...]:
    return game.events
