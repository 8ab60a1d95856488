"""Which game file a command means, when `-g` is not given. Standard library only (fast path):
the files are peeked at through the store, which imports no more until a game is read."""

from __future__ import annotations

import os

from ...errors import UsageError

GAMES_DIR = "games"


def looks_like_game(path: str) -> bool:
    """Whether the file's first lines say `format = ...` (a FIFO or a device is no game)."""
    from ... import store
    from ...errors import GameFileError

    try:
        head = store.read_bytes(path, 4096, head=True)
    except (OSError, GameFileError):
        return False
    return b"\nformat = " in b"\n" + head


class SeveralGames(UsageError):
    """More than one game file where `find_game` looks: `found` lists them all; `mixed`: some are
    in the current folder and some in games/."""

    def __init__(self, message: str, *, found: list[str], mixed: bool) -> None:
        super().__init__(message)
        self.found = found
        self.mixed = mixed


def candidates(folder: str) -> list[str]:
    """The game files of `folder` (not below it), sorted."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [
        os.path.normpath(os.path.join(folder, n))
        for n in names
        if n.endswith(".toml") and n != "pyproject.toml" and looks_like_game(os.path.join(folder, n))
    ]


def find_game(game: str | None) -> str:
    """`game`, else $SPLENDOR_GAME, else the only game file of the current folder and games/ together.

    A stray copy in the current folder (a backup) never silently becomes "the game" ahead of
    games/: when both folders hold game files, they are all listed and none is chosen.

    Raises:
        UsageError: none was given and none was found; SeveralGames: several were found.
    """
    if game:
        return game
    env = os.environ.get("SPLENDOR_GAME")
    if env:
        return env
    here = candidates(".")
    below = candidates(GAMES_DIR) if os.path.normpath(GAMES_DIR) != "." else []
    found = here + [path for path in below if path not in here]
    if len(found) == 1:
        return found[0]
    if found:
        listed = ", ".join(found[:12]) + (f" and {len(found) - 12} more" if len(found) > 12 else "")
        mixed = bool(here) and bool(below)
        where = "here" if mixed else f"in {'.' if here else GAMES_DIR}/"
        raise SeveralGames(
            f"several games {where}: {listed}: say which with -g FILE (or $SPLENDOR_GAME)"
            " (`splendor games` lists them with whose turn it is)",
            found=found,
            mixed=mixed,
        )
    raise UsageError("no game file here or in games/: give one with -g FILE, or start one with 'splendor new'")
