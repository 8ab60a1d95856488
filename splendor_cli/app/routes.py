"""Which module holds each command's body, by the command's name on the command line: a static map,
so that the fast path (entry.py) imports the one module a command needs and nothing else.

The map is written by hand, in the order `splendor --help` lists the commands (registry.py
orders them by it); a test checks that each module registers exactly the commands named here.
"""

from __future__ import annotations

ROUTES = {
    "new": "start",
    "seed": "start",
    "show": "look",
    "state": "look",
    "moves": "look",
    "log": "look",
    "play": "play",
    "take": "play",
    "reserve": "play",
    "buy": "play",
    "replenish": "play",
    "bot": "play",
    "hint": "play",
    "undo": "undo",
    "demo": "start",
    "simulate": "simulate",
    "verify": "verifying",
    "git install": "gitsetup",
    "merge-driver": "gitsetup",
    "resolve": "undo",
    "forget": "undo",
    "completion": "completion",
    "key new": "keys",
    "key show": "keys",
    "key export": "keys",
    "notify": "mailing",
    "export": "mailing",
    "apply": "mailing",
    "replay": "pictures",
    "seal": "seal",
    "sync": "table",
    "games": "table",
    "watch": "watch",
}
"""Every command (`git install` is two words) → the module of splendor_cli.app that registers it."""
