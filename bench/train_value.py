"""Fit the weights of `splendor_cli/variants/base/evaluation.py` to the outcomes of self-play games.

    pip install -e '.[train]'          # numpy, for the fit only
    python bench/train_value.py [--games 4000] [--players 2,3,4] [--seed 1] [--policy greedy] [--jobs 2]
                                [--save FILE.npz] [--load FILE.npz ...]

1. Plays `--games` games of base Splendor at `--players` (2, 3 and 4: a third each) with `--policy`
   in every seat (`greedy`, or any bot spec such as `expert:40`), each move replaced one time
   in `NOISE` by a random one of the policy's four best (greedy) or a random legal move (other
   bots), so that the games do not all look alike.
2. Keeps a quarter of the positions of each game (not the finished ones), with the features of
   every seat (`evaluation.features`) and who won the game in the end.
3. Fits the conditional-logit model (each seat's chance is the softmax of its linear score) by
   gradient descent on the log-loss, on the games of even number; measures on the odd ones.
4. Prints the log-loss and the share of positions whose favourite won, for the fit, for the
   weights in the module now, and for the logistic of the greedy heuristic's lead that `mcts`
   uses; then the weights, as the module writes them.

Asserts nothing; prints figures. The weights are pasted into the module by hand.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

NOISE = 0.15


Position = tuple[list[tuple[float, ...]], list[float], list[float]]


def play_game(number: int, seed: int, policy: str, sizes: tuple[int, ...], game: str = "base") -> list[Position]:
    """Game `number`: its kept positions as (features of every seat, outcome, mcts's chances)."""
    from splendor_cli.bots import make_bot
    from splendor_cli.bots.greedy import score_moves
    from splendor_cli.projection.seeding import RandomChance
    from splendor_cli.variants import find_variant
    from splendor_cli.variants.common.chances import from_lead

    variant = find_variant(game)
    evaluation = _evaluation(game)
    rng = random.Random(f"{seed}:{number}")
    players = sizes[number % len(sizes)]
    names = tuple(f"p{i}" for i in range(players))
    state = variant.start(variant.deal(names, RandomChance(rng)))
    bot = None if policy == "greedy" else make_bot(variant, policy)
    kept = []
    steps = 0
    while not state.finished and steps < 1200:
        steps += 1
        if rng.random() < 0.25:
            old = from_lead(state, variant.value)
            kept.append(([evaluation.features(state, i) for i in range(players)], old))
        if bot is None:
            scored = sorted(score_moves(variant, state, rng), key=lambda sm: -sm[0])
            move = scored[0][1] if rng.random() >= NOISE else rng.choice(scored[:4])[1]
        elif rng.random() < NOISE:
            move = variant.random_move(state, rng)
        else:
            move = bot(state, rng)
        state = variant.evolve(state, variant.decide(state, move))
    if not state.finished or not state.winners():  # unfinished, or a Duel drawn: nobody's to learn
        return []
    winners = state.winners()
    outcome = [1 / len(winners) if p.name in winners else 0.0 for p in state.players]
    return [(features, outcome, old) for features, old in kept]


def _evaluation(game: str) -> Any:
    import importlib

    return importlib.import_module(f"splendor_cli.variants.{game}.evaluation")


def _chunk(task: tuple[range, int, str, tuple[int, ...], str]) -> list[Any]:
    numbers, seed, policy, sizes, game = task
    return [play_game(n, seed, policy, sizes, game) for n in numbers]


def fit(x: Any, mask: Any, y: Any, steps: int, l2: float) -> Any:
    """Weights minimising the mean log-loss of the softmax over each position's seats (Adam)."""
    import numpy as np

    w = np.zeros(x.shape[2])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        p = _softmax(x @ w, mask)
        grad = np.einsum("nsf,ns->f", x, p - y) / len(x) + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def _softmax(scores: Any, mask: Any) -> Any:
    import numpy as np

    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(scores), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def measure(p: Any, y: Any, mask: Any) -> tuple[float, float]:
    """Mean log-loss, and the share of positions whose favourite (by p) won (or shared)."""
    import numpy as np

    loss = -np.sum(np.where(mask, y * np.log(np.clip(p, 1e-9, 1)), 0.0), axis=1).mean()
    favourite = np.where(mask, p, -1).argmax(axis=1)
    right = y[np.arange(len(y)), favourite] > 0
    return float(loss), float(right.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--players", default="2,3,4", help="table sizes, played in turn")
    parser.add_argument("--variant", default="base", choices=("base", "duel"))
    parser.add_argument("--save", help="keep the games' positions in this .npz (to fit again, or with others)")
    parser.add_argument("--load", action="append", default=[], help="fit on the positions of these .npz too")
    args = parser.parse_args()

    import numpy as np

    evaluation = _evaluation(args.variant)
    began = time.perf_counter()
    size = 50
    sizes = (2,) if args.variant == "duel" else tuple(int(n) for n in args.players.split(","))
    tasks = [
        (range(s, min(s + size, args.games)), args.seed, args.policy, sizes, args.variant)
        for s in range(0, args.games, size)
    ]
    games: list[Any] = []
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for part in pool.imap(_chunk, tasks):
                games += part
                print(f"{len(games)} games", file=sys.stderr, flush=True)
    else:
        for task in tasks:
            games += _chunk(task)
            print(f"{len(games)} games", file=sys.stderr, flush=True)
    print(f"played {len(games)} games in {time.perf_counter() - began:.0f} s with {args.policy}")

    def arrays(which: list[Any]) -> tuple[Any, Any, Any, Any]:
        rows = [pos for game in which for pos in game]
        n, f = len(rows), len(evaluation.NAMES)
        x, y, old = np.zeros((n, 4, f)), np.zeros((n, 4)), np.zeros((n, 4))
        mask = np.zeros((n, 4), dtype=bool)
        for k, (features, outcome, chances) in enumerate(rows):
            seats = len(features)
            x[k, :seats] = features
            y[k, :seats] = outcome
            old[k, :seats] = chances
            mask[k, :seats] = True
        return x, y, mask, old

    train, test = arrays(games[0::2]), arrays(games[1::2])
    if args.save:
        np.savez_compressed(args.save, *train, *test)
    for path in args.load:
        saved = np.load(path)
        parts = [saved[f"arr_{i}"] for i in range(8)]
        train = tuple(np.concatenate([a, b]) for a, b in zip(train, parts[:4]))
        test = tuple(np.concatenate([a, b]) for a, b in zip(test, parts[4:]))
    print(f"positions: {len(train[0])} to fit, {len(test[0])} to measure")
    scale = train[0].reshape(-1, train[0].shape[2]).std(axis=0) + 1e-9
    w = fit(train[0] / scale, train[2], train[1], args.steps, args.l2) / scale
    now = np.array(evaluation.WEIGHTS[sizes[0]])
    for label, weights in (("fitted", w), (f"module's {sizes[0]}p", now)):
        for part, (x, y, mask, _) in (("fit", train), ("held out", test)):
            loss, right = measure(_softmax(x @ weights, mask), y, mask)
            print(f"{label:>10} on {part:>8}: log-loss {loss:.4f}, favourite won {right:.1%}")
    x, y, mask, old = test
    normalised = np.where(mask, old, 0) / np.where(mask, old, 0).sum(axis=1, keepdims=True)
    loss, right = measure(normalised, y, mask)
    print(f"{'mcts lead':>10} on held out: log-loss {loss:.4f}, favourite won {right:.1%}")
    print("WEIGHTS = (")
    for name, value in zip(evaluation.NAMES, w):
        print(f"    {value:.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
