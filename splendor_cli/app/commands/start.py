"""Starting a game: `new` (a game file, dealt or waiting for its players' deal), `seed` (a
player's step of a commit-then-reveal deal) and `demo` (a game played at random, to try things on).
"""

from __future__ import annotations

import os
import sys

from ...errors import IllegalMoveError, UsageError
from ..output import json_text, out, use_color
from ..params import AS, COLOR, GAME, JSON, SEED, Param, command, variant_name
from ..services.gamefile import append, gate, now, writing

_VARIANT = Param("variant", "--variant", help="base (Splendor, 2-4 players) or duel (Splendor Duel, 2 players).")


@command(
    "new",
    Param(
        "players",
        "--players",
        "-p",
        metavar="NAMES",
        help="Comma-separated names in turn order (ann,bob,cy); name=e-mail ties a player to a git author.",
    ),
    GAME,
    SEED,
    _VARIANT,
    Param(
        "commit_seed",
        "--commit-seed",
        kind="flag",
        help="Deal by commit-then-reveal of every player's secret (see `splendor seed`).",
    ),
    Param(
        "sealed",
        "--sealed",
        kind="flag",
        help="Signed moves, sealed decks: nobody knows a deck's order or another's blind reserve (`splendor seal`).",
    ),
    Param(
        "signed",
        "--signed",
        kind="flag",
        help="Every move signed by its player's key, the cards open: who moved is proven (`splendor seal`).",
    ),
    JSON,
)
def new(
    *,
    players: str,
    game: str | None = None,
    seed: int | None = None,
    variant: str = "base",
    commit_seed: bool = False,
    sealed: bool = False,
    signed: bool = False,
    json: bool = False,
) -> None:
    """Start a new game: shuffle, deal, and write the game file (never over an existing one).

    Example:

    splendor new -g games/friday.toml --players alice,bob,carol

    splendor new -g games/duel.toml --players ann,bob --variant duel

    splendor new -g games/secret.toml --players ann,bob --sealed   (then each runs `splendor seal`)

    splendor new -g games/signed.toml --players ann,bob --signed   (then each joins: `splendor seal --as NAME`)
    """
    import random

    from ...bots import parse_spec, seat_spec
    from ...events import SeedsAsked
    from ...events.codec import Header, game_id_problem
    from ...projection.seeding import RandomChance
    from ...variants import find_variant
    from ..services.locate import GAMES_DIR
    from ..services.players import parse_players

    variant = variant_name(variant)
    game_of = find_variant(variant)
    names, emails = parse_players(players, game_of)
    for name in names:
        if (spec := seat_spec(name)) is not None:
            parse_spec(spec)  # a bot seat names a bot this version has
    if commit_seed and seed is not None:
        raise UsageError("--seed and --commit-seed exclude each other: the players' secrets make the shuffle")
    if sealed and (seed is not None or commit_seed):
        raise UsageError("--sealed deals by the players' own shuffles: it excludes --seed and --commit-seed")
    if sealed and any(seat_spec(name) is not None for name in names):
        raise UsageError("a sealed game has no bot seat: every player signs with a key of their own")
    if signed and (sealed or seed is not None or commit_seed):
        raise UsageError("--signed deals from the players' shares: it excludes --sealed, --seed and --commit-seed")
    if signed and any(seat_spec(name) is not None for name in names):
        raise UsageError("a signed game has no bot seat: every player signs with a key of their own")
    created = now()
    # The id names a game among all the games a player keeps (secrets and the memory of seen
    # games go by it): random even with --seed, which only fixes the shuffle.
    suffix = os.urandom(4).hex()
    # A file name anywhere (no colon or hash), and an id that GAME_ID_RULE accepts on every read.
    plain = ("".join(c if c.isascii() and (c.isalnum() or c in "_.@-") else "-" for c in name) for name in names)
    game_id = f"{created[:10]}-{'-'.join(plain)[:80]}-{suffix}"
    if game_id_problem(game_id):  # pragma: no cover - the names keep the rule of names
        game_id = f"{created[:10]}-game-{suffix}"
    path = game if game is not None else os.path.join(GAMES_DIR, f"{game_id}.toml")
    door = gate()
    table = "sealed" if sealed else "signed" if signed else "open"  # the table protocol, declared once: in the header
    header = Header(game=game_id, variant=variant, players=names, created=created, emails=emails, table=table)
    if sealed:
        from ...sealing.capability import ask

        door.create(path, header, ask(game_of, names))  # UsageError: a game that cannot be sealed
        after = (
            f"each player now runs `splendor seal -g {path} --as NAME` (with a key from `splendor key new`)"
            " and sends the file on, until the cards are dealt"
        )
    elif signed:
        from ...signed.events import SignedAsked

        door.create(path, header, SignedAsked(seq=1, variant=variant, players=names))
        after = (
            f"each player now runs `splendor seal -g {path} --as NAME` (with a key from `splendor key new`)"
            " and sends the file on, until the cards are dealt"
        )
    elif commit_seed:
        door.create(path, header, SeedsAsked(seq=1, variant=variant, players=names))
        after = f"each player now runs `splendor seed -g {path} --as NAME` twice: to commit, then to reveal"
    else:
        door.create(path, header, game_of.deal(names, RandomChance(random.Random(seed))))
        after = f"{names[0]} to move"
    if json:
        out(json_text({"game": game_id, "path": str(path), "players": list(names)}))
    else:
        out(f"new game {game_id} in {path}: {', '.join(names)}; {after}")


@command(
    "seed",
    GAME,
    AS,
    Param(
        "restart",
        "--restart",
        kind="flag",
        help="Start the deal over when every player committed but some never reveal (asked by one who revealed).",
    ),
)
def seed(*, game: str | None = None, as_: str | None = None, restart: bool = False) -> None:
    """Take your next step of a commit-then-reveal deal (`new --commit-seed`): commit, then reveal.

    The first call commits to a fresh secret (kept on this machine); the second, once all have committed, reveals it.

    The last reveal deals the cards: nobody alone chooses the shuffle.

    When every player committed but some never reveal, one who revealed may --restart the deal:
    every player then commits a new secret, and the log names who did not reveal.

    Example:

    splendor seed -g games/friday.toml --as alice
    """
    import secrets

    from ...events import SeedCommitted, SeedRevealed, SeedsRestarted
    from ...projection.seeding import commitment
    from ..services.folders import secrets_folder

    if not as_:
        raise UsageError("say who you are: --as NAME (or $SPLENDOR_PLAYER)")
    with writing(game) as loaded:
        seeding = loaded.game.seeding
        if seeding is None or loaded.game.states:
            raise IllegalMoveError("the cards of this game are dealt already", rule="seed")
        if as_ not in seeding.players:
            raise IllegalMoveError(f"{as_!r} does not play in this game", rule="seed")
        if restart:
            late = seeding.stuck()
            if not late:
                raise UsageError(
                    "--restart is for a deal stuck on a player who does not reveal"
                    f" (every player committed, some revealed): {seeding.waiting()}"
                )
            asked = SeedsRestarted(by=as_, without=late)
            seeding.restart(asked)  # IllegalMoveError when as_ may not ask for it
            loaded = append(loaded, asked)
            out(f"#{loaded.game.seq} {as_} restarted the deal without {', '.join(late)}: all commit new seeds")
            return
        # A file per round: a restart needs a fresh secret. Round 1 also reads the name of earlier releases.
        folder, base = secrets_folder(), f"{loaded.record.header.game}.{as_}"
        keep = os.path.join(folder, f"{base}.{seeding.round}.secret")
        legacy = os.path.join(folder, f"{base}.secret") if seeding.round == 1 else ""
        step = seeding.next_step(as_)
        if step == "commit":
            secret = secrets.token_hex(32)
            os.makedirs(folder, exist_ok=True)
            # Kept before the commitment is written: a commitment without its secret could never be revealed.
            # Never over another copy's secret: that copy's commitment could then never be revealed.
            try:
                if legacy and os.path.lexists(legacy):
                    raise FileExistsError
                fd = os.open(keep, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            except FileExistsError:
                there = legacy if legacy and os.path.lexists(legacy) else keep
                raise IllegalMoveError(
                    f"a secret for this game and {as_} exists already ({there}): another copy of the game committed;"
                    " use that copy, or remove the file knowingly",
                    rule="seed",
                ) from None
            with os.fdopen(fd, "w") as handle:
                handle.write(secret + "\n")
            loaded = append(loaded, SeedCommitted(player=as_, commitment=commitment(as_, secret)))
            done = f"{as_} committed to a secret seed (kept in {keep})"
        elif step == "reveal":
            if legacy and not os.path.lexists(keep) and os.path.lexists(legacy):
                keep = legacy  # committed by an earlier release
            try:
                with open(keep, encoding="utf-8") as handle:
                    secret = handle.read().strip()
            except OSError:
                raise UsageError(f"{as_}'s secret is not on this machine ({keep}): it cannot be revealed") from None
            loaded = append(loaded, SeedRevealed(player=as_, secret=secret))
            done = f"{as_} revealed their seed"
            finished = loaded.game.seeding
            if finished is not None and finished.complete:
                loaded = append(loaded, loaded.game.deal())
                done += f"; the cards are dealt: {loaded.game.table.player.name} to move"
        else:
            raise IllegalMoveError(f"{as_} has nothing to do now: {seeding.waiting()}", rule="seed")
    after = loaded.game.seeding
    out(f"#{loaded.game.seq} {done}" + ("" if loaded.game.states or after is None else f"; {after.waiting()}"))


@command(
    "demo",
    GAME,
    Param("turns", "--turns", kind="int", low=0, help="How many random turns to play."),
    SEED,
    Param("variant", "--variant", help="base (ann, bob and cy) or duel (ann and bob)."),
    COLOR,
)
def demo(
    *, game: str | None = None, turns: int = 12, seed: int | None = None, variant: str = "base", color: str = "auto"
) -> None:
    """Start a demo game for ann, bob and cy, play some random turns, and show the board.

    The game is written like any other, by default to splendor-demo.toml in the current folder
    (splendor-demo-2.toml, -3, ... when that one exists): try every command on it.

    Examples:

    splendor demo --turns 20 --seed 7

    splendor demo --variant duel -g duel-demo.toml
    """
    import random
    import shlex

    from ...events.codec import Header
    from ...projection.seeding import RandomChance
    from ...variants import find_variant

    use_color(color)
    variant = variant_name(variant)
    game_of = find_variant(variant)
    rng = random.Random(seed)
    names = game_of.demo_players
    header = Header(game=f"demo-{os.urandom(4).hex()}", variant=variant, players=names, created=now())
    setup = game_of.deal(names, RandomChance(rng))
    door = gate()
    if game is not None:
        loaded = door.create(game, header, setup)
    else:  # the first free name: never over an earlier demo (a game someone may be playing)
        for number in range(1, 1000):
            try:
                loaded = door.create(f"splendor-demo{f'-{number}' if number > 1 else ''}.toml", header, setup)
                break
            except UsageError:
                if number == 999:
                    raise
    while loaded.game.table.turn < turns and not loaded.game.table.finished:
        moves = game_of.legal_moves(loaded.game.state)  # a random outcome is drawn by the log (Game.decide)
        loaded = append(loaded, loaded.game.decide(moves[rng.randrange(len(moves))]))
    from ..services.boards import board

    out(board(loaded.game, color))
    path, program = shlex.quote(str(loaded.path)), _program()
    out(f"\nThe demo game is {path}: try `{program} log -g {path}` or `{program} moves -g {path}`.")


def _program() -> str:
    """How to run this program again from the current folder, for advice: `splendor` when that name
    on PATH is this program; else the path it was started by (`.venv/bin/splendor`); else
    `python -m splendor_cli` with this Python."""
    import shlex
    import shutil

    started = sys.argv[0] if sys.argv else ""
    name = os.path.basename(started)
    if name and not name.endswith(".py"):  # the console script, not `python -m`
        on_path = shutil.which(name)
        if on_path and os.path.realpath(on_path) == os.path.realpath(shutil.which(started) or started):
            return name
        if os.sep in started and os.path.isfile(started):
            return shlex.quote(started)
    for python in ("python3", "python"):
        found = shutil.which(python)
        if found and os.path.abspath(found) == os.path.abspath(sys.executable):
            return f"{python} -m splendor_cli"
    return f"{shlex.quote(sys.executable)} -m splendor_cli"
