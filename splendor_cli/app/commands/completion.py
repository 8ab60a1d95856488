"""`splendor completion`: the shell's completion script (the completions themselves: shell.py)."""

from __future__ import annotations

from ..output import out
from ..params import Param, command


@command("completion", Param("shell", metavar="SHELL", help="bash, zsh, fish or powershell."))
def completion(*, shell: str) -> None:
    """Print the shell completion script: commands, options, game files, players, and the next word of a move.

    A move completes from the game's legal moves: the card ids `buy` may take, a Duel's cells.

    Examples:

    eval "$(splendor completion bash)"   (in ~/.bashrc; zsh: in ~/.zshrc, after compinit)

    splendor completion fish > ~/.config/fish/completions/splendor.fish
    """
    from ..services.shell import script

    out(script(shell))
