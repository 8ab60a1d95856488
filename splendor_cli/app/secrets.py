"""Where a player's commit-then-reveal secrets are kept on this machine."""

from __future__ import annotations

import os
from pathlib import Path


def secret_path(game_id: str, player: str) -> Path:
    """The file of `player`'s secret for game `game_id`: under $SPLENDOR_SECRETS, else
    $XDG_DATA_HOME/splendor-cli/secrets (default ~/.local/share/splendor-cli/secrets)."""
    base = os.environ.get("SPLENDOR_SECRETS") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share"),
        "splendor-cli",
        "secrets",
    )
    return Path(base) / f"{game_id}.{player}.secret"
