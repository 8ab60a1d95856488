"""The table among friends: `splendor sync` (the one command a player runs to share their turns
and see the others') and `splendor games` (every game here, and where it is my turn).

The bodies are registered with `@command` like the others (registry.py imports this module);
the git work is sharing/gitsync.py's.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from ...errors import SplendorError, UsageError, safe
from .. import output
from ..params import COLOR, GAME, JSON, NOTIFY, Param, command
from ..services import boards, gamefile

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...projection import Game
    from ...sharing.git import Git
    from ...sharing.gitsync import Made, Repo, Upstream
    from ...sharing.sync import Local, SyncResult
    from ...store import Loaded

ME = Param(
    "as_",
    "--as",
    envvar="SPLENDOR_PLAYER",
    help="Who you are ($SPLENDOR_PLAYER; default: the player whose e-mail in the header is your git e-mail).",
)


@command(
    "sync",
    GAME,
    ME,
    Param("offline", "--offline", kind="flag", help="Only commit your new turns, one per commit: no fetch, no push."),
    NOTIFY,
    Param(
        "picture",
        "--picture",
        kind="flag",
        help="Keep a picture of each table beside its game (GAME.svg), committed on its own.",
    ),
    COLOR,
    JSON,
)
def sync(
    *,
    game: str | None = None,
    as_: str | None = None,
    offline: bool = False,
    notify: bool = False,
    picture: bool = False,
    color: str = "auto",
    json: bool = False,
) -> None:
    """Share your turns and get the others': commit, fetch, merge by events, verify, push.

    Your new turns are committed one per commit (the audit of `verify --git` wants that),
    with a standard message. The others' turns are merged by events (never rebased, whatever
    pull.rebase says), the history is verified, and your commits are pushed (again, after a
    new fetch and merge, when someone pushed first).

    Then it prints what happened since your last turn, and the board when it is your turn.
    You are --as NAME, $SPLENDOR_PLAYER, or the player whose e-mail in the header is your git e-mail.

    Two turns played from one position (a fork) stop it: both sides are shown, with the
    `splendor resolve --keep REF` that settles it; then run `splendor sync` again. In a sealed
    game you may leave out only your own events: sync signs your consent into the merge, and
    refuses a merge that leaves out another player's.

    Examples:

    splendor sync

    splendor sync -g games/friday.toml --notify
    """
    from ...sharing.sync import AuditRefused

    output.use_color(color)
    try:
        result = sync_here(game, as_, offline=offline, picture=picture)
    except AuditRefused as exc:
        sys.stderr.write(exc.details + "\n")
        if exc.undone and exc.path:  # back at this clone's own commit: what it holds is what you saw
            gamefile.gate().forget(exc.path)
        raise
    up = result.upstream
    reports = []
    for synced in result.games:
        after = gamefile.seen_now(synced.loaded)
        notified: list[str] = []
        if notify and synced.shared:
            from ..services.notices import notify_after

            notified = notify_after(after)
        reports.append(_GameReport(after, synced.me, synced.seen, notified))
    gave_way(_say)  # what the reads of this sync let give way of what you saw
    if json:
        output.out(
            output.json_text(
                {
                    "committed": [_made(m) for m in result.made],
                    "merged": list(result.merged),
                    "remote": result.remote,
                    "pushed": result.pushed,
                    "pictures": list(result.drawn),
                    "games": [r.json for r in reports],
                }
            )
        )
        return
    lines = [f"committed {m.commit[:8]} {safe(m.subject)}" for m in result.made]
    lines += [f"merged: {line}" for line in result.merged]
    lines += [f"drew {path}" for path in result.drawn]
    if offline:
        said = "offline: committed here only (`splendor sync` shares them)" if result.made else "offline: nothing new"
        lines.append(said)
    elif up is None:
        lines.append("no remote: your turns are committed here only (to share them: git remote add origin URL)")
    elif result.pushed:
        lines.append(f"pushed to {up.remote}/{up.branch}")
    if not reports:
        lines.append("no game here yet: start one with `splendor new --players ann,bob`, then `splendor sync`")
    for report in reports:
        if len(reports) > 1:
            lines += ["", f"== {report.path}"]
        lines += report.text(color)
    output.out("\n".join(lines))


def sync_here(
    game: str | None,
    as_: str | None,
    *,
    offline: bool = False,
    picture: bool = False,
    say: Callable[[str], None] | None = None,
) -> SyncResult:
    """The sync service (sharing/sync.py) as `splendor sync` runs it, for `splendor watch` too: the
    repository of `game` (else of the current folder), its merge driver installed if missing,
    and the games `sync` looks after there, the local player `as_` (else as `_me` finds them).
    A fork that is a race of protocol events (app/services/races.py) is settled, said by `say`
    (default: a line on stderr), and the sync run again.

    Raises what `sharing.sync.sync` raises (UsageError outside a repository)."""
    from ...errors import ForkError
    from ...sharing import gitsync
    from ...sharing.sync import sync as share
    from ..services.races import settle

    repo = gitsync.locate(game) if game else gitsync.locate_folder(".")
    _ensure_driver(repo)

    def run() -> SyncResult:
        return share(
            repo,
            lambda: games_here(game, repo),
            lambda loaded, path: _me(loaded, as_, path),
            local=local(picture),
            offline=offline,
            file=game,
        )

    try:
        return run()
    except ForkError:
        if not settle(repo, as_, say or _say):
            raise
    return run()


def gave_way(say: Callable[[str], None]) -> None:
    """Say, once, what this process let give way of what the user saw (a turn they played for a
    player, replaced by that player's own: `gate.memory.GAVE_WAY`)."""
    from ...gate.memory import GAVE_WAY

    while GAVE_WAY:
        say(GAVE_WAY.pop(0))


def _say(line: str) -> None:
    sys.stderr.write(f"splendor: {safe(line)}\n")


def _made(made: Made) -> dict[str, Any]:
    return {"commit": made.commit, "first": made.first, "last": made.last, "subject": made.subject}


def games_here(game: str | None, repo: Repo) -> list[str]:
    """The game files sync looks after: `-g FILE`; else the one the commands find, or every game
    of the folder where they found several; none in a repository without a game yet. Games both
    in the current folder and in games/ (a stray copy beside the table's games) are refused, as
    every command refuses them: say which with -g."""
    from ..services.locate import SeveralGames, find_game

    if game:
        return [game]
    try:
        return [find_game(None)]
    except SeveralGames as exc:
        if exc.mixed:
            raise
        return exc.found
    except UsageError:
        return []


def _ensure_driver(repo: Repo) -> None:
    """`splendor git install` for this clone alone, when it lacks the merge driver (said on stderr)."""
    from ...sharing import gitmerge
    from .gitsetup import driver_command

    if gitmerge.installed(repo.top):
        return
    command, note = driver_command()
    for line in gitmerge.install(repo.top, command, private=True):
        sys.stderr.write(f"splendor: {line}\n")
    if note:
        sys.stderr.write(f"splendor: {note}\n")


def _me(loaded: Loaded, as_: str | None, path: str) -> str | None:
    from ..services.players import who_am_i

    header = loaded.record.header
    return who_am_i(header.players, header.emails, as_, os.path.dirname(path))


def local(picture: bool = False) -> Local:
    """What sync asks of this machine: the user's cache, key, sealed games' part, and pictures."""
    from ...sealing.command_line import local_key
    from ...sharing.sync import Local
    from ..services.table_part import part

    def draw(loaded: Loaded) -> bytes:
        return boards.picture(loaded, None, None).encode("utf-8")

    return Local(
        gate=gamefile.gate(),
        write_part=lambda loaded, me: part(loaded.game).write_part(loaded, me),
        key=lambda: local_key(required=False),
        marks=_Marks(),
        picture=draw if picture else None,
    )


AUDITED = "audited"
"""The cache's view that holds the mark of a game file's last good audit (`audit.audit`'s `mark`)."""


class _Marks:
    """The marks of the game files' last good audits (`sync.AuditMarks`), in the user's own cache,
    each entry authenticated with their private key: whoever can write the repository cannot write it."""

    def get(self, path: str, up: Upstream) -> str | None:
        from ...sharing.sync import mark_slot
        from ..services import cache

        return cache.get(mark_slot(path, up), AUDITED)

    def put(self, path: str, up: Upstream, mark: str) -> None:
        from ...sharing.sync import mark_slot
        from ..services import cache

        cache.put(mark_slot(path, up), AUDITED, mark)


def forget_audited(path: str, up: Upstream) -> None:
    """Forget the mark of the game file's last good audit: the next sync audits its whole history."""
    _Marks().put(path, up, "")


class _GameReport:
    """What sync says of one game: what happened since my last turn, and the board on my turn."""

    def __init__(self, loaded: Loaded, me: str | None, seen: int, notified: list[str]) -> None:
        from ...events import actor
        from ...projection.log import log_entries

        game = loaded.game
        dealt = bool(game.states)
        self.path, self.loaded, self.me, self.notified = loaded.path, loaded, me, notified
        mine = [e.seq for e in game.events if me and actor(e) == me]
        self.since_mine = bool(mine)
        self.new = [e for e in log_entries(game) if e.seq > (mine[-1] if mine else seen)]
        now = game.table if dealt else None
        self.my_turn = bool(me) and now is not None and not now.finished and now.player.name == me
        self.keys_owed = boards.keys_owed(game)
        """A finished sealed game: the players whose keys the audit still waits for."""
        owes = game.protocol.keys_owed(bool(now is not None and now.finished))  # None: no keys to publish
        self.json = {
            "path": loaded.path,
            "game": loaded.record.header.game,
            "player": me,
            "since": [e.to_json() for e in self.new],
            "seq": game.seq,
            "to_move": None if now is None or now.finished else now.player.name,
            "your_turn": self.my_turn,
            "finished": bool(now is not None and now.finished),
            "winners": list(now.winners()) if now is not None else [],
            "notified": notified,
            **({"keys_owed": list(self.keys_owed)} if owes is not None else {}),
        }

    def text(self, color: str) -> list[str]:
        from ...presentation.log_text import log_text

        game = self.loaded.game
        lines = [f"notified {safe(n)}" for n in self.notified]
        if self.new:
            lines.append("since your last turn:" if self.since_mine else "new here:")
            lines.append(log_text(self.new, color=output.use_color(color)).rstrip("\n"))
        if self.my_turn:
            board = boards.board(boards.seen(game, self.me), color, game.variant).rstrip("\n")
            lines += ["", board, "", f"your turn, {self.me}: `splendor moves` lists them"]
        elif game.states:
            lines.append(game.variant.whose_turn(game.state))
            if self.keys_owed:
                lines.append(safe(boards.keys_owed_line(self.keys_owed)))
        else:
            lines.append(_not_dealt(game))
        return lines


def _not_dealt(game: Game) -> str:
    """Where a game whose cards are not dealt yet stands (a commit-then-reveal or sealed deal)."""
    return game.dealing() or "the cards are not dealt yet"


# -- my games -------------------------------------------------------------------------------------

_SKIP = {".git", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache"}
MAX_GAMES = 1000
"""At most this many game files are listed (a folder of more is not a table)."""


def scan(root: str, depth: int = 4) -> list[str]:
    """The game files under `root` (`.toml` files whose first lines say `format = `), sorted;
    hidden folders and virtual environments are skipped, links are not followed."""
    from ..services.locate import looks_like_game

    found: list[str] = []
    stack = [(root, 0)]
    while stack and len(found) < MAX_GAMES:
        folder, level = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                if level < depth and entry.name not in _SKIP and not entry.name.startswith("."):
                    stack.append((entry.path, level + 1))
            elif (
                entry.name.endswith(".toml")
                and entry.name != "pyproject.toml"
                and entry.is_file(follow_symlinks=False)
                and looks_like_game(entry.path)
            ):
                found.append(os.path.normpath(entry.path))
    return sorted(found)[:MAX_GAMES]


@command(
    "games",
    Param("folder", kind="path", help="Where to look (default: the repository, else the current folder)."),
    ME,
    JSON,
)
def games(*, folder: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """List every game here: variant, players, turn, whose turn, the last move and when; * marks your turn.

    You are --as NAME, $SPLENDOR_PLAYER, or the player whose e-mail in the header is your git e-mail.

    Examples:

    splendor games

    splendor games ~/splendor --json
    """
    root = folder or _repository_top() or "."
    rows = [_row(path, as_) for path in scan(root)]
    if json:
        output.out(output.json_text(rows))
        return
    if not rows:
        output.out(f"no game under {root}: start one with `splendor new --players ann,bob`")
        return
    output.out(_table(rows))


def _repository_top() -> str | None:
    """The top of the repository of the current folder, relative to it; None outside one."""
    from ...sharing import gitsync

    try:
        return os.path.relpath(gitsync.locate_folder(".").top)
    except UsageError:
        return None


def _row(path: str, as_: str | None) -> dict[str, Any]:
    """One game of `games`: what it is and where it stands (an unreadable file says why)."""
    from ... import store
    from ...events import actor
    from ...projection.log import event_notation

    try:
        loaded = store.read(path)
    except SplendorError as exc:
        return {"path": path, "ok": False, "problem": " ".join(str(exc).split())}
    header, game = loaded.record.header, loaded.game
    now = game.table if game.states else None
    try:
        me = _me(loaded, as_ if as_ in header.players else None, path)
    except UsageError:
        me = None
    last = game.events[-1] if game.seq > 1 else None
    to_move = None if now is None or now.finished else now.player.name
    return {
        "path": path,
        "ok": True,
        "game": header.game,
        "variant": header.variant,
        "players": list(header.players),
        "turn": now.turn if now else 0,
        "seq": game.seq,
        "to_move": to_move,
        "finished": bool(now and now.finished),
        "winners": list(now.winners()) if now else [],
        "last_move": {"seq": last.seq, "player": actor(last), "notation": event_notation(game.variant, last)}
        if last
        else None,
        "when": _when(path),
        "player": me,
        "your_turn": bool(me) and to_move == me,
    }


def _when(path: str) -> str:
    """When the file last changed: its last commit's date, else its modification time (UTC)."""
    import datetime

    try:
        done = _git_here(path).run("log", "-1", "--format=%ct", "--", os.path.basename(path))
        stamp = int(done.text) if done.ok and done.text.isdigit() else None
    except UsageError:
        stamp = None
    if stamp is None or _dirty(path):
        stamp = int(os.stat(path).st_mtime)
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).strftime("%Y-%m-%d %H:%M")


def _dirty(path: str) -> bool:
    return _git_here(path).run("diff", "--quiet", "HEAD", "--", os.path.basename(path)).returncode == 1


def _git_here(path: str) -> Git:
    """git in the folder of the file at `path`."""
    from pathlib import Path

    from ...sharing.git import Git

    return Git(cwd=Path(os.path.dirname(path) or "."))


def _turn(row: dict[str, Any]) -> str:
    """The turn as `show` heads the board with it: the turn under way (1 for a new game; `show`
    adds the base game's round), the turns played once the game is over (`game over after 40
    turns`), nothing while the deal is under way (the next column says `dealing`)."""
    played: int = row["turn"]
    if row["finished"]:
        return str(played)
    return "" if row["to_move"] is None else str(played + 1)


def _table(rows: list[dict[str, Any]]) -> str:
    """The games as aligned columns (every string from a file made `safe`)."""
    cells = [["", "game", "variant", "turn", "to move", "last move", "when"]]
    for row in rows:
        if not row["ok"]:
            cells.append(["!", row["path"], "", "", "", row["problem"], ""])
            continue
        last = row["last_move"]
        move = "(new)" if not last else f"#{last['seq']} " + (f"{last['player']}: " if last["player"] else "")
        move += last["notation"] if last else ""
        status = "over: " + ", ".join(row["winners"]) if row["finished"] else (row["to_move"] or "dealing")
        cells.append(
            [
                "*" if row["your_turn"] else "",
                row["path"],
                f"{row['variant']} {len(row['players'])}p",
                _turn(row),
                status,
                move,
                row["when"],
            ]
        )
    cells = [[safe(c) for c in line] for line in cells]
    widths = [max(len(line[i]) for line in cells) for i in range(len(cells[0]))]
    widths[5] = min(widths[5], 48)
    out = []
    for line in cells:
        text = "  ".join((c if len(c) <= w else c[: w - 1] + "…").ljust(w) for c, w in zip(line, widths))
        out.append(text.rstrip())
    return "\n".join(out)
