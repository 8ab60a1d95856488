"""The command line, the only code that reads argv or the environment, prints or exits.

The doors: the entry point (entry.py, the fast path, which imports the one module routes.py names
for a command), the typer app (cli.py), every command registered (registry.py), the parameters
declared once (params.py), a body run to its exit code (exits.py).
The small public layer the commands are written on: the game file found, read, written and its
JSON views cached (gamefile.py), what is printed and where (output.py), what a board shows
(boards.py); finding the game file (locate.py), the JSON cache (cache.py), the memory of games
seen (memory.py), the players of `new` (players.py), a sealed game's key and part (keyring.py,
sealed.py).
The commands, one module a family: start.py, look.py, play.py, undo.py, tools.py, keys.py,
seal.py, mailing.py, pictures.py, table.py.
"""
