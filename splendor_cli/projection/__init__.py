"""Pure reducers that rebuild a game from its events, and the rules that judge each turn."""

from .game import Game, replay
from .rules import decide, default_payment, evolve, legal_moves
from .state import GameState, PlayerState

__all__ = ["Game", "GameState", "PlayerState", "decide", "default_payment", "evolve", "legal_moves", "replay"]
