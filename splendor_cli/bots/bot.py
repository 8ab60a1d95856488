"""What a bot is, as every kind of bot (simple, greedy, mcts) and the package that makes them
name it: a module of its own, so that the kinds need not import the package that imports them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Bot = Callable[[Any, random.Random], Any]
"""A bot: (the game's state, a random source) -> the game's move."""

__all__ = ["Bot"]
