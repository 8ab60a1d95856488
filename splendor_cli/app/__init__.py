"""The command line, the only code that reads argv or the environment, prints or exits: the entry
point (entry.py, the fast path), the typer app (cli.py), the parameters of every command, declared
once (params.py), the command bodies (commands.py), finding the game file (locate.py), the JSON
cache (cache.py), the players of `new` (players.py) and where secrets are kept (secrets.py)."""
