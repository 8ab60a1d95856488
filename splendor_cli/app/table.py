"""The table among friends: `splendor sync` (the one command a player runs to share their turns
and see the others') and `splendor games` (every game here, and where it is my turn).

The bodies are registered with `@command` like the others (registry.py imports this module);
the git work is sharing/gitsync.py's.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from ..errors import ConflictError, GameFileError, SplendorError, UsageError, safe
from .boards import board as _board
from .boards import keys_owed as _keys_owed
from .boards import keys_owed_line as _keys_owed_line
from .boards import picture as _picture
from .boards import seen as _seen
from .gamefile import locks as _locks
from .gamefile import seen_now as _seen_now
from .output import json_text as _json_text
from .output import out as _out
from .output import use_color as _use_color
from .params import COLOR, GAME, JSON, NOTIFY, Param, command

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..crypto.keys import SecretKey
    from ..events.codec import Record
    from ..projection import Game
    from ..sharing.gitsync import Made, Merged, Repo, Upstream
    from ..sharing.verify import Withdrawal
    from ..store import Loaded

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
    from .. import store
    from ..sharing import gitsync

    _use_color(color)
    repo = gitsync.locate(game) if game else gitsync.locate_folder(".")
    _ensure_driver(repo)
    state = gitsync.under_way(repo)
    if state == "merge":
        _settle_merge(repo, _games(game, repo))
    elif state is not None:
        raise ConflictError(
            f"a {state} is under way in {repo.top} (not sync's: sync never rebases): finish it"
            f" (`git {state} --continue`, after `splendor resolve` for a forked game) or abort it"
            f" (`git {state} --abort`), then `splendor sync`"
        )
    made: list[Made] = []
    shared: set[str] = set()  # the games whose turns this sync commits: their next player is notified
    seen: dict[str, int] = {}
    me: dict[str, str | None] = {}
    read = _Reads()
    if game:
        read.repos[game] = repo
    for path in _games(game, repo):
        with store.locked(path, _locks()):
            before = read(path)  # a clone behind is no news: what you saw is checked later
            me[before.record.header.game] = _me(before, as_, path)
            done = gitsync.commit_turns(read.repo(path), before)
        made += done
        if done:
            shared.add(before.record.header.game)
        seen[before.record.header.game] = before.game.seq - sum(m.last - m.first + 1 for m in done)
    up = None if offline else gitsync.upstream(repo)
    merged: list[Merged] = []
    drawn: list[str] = []

    def who(loaded: Loaded, path: str) -> str | None:  # games new here too (fetched, or made meanwhile)
        gid = loaded.record.header.game
        if gid not in me:
            me[gid] = _me(loaded, as_, path)
        return me[gid]

    if up is not None:
        pushed = _exchange(repo, up, merged, game, read, drawn if picture else None, who)
    else:
        pushed = False
        _commit_sealed_parts(_games(game, repo), who, read)  # offline: a sealed game's part, committed here
        if picture:
            drawn += _draw(repo, _games(game, repo))
    reports = []
    for path in _games(game, repo):
        after = read.seen(path)
        header = after.record.header
        notified: list[str] = []
        if notify and header.game in shared:
            from .notices import notify_after

            notified = notify_after(after)
        reports.append(_GameReport(after, who(after, path), seen.get(header.game, 1), notified))
    said = [safe(line) for m in merged for line in m.said]
    if json:
        _out(
            _json_text(
                {
                    "committed": [_made(m) for m in made],
                    "merged": said,
                    "remote": f"{up.remote}/{up.branch}" if up else None,
                    "pushed": pushed,
                    "pictures": drawn,
                    "games": [r.json for r in reports],
                }
            )
        )
        return
    lines = [f"committed {m.commit[:8]} {safe(m.subject)}" for m in made]
    lines += [f"merged: {line}" for line in said]
    lines += [f"drew {path}" for path in drawn]
    if offline:
        lines.append("offline: committed here only (`splendor sync` shares them)" if made else "offline: nothing new")
    elif up is None:
        lines.append("no remote: your turns are committed here only (to share them: git remote add origin URL)")
    elif pushed:
        lines.append(f"pushed to {up.remote}/{up.branch}")
    if not reports:
        lines.append("no game here yet: start one with `splendor new --players ann,bob`, then `splendor sync`")
    for report in reports:
        if len(reports) > 1:
            lines += ["", f"== {report.path}"]
        lines += report.text(color)
    _out("\n".join(lines))


def _made(made: Made) -> dict[str, Any]:
    return {"commit": made.commit, "first": made.first, "last": made.last, "subject": made.subject}


def _games(game: str | None, repo: Repo) -> list[str]:
    """The game files sync looks after: `-g FILE`; else the one the commands find, or every game
    of the folder where they found several; none in a repository without a game yet."""
    from .locate import GAMES_DIR, find_game

    if game:
        return [game]
    try:
        return [find_game(None)]
    except UsageError as exc:
        if "several games" not in str(exc):
            return []
    folder = "." if any(scan(".", depth=0)) else GAMES_DIR
    return scan(folder, depth=0)


def _ensure_driver(repo: Repo) -> None:
    """`splendor git install` for this clone alone, when it lacks the merge driver (said on stderr)."""
    import shlex

    from ..sharing import gitmerge

    if gitmerge.installed(repo.top):
        return
    for line in gitmerge.install(repo.top, shlex.join([sys.executable, "-m", "splendor_cli"]), private=True):
        sys.stderr.write(f"splendor: {line}\n")


def _settle_merge(repo: Repo, paths: list[str]) -> None:
    """A merge sync (or git pull) left: finish it when the game files are settled; else say how.

    A sealed game's fork settled by leaving a branch out (`splendor resolve`) is concluded only
    when the branch is the local player's own (their key's seat made every event of it): the
    merge's message then holds their signed consent (`verify --git`). Leaving out another
    player's events is refused before anything is committed, saying which side to keep."""
    from .. import store
    from ..errors import ForkError
    from ..sharing import gitsync
    from .cache import verified_prefix

    consents: list[str] = []
    for path in paths:
        try:
            merged = store.read(path, verified_prefix)
        except ForkError as exc:
            raise ForkError(f"{exc}; then `splendor sync` again", seq=exc.seq) from None
        consents += _withdrawn(repo, merged)
    gitsync.conclude_merge(repo, [gitsync.locate(path).rel for path in paths], consents)


def _withdrawn(repo: Repo, merged: Loaded) -> list[str]:
    """The lines of the merge's message that consent, signed by the local key, to what the merge
    leaves out of the sealed game `merged` (the merge's file, just read: none for an open game, or
    when it leaves out nothing). The parents' files are replayed trusting what this user verified
    before and what the read of `merged` verified.

    Raises:
        GameFileError: the merge leaves out events that are not all the local player's: nothing
            is committed, and the message says which side to keep.
    """
    from ..events import actor
    from ..events.codec import event_digest
    from ..sharing import gitsync
    from ..sharing import verify as checks
    from .sealed import local_key

    path = merged.path
    rel = gitsync.locate(path).rel
    parents = [data for rev in ("HEAD", "MERGE_HEAD") if (data := gitsync.committed(repo, rev, rel=rel)) is not None]
    found = checks.withdrawals(parents, merged.data, _trusting([merged]))
    if not found:
        return []
    secret = local_key(required=False)
    lines = []
    for left in found:
        seat = None if secret is None else _seat_in(left, secret)
        if left.fault is None and secret is not None and seat == left.player:
            lines.append(checks.consent_line(left.player, secret.sign(checks.WITHDRAW, left.statement)))
            continue
        first = left.events[0]
        owner = left.player or actor(first)
        who = f"your key plays {seat}" if seat else "your key plays no seat of it"
        why = f"which only {owner} may withdraw" if left.fault is None else f"which no merge may ({left.fault})"
        raise GameFileError(
            safe(
                f"{path}: this merge leaves out {left.listed}, {why} in a sealed game ({who}):"
                f" keep {_possessive(owner)} side (`git checkout -m -- {rel}`, then"
                f" `splendor resolve --keep {event_digest(first)[:6]}`) and `splendor sync` again;"
                " nothing committed, nothing pushed"
            )
        )
    return lines


def _possessive(name: str) -> str:
    return f"{name}'s" if name else "that"


def _seat_in(left: Withdrawal, secret: SecretKey) -> str | None:
    """The seat `secret` joined in the sealed table of the branch left out (whose player signed its events)."""
    signing = secret.public.signing
    return next((name for name, key in left.sealing.keys.items() if key.signing == signing), None)


def _me(loaded: Loaded, as_: str | None, path: str) -> str | None:
    from .players import who_am_i

    header = loaded.record.header
    return who_am_i(header.players, header.emails, as_, os.path.dirname(path))


def _draw(repo: Repo, paths: list[str]) -> list[str]:
    """Write the picture of each game's table beside it (`friday.toml` -> `friday.svg`, what the
    last event changed highlighted, a spectator's view) and commit each that changed, on its own;
    the pictures it committed."""
    from .. import store
    from ..sharing import gitsync
    from .cache import verified_prefix

    done = []
    for path in paths:
        loaded = store.read(path, verified_prefix)
        if not loaded.game.states:
            continue
        game = loaded.game
        svg = _picture(loaded, None, None).encode("utf-8")
        target = os.path.splitext(path)[0] + ".svg"
        rel = gitsync.locate(target).rel
        if gitsync.committed(repo, rel=rel) == svg:
            continue
        if os.path.islink(target):
            raise UsageError(f"{target} is a symbolic link: the picture is not written through it")
        store.write_atomic(target, svg, exclusive=not os.path.lexists(target))
        gitsync.commit_file(repo, rel, svg, f"{game.variant.title}: the table after event #{game.seq} ({rel})")
        done.append(target)
    return done


def _exchange(
    repo: Repo,
    up: Upstream,
    merged: list[Merged],
    game: str | None,
    read: _Reads,
    drawn: list[str] | None = None,
    who: Callable[[Loaded, str], str | None] | None = None,
) -> bool:
    """Fetch, merge and push until the push is taken (or nothing is left to push); whether it pushed.
    After the fetch (and merge), the local player's part of each sealed game (`who` says who
    they are in a game) is written and committed: written before it, a part that others owe at
    the same time (joins, shares) would fork the game."""
    from ..errors import ForkError
    from ..sharing import gitsync

    for _ in range(gitsync.PUSH_TRIES):
        if gitsync.fetch(repo, up):
            result = gitsync.merge(repo, up)
            merged.append(result)
            if result.conflict:
                from .. import store

                for rel in gitsync.unmerged(repo):
                    try:
                        store.read(repo.top / rel)
                    except ForkError as exc:
                        raise ForkError(f"{exc}; then `splendor sync` again", seq=exc.seq) from None
                    except SplendorError:
                        pass
                raise ConflictError(
                    "the merge stopped on conflicts outside the game file"
                    f" ({', '.join(gitsync.unmerged(repo)[:5])}): settle them (`git status`), then `splendor sync`"
                )
        if who is not None:
            _commit_sealed_parts(_games(game, repo), who, read)
        if drawn is not None:
            drawn += _draw(repo, _games(game, repo))
        if gitsync.ahead(repo, up) == 0:
            return False
        _audit([str(p) for p in _games(game, repo)], up, read)
        if gitsync.push(repo, up):
            return True
    raise ConflictError(
        f"{up.remote} took none of {gitsync.PUSH_TRIES} pushes (others keep pushing first): run `splendor sync` again"
    )


def _commit_sealed_parts(paths: list[str], who: Callable[[Loaded, str], str | None], read: _Reads) -> None:
    """The local player's part of each sealed game (`seal.write_part`), committed."""
    from .. import store
    from ..sharing import gitsync
    from .cache import remember_verified
    from .seal import write_part

    for path in paths:
        with store.locked(path, _locks()):
            loaded = read(path)
            if loaded.game.sealing is None:
                continue
            remember_verified(loaded)  # what the audit before the push need not check again
            after = write_part(loaded, who(loaded, path))
            if after is not loaded:
                read.wrote(after)
                gitsync.commit_turns(read.repo(path), after)


class _Reads:
    """The game files this sync read (or wrote), each as it was then: a file that still holds the
    same bytes is not parsed and replayed again (nothing but its bytes is read), and the audit
    before the push starts from the versions known here (`verify.audit`'s `known`)."""

    def __init__(self) -> None:
        self.last: dict[str, Loaded] = {}
        self.known: dict[str, list[Loaded]] = {}
        self.repos: dict[str, Repo] = {}

    def repo(self, path: str) -> Repo:
        """`gitsync.locate(path)`, asked of git once per sync."""
        from ..sharing import gitsync

        if path not in self.repos:
            self.repos[path] = gitsync.locate(path)
        return self.repos[path]

    def __call__(self, path: str) -> Loaded:
        """The game at `path`, as `store.read` reads it (with the verified prefix)."""
        from .. import store
        from .cache import verified_prefix

        last = self.last.get(path)
        if last is not None:
            try:
                data = store.read_bytes(path)
            except (OSError, GameFileError):
                data = None
            if data == last.data:
                return last
            if data is not None and data.startswith(last.data):  # a fast-forward: the new events alone
                from ..sharing.verify import extend_read

                try:
                    record, game = extend_read(last, data, verified_prefix)
                except SplendorError:
                    pass  # store.read says why, naming the file
                else:
                    loaded = store.Loaded(path=path, data=data, record=record, game=game)
                    self.wrote(loaded)
                    return loaded
        loaded = store.read(path, verified_prefix)
        self.wrote(loaded)
        return loaded

    def wrote(self, loaded: Loaded) -> None:
        """`loaded` is what the file at its path holds now."""
        self.last[loaded.path] = loaded
        self.known.setdefault(loaded.path, []).append(loaded)

    def seen(self, path: str) -> Loaded:
        """`gamefile.load`: the game read, checked against what this user saw of it, remembered."""
        return _seen_now(self(path))


def _audit(paths: list[str], up: Upstream, read: _Reads | None = None) -> None:
    """`verify --git` of each game file: a history that breaks the audit is not pushed.

    Only what is new is audited (`verify.audit`): the user's cache remembers, for each game file
    (by its real path) and upstream, the last commit whose history was audited and found good,
    and the walk starts after it; a history rewritten under it (the commit no longer an ancestor
    of HEAD) is audited whole. The mark moves only after a good audit. The cache is the user's own
    (each entry authenticated with their private key): whoever can write the repository cannot
    write it, and a commit's id fixes its whole history, so a good audit of it stays good. What
    the user verified before of a sealed game (its signatures and proofs) is not checked again."""
    from ..sharing import verify as checks
    from . import cache

    for path in paths:
        slot = _audit_slot(path, up)
        known = read.known.get(path, []) if read is not None else []
        report = checks.audit(path, cache.get(slot, AUDITED), _trusting(known), known)
        if not report["ok"]:
            sys.stderr.write(checks.git_report_text(report) + "\n")
            raise GameFileError(f"{path}: verify --git: {safe(report['bad']['reason'])}: nothing pushed")
        if report["mark"] is not None:
            cache.put(slot, AUDITED, report["mark"])


def _trusting(read: Sequence[Loaded]) -> Callable[[Record], int]:
    """How many of a sealed game's first events this user verified: before (`cache.verified_prefix`),
    or in this process, reading the games `read` (each as `store.read` reads it); compared by the
    events' full digests, from the first on. 0 for an open game, as `verified_prefix` says."""
    from ..events import SealedAsked
    from .cache import verified_prefix

    def trusted(record: Record) -> int:
        most = verified_prefix(record)
        if not most and (not record.events or not isinstance(record.events[0], SealedAsked)):
            return 0
        digests = record.digests
        for loaded in read:
            if loaded.record.header != record.header:
                continue
            count = 0
            for mine, theirs in zip(loaded.record.digests, digests):
                if mine != theirs:
                    break
                count += 1
            most = max(most, count)
        return most

    return trusted


AUDITED = "audited"
"""The cache's view that holds the mark of a game file's last good audit (`verify.audit`'s `mark`)."""


def _audit_slot(path: str, up: Upstream) -> bytes:
    """What names a game file's audit mark in the cache: its real path (its repository's, and its
    place in it) and the upstream that sync pushes to."""
    return b"audit\0" + os.fsencode(os.path.realpath(path)) + f"\0{up.remote}/{up.branch}".encode()


def forget_audited(path: str, up: Upstream) -> None:
    """Forget the mark of the game file's last good audit: the next sync audits its whole history."""
    from . import cache

    cache.put(_audit_slot(path, up), AUDITED, "")


class _GameReport:
    """What sync says of one game: what happened since my last turn, and the board on my turn."""

    def __init__(self, loaded: Loaded, me: str | None, seen: int, notified: list[str]) -> None:
        from ..events import actor
        from ..projection.log import log_entries

        game = loaded.game
        dealt = bool(game.states)
        self.path, self.loaded, self.me, self.notified = loaded.path, loaded, me, notified
        mine = [e.seq for e in game.events if me and actor(e) == me]
        self.since_mine = bool(mine)
        self.new = [e for e in log_entries(game) if e.seq > (mine[-1] if mine else seen)]
        now = game.table if dealt else None
        self.my_turn = bool(me) and now is not None and not now.finished and now.player.name == me
        self.keys_owed = _keys_owed(game)
        """A finished sealed game: the players whose keys the audit still waits for."""
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
            **({"keys_owed": list(self.keys_owed)} if game.sealing is not None else {}),
        }

    def text(self, color: str) -> list[str]:
        from ..presentation.log import log_text

        game = self.loaded.game
        lines = [f"notified {safe(n)}" for n in self.notified]
        if self.new:
            lines.append("since your last turn:" if self.since_mine else "new here:")
            lines.append(log_text(self.new, color=_use_color(color)).rstrip("\n"))
        if self.my_turn:
            board = _board(_seen(game, self.me), color, game.variant).rstrip("\n")
            lines += ["", board, "", f"your turn, {self.me}: `splendor moves` lists them"]
        elif game.states:
            lines.append(game.variant.whose_turn(game.state))
            if self.keys_owed:
                lines.append(safe(_keys_owed_line(self.keys_owed)))
        else:
            lines.append(_not_dealt(game))
        return lines


def _not_dealt(game: Game) -> str:
    """Where a game whose cards are not dealt yet stands (a commit-then-reveal or sealed deal)."""
    if game.sealing is not None:
        return game.sealing.stage()
    return game.seeding.waiting() if game.seeding is not None else "the cards are not dealt yet"


# -- my games -------------------------------------------------------------------------------------

_SKIP = {".git", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache"}
MAX_GAMES = 1000
"""At most this many game files are listed (a folder of more is not a table)."""


def scan(root: str, depth: int = 4) -> list[str]:
    """The game files under `root` (`.toml` files whose first lines say `format = `), sorted;
    hidden folders and virtual environments are skipped, links are not followed."""
    from .locate import looks_like_game

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
        _out(_json_text(rows))
        return
    if not rows:
        _out(f"no game under {root}: start one with `splendor new --players ann,bob`")
        return
    _out(_table(rows))


def _repository_top() -> str | None:
    """The top of the repository of the current folder, relative to it; None outside one."""
    from ..sharing import gitsync

    try:
        return os.path.relpath(gitsync.locate_folder(".").top)
    except UsageError:
        return None


def _row(path: str, as_: str | None) -> dict[str, Any]:
    """One game of `games`: what it is and where it stands (an unreadable file says why)."""
    from .. import store
    from ..events import actor
    from ..projection.log import event_notation

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
    import subprocess

    try:
        done = subprocess.run(
            ["git", "-C", os.path.dirname(path) or ".", "log", "-1", "--format=%ct", "--", os.path.basename(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        stamp = int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip().isdigit() else None
    except OSError:
        stamp = None
    if stamp is None or _dirty(path):
        stamp = int(os.stat(path).st_mtime)
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).strftime("%Y-%m-%d %H:%M")


def _dirty(path: str) -> bool:
    import subprocess

    done = subprocess.run(
        ["git", "-C", os.path.dirname(path) or ".", "diff", "--quiet", "HEAD", "--", os.path.basename(path)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 1


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
                str(row["turn"]),
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
