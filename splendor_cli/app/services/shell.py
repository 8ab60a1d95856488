"""Shell completion: the script `splendor completion SHELL` prints, and the values it offers.

The shell asks `splendor` itself (with `_SPLENDOR_COMPLETE=complete_bash` and the words typed in
the environment, typer's protocol) and cli.py answers from the same declarations as the help:
the commands, their options, and for some values the completers below: game files (`*.toml`
under . and games/), the players of the game, and the next word of a move, from the legal moves
of the game the line names (`-g`, else the one `splendor` would find). Any failure offers
nothing: a completion must never print an error in the middle of a command line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

PROG = "splendor"
COMPLETE_VAR = "_SPLENDOR_COMPLETE"
"""The environment variable the completion scripts set when they ask `splendor` for candidates."""
SHELLS = ("bash", "zsh", "fish", "powershell")
MOVE_COMMANDS = {"play": (), "take": ("take",), "reserve": ("reserve",), "buy": ("buy",)}
"""The commands whose words are a move, and the action word each has already said."""


def script(shell: str) -> str:
    """The completion script of `shell` for the `splendor` command.

    Raises:
        UsageError: a shell this version has no script for.
    """
    from ...errors import UsageError

    if shell not in SHELLS:
        raise UsageError(f"no completion script for {shell!r}: choose {', '.join(SHELLS)}")
    from typer.completion import get_completion_script

    return get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell)


def game_files(incomplete: str) -> list[str]:
    """The game files (`*.toml` holding a `format = ` line) under `.` and `games/`, or under the
    folder `incomplete` names, that start with `incomplete`."""
    from .locate import GAMES_DIR, looks_like_game

    folder = os.path.dirname(incomplete)
    folders = [folder] if folder else [".", GAMES_DIR]
    found = []
    for where in folders:
        try:
            names = sorted(os.listdir(where or "."))
        except OSError:
            continue
        for name in names:
            path = name if where == "." else os.path.join(where, name)
            if path.startswith(incomplete) and name.endswith(".toml") and looks_like_game(path):
                found.append(path)
    return found


def _game(params: dict[str, Any]) -> Any:
    """The game the command line being completed names (its `-g`, else the one found), folded."""
    from ... import store
    from .locate import find_game

    return store.read(find_game(params.get("game"))).game


def players(params: dict[str, Any], incomplete: str) -> list[str]:
    """The players of the game, for `--as`."""
    return [name for name in _quiet(lambda: list(_game(params).players)) if name.startswith(incomplete)]


def move_words(command: str, params: dict[str, Any], typed: Sequence[str], incomplete: str) -> list[str]:
    """The words that may come next in a move of `command` (`play`, `take`, `reserve`, `buy`),
    after the words `typed`: the next word of each legal move (Duel: next step) that begins like
    the line, e.g. the card ids `buy` may take, or the cells of a Duel `take`."""
    said = [*MOVE_COMMANDS.get(command, ()), *(w.lower() for w in typed)]
    if any(";" in word for word in said):
        return []  # a later Duel step depends on the earlier ones: not worked out here

    def notations() -> list[list[str]]:
        game = _game(params)
        variant = game.variant
        if game.table.finished:
            return []
        legal = [variant.format_move(move).lower().split() for move in variant.legal_moves(game.state)]
        if len(said) == 1 and said[0] in ("buy", "reserve") and not any(w[0] == said[0] for w in legal):
            # nothing to buy now: still offer the cards in sight, and let the rules say why not
            shown = variant.state_json(game.seq, game.state)
            legal += [[said[0], card.lower()] for card in _cards(shown)]
        return legal

    seen: dict[str, None] = {}
    for words in _quiet(notations):
        if len(words) > len(said) and words[: len(said)] == said and words[len(said)].startswith(incomplete.lower()):
            seen[words[len(said)]] = None
    return list(seen)


def _cards(shown: dict[str, Any]) -> list[str]:
    """The card ids in sight in a state's JSON: face up (`board` rows, a Duel's `pyramid`) and
    reserved by the player to move."""
    rows = [shown.get("pyramid"), shown.get("board")]
    cards = [c for row in rows if isinstance(row, dict) for cs in row.values() if isinstance(cs, list) for c in cs]
    movers = [p for p in shown.get("players", ()) if p.get("name") == shown.get("to_move")]
    reserved = movers[0].get("reserved", []) if movers else []
    return [c for c in (*cards, *reserved) if isinstance(c, str)]


def _quiet(work: Callable[[], list[Any]]) -> list[Any]:
    """What `work` finds, or nothing when it fails (no game here, a bad file, a game not dealt)."""
    try:
        return work()
    except Exception:
        return []
