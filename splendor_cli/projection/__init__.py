"""The fold, whatever the game: `Game` (undo and its policy), the variant protocol, forks,
commit-then-reveal chance, and the log's read model. Pure: no I/O."""

from .game import Game, replay

__all__ = ["Game", "replay"]
