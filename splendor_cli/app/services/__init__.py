"""What the commands share: the game file a command means and its gate (gamefile.py), locating it
(locate.py), the answers cache (cache.py), the user's folders (folders.py), boards and pictures
(boards.py), who the players are (players.py), notices after a move (notices.py), the key file
(keyfile.py), the open table protocol's part of the command line (table_part.py; a sealed
game's is sealing/command_line.py), and shell completion (shell.py).

Importing this package loads nothing.
"""
