"""The tools around the games: `simulate` (a bots' tournament in memory), `verify` (a game file,
or its git history, checked), `git install` and `merge-driver` (git's side of the sharing), and
`completion` (the shell's).
"""

from __future__ import annotations

import os
import sys

from ..errors import UsageError
from .boards import keys_owed_line
from .gamefile import game_path, gate
from .output import json_text, out
from .params import GAME, JSON, Param, command, variant_name


@command(
    "simulate",
    Param("players", "--players", kind="int", low=2, high=4, help="Players per game."),
    Param("games", "--games", kind="int", low=1, help="How many games."),
    Param("seed", "--seed", kind="int", help="Seed of the tournament (default: random, reported)."),
    Param("variant", "--variant", help="base, or duel (2 players)."),
    Param(
        "bots",
        "--bots",
        help="Bots, one per seat or one for all: random, greedy, mcts[:PLAYOUTS|:SECONDSs], expert[:N|:SECONDSs].",
    ),
    Param("jobs", "--jobs", "-j", kind="int", help="Processes to play in; 0: one per core."),
    Param("quiet", "--quiet", "-q", kind="flag", help="No progress report on stderr."),
    JSON,
)
def simulate(
    *,
    players: int = 2,
    games: int = 10,
    seed: int | None = None,
    variant: str = "base",
    bots: str | None = None,
    jobs: int = 1,
    quiet: bool = False,
    json: bool = False,
) -> None:
    """Play a tournament of bots in memory and report each bot's wins, win rate and points.

    The bots rotate through the seats from one game to the next; without --bots every seat (p1, p2, ...) plays random.

    Bots: random (uniform among the legal moves), greedy (the best move one turn ahead), mcts (tree search),
    expert (the strongest: a tree search steered by each seat's chance of winning).

    mcts takes an optional think budget: mcts:400 (playouts a move; default 300) or mcts:0.5s (seconds a move);
    expert too: expert:800 (iterations a move; default 400) or expert:1s.

    Each game is reproducible from the seed and its number alone: --jobs changes the time taken, never the results.

    The win rate comes with its 95% confidence interval (Wilson); a shared victory is a win for each sharer.

    Progress goes to stderr (--quiet: none).

    Examples:

    splendor simulate --players 2 --games 200 --bots mcts,greedy --seed 1 --jobs 0

    splendor simulate --players 3 --games 100 --seed 1 --json

    splendor simulate --variant duel --games 100
    """
    from ..bots.tournament import Progress, run, table

    names = [b.strip() for b in bots.split(",")] if bots else None
    progress = None if quiet else Progress(games, sys.stderr)
    try:
        variant = variant_name(variant)
        report = run(players=players, games=games, seed=seed, bots=names, variant=variant, jobs=jobs, progress=progress)
    finally:
        if progress:
            progress.close()
    out(json_text(report) if json else table(report))


@command(
    "verify",
    Param("rev_range", help="With --git: the commits to check (main..feature, HEAD~5..HEAD)."),
    GAME,
    Param("git", "--git", kind="flag", help="Check the git history of the file instead."),
    Param("staged", "--staged", kind="flag", help="With --git: check the staged change (a pre-commit hook)."),
    JSON,
)
def verify(
    *,
    rev_range: str | None = None,
    game: str | None = None,
    git: bool = False,
    staged: bool = False,
    json: bool = False,
) -> None:
    """Replay and check everything, and print a short report; exit 0, or 4 when something is wrong.

    A sealed game that is over but whose keys are not all published is exit 6, naming who owes
    them (they run `splendor seal`): until then its cards cannot be audited.

    With --git: every commit that touched the file (side branches and merges included, across
    renames) only appended events, one person's turn or undo at most (with the bots' answers);
    a merge never drops another player's events.

    When the header maps players to e-mails, each turn's player must also be its commit's author.

    Examples:

    splendor verify -g games/friday.toml

    splendor verify --git -g games/friday.toml '@{upstream}..HEAD'
    """
    from ..errors import GameFileError

    if (rev_range or staged) and not git:
        raise UsageError("a revision range and --staged go with --git")
    if git:
        from ..sharing import audit

        path = game_path(game)
        report = audit.staged_report(path) if staged else audit.git_report(path, rev_range)
        text = audit.git_report_text(report)
    else:
        from ..sharing import verify as checks

        loaded = gate().read(game_path(game), verify_all=True)  # every signature and proof checked again
        report = checks.file_report(loaded)
        text = checks.report_text(report)
    out(json_text(report) if json else text)
    if not report["ok"]:
        raise GameFileError(f"verify found a problem: {report['bad']['reason'] if report.get('bad') else 'see above'}")
    if report.get("keys_owed"):
        from ..errors import KeysOwedError

        owed = tuple(report["keys_owed"])
        raise KeysOwedError(keys_owed_line(owed), players=owed)


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
    from ..sharing.gitmerge import install

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
    from ..errors import ConflictError
    from ..sharing.gitmerge import run_driver

    try:
        result = run_driver(base, ours, theirs, gate())
    except FileNotFoundError as exc:
        raise UsageError(f"{exc.filename}: no such file (git gives the merge driver three files)") from None
    if result.refused:
        from ..errors import GameFileError

        raise GameFileError(result.message)
    if result.conflict:
        raise ConflictError(result.message)
    if result.message:
        sys.stderr.write(f"splendor: {result.message}\n")


@command("completion", Param("shell", metavar="SHELL", help="bash, zsh, fish or powershell."))
def completion(*, shell: str) -> None:
    """Print the shell completion script: commands, options, game files, players, and the next word of a move.

    A move completes from the game's legal moves: the card ids `buy` may take, a Duel's cells.

    Examples:

    eval "$(splendor completion bash)"   (in ~/.bashrc; zsh: in ~/.zshrc, after compinit)

    splendor completion fish > ~/.config/fish/completions/splendor.fish
    """
    from .shell import script

    out(script(shell))
