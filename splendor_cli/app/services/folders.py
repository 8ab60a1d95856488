"""The user's own folders: the JSON cache, the write locks, the commit-then-reveal secrets.

Standard library only (the fast path reads the cache). Each is private to the user: the
environment says where (XDG base directories), never a shared folder such as /tmp.
"""

from __future__ import annotations

import os


def _home(variable: str, *default: str) -> str:
    return os.environ.get(variable) or os.path.join(os.path.expanduser("~"), *default)


def cache_folder() -> str | None:
    """Where `state --json` and `moves --json` answers are kept: $SPLENDOR_CACHE, else
    $XDG_CACHE_HOME/splendor-cli (default ~/.cache/splendor-cli); None when $SPLENDOR_NO_CACHE is set."""
    if os.environ.get("SPLENDOR_NO_CACHE"):
        return None
    return os.environ.get("SPLENDOR_CACHE") or os.path.join(_home("XDG_CACHE_HOME", ".cache"), "splendor-cli")


def lock_folder() -> str:
    """Where the write locks of game files are: $XDG_RUNTIME_DIR/splendor-cli (a folder of the
    user's session), else $XDG_CACHE_HOME/splendor-cli-locks (default ~/.cache/...), a sibling of
    the cache folder, never inside it (the cache folder must stay private whatever made it)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        return os.path.join(runtime, "splendor-cli")
    return os.path.join(_home("XDG_CACHE_HOME", ".cache"), "splendor-cli-locks")


def secrets_folder() -> str:
    """Where a player's commit-then-reveal secrets are kept: $SPLENDOR_SECRETS, else
    $XDG_DATA_HOME/splendor-cli/secrets (default ~/.local/share/splendor-cli/secrets)."""
    return os.environ.get("SPLENDOR_SECRETS") or os.path.join(
        _home("XDG_DATA_HOME", ".local", "share"), "splendor-cli", "secrets"
    )


def memory_folder() -> str | None:
    """Where the memory of seen games is kept (gate/memory.py): $XDG_DATA_HOME/splendor-cli/known
    (default ~/.local/share/splendor-cli/known); None when $SPLENDOR_NO_MEMORY is set."""
    if os.environ.get("SPLENDOR_NO_MEMORY"):
        return None
    return os.path.join(_home("XDG_DATA_HOME", ".local", "share"), "splendor-cli", "known")


def remotes_folder() -> str | None:
    """Where the commit `sync` audited last on each remote of each game is kept (gate/remotes.py),
    beside the memory of seen games: $XDG_DATA_HOME/splendor-cli/remotes; None when
    $SPLENDOR_NO_MEMORY is set."""
    known = memory_folder()
    return None if known is None else os.path.join(os.path.dirname(known), "remotes")
