"""The cost of a proof of shuffle (splendor_cli/crypto/shuffle_proof.py): prints figures, asserts nothing.

    python bench/shuffle_proof.py [--players 2] [--runs 7]

For each deck size (the base game's decks: 40, 30 and 20 cards; the Duel's: 30, 24 and 13; and
67, the Duel's three together): the proof's size in bytes and in base64 characters, and the
median CPU time (time.process_time) to make it (`prove_shuffle`, the shuffle itself not
counted) and to check it (`verify_shuffle`, the parsing of its text included). Then the sums per
player for one shuffle of the base game's three decks and of the Duel's.
"""

from __future__ import annotations

import argparse
import base64
import os
import statistics
import time
from collections.abc import Callable

from splendor_cli.crypto.elgamal import Deck, encrypt, joint_key
from splendor_cli.crypto.group import Point, Scalar
from splendor_cli.crypto.shuffle import shuffle, witness
from splendor_cli.crypto.shuffle_proof import ShuffleProof, prove_shuffle, text_size, verify_shuffle

SIZES = (40, 30, 20, 67, 24, 13)
GAMES = {"base game (40+30+20)": (40, 30, 20), "Duel (30+24+13)": (30, 24, 13)}


def median_ms(work: Callable[[], object], runs: int) -> float:
    """The median CPU time of `work`, in milliseconds, after one run not counted."""
    work()
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=2, help="players whose keys make the joint key (default 2)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each step (default 7)")
    args = parser.parse_args()

    y = joint_key(Point.base_times(Scalar.random(os.urandom)) for _ in range(args.players))
    made: dict[int, float] = {}
    checked: dict[int, float] = {}
    print(f"{'cards':>5} {'bytes':>6} {'base64':>6} {'make ms':>8} {'check ms':>8}")
    for size in SIZES:
        deck = Deck(tuple(f"c-{n:02d}" for n in range(size)))
        before = tuple(encrypt(p, y, Scalar.random(os.urandom)) for p in deck.points)
        seed, label, context = os.urandom(32), f"bench/{size}", b"bench/game/seat/deck"
        after = shuffle(before, y, seed, label)
        order, randomizers = witness(before, seed, label)
        text = prove_shuffle(before, after, y, order, randomizers, context, os.urandom).to_text()

        def make() -> None:
            prove_shuffle(before, after, y, order, randomizers, context, os.urandom)  # noqa: B023

        def check() -> None:
            proof = ShuffleProof.from_text(text, size)  # noqa: B023
            if not verify_shuffle(before, after, y, proof, context):  # noqa: B023
                raise SystemExit(f"the proof of a shuffle of {size} cards does not verify: a bug")  # noqa: B023

        made[size], checked[size] = median_ms(make, args.runs), median_ms(check, args.runs)
        print(
            f"{size:>5} {len(base64.b64decode(text)):>6} {text_size(size):>6} {made[size]:>8.1f} {checked[size]:>8.1f}"
        )
    print()
    for game, sizes in GAMES.items():
        total_make, total_check = sum(made[n] for n in sizes), sum(checked[n] for n in sizes)
        total_bytes = sum((4 * n + 5) * 32 for n in sizes)
        total_text = sum(text_size(n) for n in sizes)
        print(
            f"one player's shuffle, {game}: {total_bytes} bytes, {total_text} base64 characters, "
            f"make {total_make:.1f} ms, check {total_check:.1f} ms"
        )


if __name__ == "__main__":
    main()
