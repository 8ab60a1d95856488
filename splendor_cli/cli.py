"""The `splendor` command line: typer declarations of the commands, their options and help.

The bodies live in commands.py (typer-free, so that entry.py can call the scripting commands
without building this app); heavy modules are imported there, inside the bodies.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

app = typer.Typer(
    name="splendor",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

GameOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--game",
        "-g",
        help="The game file. Default: $SPLENDOR_GAME, else the only game file in . or games/.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (the shapes of CONTRACT.md).")]
AsOpt = Annotated[
    Optional[str],
    typer.Option(
        "--as", envvar="SPLENDOR_PLAYER", help="Act as this player ($SPLENDOR_PLAYER); refused if not to move."
    ),
]
AtOpt = Annotated[Optional[int], typer.Option("--at", help="As it was just after event SEQ.", min=1)]
ColorOpt = Annotated[str, typer.Option("--color", help="auto (a terminal and NO_COLOR unset), always or never.")]
SeedOpt = Annotated[Optional[int], typer.Option(help="Seed of the shuffle (default: random).")]
MoveArg = Annotated[list[str], typer.Argument(help="The move, e.g. take white blue green (quotes optional).")]


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"splendor-cli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Play Splendor asynchronously: one game is one TOML event log, shared over git or e-mail.

    Start: splendor new --players ann,bob

    Look: splendor show

    Play: splendor take white blue green (every legal turn: splendor moves)

    Exit codes: 0 done, 2 usage, 3 illegal move, 4 bad game file, 5 conflict.
    """


def _run(name: str, **kwargs: Any) -> None:
    from . import commands

    code = commands.run(getattr(commands, name), kwargs)
    if code:
        raise typer.Exit(code)


@app.command()
def new(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="Comma-separated names in turn order (ann,bob,cy); name=e-mail ties a player to a git author.",
        ),
    ],
    game: GameOpt = None,
    seed: SeedOpt = None,
    variant: Annotated[
        str, typer.Option(help="base (Splendor, 2-4 players) or duel (Splendor Duel, 2 players).")
    ] = "base",
    commit_seed: Annotated[
        bool,
        typer.Option(
            "--commit-seed", help="Deal by commit-then-reveal of every player's secret (see `splendor seed`)."
        ),
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Start a new game: shuffle, deal, and write the game file (never over an existing one).

    Example:

    splendor new -g games/friday.toml --players alice,bob,carol

    splendor new -g games/duel.toml --players ann,bob --variant duel
    """
    _run("new", players=players, game=game, seed=seed, variant=variant, commit_seed=commit_seed, json=json)


@app.command()
def seed(game: GameOpt = None, as_: AsOpt = None) -> None:
    """Take your next step of a commit-then-reveal deal (`new --commit-seed`): commit, then reveal.

    The first call commits to a fresh secret (kept on this machine); the second, once all have committed, reveals it.

    The last reveal deals the cards: nobody alone chooses the shuffle.

    Example:

    splendor seed -g games/friday.toml --as alice
    """
    _run("seed", game=game, as_=as_)


@app.command()
def show(game: GameOpt = None, json: JsonOpt = False, at: AtOpt = None, color: ColorOpt = "auto") -> None:
    """Show the board: bank, cards, nobles, each player's holdings, whose turn or the result.

    A Duel shows its token board with coordinates, the pyramid, privileges and royal cards.

    It says too how far each player is from each victory.

    Example:

    splendor show -g games/friday.toml --at 12
    """
    _run("show", game=game, json=json, at=at, color=color)


@app.command()
def state(game: GameOpt = None, json: JsonOpt = False, at: AtOpt = None, color: ColorOpt = "auto") -> None:
    """Print the state after the last event (or after event SEQ with --at): JSON, or the board.

    Example:

    splendor state -g games/friday.toml --json --at 12
    """
    _run("state", game=game, json=json, at=at, color=color)


@app.command()
def moves(game: GameOpt = None, json: JsonOpt = False) -> None:
    """List every legal turn of the player to move (in a Duel: every legal next step), one notation a line.

    Each line is what `play` accepts.

    Example:

    splendor moves -g games/friday.toml --json
    """
    _run("moves", game=game, json=json)


@app.command()
def play(
    move: MoveArg,
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
    bots: Annotated[bool, typer.Option("--bots", help="Then let the bot seats play, up to the next person.")] = False,
) -> None:
    """Play a turn written in the move notation (see `splendor moves`) and append it to the file.

    In a Duel, play one step or several separated by ';': each is judged after the ones before it.

    If one is refused, none is written.

    Examples:

    splendor play take white blue green

    splendor play "buy 1-30 pay red gold"

    splendor play reserve deck 3 return black

    splendor play buy 2-14 noble N04

    splendor play "privilege c3; take b2 c2 d2"   (Duel)

    splendor play "buy 1-07 as red; royal R2"   (Duel)

    splendor play --bots take red green blue   (then the bots answer)
    """
    _run("play", move=move, game=game, as_=as_, json=json, bots=bots)


@app.command()
def bot(game: GameOpt = None, json: JsonOpt = False) -> None:
    """Let the bot seats play: every turn (Duel: step) of a seat named bot:SPEC, up to the next person.

    Seat bots with `splendor new --players alice,bot:mcts,bot:greedy`.

    Bots: random, greedy, mcts (300 playouts a move), mcts:N (N playouts), mcts:Ns (N seconds a move).

    Each bot draws from a source seeded by the game and the move number: the same file always gets the same moves.

    Example:

    splendor bot -g games/friday.toml
    """
    _run("bot", game=game, json=json)


@app.command()
def hint(
    game: GameOpt = None,
    bot: Annotated[str, typer.Option("--bot", help="The bot asked: random, greedy, mcts, mcts:N, mcts:Ns.")] = "mcts",
    json: JsonOpt = False,
) -> None:
    """Suggest a move to the player to move (what a bot would play), without playing it.

    Example:

    splendor hint -g games/friday.toml --bot greedy
    """
    _run("hint", game=game, bot=bot, json=json)


@app.command()
def take(
    colours: Annotated[
        list[str], typer.Argument(help="The colours, e.g. white blue green, or red red; in a Duel, cells: b2 c3 d4.")
    ],
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Take 3 gems of different colours, or 2 of one colour (add 'return ...' past 10 tokens).

    In a Duel: take 1 to 3 tokens in a line of the board, named by their cells.

    Examples:

    splendor take white blue green

    splendor take b2 c3 d4   (Duel)
    """
    _run("play", move=["take", *colours], game=game, as_=as_, json=json)


@app.command()
def reserve(
    card: Annotated[
        list[str],
        typer.Argument(
            help="A face-up card id (2-14), or 'deck N' for a blind reserve; in a Duel, then the gold's cell."
        ),
    ],
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Reserve a face-up card or the top card of a deck, and take a gold if there is one.

    In a Duel, the gold is taken from the board: name its cell (unless only one gold is there).

    Examples:

    splendor reserve 2-14

    splendor reserve deck 3 return white

    splendor reserve 2-05 a1   (Duel)
    """
    _run("play", move=["reserve", *card], game=game, as_=as_, json=json)


@app.command()
def buy(
    card: Annotated[
        list[str], typer.Argument(help="A card id, face up or reserved; optionally 'pay ...'; in a Duel, 'as COLOUR'.")
    ],
    game: GameOpt = None,
    as_: AsOpt = None,
    json: JsonOpt = False,
) -> None:
    """Buy a face-up or reserved card (default payment: coloured tokens before gold).

    In a Duel, a card with a wild bonus says the colour it joins.

    Examples:

    splendor buy 2-14

    splendor buy 1-30 pay red gold

    splendor buy 1-27 as red   (Duel)
    """
    _run("play", move=["buy", *card], game=game, as_=as_, json=json)


@app.command()
def replenish(game: GameOpt = None, as_: AsOpt = None, json: JsonOpt = False) -> None:
    """Duel: replenish the board from the bag (your opponent takes a privilege).

    Example:

    splendor replenish -g games/duel.toml
    """
    _run("play", move=["replenish"], game=game, as_=as_, json=json)


@app.command()
def undo(
    game: GameOpt = None,
    to: Annotated[Optional[int], typer.Option("--to", help="Go back to just after event SEQ.", min=1)] = None,
    turn: Annotated[
        bool,
        typer.Option(
            "--turn", help="Duel: take back the whole turn (the steps of the turn under way, or the last turn)."
        ),
    ] = False,
    as_: AsOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="An agreed rewind over other players' turns (recorded in the event).")
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Take back the last turn (in a Duel, the last step) or every turn after event SEQ, by appending an undo event.

    With --as (or $SPLENDOR_PLAYER) a player may take back only their own turns, while nobody has moved since.

    Taking back other players' turns needs --force: an agreed rewind, recorded in the event.

    Examples:

    splendor undo

    splendor undo --to 12

    splendor undo --turn
    """
    _run("undo", game=game, to=to, turn=turn, as_=as_, force=force, json=json)


@app.command()
def log(game: GameOpt = None, json: JsonOpt = False, color: ColorOpt = "auto") -> None:
    """List the events, one a line: turns in move notation, undone ones marked.

    Example:

    splendor log -g games/friday.toml
    """
    _run("log", game=game, json=json, color=color)


@app.command()
def demo(
    game: GameOpt = None,
    turns: Annotated[int, typer.Option(help="How many random turns to play.", min=0)] = 12,
    seed: SeedOpt = None,
    variant: Annotated[str, typer.Option(help="base (ann, bob and cy) or duel (ann and bob).")] = "base",
    color: ColorOpt = "auto",
) -> None:
    """Start a demo game for ann, bob and cy, play some random turns, and show the board.

    The game is written like any other (default: in a new temporary folder): try every command on it.

    Examples:

    splendor demo --turns 20 --seed 7

    splendor demo --variant duel
    """
    _run("demo", game=game, turns=turns, seed=seed, variant=variant, color=color)


@app.command()
def simulate(
    players: Annotated[int, typer.Option(help="Players per game.", min=2, max=4)] = 2,
    games: Annotated[int, typer.Option(help="How many games.", min=1)] = 10,
    seed: Annotated[Optional[int], typer.Option(help="Seed of the tournament (default: random, reported).")] = None,
    variant: Annotated[str, typer.Option(help="base, or duel (2 players).")] = "base",
    bots: Annotated[
        Optional[str],
        typer.Option(help="Bots, one per seat or one for all: random, greedy, mcts[:PLAYOUTS|:SECONDSs]."),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes to play in; 0: one per core.")] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress report on stderr.")] = False,
    json: JsonOpt = False,
) -> None:
    """Play a tournament of bots in memory and report each bot's wins, win rate and points.

    The bots rotate through the seats from one game to the next; without --bots every seat (p1, p2, ...) plays random.

    Bots: random (uniform among the legal moves), greedy (the best move one turn ahead), mcts (tree search).

    mcts takes an optional think budget: mcts:400 (playouts a move; default 300) or mcts:0.5s (seconds a move).

    Each game is reproducible from the seed and its number alone: --jobs changes the time taken, never the results.

    The win rate comes with its 95% confidence interval (Wilson); a shared victory is a win for each sharer.

    Progress goes to stderr (--quiet: none).

    Examples:

    splendor simulate --players 2 --games 200 --bots mcts,greedy --seed 1 --jobs 0

    splendor simulate --players 3 --games 100 --seed 1 --json

    splendor simulate --variant duel --games 100
    """
    _run(
        "simulate",
        players=players,
        games=games,
        seed=seed,
        variant=variant,
        bots=bots,
        jobs=jobs,
        quiet=quiet,
        json=json,
    )


@app.command()
def export(
    game: GameOpt = None,
    last: Annotated[int, typer.Option("--last", help="How many of the last events to put in the block.", min=1)] = 1,
) -> None:
    """Print the last move(s) as a plain-text block to paste into a mail (see `splendor apply`).

    The block survives quoting (> ), line-end changes and re-wrapping of blank lines; a damaged one is refused.

    Example:

    splendor export -g games/friday.toml --last 2
    """
    _run("export", game=game, last=last)


@app.command()
def apply(
    mail: Annotated[
        Optional[str], typer.Argument(help="A mail (text or a whole .eml file) holding move blocks; - or none: stdin.")
    ] = None,
    game: GameOpt = None,
) -> None:
    """Append the moves of `splendor export` blocks found in a mail, after checking game, chain and rules.

    A block already applied is a no-op; a block for another game is refused (exit 2).

    A stale block, after a turn this file lacks, is a conflict (exit 5) naming the missing turns.

    Example:

    splendor apply -g games/friday.toml ~/mail/bob-move.eml
    """
    _run("apply", mail=mail, game=game)


@app.command()
def verify(
    rev_range: Annotated[
        Optional[str], typer.Argument(help="With --git: the commits to check (main..feature, HEAD~5..HEAD).")
    ] = None,
    game: GameOpt = None,
    git: Annotated[bool, typer.Option("--git", help="Check the git history of the file instead.")] = False,
    staged: Annotated[
        bool, typer.Option("--staged", help="With --git: check the staged change (a pre-commit hook).")
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Replay and check everything, and print a short report; exit 0, or 4 when something is wrong.

    With --git: every commit that touched the file only appended events, at most one turn each.

    When the header maps players to e-mails, each turn's player must also be its commit's author.

    Examples:

    splendor verify -g games/friday.toml

    splendor verify --git -g games/friday.toml '@{upstream}..HEAD'
    """
    _run("verify", game=game, git=git, rev_range=rev_range, staged=staged, json=json)


git_app = typer.Typer(help="Git integration: a merge driver that understands game files.", no_args_is_help=True)
app.add_typer(git_app, name="git")


@git_app.command("install")
def git_install(
    pattern: Annotated[str, typer.Option(help="Which files are games (a .gitattributes pattern).")] = "games/**/*.toml",
) -> None:
    """Set up this repository: a .gitattributes line and the `splendor` merge driver in .git/config.

    Every player runs it once in their clone (the driver lives in .git/config); commit .gitattributes.

    Example:

    splendor git install
    """
    _run("git_install", pattern=pattern)


@app.command("merge-driver")
def merge_driver(
    base: Annotated[Path, typer.Argument(help="git's %O: the common ancestor.")],
    ours: Annotated[Path, typer.Argument(help="git's %A: our version, where the result goes.")],
    theirs: Annotated[Path, typer.Argument(help="git's %B: their version.")],
) -> None:
    """Merge two versions of a game file (git calls it; see `splendor git install`).

    Identical appends and fast-forwards merge cleanly; a side that breaks the rules is dropped.

    Two legal turns from one parent leave a forked file and exit 5 (see `splendor resolve`).

    Example:

    splendor merge-driver base.toml ours.toml theirs.toml
    """
    _run("merge_driver", base=base, ours=ours, theirs=theirs)


@app.command()
def resolve(
    keep: Annotated[str, typer.Option("--keep", help="ours or theirs: which of the two forked turns stays.")],
    game: GameOpt = None,
) -> None:
    """Settle a forked game (two turns after one event, left by a merge): keep one side.

    Example:

    splendor resolve -g games/friday.toml --keep theirs
    """
    _run("resolve", keep=keep, game=game)


def main() -> None:
    """The full command line (entry.py calls it for everything its shortcuts do not take).

    Usage errors (an unknown option, a missing argument) are reported like every other error:
    one line on stderr, exit 2; `splendor` alone prints the help.
    """
    try:
        code = app(standalone_mode=False)
    except (KeyboardInterrupt, typer.Abort):
        sys.stderr.write("splendor: interrupted\n")
        sys.exit(130)
    except Exception as exc:
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):  # not click's usage error
            raise
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.stdout.write(exc.format_message() + "\n")
            sys.exit(0)
        hint = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
        sys.stderr.write(f"splendor: {' '.join(exc.format_message().split())}{hint}\n")
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)
