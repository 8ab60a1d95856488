"""The weights both games' heuristics share (see each game's `heuristics.py`), in points."""

BONUS = 0.8
"""Each bonus: a permanent discount, and progress toward nobles or a colour victory."""
GEM = 0.12
GOLD = 0.3
REACH = 0.75
"""A card within reach is worth its value times REACH for every token still missing."""
TARGETS = (0.6, 0.25, 0.1)
"""The weights of the three cards nearest to affordable."""
WIN = 1000.0
"""What a won game adds to `greedy`'s score: more than any position is worth."""
