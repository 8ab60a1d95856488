"""Which module holds each command's body, by the command's name on the command line: a static map,
so that the fast path (entry.py) imports the one module a command needs and nothing else.

The map is written by hand, in the order `splendor --help` lists the commands (registry.py
orders them by it); a test checks that each module registers exactly the commands named here.
"""

from __future__ import annotations

ROUTES = {
    "new": "commands.start",
    "seed": "commands.start",
    "show": "commands.look",
    "state": "commands.look",
    "moves": "commands.look",
    "log": "commands.look",
    "play": "commands.play",
    "take": "commands.play",
    "reserve": "commands.play",
    "buy": "commands.play",
    "replenish": "commands.play",
    "bot": "commands.play",
    "hint": "commands.play",
    "undo": "commands.undo",
    "demo": "commands.start",
    "simulate": "commands.simulate",
    "verify": "commands.verifying",
    "git install": "commands.gitsetup",
    "merge-driver": "commands.gitsetup",
    "resolve": "commands.undo",
    "forget": "commands.undo",
    "completion": "commands.completion",
    "key new": "commands.key",
    "key show": "commands.key",
    "key export": "commands.key",
    "notify": "commands.mailing",
    "export": "commands.mailing",
    "apply": "commands.mailing",
    "replay": "commands.pictures",
    "seal": "commands.seal",
    "sync": "commands.syncing",
    "games": "commands.syncing",
    "watch": "commands.watch",
}
"""Every command (`git install` is two words) → the module of splendor_cli.app that registers it."""
