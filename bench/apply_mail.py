"""How `splendor apply` takes in one large mail: wall time, CPU time and peak memory.
Prints figures; asserts nothing.

    python bench/apply_mail.py [--blocks 16000] [--distinct 500,2000,16000] [--splendor "PATH ..."]

It plays, in a temporary folder, a 2-player game at random (once it is over, its last turn taken
back and played again, and so on) and exports each of its events as a one-event move block
(`mail.format_block`, as `splendor export` writes them); then, for each count of distinct
blocks, it writes one mail of `--blocks` blocks (those distinct blocks again and again, as a
thread quoting its replies does) and runs `splendor apply -g COPY MAIL` on a copy of the game
at its setup, as a new process of the installed command (or of `--splendor`, split as a shell
does: `"env PYTHONPATH=/old python -m splendor_cli"` measures another checkout). A mail holds
at most `mail.MAX_BLOCKS` distinct blocks: the rest is not read (stderr says so).
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path

from measuring import measured

from splendor_cli import store
from splendor_cli.events import actor
from splendor_cli.events.codec import Header, chained
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.sharing.mail import format_block
from splendor_cli.variants import find_variant

_ENV = {**os.environ, "SPLENDOR_NO_MEMORY": "1", "SPLENDOR_NO_CACHE": "1"}


def game(events: int, folder: Path) -> tuple[bytes, list[str]]:
    """A game of `events` events: the file at its setup, and the block of each event after it
    (folded in memory: the file is never written whole)."""
    variant = find_variant("base")
    rng = random.Random(1)
    players = ("ann", "bob")
    header = Header(game="bench-apply", variant="base", players=players, created="2026-12-05T00:00:00Z")
    loaded = store.create(folder / "ann.toml", header, variant.deal(players, RandomChance(rng)))
    record, now = loaded.record, loaded.game
    for _ in range(events - 1):
        if now.table.finished:  # take the last turn back, play another
            event = now.decide_undo(by=actor(now.events[now.after[-1] - 1]))
        else:
            moves = variant.legal_moves(now.state)
            event = now.decide(moves[rng.randrange(len(moves))])
        event = chained(record, event)
        now = now.apply(event, check=False)
        record = record.then(event)
    blocks = [format_block(header.game, [event], variant) for event in record.events[1:]]
    return loaded.data, blocks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blocks", type=int, default=16_000)
    parser.add_argument("--distinct", default="500,2000,16000")
    parser.add_argument("--splendor", default=str(Path(sys.executable).parent / "splendor"))
    args = parser.parse_args()
    counts = [int(count) for count in args.distinct.split(",")]
    with tempfile.TemporaryDirectory(prefix="splendor-bench-apply-") as folder:
        root = Path(folder)
        setup, blocks = game(max(counts) + 1, root)
        for count in counts:
            chosen = blocks[:count]
            message = EmailMessage()
            message["Subject"] = "a long thread"
            message.set_content("\n> ".join(chosen[k % count] for k in range(args.blocks)))
            mail = root / f"mail-{count}.eml"
            mail.write_bytes(message.as_bytes())
            copy = root / f"bob-{count}.toml"
            copy.write_bytes(setup)
            command = [*shlex.split(args.splendor), "apply", "-g", str(copy), str(mail)]
            wall, cpu, peak, code = measured(command, root, _ENV)
            events = len(store.read(copy).record.events) - 1
            print(
                f"  {args.blocks} blocks ({count} distinct), mail {mail.stat().st_size / 1e6:.1f} MB:"
                f" wall {wall:6.1f} s, cpu {cpu:6.1f} s, peak {peak:5.0f} MB, exit {code}, {events} events applied"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
