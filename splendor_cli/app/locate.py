"""Which game file a command means, when `-g` is not given. Standard library only (fast path):
the files are peeked at through the store, which imports no more until a game is read."""

from __future__ import annotations

import os

from ..errors import UsageError

GAMES_DIR = "games"


def looks_like_game(path: str) -> bool:
    """Whether the file's first lines say `format = ...` (a FIFO or a device is no game)."""
    from .. import store
    from ..errors import GameFileError

    try:
        head = store.read_bytes(path, 4096, head=True)
    except (OSError, GameFileError):
        return False
    return b"\nformat = " in b"\n" + head


def find_game(game: str | None) -> str:
    """`game`, else $SPLENDOR_GAME, else the only game file in the current folder or in games/.

    Raises:
        UsageError: none was given and none, or several, were found.
    """
    if game:
        return game
    env = os.environ.get("SPLENDOR_GAME")
    if env:
        return env
    for folder in (".", GAMES_DIR):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        found = [
            os.path.normpath(os.path.join(folder, n))
            for n in names
            if n.endswith(".toml") and n != "pyproject.toml" and looks_like_game(os.path.join(folder, n))
        ]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            listed = ", ".join(found[:12]) + (f" and {len(found) - 12} more" if len(found) > 12 else "")
            raise UsageError(
                f"several games in {folder}/: {listed}: choose one with -g FILE or $SPLENDOR_GAME"
                " (`splendor games` lists them with whose turn it is)"
            )
    raise UsageError("no game file here or in games/: give one with -g FILE, or start one with 'splendor new'")
