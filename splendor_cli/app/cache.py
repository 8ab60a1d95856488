"""A content-addressed cache of what the read-only JSON commands print. Standard library only.

Bots call `state --json` and `moves --json` after every turn; loading a game means importing
typer, attrs, cattrs and replaying every event through the rules. The output depends only on
the exact bytes of the game file (and this program's version), so it is cached under the
SHA-256 of both: a changed file is a new key, never a stale answer. Entries are written only
after the file was read and fully re-validated. $SPLENDOR_NO_CACHE=1 turns it off;
$SPLENDOR_CACHE moves it (default: $XDG_CACHE_HOME/splendor-cli or ~/.cache/splendor-cli).
"""

from __future__ import annotations

import hashlib
import os

from .. import __version__

MAX_ENTRIES = 4000


def _folder() -> str | None:
    from .folders import cache_folder

    return cache_folder()


def view_name(command: str, at: int | None = None) -> str:
    """The cache key of a read-only view: `state`, `state@12` or `moves`."""
    return command if at is None else f"{command}@{at}"


def _key(data: bytes, view: str) -> str:
    return hashlib.sha256(f"{__version__}\0{view}\0".encode() + data).hexdigest()


def get(data: bytes, view: str) -> str | None:
    """The cached output of `view` for a game file whose bytes are `data`, if any."""
    folder = _folder()
    if folder is None:
        return None
    try:
        with open(os.path.join(folder, _key(data, view)), encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return None


def put(data: bytes, view: str, text: str) -> None:
    """Remember the output of `view` for `data`. Never fails: a cache is only a shortcut."""
    folder = _folder()
    if folder is None:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, _key(data, view))
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
        _prune(folder)
    except OSError:
        pass


def _prune(folder: str) -> None:
    names = os.listdir(folder)
    if len(names) <= MAX_ENTRIES:
        return
    paths = sorted((os.path.join(folder, n) for n in names), key=lambda p: os.stat(p).st_mtime)
    for path in paths[: len(paths) // 2]:
        os.unlink(path)
