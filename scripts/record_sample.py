"""Record the sample game `games/sample-3p.toml`: three players to the end, one undo on the way.

The players follow a small one-move-deep heuristic (buy what scores, else gather the gems of
the card closest to being bought), so the game reads like a real one. Run from the project
root: `python scripts/record_sample.py [PATH]`. It refuses to overwrite an existing file.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from splendor_cli import store
from splendor_cli.events.codec import Header
from splendor_cli.model import COLOURS
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base.cards import CARDS, NOBLES
from splendor_cli.variants.base.rules import Move, decide, evolve, legal_moves
from splendor_cli.variants.base.state import GameState


def _shortfall(state: GameState, seat: int, card: str) -> int:
    player = state.players[seat]
    short = sum(max(0, CARDS[card].cost[g] - player.bonuses[g] - player.tokens[g]) for g in COLOURS)
    return int(max(0, short - player.tokens.counts[5]))


def _value(state: GameState, seat: int) -> float:
    player = state.players[seat]
    targets = [c for row in state.board for c in row if c] + list(player.reserved)
    best = min((_shortfall(state, seat, c) - CARDS[c].points / 2 for c in targets), default=0)
    nobles = sum(max(0, NOBLES[n].requires[g] - player.bonuses[g]) for n in state.nobles for g in COLOURS)
    return float(100 * player.points + 12 * len(player.cards) + 2 * player.tokens.total() - 6 * best - 0.5 * nobles)


def choose(state: GameState, rng: random.Random) -> Move:
    seat = state.to_move
    scored = [(_value(evolve(state, decide(state, m)), seat) + rng.random(), m) for m in legal_moves(state)]
    return max(scored, key=lambda pair: pair[0])[1]


def main(path: Path) -> None:
    rng = random.Random(2026)
    players = ("ann", "bob", "cy")
    header = Header(game="sample-3p", variant="base", players=players, created="2026-12-02T12:00:00Z")
    loaded = store.create(path, header, BASE.deal(players, RandomChance(random.Random(7))))
    undone = False
    while not loaded.game.table.finished:
        state = loaded.game.state
        loaded = store.append(loaded, decide(state, choose(state, rng)))
        if state.turn == 10 and not undone:  # bob thinks better of his turn: take it back
            loaded = store.append(loaded, loaded.game.decide_undo(by="bob"))
            undone = True
    final = loaded.game.state
    print(
        f"{path}: {loaded.game.seq} events, {final.turn} turns; winners {final.winners()};",
        ", ".join(f"{p.name} {p.points}" for p in final.players),
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "games/sample-3p.toml"))
