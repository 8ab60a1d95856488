"""Fit the `expert` bot's evaluation to the outcomes of the bots' own games (issue 33, item 1).

    pip install -e '.[train]'        # numpy, for the fit only: the game never needs it
    python bench/train.py --data DIR [DIR ...] [--players 2] [--model phase] [--out FILE.toml]
                          [--base FILE.toml] [--name TEXT] [--step 1] [--holdout 4] [--l2 0.001] [--json]

Reads the positions that `bench/selfplay.py` wrote in each DIR (every seat's features, in the
order of `splendor_cli/variants/base/evaluation.NAMES`, and the game's final outcome for every
seat) for games at `--players`, leaving out games not finished. The games whose number is
`--holdout - 1` modulo `--holdout` (a quarter by default) are held out: never fitted, only
measured.

Fits, on the other games, by full-batch gradient descent (Adam) on the log-loss of the
conditional logit (seat i's chance is the softmax over the seats of its score; a shared win is
a shared target), with an L2 penalty of `--l2` on the standardized weights:

- `linear`: score_i = w . x_i (the model the bot had before: 15 weights);
- `phase`: score_i = w . x_i + lead * v . x_i, with lead the best seat's points / 15 (30 weights:
  what a card or a token is worth changes as the game nears its end);
- `mlp`: score_i = a small network of x_i (one hidden layer of `--hidden` tanh units), measured
  here for comparison only: the bot cannot evaluate it at search speed in pure Python, so it is
  never written.

Prints, on the held-out games and on the fitted ones, for the `--base` model (the shipped one by
default) and each model fitted: the log-loss, the share of positions whose favourite won, and
the Brier score; then writes, with `--out`, an evaluation file (the format of
`splendor_cli/variants/base/data/evaluation.toml`): `--base`'s models with the one of
`--players` replaced by the first `--model` fitted (linear or phase), named `--name`; with
`--step S` below 1, only S of the way from `--base`'s weights to the fit's (a soft update: 0.5
is halfway; measured too).

Deterministic: the same data give the same weights. Asserts nothing; exit 0, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "splendor_cli" / "variants" / "base" / "data" / "evaluation.toml"
WINNING_POINTS = 15


def load(folders: list[Path], players: int) -> tuple[list[list[list[float]]], list[list[float]], list[int]]:
    """The positions of finished `players`-seat games in `folders`: each seat's features, the
    outcomes of the seats (in the same order), and the game number."""
    features: list[list[list[float]]] = []
    outcomes: list[list[float]] = []
    games: list[int] = []
    for folder in folders:
        run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        if run["players"] != players or run["variant"] != "base":
            continue
        for shard in sorted(folder.glob("games-*.jsonl")):
            pending: list[dict[str, Any]] = []
            for line in shard.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record["type"] == "position":
                    pending.append(record)
                    continue
                if record["finished"] and None not in record["outcomes"]:
                    for position in pending:
                        features.append(position["features"])
                        outcomes.append(record["outcomes"])
                        games.append(record["game"])
                pending = []
    return features, outcomes, games


class Fit:
    """A model fitted by `fit`: its scores of positions `x` (positions, seats, features)."""

    def __init__(self, kind: str, params: dict[str, Any], mean: Any, scale: Any) -> None:
        self.kind, self.params, self.mean, self.scale = kind, params, mean, scale

    def scores(self, x: Any) -> Any:
        return _scores(self.kind, self.params, (x - self.mean) / self.scale, _lead(x))

    def weights(self) -> tuple[list[float], list[float] | None]:
        """The weights of raw features (the standardization folded in; the offset of every seat
        cancels in the softmax): linear, and phase (None for `linear`)."""
        w = self.params["w"] / self.scale
        v = self.params["v"] / self.scale if self.kind == "phase" else None
        # the mean's share is the same for every seat, except through lead (the same for every
        # seat too): it cancels as well
        return [float(a) for a in w], None if v is None else [float(a) for a in v]


def _lead(x: Any) -> Any:
    import numpy as np

    return np.max(x[:, :, 0], axis=1, keepdims=True) / WINNING_POINTS


def _scores(kind: str, params: dict[str, Any], z: Any, lead: Any) -> Any:
    import numpy as np

    if kind == "linear":
        return z @ params["w"]
    if kind == "phase":
        return z @ params["w"] + lead * (z @ params["v"])
    hidden = np.tanh(z @ params["a"] + params["b"])
    return hidden @ params["c"]


def log_loss(scores: Any, y: Any) -> tuple[float, float, float]:
    """The mean log-loss, the share of positions whose favourite won (a shared win: its share),
    and the Brier score of the softmax of `scores` against outcomes `y`."""
    import numpy as np

    shifted = scores - scores.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    p = np.exp(logp)
    loss = float(-(y * logp).sum(axis=1).mean())
    hit = float(y[np.arange(len(y)), p.argmax(axis=1)].mean())
    brier = float(((p - y) ** 2).sum(axis=1).mean())
    return loss, hit, brier


def fit(kind: str, x: Any, y: Any, *, l2: float, hidden: int = 16, steps: int = 3000, seed: int = 1) -> Fit:
    """`kind` fitted to positions `x` and outcomes `y` by Adam on the penalized log-loss."""
    import numpy as np

    flat = x.reshape(-1, x.shape[2])
    mean, scale = flat.mean(axis=0), flat.std(axis=0)
    scale[scale == 0] = 1.0
    z, lead = (x - mean) / scale, _lead(x)
    n = z.shape[2]
    rng = np.random.default_rng(seed)
    params: dict[str, Any]
    if kind == "mlp":
        params = {
            "a": rng.normal(0, 1 / math.sqrt(n), (n, hidden)),
            "b": np.zeros(hidden),
            "c": rng.normal(0, 1 / math.sqrt(hidden), hidden),
        }
    else:
        params = {"w": np.zeros(n)} | ({"v": np.zeros(n)} if kind == "phase" else {})
    moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in params.items()}
    rate, beta1, beta2 = 0.05 if kind != "mlp" else 0.01, 0.9, 0.999
    count = len(y)
    for step in range(1, steps + 1):
        grads = _gradients(kind, params, z, lead, y)
        for key, p in params.items():
            g = grads[key] / count + l2 * p
            m, s = moments[key]
            m *= beta1
            m += (1 - beta1) * g
            s *= beta2
            s += (1 - beta2) * g * g
            p -= rate * (m / (1 - beta1**step)) / (np.sqrt(s / (1 - beta2**step)) + 1e-8)
    return Fit(kind, params, mean, scale)


def _gradients(kind: str, params: dict[str, Any], z: Any, lead: Any, y: Any) -> dict[str, Any]:
    """The gradient of the summed log-loss by each parameter."""
    import numpy as np

    scores = _scores(kind, params, z, lead)
    shifted = scores - scores.max(axis=1, keepdims=True)
    p = np.exp(shifted)
    p /= p.sum(axis=1, keepdims=True)
    d = p - y  # d loss / d score, by position and seat
    if kind == "linear":
        return {"w": np.einsum("ps,psf->f", d, z)}
    if kind == "phase":
        return {"w": np.einsum("ps,psf->f", d, z), "v": np.einsum("ps,psf->f", d * lead, z)}
    pre = z @ params["a"] + params["b"]
    hidden = np.tanh(pre)
    back = d[:, :, None] * params["c"] * (1 - hidden**2)
    return {
        "c": np.einsum("ps,psh->h", d, hidden),
        "a": np.einsum("psf,psh->fh", z, back),
        "b": back.sum(axis=(0, 1)),
    }


def base_weights(path: Path, players: int) -> tuple[list[float], list[float]]:
    """The linear and phase weights of the `players` model of the evaluation file at `path` (phase
    weights of 0 when it has none; its share of greedy's heuristic left out: the heuristic is not
    in the data)."""
    from splendor_cli.variants.base.evaluation import read_models

    model = read_models(path.read_text(encoding="utf-8"))[players]
    return list(model.linear), list(model.phase or [0.0] * len(model.linear))


def scores_by(linear: list[float], phase: list[float], x: Any) -> Any:
    """The scores of positions `x` by raw weights."""
    import numpy as np

    return x @ np.array(linear) + _lead(x) * (x @ np.array(phase))


def render(base: Path, players: int, linear: list[float], phase: list[float] | None, name: str) -> str:
    """`base`'s evaluation file with the model of `players` replaced."""
    import tomllib

    table = tomllib.loads(base.read_text(encoding="utf-8"))
    models = dict(table["players"])
    models[str(players)] = {"fitted": name, "linear": linear} | ({"phase": phase} if phase else {})
    if "share" in table["players"].get(str(players), {}):
        models[str(players)]["share"] = table["players"][str(players)]["share"]
    lines = [
        "# The weights of the evaluation the `expert` bot searches by (splendor_cli/variants/base/evaluation.py),",
        "# by table size. Written by bench/train.py; each model says what it was fitted to.",
        "# A seat's score is linear . features + lead * phase . features (lead: the best seat's points / 15),",
        "# its chance the softmax of the scores, blended with `share` of greedy's heuristic leads.",
        "format = 1",
        "names = [" + ", ".join(json.dumps(n) for n in table["names"]) + "]",
    ]
    for size in sorted(models, key=int):
        model = models[size]
        lines += ["", f"[players.{size}]", f"fitted = {json.dumps(model['fitted'])}"]
        for key in ("linear", "phase"):
            if key in model:
                lines.append(f"{key} = [" + ", ".join(f"{w:.4f}" for w in model[key]) + "]")
        if "share" in model:
            lines.append(f"share = {model['share']}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", nargs="+", type=Path, required=True, help="folders written by bench/selfplay.py")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--model", nargs="+", default=["phase"], choices=("linear", "phase", "mlp"))
    parser.add_argument("--base", type=Path, default=SHIPPED, help="the evaluation file compared with and kept")
    parser.add_argument("--out", type=Path, help="write the evaluation file here")
    parser.add_argument("--name", default="", help="what the model was fitted to (written into the file)")
    parser.add_argument("--holdout", type=int, default=4, help="hold out one game in N")
    parser.add_argument(
        "--step", type=float, default=1.0, help="write base + STEP * (fit - base): 1 the fit, 0.5 halfway"
    )
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--hidden", type=int, default=16, help="hidden units of `mlp`")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        parser.error("numpy is needed for the fit: pip install -e '.[train]'")
    if not 0 < args.step <= 1:
        parser.error("--step is above 0 and at most 1")
    if args.holdout < 2:
        parser.error("--holdout is 2 or more")
    if args.out and args.model[0] == "mlp":
        parser.error("an mlp is measured only: name linear or phase first to write a file")
    for folder in args.data:
        if not (folder / "run.json").is_file():
            parser.error(f"{folder}: no run.json, not a folder of bench/selfplay.py")

    features, outcomes, games = load(args.data, args.players)
    if not features:
        parser.error(f"no finished {args.players}-player game of base Splendor in {', '.join(map(str, args.data))}")
    x, y, g = np.array(features, dtype=float), np.array(outcomes, dtype=float), np.array(games)
    held = g % args.holdout == args.holdout - 1
    report: dict[str, Any] = {
        "positions": {"fitted": int((~held).sum()), "held_out": int(held.sum())},
        "games": {"fitted": len(set(g[~held].tolist())), "held_out": len(set(g[held].tolist()))},
        "models": {},
    }

    def measure(label: str, scores_of: Any) -> None:
        report["models"][label] = {
            "held_out": dict(zip(("log_loss", "favourite_won", "brier"), log_loss(scores_of(x[held]), y[held]))),
            "fitted": dict(zip(("log_loss", "favourite_won", "brier"), log_loss(scores_of(x[~held]), y[~held]))),
        }

    base_linear, base_phase = base_weights(args.base, args.players)
    measure(f"base ({args.base.name})", lambda part: scores_by(base_linear, base_phase, part))
    fits = {}
    for kind in args.model:
        fits[kind] = fit(kind, x[~held], y[~held], l2=args.l2, hidden=args.hidden, steps=args.steps)
        measure(kind, fits[kind].scores)
    if args.out:
        linear, phase = fits[args.model[0]].weights()
        if args.step < 1:  # a step of the way from the base towards the fit
            linear = [b + args.step * (w - b) for b, w in zip(base_linear, linear)]
            phase = [b + args.step * (w - b) for b, w in zip(base_phase, phase or [0.0] * len(linear))]
            stepped_linear, stepped_phase = linear, phase
            measure(f"{args.model[0]}, step {args.step:g}", lambda part: scores_by(stepped_linear, stepped_phase, part))
        report["weights"] = {"linear": linear, "phase": phase}
        text = render(args.base, args.players, linear, phase, args.name or f"bench/train.py {args.model[0]}")
        temporary = args.out.with_name(args.out.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(args.out)
        report["written"] = str(args.out)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(
        f"{report['games']['fitted']} games ({report['positions']['fitted']} positions) fitted,"
        f" {report['games']['held_out']} ({report['positions']['held_out']}) held out"
    )
    print(f"{'model':<32} {'held-out loss':>13} {'fav. won':>9} {'brier':>7}   {'fitted loss':>11}")
    for label, m in report["models"].items():
        h, f = m["held_out"], m["fitted"]
        print(
            f"{label:<32} {h['log_loss']:>13.4f} {h['favourite_won']:>9.3f} {h['brier']:>7.4f}   {f['log_loss']:>11.4f}"
        )
    if args.out:
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
