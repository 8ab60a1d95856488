"""Every command, registered: commands.py holds most bodies; mailing.py (notify, export, apply),
pictures.py (replay), table.py (sync, games), keys.py (key new, show, export) and seal.py
(seal) build on it.
Whatever reads the commands imports them from here, so that no module of bodies has to import
another to register it (no import circle). The fast path (entry.py) loads only commands.py for
the commands it holds, and this module for the rest."""

from __future__ import annotations

from . import commands, keys, mailing, pictures, seal, table  # noqa: F401  - each registers its bodies
from .commands import run
from .params import COMMANDS

__all__ = ["COMMANDS", "run"]
