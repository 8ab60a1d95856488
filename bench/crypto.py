"""The cost of sealed cards (splendor_cli/crypto): prints figures, asserts nothing.

    python bench/crypto.py [--cards 40] [--players 2] [--runs 15]

Each figure is the median wall time over the runs, in one process (the imports are not counted):
1. keys: each player's key pair made, and every proof of possession made and checked;
2. shuffle: the deck, open (`Deck.unmasked`), shuffled by every player in turn (each
   re-encrypts all the cards under the joint key and reorders them, from its seed);
3. check: every shuffle re-made from its published seed and compared (`check_shuffle`), as a
   reader does at the end of a game;
4. reveal: one card opened: every player's decryption share with its proof, then every share
   verified, combined and mapped back to the card's id (`reveal`, `Deck.card_of`);
5. one share: one player's share and proof alone; and one share verified alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from splendor_cli.crypto.elgamal import Ciphertext, Deck, decryption_share, joint_key, reveal, verify_share
from splendor_cli.crypto.keys import SecretKey, check_possession, context
from splendor_cli.crypto.shuffle import check_shuffle, shuffle


def median_ms(work: Callable[[], object], runs: int) -> float:
    """The median wall time of `work`, in milliseconds, after one run not counted."""
    work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cards", type=int, default=40, help="cards in the deck (default 40: a tier-1 deck)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each step (default 15)")
    args = parser.parse_args()

    names = [f"p{i}" for i in range(1, args.players + 1)]
    deck = Deck(tuple(f"1-{n:02d}" for n in range(1, args.cards + 1)))
    players = [SecretKey.generate(name, os.urandom) for name in names]
    keys = {key.name: key.public.card for key in players}
    y = joint_key(keys.values())
    label = "bench/deck-1"

    def make_keys() -> None:
        for name in names:
            key = SecretKey.generate(name, os.urandom)
            where = context("bench", name)
            check_possession(key.public, key.possession(where, os.urandom), where)

    def shuffled() -> list[tuple[Ciphertext, ...]]:
        decks = [deck.unmasked()]
        for key in players:
            decks.append(shuffle(decks[-1], y, key.shuffle_seed(label), label))
        return decks

    decks = shuffled()

    def check() -> None:
        for key, before, after in zip(players, decks, decks[1:]):
            if not check_shuffle(before, after, y, key.shuffle_seed(label), label):
                raise SystemExit(f"the shuffle of {key.name} does not check: a bug")

    card = decks[-1][0]

    def open_one() -> str:
        shares = {key.name: decryption_share(card, key.card, b"bench/#1", os.urandom) for key in players}
        return deck.card_of(reveal(card, shares, keys, b"bench/#1"))

    share = decryption_share(card, players[0].card, b"bench/#1", os.urandom)
    shuffling, checking = median_ms(shuffled, args.runs), median_ms(check, args.runs)
    rows = [
        ("keys + proofs of possession", median_ms(make_keys, args.runs)),
        (f"shuffle of {args.cards} cards by {args.players} players", shuffling),
        (f"check of the {args.players} shuffles from their seeds", checking),
        ("shuffle + check", shuffling + checking),
        (f"reveal of one card ({args.players} shares + verification)", median_ms(open_one, args.runs)),
        (
            "one decryption share (with its proof)",
            median_ms(lambda: decryption_share(card, players[0].card, b"b", os.urandom), args.runs),
        ),
        (
            "one share verified",
            median_ms(lambda: verify_share(card, share, keys[players[0].name], b"bench/#1"), args.runs),
        ),
    ]
    width = max(len(what) for what, _ in rows)
    print(f"splendor-cli crypto, {args.cards} cards, {args.players} players, median of {args.runs} runs")
    for what, ms in rows:
        print(f"  {what:<{width}}  {ms:8.2f} ms")


if __name__ == "__main__":
    main()
