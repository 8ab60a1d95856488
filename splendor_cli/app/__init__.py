"""The command line, the only code that reads argv or the environment, prints or exits; laid out
by family, so that the folder shows the frame, the commands and the services apart.

The frame: the entry point (entry.py, the fast path, which imports the one module routes.py names
for a command), the typer app (cli.py), every command registered (registry.py), the parameters
declared once (params.py), what is printed and where (output.py), a body run to its exit code
(exits.py).
The commands (commands/), one module a family: start.py, look.py, play.py, undo.py, simulate.py,
verifying.py, gitsetup.py, completion.py, key.py, seal.py, mailing.py, pictures.py, syncing.py,
watch.py.
The services the commands share (services/): the game file found, read through the user's gate,
written and its JSON views cached (gamefile.py), what a board shows (boards.py), finding the game
file (locate.py), the JSON cache (cache.py), the user's folders (folders.py), the players of
`new` (players.py), notices after a move (notices.py), the key file (keyfile.py), each table
protocol's part (table_part.py; a sealed game's: sealing/command_line.py), shell completion (shell.py).
"""
