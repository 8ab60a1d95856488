"""git's side of the sharing: `splendor git install` (the attributes line and the merge driver of
a clone) and `splendor merge-driver` (what git runs to merge two versions of a game file)."""

from __future__ import annotations

import os
import sys

from ...errors import UsageError
from ..output import out
from ..params import Param, command
from ..services.gamefile import gate


@command(
    "git install",
    Param("pattern", "--pattern", help="Which files are games (a .gitattributes pattern)."),
)
def git_install(*, pattern: str = "games/**/*.toml") -> None:
    """Set up this repository: a .gitattributes line, committed, and the `splendor` merge driver in .git/config.

    Every player runs it once in their clone (the driver lives in .git/config). It commits
    .gitattributes alone (whatever else you staged stays staged); if you changed or staged
    .gitattributes yourself, or a merge is under way, it says so and leaves the commit to you.
    The driver runs `splendor` as found on PATH (else this installation, by its path: it says so).

    Example:

    splendor git install
    """
    from ...sharing.gitmerge import install

    command, note = driver_command()
    for line in install(os.getcwd(), command, pattern=pattern):
        out(line)
    if note:
        out(note)


def driver_command() -> tuple[str, str | None]:
    """The shell text git runs for the merge driver: `splendor`, found on PATH (it keeps working
    when a virtual environment moves or is made again); else this installation by its path, and
    a line that says so."""
    import shlex
    import shutil

    if shutil.which("splendor"):
        return "splendor", None
    here = shlex.join([sys.executable, "-m", "splendor_cli"])
    return here, (
        f"`splendor` is not on PATH: git runs the merge driver as `{here}` (this installation);"
        " once `splendor` is on PATH, run `splendor git install` again"
    )


@command(
    "merge-driver",
    Param("base", kind="path", help="git's %O: the common ancestor."),
    Param("ours", kind="path", help="git's %A: our version, where the result goes."),
    Param("theirs", kind="path", help="git's %B: their version."),
)
def merge_driver(*, base: str, ours: str, theirs: str) -> None:
    """Merge two versions of a game file (git calls it; see `splendor git install`).

    Identical appends and fast-forwards merge cleanly; a side that breaks the rules is dropped.

    Two legal turns from one parent leave a forked file and exit 5 (see `splendor resolve`).

    A side with an event that every reader refuses (a bot seat's move that is not its bot's) stops
    the merge with exit 4, ours left as it is.

    Example:

    splendor merge-driver base.toml ours.toml theirs.toml
    """
    from ...errors import ConflictError
    from ...sharing.gitmerge import run_driver

    try:
        result = run_driver(base, ours, theirs, gate())
    except FileNotFoundError as exc:
        raise UsageError(f"{exc.filename}: no such file (git gives the merge driver three files)") from None
    if result.refused:
        from ...errors import GameFileError

        raise GameFileError(result.message)
    if result.conflict:
        raise ConflictError(result.message)
    if result.message:
        sys.stderr.write(f"splendor: {result.message}\n")
