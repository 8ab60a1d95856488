"""Our bot against cestpasphoto's AlphaZero for Splendor (pretrained 2-player network): a match.

    python bench/versus_alphazero.py --bot mcts --sims 100 --games 20 --jobs 2
    python bench/versus_alphazero.py --check 3000

Install and run: docs/alphazero.md. Their repository is imported at run time from `--repo`
(default: $ALPHAZERO_REPO, else ../alpha-zero-general beside this project); none of its code
is in this project. It needs the `alphazero` extra (numpy, numba, torch, torchvision, onnx,
onnxruntime), in a virtual environment of its own.

Our GameState is the truth of every game and our engine (`decide`) judges every move. A move
counts when it is legal in our rules and has the effect of one of AlphaZero's 81 actions: the
common rule profile of bench/alphazero_adapter.py. When AlphaZero is to move, its board is built
from our state (our bot's blind reserves hidden: each shown as a card drawn from those it cannot
see), its MCTS runs as their pit.py runs it (the checkpoint's cpuct, fpu, universes and forced
playouts; the move the most visited; the network exported to ONNX and run by onnxruntime, as
their wrapper does, or in torch with --torch) with its root restricted to the common moves, and its
action is played as our Move. Our bot searches through the same profile (`CommonProfile`). A
turn where the profiles share no move is counted: ours then plays from all our moves, and
AlphaZero's turn is played by our `greedy` (no such turn is expected). A game not over after
62 rounds ends there, as in their game (most points, then fewest cards).

Seats alternate: games 2k and 2k + 1 share a deal (from --seed), our bot first in the even one.
Prints our score (win 1, shared 0.5) with its 95% Wilson interval, wins / draws / losses, and
each side's time per move; `--json` prints the same as JSON. Progress goes to stderr.

`--check N` compares the engines instead: in N positions of games played at random through the
common profile, every move legal in both (by effect) is played in their engine and in ours, the
results read back and compared (the card a deck gives excepted: each engine draws its own), and
so are the game's end and the set of common moves itself. Every figure but the counts must be 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import numpy as np
from alphazero_adapter import CAP, CommonProfile, Tables, common_moves, drawn_marked

from splendor_cli.bots import make_bot
from splendor_cli.bots.tournament import wilson
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.variants import find_variant
from splendor_cli.variants.base.state import GameState

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPO = os.environ.get("ALPHAZERO_REPO") or str(ROOT.parent / "alpha-zero-general")
WEIGHTS = "splendor/pretrained_2players.pt"
US, THEM = "us", "alphazero"


def _import_theirs(repo: str) -> Any:
    """Their SplendorLogic module (card tables), with their repository on the import path."""
    path = Path(repo).resolve()
    if not (path / "splendor" / "SplendorLogicNumba.py").is_file():
        sys.exit(f"no AlphaZero repository at {path}: clone it (docs/alphazero.md) or pass --repo PATH")
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
    from splendor import SplendorLogic

    return SplendorLogic


class _RootOnly:
    """Their game object, but at the root of a search only the common moves are valid."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.root: bytes | None = None
        self.allowed: np.ndarray | None = None

    def getValidMoves(self, board: np.ndarray, player: int) -> np.ndarray:  # their interface
        valid = self._game.getValidMoves(board, player)
        if self.root is not None and board.tobytes() == self.root:
            return np.logical_and(valid, self.allowed)
        return valid

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class AlphaZero:
    """Their pretrained 2-player network and MCTS, played as their pit.py plays it."""

    def __init__(self, repo: str, sims: int, onnx: bool = True) -> None:
        _import_theirs(repo)
        import torch

        torch.set_num_threads(1)  # as their wrapper does: one thread per process
        from MCTS import MCTS
        from splendor.SplendorGame import SplendorGame
        from utils import dotdict

        self._torch, self._mcts_class = torch, MCTS
        saved = torch.load(Path(repo).resolve() / WEIGHTS, map_location="cpu", weights_only=False)
        self.net = saved["full_model"]
        self.net.eval()
        self.game = SplendorGame()
        self.rooted = _RootOnly(self.game)
        cpuct = saved.get("cpuct")
        self.args = dotdict(
            {
                "numMCTSSims": sims,
                "fpu": saved.get("fpu", 0.0),
                "universes": saved.get("universes", 1),
                "cpuct": float(cpuct[0]) if isinstance(cpuct, list) else cpuct,
                "prob_fullMCTS": 1.0,
                "forced_playouts": saved.get("forced_playouts", False),
                "no_mem_optim": False,
            }
        )
        self.half_life = (list(saved.get("temperature", []))[2:3] or [10])[0]
        self.mcts: Any = None
        self.session: Any = None
        if onnx:  # as their wrapper infers by default: the network exported to ONNX, run by onnxruntime
            self.session = self._onnx_session()

    def _onnx_session(self) -> Any:
        import io
        import warnings

        import onnxruntime

        torch = self._torch
        board = torch.zeros((1, *self.game.getBoardSize()), dtype=torch.float32)
        valid = torch.ones((1, self.game.getActionSize()), dtype=torch.bool)
        exported = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                self.net,
                (board, valid),
                exported,
                input_names=["board", "valid_actions"],
                output_names=["pi", "v"],
                dynamo=False,
            )
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        return onnxruntime.InferenceSession(
            exported.getvalue(), sess_options=options, providers=["CPUExecutionProvider"]
        )

    def predict(self, board: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Their wrapper's inference: through ONNX (their default), or torch on the CPU."""
        if self.session is not None:
            pi, v = self.session.run(
                None,
                {"board": board.astype(np.float32)[None], "valid_actions": np.asarray(valid, dtype=np.bool_)[None]},
            )
            return np.exp(pi[0]), v[0]
        torch = self._torch
        x = torch.FloatTensor(board.astype(np.float32)).unsqueeze(0)
        mask = torch.BoolTensor(np.array(valid).astype(np.bool_)).unsqueeze(0)
        with torch.no_grad():
            pi, v = self.net(x, mask)
        return torch.exp(pi).numpy()[0], v.numpy()[0]

    def new_game(self) -> None:
        self.mcts = self._mcts_class(self.rooted, self, self.args)

    def choose(self, board: np.ndarray, seat: int, allowed: list[int], number: int) -> int:
        """Their action for the player in `seat` of `board` (players in seat order), among `allowed`."""
        canonical = np.array(self.game.getCanonicalForm(board, seat), copy=True)
        mask = np.zeros(81, dtype=np.bool_)
        mask[allowed] = True
        key = self.game.stringRepresentation(canonical)
        self.rooted.root, self.rooted.allowed = key, mask
        self.mcts.nodes_data.pop(key, None)  # a node seen before keeps its full move list: start it anew
        try:
            temp = 0.5 * 0.5 ** (number / self.half_life)  # pit.py's schedule (the move is the most visited)
            probs = self.mcts.getActionProb(canonical, temp=temp, force_full_search=True)[0]
        finally:
            self.mcts.nodes_data.pop(key, None)
            self.rooted.root = None
        return int(np.argmax(probs))


# -- a match ---------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _setup(repo: str, sims: int, spec: str, seed: int, onnx: bool, weights: str | None) -> None:
    """A process's match: `weights`, the text of the evaluation file of a `SPEC@FILE` bot (read
    once, by `evaluation_file`), or None for the shipped evaluation."""
    variant = find_variant("base")
    spec = spec.partition("@")[0]
    ours = variant
    if weights is not None:  # our bot searches by another evaluation file (a generation), as in selfplay.py
        from selfplay import _weighted

        from splendor_cli.variants.base import evaluation

        ours = _weighted(variant, evaluation, weights)
    tables = Tables(_import_theirs(repo))
    alphazero = AlphaZero(repo, sims, onnx)
    # a first search compiles their numba code (tens of seconds): not counted in a move's time
    state = variant.start(variant.deal((US, THEM), RandomChance(random.Random(f"{seed}:warm-up"))))
    alphazero.new_game()
    alphazero.choose(tables.board(state, state.nobles), 0, sorted(common_moves(state, tables.takes)), 1)
    _WORKER.update(
        variant=variant,
        tables=tables,
        alphazero=alphazero,
        spec=spec,
        ours=ours,
        seed=seed,
        greedy=make_bot(variant, "greedy"),
    )


def _stand_ins(state: GameState, seat: int, rng: random.Random) -> dict[str, str]:
    """For the player in `seat`'s blind reserves, cards an opponent cannot tell them from: drawn
    from what that opponent does not see (the deck of their level and those reserves)."""
    blind = state.players[seat].blind
    out: dict[str, str] = {}
    for level in (1, 2, 3):
        hidden = [card for card in blind if card[0] == str(level)]
        pool = sorted({*state.decks[level - 1], *hidden})
        for card in hidden:
            out[card] = pool.pop(rng.randrange(len(pool)))
    return out


def play_game(number: int) -> dict[str, Any]:
    """Game `number`: our bot first when `number` is even; the deal of games 2k and 2k + 1 alike."""
    w = _WORKER
    variant, tables, alphazero, seed = w["variant"], w["tables"], w["alphazero"], w["seed"]
    ours = number % 2
    names = (US, THEM) if ours == 0 else (THEM, US)
    state = variant.start(variant.deal(names, RandomChance(random.Random(f"{seed}:deal:{number // 2}"))))
    nobles = state.nobles
    bot = make_bot(CommonProfile(w["ours"], tables.takes), w["spec"])
    rng = random.Random(f"{seed}:game:{number}")
    np.random.seed(random.Random(f"{seed}:numpy:{number}").randrange(2**32))
    alphazero.new_game()
    clock = {US: 0.0, THEM: 0.0}
    cpu = {US: 0.0, THEM: 0.0}
    moves: Counter[str] = Counter()
    none_common: Counter[str] = Counter()
    returning: Counter[str] = Counter()
    while not state.finished and state.turn < CAP:
        common = common_moves(state, tables.takes)
        side = US if state.to_move == ours else THEM
        began, began_cpu = time.perf_counter(), time.process_time()
        if side == US:
            move = bot(state, rng)
            if common and move not in common.values():
                raise RuntimeError(f"game {number}: our bot played {move}, not a common move")
        elif common:
            board = tables.board(state, nobles, _stand_ins(state, ours, rng))
            action = alphazero.choose(board, state.to_move, sorted(common), state.turn + 1)
            if action not in common:
                raise RuntimeError(f"game {number}: AlphaZero chose action {action}, not a common move")
            move = common[action]
        else:
            move = w["greedy"](state, rng)
        clock[side] += time.perf_counter() - began
        cpu[side] += time.process_time() - began_cpu
        moves[side] += 1
        none_common[side] += not common
        returning[side] += bool(move.returned)
        if w.get("trace"):
            print(_traced(variant, state, side, move, w["ours"].chances(state)[ours]), file=sys.stderr)
        state = variant.evolve(state, variant.decide(state, move))  # our engine judges every move
    capped = not state.finished
    winners = (attrs.evolve(state, finished=True) if capped else state).winners()
    return {
        "game": number,
        "our_seat": ours,
        "score": 0.0 if US not in winners else 1.0 / len(winners),
        "points": {p.name: p.points for p in state.players},
        "turns": state.turn,
        "capped": capped,
        "seconds": clock,
        "cpu_seconds": cpu,
        "moves": dict(moves),
        "no_common_move": dict(none_common),
        "with_return": dict(returning),
    }


def _traced(variant: Any, state: GameState, side: str, move: Any, chance: float) -> str:
    """A line of `--trace`: the turn, our chance of winning by our evaluation, each player's
    points, bonuses, tokens (gold last) and reserve, and the move `side` plays."""

    def held(player: Any) -> str:
        reserve = ",".join(player.reserved) or "-"
        cards, tokens = player.bonuses.counts[:5], player.tokens.counts[:6]
        return f"{player.name} {player.points:>2} pts, cards {cards}, tokens {tokens}, reserve {reserve}"

    seats = " | ".join(held(p) for p in state.players)
    return f"turn {state.turn:>3} ({chance:.2f} ours) {seats}\n    {side}: {variant.format_move(move)}"


def evaluation_file(spec: str) -> str | None:
    """For a bot written `SPEC@FILE`, the text of the evaluation file FILE, checked; None for a
    bot searching by the shipped evaluation.

    Raises:
        SystemExit: FILE cannot be read or is not an evaluation file.
    """
    from splendor_cli.variants.base import evaluation

    _, _, file = spec.partition("@")
    if not file:
        return None
    try:
        text = Path(file).read_text(encoding="utf-8")
        evaluation.read_models(text)
    except (OSError, UnicodeDecodeError, ValueError, KeyError) as error:
        raise SystemExit(f"{file}: not an evaluation file ({error})") from None
    return text


def trace(args: argparse.Namespace) -> dict[str, Any]:
    """Game `args.trace` of the match alone, each move printed as it is played (stderr)."""
    _setup(args.repo, args.sims, args.bot, args.seed, not args.torch, evaluation_file(args.bot))
    _WORKER["trace"] = True
    return play_game(args.trace)


def match(args: argparse.Namespace) -> dict[str, Any]:
    settings = {"bot": args.bot, "sims": args.sims, "seed": args.seed, "torch": args.torch}
    weights = evaluation_file(args.bot)
    if weights is not None:  # a log of games by another evaluation is not resumed with this one
        import hashlib

        settings["evaluation"] = hashlib.sha256(weights.encode("utf-8")).hexdigest()
    results: list[dict[str, Any]] = []
    began = time.perf_counter()

    kept: dict[int, dict[str, Any]] = {}
    if args.log and args.log.exists():
        # a match interrupted: the games of the same settings already played are kept
        for line in args.log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("settings") != settings:
                raise SystemExit(f"{args.log} holds games of other settings: {record.get('settings')}")
            kept[record["result"]["game"]] = record["result"]
    numbers = range(args.games)
    todo = [n for n in numbers if n not in kept]

    def progress(result: dict[str, Any]) -> None:
        results.append(result)
        if args.log and result["game"] not in kept:
            with args.log.open("a", encoding="utf-8") as log:
                log.write(json.dumps({"settings": settings, "result": result}) + "\n")
        score = sum(r["score"] for r in results)
        print(
            f"game {result['game']:>3} (us in seat {result['our_seat']}): "
            f"{'won' if result['score'] == 1 else 'lost' if result['score'] == 0 else 'shared'} "
            f"{result['points'][US]}-{result['points'][THEM]} in {result['turns']} turns;"
            f" {len(results)}/{args.games} done, score {score:g}/{len(results)},"
            f" {time.perf_counter() - began:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    setup = (args.repo, args.sims, args.bot, args.seed, not args.torch, weights)
    for number in sorted(kept):
        if number < args.games:
            progress(kept[number])
    if todo and args.jobs <= 1:
        _setup(*setup)
        for number in todo:
            progress(play_game(number))
    elif todo:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with context.Pool(min(args.jobs, len(todo)), initializer=_setup, initargs=setup) as pool:
            for result in pool.imap_unordered(play_game, todo):
                progress(result)
    results.sort(key=lambda r: r["game"])
    games = len(results)
    wins = sum(r["score"] == 1 for r in results)
    losses = sum(r["score"] == 0 for r in results)
    score = sum(r["score"] for r in results)
    low, high = wilson(score, games)  # type: ignore[arg-type]  # a draw counts half
    total = {side: sum(r["moves"].get(side, 0) for r in results) for side in (US, THEM)}
    seconds = {side: sum(r["seconds"][side] for r in results) for side in (US, THEM)}
    cpu = {side: sum(r["cpu_seconds"][side] for r in results) for side in (US, THEM)}
    return {
        "bot": args.bot,
        "alphazero": {"sims": args.sims, "weights": WEIGHTS, "network": "torch" if args.torch else "onnx"},
        "seed": args.seed,
        "games": games,
        "wins": wins,
        "draws": games - wins - losses,
        "losses": losses,
        "score": score / games if games else 0.0,
        "interval95": [low, high],
        "seconds_per_move": {side: seconds[side] / total[side] if total[side] else 0.0 for side in (US, THEM)},
        "cpu_seconds_per_move": {side: cpu[side] / total[side] if total[side] else 0.0 for side in (US, THEM)},
        "moves": total,
        "no_common_move": {side: sum(r["no_common_move"].get(side, 0) for r in results) for side in (US, THEM)},
        "moves_with_return": {side: sum(r["with_return"].get(side, 0) for r in results) for side in (US, THEM)},
        "capped_games": sum(r["capped"] for r in results),
        "turns_mean": sum(r["turns"] for r in results) / games if games else 0.0,
        "wall_seconds": time.perf_counter() - began,
        "results": results,
    }


def print_match(report: dict[str, Any]) -> None:
    low, high = report["interval95"]
    per, cpu = report["seconds_per_move"], report["cpu_seconds_per_move"]
    them = report["alphazero"]
    print(
        f"{report['bot']} versus AlphaZero (pretrained 2 players, {them['sims']} simulations,"
        f" network run by {them['network']})"
    )
    print(
        f"score {report['score']:.1%} (95% interval {low:.1%} to {high:.1%}) over {report['games']} games:"
        f" {report['wins']} wins, {report['draws']} draws, {report['losses']} losses"
    )
    print(
        f"time per move: {report['bot']} {per[US]:.3f} s ({report['moves'][US]} moves),"
        f" AlphaZero {per[THEM]:.3f} s ({report['moves'][THEM]} moves);"
        f" CPU per move: {report['bot']} {cpu[US]:.3f} s, AlphaZero {cpu[THEM]:.3f} s"
    )
    none, ret = report["no_common_move"], report["moves_with_return"]
    print(
        f"common profile: turns with no common move {none[US]} ours, {none[THEM]} AlphaZero's;"
        f" moves made by a take or reserve that returns {ret[US]} ours, {ret[THEM]} AlphaZero's;"
        f" games ended at 62 rounds {report['capped_games']}; {report['turns_mean']:.1f} turns a game"
    )


# -- the check -------------------------------------------------------------------------------------


def _frozen(seen: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted(seen.items()))


def _our_end(state: GameState) -> tuple[float, ...]:
    """Their end-of-game value of our state: 0 each while it goes on; 1 / -1; 0.01 for a shared win."""
    if not state.finished:
        return (0.0,) * len(state.players)
    winners = state.winners()
    won = 1.0 if len(winners) == 1 else float(np.float32(0.01))  # theirs is a float32
    return tuple(won if p.name in winners else -1.0 for p in state.players)


def check(args: argparse.Namespace) -> dict[str, Any]:
    """Compare both engines on every common move of `args.check` positions (see the docstring)."""
    logic = _import_theirs(args.repo)
    from splendor.SplendorGame import SplendorGame

    game = SplendorGame()
    variant = find_variant("base")
    tables = Tables(logic)
    rng = random.Random(f"{args.seed}:check")
    np.random.seed(rng.randrange(2**32))
    counts: Counter[str] = Counter()
    examples: list[str] = []

    def wrong(kind: str, text: str) -> None:
        counts[kind] += 1
        if len(examples) < 10:
            examples.append(f"{kind}: {text}")

    began = time.perf_counter()
    games = 0
    while counts["positions"] < args.check:
        games += 1
        state = variant.start(variant.deal(("a", "b"), RandomChance(rng)))
        nobles = state.nobles
        greedy_turns = rng.random() < 0.5  # some games buy whenever they can: they get further
        while not state.finished and state.turn < CAP and counts["positions"] < args.check:
            counts["positions"] += 1
            common = common_moves(state, tables.takes)
            board = tables.board(state, nobles)
            seat = state.to_move
            if tables.read(board) != tables.seen(state, nobles):
                wrong("board", f"turn {state.turn}: their board reads back otherwise than our state")
            valid = game.getValidMoves(board, seat)
            before = state.decks
            theirs: dict[int, tuple[Any, ...]] = {}
            their_end: dict[int, tuple[float, ...]] = {}
            for action in np.flatnonzero(valid):
                after, _ = game.getNextState(board, seat, int(action))
                theirs[int(action)] = _frozen(drawn_marked(tables.read(np.array(after)), before))
                their_end[int(action)] = tuple(float(x) for x in game.getGameEnded(after, 0))
            by_effect: dict[tuple[Any, ...], list[Any]] = {}
            our_after = {}
            for move in variant.legal_moves(state):
                after_state = variant.evolve(state, variant.decide(state, move))
                our_after[move] = after_state
                by_effect.setdefault(_frozen(drawn_marked(tables.seen(after_state, nobles), before)), []).append(move)
            counts["our moves"] += len(our_after)
            counts["their actions"] += len(theirs)
            shared = {a for a, effect in theirs.items() if effect in by_effect}
            for action, move in sorted(common.items()):
                counts["common moves compared"] += 1
                if action not in theirs:
                    wrong("not valid in theirs", f"turn {state.turn}: action {action} = {move}")
                    continue
                ours = _frozen(drawn_marked(tables.seen(our_after[move], nobles), before))
                if ours != theirs[action]:
                    wrong("different result", f"turn {state.turn}: action {action} = {move}")
                counts["ends compared"] += our_after[move].finished
                if our_after[move].turn < CAP and _our_end(our_after[move]) != their_end[action]:
                    wrong(
                        "different end",
                        f"turn {state.turn}: action {action}: ours {_our_end(our_after[move])}"
                        f" theirs {their_end[action]}",
                    )
            for action in sorted(shared - set(common)):
                wrong("common move missed", f"turn {state.turn}: action {action} = {by_effect[theirs[action]]}")
            if not common:
                counts["positions with no common move"] += 1
            options = list(common.values()) or list(variant.legal_moves(state))
            buys = [m for m in options if m.action == "buy"]
            move = rng.choice(buys if greedy_turns and buys else options)
            state = variant.evolve(state, variant.decide(state, move))
    report = {
        "positions": counts["positions"],
        "games": games,
        "common_moves_compared": counts["common moves compared"],
        "our_moves": counts["our moves"],
        "their_actions": counts["their actions"],
        "positions_with_no_common_move": counts["positions with no common move"],
        "game_ends_compared": counts["ends compared"],
        "mismatches": {
            kind: counts[kind]
            for kind in ("board", "not valid in theirs", "different result", "different end", "common move missed")
        },
        "examples": examples,
        "seconds": time.perf_counter() - began,
    }
    return report


def print_check(report: dict[str, Any]) -> None:
    print(
        f"check: {report['positions']} positions ({report['games']} games),"
        f" {report['common_moves_compared']} common moves played in both engines and compared"
        f" (of {report['our_moves']} moves of ours and {report['their_actions']} actions of theirs);"
        f" {report['positions_with_no_common_move']} positions with no common move;"
        f" {report['game_ends_compared']} moves that end the game"
    )
    mismatches = report["mismatches"]
    print(
        f"mismatches: {sum(mismatches.values())} ("
        + ", ".join(f"{kind} {n}" for kind, n in mismatches.items())
        + f"); {report['seconds']:.0f} s"
    )
    for line in report["examples"]:
        print(f"  {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bot",
        default="mcts",
        help="our bot's spec (mcts, mcts:1s, greedy, ...); SPEC@FILE: searching by the evaluation file FILE",
    )
    parser.add_argument("--sims", type=int, default=100, help="AlphaZero's MCTS simulations per move")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (each loads the network)")
    parser.add_argument("--repo", default=DEFAULT_REPO, help="their repository ($ALPHAZERO_REPO)")
    parser.add_argument("--torch", action="store_true", help="run the network in torch, not through ONNX")
    parser.add_argument("--check", type=int, default=0, metavar="N", help="compare the engines in N positions")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--log", type=Path, help="append each game's result to FILE (JSON Lines); run again to play only the rest"
    )
    parser.add_argument(
        "--trace", type=int, metavar="GAME", help="play game GAME of the match alone, printing every move and position"
    )
    args = parser.parse_args(argv)
    if args.trace is not None:
        result = trace(args)
        print(json.dumps(result, indent=2)) if args.json else print(f"game {args.trace}: {result['points']}")
        return 0
    if args.check:
        report = check(args)
        print(json.dumps(report, indent=2)) if args.json else print_check(report)
        return 1 if sum(report["mismatches"].values()) else 0
    report = match(args)
    print(json.dumps(report, indent=2)) if args.json else print_match(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
