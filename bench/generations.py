"""The AlphaZero loop with our search: self-play, fit, match, again (issue 33, item 1).

    pip install -e '.[train]'        # numpy, for the fit only
    python bench/generations.py --run DIR [--players 2] [--generations 3] [--games 300] [--match 100]
                                [--play expert:100] [--judge expert] [--model phase] [--window 2]
                                [--step 1] [--gate 0.55] [--jobs 0] [--ray ADDRESS] [--seed 1]

Generation 0 is the evaluation the package ships. For each generation g = 1, 2, ...:

1. **play**: `--games` games of `--play` against itself, every seat searching by generation g-1
   (`bench/selfplay.py`, seeds `S*1000+g-1`), into `DIR/play-(g-1)/`;
2. **fit**: `bench/train.py` fits `--model` to the positions of the last `--window` generations'
   games (a quarter of the games held out and measured), into `DIR/gen-g.toml`; with `--step S`
   below 1, generation g is only S of the way from g-1's weights to the fit (a soft update);
3. **match**: `--match` games of `--judge` searching by generation g against `--judge` searching
   by generation g-1, seats rotated every game, on seeds no self-play used (`S*1000+500+g`),
   into `DIR/match-g/`. At `--players` 4 half the seats search by each (g, g-1, g, g-1); at 3,
   half the games are g, g-1, g-1 and the other half g, g, g-1 (seeds `S*1000+700+g`, into
   `DIR/match-g-b/`), so that each generation holds as many seats as the other and an even
   score is 50%;
4. g is kept when its score (a win 1, a shared win 1/2) is at least `--gate`; otherwise the loop
   stops and g-1 is the last kept generation.

Every step is resumable: run the same command again and the games already played are kept (each
step is a `selfplay.py --resume`, the fit is quick and made again). What each generation did is in
`DIR/generations.json` and printed as a table: the fit's held-out log-loss against the previous
generation's, the match with its Wilson interval. Progress bars come from selfplay.py on stderr.
Asserts nothing; exit 0, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHIPPED = HERE.parent / "splendor_cli" / "variants" / "base" / "data" / "evaluation.toml"


def selfplay(out: Path, bots: str, games: int, seed: int, args: argparse.Namespace) -> None:
    command = [sys.executable, str(HERE / "selfplay.py"), "--out", str(out), "--games", str(games)]
    command += ["--seed", str(seed), "--bots", bots, "--players", str(args.players)]
    command += ["--jobs", str(args.jobs), "--resume"]
    if args.ray:
        command += ["--ray", args.ray]
    subprocess.run(command, check=True)


def scores(folder: Path) -> dict[str, float]:
    """Each bot's summed outcome over the games in `folder` (seats of the same bot together: a
    seat named `spec#2` counts for `spec`)."""
    totals: dict[str, float] = {}
    for shard in sorted(folder.glob("games-*.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["type"] == "game":
                for name, share in zip(record["seating"], record["outcomes"]):
                    bot = name.rsplit("#", 1)[0]
                    totals[bot] = totals.get(bot, 0.0) + (share or 0.0)
    return totals


def tables(new: str, old: str, players: int) -> list[str]:
    """The seatings of a match of `new` against `old` (`--bots` of selfplay.py), each played by
    as many games: as many seats each, alternating; at an odd table size, two tables with one
    seat more for each in turn."""
    half = players // 2
    if players % 2 == 0:
        return [",".join([new, old] * half)]
    return [",".join([new] * half + [old] * (half + 1)), ",".join([new] * (half + 1) + [old] * half)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--run", type=Path, required=True, help="the folder of every generation")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="the table size")
    parser.add_argument("--generations", type=int, default=3, help="at most this many new generations")
    parser.add_argument("--games", type=int, default=300, help="self-play games a generation")
    parser.add_argument("--match", type=int, default=100, help="games of each generation's match")
    parser.add_argument("--play", default="expert:100", help="the bot spec of self-play")
    parser.add_argument("--judge", default="expert", help="the bot spec of the matches")
    parser.add_argument("--model", default="phase", choices=("linear", "phase"))
    parser.add_argument("--window", type=int, default=2, help="fit to the games of this many generations")
    parser.add_argument(
        "--step", type=float, default=1.0, help="each generation moves this share of the way to its fit"
    )
    parser.add_argument("--gate", type=float, default=0.55, help="the match score a generation needs to be kept")
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--ray", help="play on a Ray cluster (selfplay.py --ray)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from splendor_cli.bots.tournament import wilson

    if args.generations < 1 or args.games < 1 or args.match < 2 or args.window < 1 or not 0 < args.step <= 1:
        parser.error("--generations, --games, --window are 1 or more, --match 2 or more, --step in (0, 1]")
    run: Path = args.run
    run.mkdir(parents=True, exist_ok=True)
    record_path = run / "generations.json"
    settings = {k: v for k, v in vars(args).items() if k not in ("run", "jobs", "ray", "generations")}
    if args.step == 1:
        del settings["step"]  # as runs before --step recorded it
    if args.players == 2:
        del settings["players"]  # as runs before --players recorded it
    record: dict[str, Any] = {"settings": settings, "generations": []}
    if record_path.exists():
        before = json.loads(record_path.read_text(encoding="utf-8"))
        if before["settings"] != settings:
            parser.error(f"{run} was run with other settings: {before['settings']}")
        record = before  # generations beyond this run's --generations stay on record
    if not (run / "gen-0.toml").exists():
        shutil.copyfile(SHIPPED, run / "gen-0.toml")

    def spec(bot: str, g: int) -> str:
        """`bot` searching by generation g (0: the package's own evaluation)."""
        return f"{bot}@{run / f'gen-{g}.toml'}" if g else bot

    for g in range(1, args.generations + 1):
        play = run / f"play-{g - 1}"
        selfplay(play, spec(args.play, g - 1), args.games, args.seed * 1000 + g - 1, args)
        data = [run / f"play-{k}" for k in range(max(0, g - args.window), g)]
        name = (
            f"generation {g}: {args.model}{f' (step {args.step:g})' if args.step < 1 else ''},"
            f" fitted to {args.games * len(data)} games of {args.play} self-play"
            f" (generations {max(0, g - args.window)}-{g - 1}), bench/generations.py"
        )
        train = [sys.executable, str(HERE / "train.py"), "--data", *map(str, data), "--model", args.model]
        train += ["--players", str(args.players)]
        train += ["--base", str(run / f"gen-{g - 1}.toml"), "--out", str(run / f"gen-{g}.toml"), "--json"]
        train += ["--step", str(args.step)]
        fitted = subprocess.run([*train, "--name", name], check=True, capture_output=True, text=True)
        fit = json.loads(fitted.stdout)
        seatings = tables(spec(args.judge, g), spec(args.judge, g - 1), args.players)
        seeds = [args.seed * 1000 + (700 if k else 500) + g for k in range(len(seatings))]
        totals: dict[str, float] = {}
        for k, (bots, seed) in enumerate(zip(seatings, seeds)):
            match = run / (f"match-{g}" + ("-b" if k else ""))
            part = args.match // len(seatings) + (k < args.match % len(seatings))
            selfplay(match, bots, part, seed, args)
            for bot, total in scores(match).items():
                totals[bot] = totals.get(bot, 0.0) + total
        new = sum(v for k, v in totals.items() if k.endswith(f"@gen-{g}"))
        games = round(sum(totals.values()))
        share = new / games
        low, high = wilson(new, games)  # type: ignore[arg-type]  # a shared win counts half
        models = fit["models"]
        written = models.get(f"{args.model}, step {args.step:g}", models[args.model])
        entry = {
            "generation": g,
            "fitted": fit["games"],
            "held_out_loss": {
                "previous": next(iter(models.values()))["held_out"]["log_loss"],
                "new": written["held_out"]["log_loss"],
            },
            "match": {"games": games, "score": share, "wilson": [low, high], "seed": seeds[0]}
            | ({"seed_b": seeds[1]} if len(seeds) > 1 else {}),
            "kept": share >= args.gate,
            "weights": fit["weights"],
        }
        record["generations"] = [e for e in record["generations"] if e["generation"] != g] + [entry]
        record_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(
            f"generation {g}: held-out log-loss {entry['held_out_loss']['previous']:.4f} -> "
            f"{entry['held_out_loss']['new']:.4f}; match against {g - 1}: {share:.1%} of {games}"
            f" ({low:.1%}-{high:.1%}), {'kept' if entry['kept'] else 'not kept: the loop stops'}",
            flush=True,
        )
        if not entry["kept"]:
            break


if __name__ == "__main__":
    main()
