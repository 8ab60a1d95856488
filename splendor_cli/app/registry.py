"""Every command, registered, in the order of routes.py (the order of `splendor --help`).

Each family of commands registers its bodies in a module of its own under commands/: start.py
(new, seed, demo), look.py (show, state, moves, log), play.py (play and its shortcuts, bot, hint),
undo.py (undo, resolve, forget), simulate.py, verifying.py (verify), gitsetup.py (git install,
merge-driver), completion.py, key.py (key new, show, export), mailing.py (notify, export, apply),
pictures.py (replay), seal.py (seal), syncing.py (sync, games) and watch.py. Whatever reads every
command (cli.py, the tests) imports them from here; the fast path (entry.py) imports only the
module routes.py names for its command.
"""

from __future__ import annotations

# each module registers its bodies as it is imported
from .commands import (  # noqa: F401
    completion,
    gitsetup,
    key,
    look,
    mailing,
    pictures,
    play,
    seal,
    simulate,
    start,
    syncing,
    undo,
    verifying,
    watch,
)
from .exits import run
from .params import COMMANDS
from .routes import ROUTES

_registered = dict(COMMANDS)
COMMANDS.clear()
COMMANDS.update({name: _registered[name] for name in ROUTES if name in _registered})
COMMANDS.update(_registered)  # one that routes.py does not name (a test says so) comes last

__all__ = ["COMMANDS", "run"]
