"""The signed table protocol: every card open, as in an open game, and every event signed by its
author, as in a sealed game (`splendor new --signed`). Who moved is proven, not claimed.

Its events (`events.py`), its state in the fold and its handlers (`protocol.py`: `SignedTable`),
and its part of the command line (`command_line.py`, on floor 4 as a game's boards are
presentation: reached by name only when a signed game is met). The cryptography is the sealed
protocol's and crypto/'s, reused through their public functions. See docs/signed-protocol.md.
"""
