"""Reading the player list of `splendor new` (names, optional e-mails) and checking it; who is
at the keyboard of a game (`at_keyboard`: --as, $SPLENDOR_PLAYER, the local key or git e-mail)."""

from __future__ import annotations

from ...errors import UsageError
from ...projection.variant import AnyVariant, check_players, name_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...store import Loaded


def parse_players(text: str, variant: AnyVariant) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`alice=alice@example.org,bob`: the names, and the e-mails (empty when none is given).

    Raises:
        UsageError: a bad address, a name that breaks the rule of player names (`NAME_RULE` in
            projection/variant.py: 1 to 32 ASCII letters, digits and `_ . @ : # + -`, a letter
            or digit first, no `..`), or a number of players the game cannot have.
    """
    names, emails = [], []
    for item in text.split(","):
        name, _, email = item.partition("=")
        email = email.strip()
        if email and ("@" not in email or any(c.isspace() or not c.isprintable() or c in ",;\"'<>" for c in email)):
            raise UsageError(f"bad e-mail address {email!r} for {name.strip()!r}")
        names.append(name.strip())
        emails.append(email)
    for name in names:
        problem = name_problem(name)  # the rule every read checks too (NAME_RULE), quoted as it is
        if problem:
            raise UsageError(problem)
    problem = check_players(variant, names)
    if problem:
        if len(set(names)) != len(names) and any(":" in n for n in names):
            problem += " (tell two alike bots apart with #: bot:greedy#1,bot:greedy#2)"
        raise UsageError(problem)
    return tuple(names), tuple(emails) if any(emails) else ()


def git_email(folder: str) -> str:
    """The user's e-mail as git in `folder` knows it ("" when git, a repository or the key is missing)."""
    from pathlib import Path

    from ...sharing.git import Git

    try:
        done = Git(cwd=Path(folder or ".")).run("config", "user.email")
    except UsageError:
        return ""
    return done.text if done.ok else ""


def who_am_i(players: tuple[str, ...], emails: tuple[str, ...], as_: str | None, folder: str) -> str | None:
    """The seat of the person at the keyboard: `as_` (from --as or $SPLENDOR_PLAYER), else the
    player whose address in the header is the user's git e-mail; None when nothing says.

    Raises:
        UsageError: `as_` names nobody who plays.
    """
    if as_:
        if as_ not in players:
            raise UsageError(f"{as_!r} does not play in this game (players: {', '.join(players)})")
        return as_
    if not any(emails):
        return None
    mine = git_email(folder).casefold()
    return next((p for p, e in zip(players, emails) if mine and e.casefold() == mine), None)


def at_keyboard(loaded: Loaded, as_: str | None) -> tuple[str | None, str]:
    """Who is at the keyboard of a game, and what says so: `as_` (--as, $SPLENDOR_PLAYER), else
    in a sealed game the seat the local key joined, else the player whose e-mail in the header is
    the user's git e-mail; (None, "") when nothing says (a hot-seat game made without e-mails).

    Raises:
        UsageError: `as_` names nobody who plays.
    """
    import os

    game, header = loaded.game, loaded.record.header
    if as_:
        return who_am_i(header.players, header.emails, as_, ""), "--as or $SPLENDOR_PLAYER"
    from .table_part import part

    said = part(game).me(game)  # a sealed game: your key's seat
    if said is not None:
        return said
    me = who_am_i(header.players, header.emails, None, os.path.dirname(os.path.abspath(loaded.path)))
    return me, "your git e-mail" if me else ""


def known_player(loaded: Loaded) -> tuple[str | None, str]:
    """Who is at the keyboard by what is not typed on the command line, and what says so: in a
    sealed or signed game the seat the local key joined, else the player whose e-mail in the
    header is the user's git e-mail, else the player $SPLENDOR_PLAYER names; (None, "") when
    nothing says (a game without e-mails, nothing set). Against it, `--as` naming someone else is
    a false claim, which `play` refuses (`--for` plays for another on purpose)."""
    import os

    me, how = at_keyboard(loaded, None)
    if me is not None:
        return me, how
    env = os.environ.get("SPLENDOR_PLAYER") or ""
    if env in loaded.record.header.players:
        return env, "$SPLENDOR_PLAYER"
    return None, ""


def check_my_turn(loaded: Loaded, as_: str | None, what: str) -> None:
    """Before `moves` or `hint`: refuse when the person at the keyboard is known (`at_keyboard`)
    and another player is to move, saying whose turn it is (the moves listed would be theirs,
    and playing them would fail). Nothing is refused when nobody is known (hot-seat), nor once
    the game is over.

    Raises:
        IllegalMoveError: rule `turn`.
    """
    from ...errors import IllegalMoveError

    game = loaded.game
    if not game.states or game.table.finished:
        return
    me, how = at_keyboard(loaded, as_)
    mover = game.table.player.name
    if me is not None and me != mover:
        raise IllegalMoveError(
            f"it is {mover}'s turn, not {me}'s (you, says {how}): no {what} for you now", rule="turn"
        )
