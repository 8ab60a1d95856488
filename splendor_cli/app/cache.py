"""A content-addressed cache of what the read-only JSON commands print. Standard library only.

Bots call `state --json` and `moves --json` after every turn; loading a game means importing
attrs and the game's rules and replaying every event. The output depends only on the exact
bytes of the game file and on the program, so it is cached under the SHA-256 of both (the
program as a fingerprint of its installed files: their names, sizes and times): a changed
file, or a changed program, is a new key, never a stale answer. Entries are written only
after the file was read and fully re-validated. $SPLENDOR_NO_CACHE=1 turns it off;
$SPLENDOR_CACHE moves it (default: $XDG_CACHE_HOME/splendor-cli or ~/.cache/splendor-cli).
"""

from __future__ import annotations

import hashlib
import os

from .. import __version__

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_fingerprint: str | None = None


def fingerprint() -> str:
    """A digest of the installed program: the version, and each file's path, size and time."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256(__version__.encode())
        for folder, dirs, files in sorted(os.walk(_PACKAGE)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".csv")):
                    info = os.stat(os.path.join(folder, name))
                    digest.update(
                        f"{os.path.relpath(folder, _PACKAGE)}/{name}:{info.st_size}:{info.st_mtime_ns}\0".encode()
                    )
        _fingerprint = digest.hexdigest()
    return _fingerprint


MAX_ENTRIES = 4000


def _folder() -> str | None:
    from .folders import cache_folder

    return cache_folder()


def view_name(command: str, at: int | None = None) -> str:
    """The cache key of a read-only view: `state`, `state@12` or `moves`."""
    return command if at is None else f"{command}@{at}"


def _key(data: bytes, view: str) -> str:
    return hashlib.sha256(f"{fingerprint()}\0{view}\0".encode() + data).hexdigest()


def enabled() -> bool:
    """Whether there is a cache to read and write ($SPLENDOR_NO_CACHE turns it off)."""
    return _folder() is not None


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
