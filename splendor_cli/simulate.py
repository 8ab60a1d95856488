"""Games played in memory by bots, for `splendor simulate` and the bench.

A bot is a function of the state and a seeded random source that returns one legal move (a
whole turn in the base game, the next step in a Duel). This version has one: `random`, a
uniform choice among the legal moves (the engine's own list).
"""

from __future__ import annotations

import contextlib
import gc
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from .errors import UsageError
from .model import Move, Step
from .newgame import deal, deal_duel
from .projection import GameState, duel
from .projection.duel import DuelState
from .projection.rules import choices, decide, evolve
from .projection.state import start

Bot = Callable[[GameState, random.Random], Move]
DuelBot = Callable[[DuelState, random.Random], Step]
B = TypeVar("B", Bot, DuelBot)


def random_bot(state: GameState, rng: random.Random) -> Move:
    """A uniform choice among every legal turn."""
    options = choices(state)
    return options.move(rng.randrange(len(options)))


def random_duel_bot(state: DuelState, rng: random.Random) -> Step:
    """A uniform choice among every legal next step (a replenish drawn from `rng`)."""
    options = duel.legal_steps(state)
    return duel.draw(state, options[rng.randrange(len(options))], rng)


BOTS: dict[str, Bot] = {"random": random_bot}
DUEL_BOTS: dict[str, DuelBot] = {"random": random_duel_bot}


def seats(bots: list[str] | None, players: int, known: Mapping[str, B]) -> dict[str, B]:
    """Each seat's name and bot of `known`: p1, p2, ... all random without `bots`; else the bots
    named (one per seat, or one for all), each seat named after its bot, numbered when a bot
    plays twice."""
    if not bots:
        return {f"p{i}": known["random"] for i in range(1, players + 1)}
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise UsageError(f"--bots names {len(bots)} bots for {players} players: name one, or one per seat")
    for name in bots:
        if name not in known:
            raise UsageError(f"unknown bot {name!r}: this version has {', '.join(sorted(known))}")
    seen: Counter[str] = Counter()
    out = {}
    for name in bots:
        seen[name] += 1
        out[name if bots.count(name) == 1 else f"{name}#{seen[name]}"] = known[name]
    return out


def run(
    *, players: int, games: int, seed: int | None, bots: list[str] | None = None, variant: str = "base"
) -> dict[str, Any]:
    """Play `games` games; report turns, wins per seat (or per bot) and shared victories.

    Without `bots`, every seat plays `random` and wins are counted per seat (p1, p2, ...). With
    bots, the bots rotate through the seats from one game to the next and wins are counted per bot.
    A Duel also reports its steps, and its draws (`draws`: both players passed in a row).
    """
    with _few_collections():
        return _run(players=players, games=games, seed=seed, bots=bots, variant=variant)


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """Random play allocates many small immutable states, none of them in a cycle: the cyclic
    garbage collector only slows it down (by about a tenth). Run it seldom meanwhile."""
    threshold = gc.get_threshold()
    gc.set_threshold(100_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def _run(*, players: int, games: int, seed: int | None, bots: list[str] | None, variant: str) -> dict[str, Any]:
    rng = random.Random(seed)
    play = seats(bots, players, BOTS)
    duel_play = seats(bots, players, DUEL_BOTS) if variant == "duel" else {}
    names = list(play)
    wins: Counter[str] = Counter({name: 0 for name in names})
    shared = turns = steps = draws = 0
    began = time.perf_counter()
    for number in range(games):
        shift = number % players if bots else 0
        seated = tuple(names[shift:] + names[:shift])
        if variant == "duel":
            table = duel.start(deal_duel(seated, rng))
            while not table.finished:
                table = duel.evolve(table, duel.decide(table, duel_play[table.player.name](table, rng)))
                steps += 1
            turns += table.turn
            draws += not table.winners()
            wins.update(table.winners())
            continue
        setup = deal(seated, rng)
        state = start(setup.players, (setup.deck_1, setup.deck_2, setup.deck_3), setup.nobles)
        while not state.finished:
            state = evolve(state, decide(state, play[state.player.name](state, rng)))
            turns += 1
        winners = state.winners()
        shared += len(winners) > 1
        wins.update(winners)
    report: dict[str, Any] = {
        "games": games,
        "turns": turns,
        "seconds": round(time.perf_counter() - began, 3),
        "wins": dict(wins),
        "shared": shared,
    }
    if variant == "duel":
        report |= {"steps": steps, "draws": draws}
    return report
