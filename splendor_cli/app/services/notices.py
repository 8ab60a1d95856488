"""Turn notifications from the command line: the settings as the user set them up, and
`notify_after`, what `play`, `sync` and `apply` do with `--notify` (sharing/notify.py sends).
Imports no command module, so that any of them may call it."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from ...sharing.notify import Settings
    from ...store import Loaded


def settings_for(path: str | None) -> Settings:
    """The notification settings, git config read in the folder of the game file `path` (else here)."""
    from ...sharing import notify

    folder = os.path.dirname(os.path.abspath(path)) if path else None
    return notify.load_settings(cwd=folder if folder and os.path.isdir(folder) else None)


def notify_after(loaded: Loaded) -> list[str]:
    """Tell the players where the game of `loaded` stands now (mail and webhooks, as set up);
    a line for each notification sent and each player left out, for the caller to print.

    Raises:
        UsageError: nothing is set up to notify with, or a server failed (what was written stays written).
    """
    from ...sharing import notify

    return [sent.line for sent in notify.notify_game(loaded, settings_for(loaded.path))]
