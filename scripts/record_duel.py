"""Record the sample Duel `games/sample-duel.toml`: ann and bob to a victory, on the way using
privileges, a replenish, a wild card and a royal card, and taking back one step.

The players follow a small heuristic (buy what scores most, spend privileges on pearls, take
the longest line of the colours their best card still needs, replenish when the board runs
low), so the game reads like a real one. Run from the project root:
`python scripts/record_duel.py [PATH]`. It refuses to overwrite an existing file.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from splendor_cli import store
from splendor_cli.events.codec import Header
from splendor_cli.model import Gem
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants.common.payment import still_to_pay
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS
from splendor_cli.variants.duel.cards import ROYALS
from splendor_cli.variants.duel.state import DuelState
from splendor_cli.variants.duel.step import Step

FEATURES = ("privilege_used", "board_replenished", "royal_taken")


def _wanted(state: DuelState) -> set[Gem]:
    """The colours (and pearl) that the cheapest card in reach still needs."""
    player = state.player
    cards = [c for row in state.pyramid for c in row if c] + list(player.reserved)

    def short(card: str) -> int:
        due = still_to_pay(DUEL_CARDS[card].cost.counts, player.bonuses)
        return sum(max(0, n - player.tokens[gem]) for gem, n in due.items())

    best = min(cards, key=short)
    return {
        gem for gem, n in still_to_pay(DUEL_CARDS[best].cost.counts, player.bonuses).items() if n > player.tokens[gem]
    }


def choose(state: DuelState, rng: random.Random) -> Step:
    steps = duel.legal_steps(state)
    kinds = {s.step for s in steps}
    player = state.player
    if state.phase == "royal":
        return max(steps, key=lambda s: (ROYALS[s.card].ability == "again", ROYALS[s.card].points))
    if state.phase == "return":
        return max(steps, key=lambda s: (s.colour is not Gem.GOLD, player.tokens[s.colour] if s.colour else 0))
    if state.phase != "main":
        return steps[0]
    buys = [s for s in steps if s.step == "buy"]
    if buys:
        return max(buys, key=lambda s: (DUEL_CARDS[s.card].points + DUEL_CARDS[s.card].crowns, rng.random()))
    on_board = sum(1 for g in state.board if g is not None and g is not Gem.GOLD)
    if "privilege" in kinds and rng.random() < 0.5:
        pearls = [s for s in steps if s.step == "privilege" and state.board[s.cells[0]] is Gem.PEARL]
        return pearls[0] if pearls else rng.choice([s for s in steps if s.step == "privilege"])
    if "replenish" in kinds and on_board < 9:
        return next(s for s in steps if s.step == "replenish")
    reserves = [s for s in steps if s.step == "reserve" and not s.deck]
    if reserves and rng.random() < 0.08:
        return max(reserves, key=lambda s: (DUEL_CARDS[s.card].points, rng.random()))
    takes = [s for s in steps if s.step == "take"]
    if not takes:
        return rng.choice(steps)
    wanted = _wanted(state)
    return max(takes, key=lambda s: (sum(state.board[c] in wanted for c in s.cells), len(s.cells), rng.random()))


def play(path: Path, seed: int) -> store.Loaded:
    rng = random.Random(seed)
    players = ("ann", "bob")
    header = Header(game="sample-duel", variant="duel", players=players, created="2026-12-02T12:00:00Z")
    loaded = store.create(path, header, DUEL.deal(players, RandomChance(random.Random(seed))))
    undone = False
    while not loaded.game.state.finished and loaded.game.seq < 600:
        state = loaded.game.state
        assert isinstance(state, DuelState)
        loaded = store.append(loaded, loaded.game.decide(choose(state, rng)))
        if not undone and state.turn == 5 and state.player.name == "bob":  # bob takes a step back
            loaded = store.append(loaded, loaded.game.decide_undo(by="bob"))
            undone = True
    return loaded


def main(path: Path) -> None:
    if path.exists():
        raise SystemExit(f"{path} exists: not overwriting it")
    scratch = path.with_name("try-" + path.name)
    for seed in range(1, 200):
        scratch.unlink(missing_ok=True)
        loaded = play(scratch, seed)
        types = {e.TYPE for e in loaded.game.events}
        wild = any(getattr(e, "wild", "") for e in loaded.game.events)
        if loaded.game.state.finished and loaded.game.state.winners() and wild and set(FEATURES) <= types:
            scratch.rename(path)
            final = loaded.game.state
            print(
                f"{path}: seed {seed}, {loaded.game.seq} events, {final.turn} turns;"
                f" {final.winner} won by {final.win_condition};",
                ", ".join(f"{p.name} {p.points} points {p.crowns} crowns" for p in final.players),
            )
            return
    scratch.unlink(missing_ok=True)
    raise SystemExit("no seed under 200 gave a game with every feature")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "games/sample-duel.toml"))
