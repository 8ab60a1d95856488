"""`splendor watch`: keeps a player's games moving without them.

Every `--every` seconds it does one round: over git, the sync service of `splendor sync`
(syncing.py's `sync_here`: commit, fetch, merge, write and commit the player's part of each sealed
game, audit, push); by mail (`--maildir`/`--mbox`), `splendor apply` of the mailbox, then the
player's part of each sealed game of `--dir`, written and mailed to the other players. Then it
tells the player (the notification machinery of `splendor notify`) when it is their turn, once
per turn (remembered in the user's cache, so that `--once` run by cron does not repeat it).

A round logs one line per thing it did, timestamped, every string from a file made safe. A
round that fails (an unreachable remote, a fork) logs one line and the next round tries again;
no lock is held between rounds. SIGINT and SIGTERM stop it: between rounds at once (exit 0),
during a round after the round (exit 0); a second signal abandons the round (exit 130: every
write of a game file is atomic, and the next sync finishes a merge left under way).

`--install` prints (`--write`: writes) a systemd user unit, a launchd agent or a cron line that
runs `splendor watch` in this repository.
"""

from __future__ import annotations

import os
import sys

from ...errors import SplendorError, UsageError, safe
from ..params import GAME, JSON, Param, command

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any

    from ...store import Loaded

EVERY = 300
"""Seconds between two rounds, by default."""
MAX_LINES = 8
"""The most events a round logs one by one for a game (then: `... and N more`)."""
NOTIFIED = "watch-notified"
"""The cache's view that holds, for a game and its player, the last turn watch told them of."""
MAILED = "watch-mailed"
"""The cache's view that holds, for a game and its player, the last event watch mailed by mail."""
KINDS = ("systemd", "launchd", "cron")
STRIKES = 3
"""Rounds in a row that fail the same way before watch says it once more, and stops repeating
it: a failure only a player can settle (a fork, an audit refusal: exit 4 or 5) stops the retries
(`Watcher.parked`) and tells every player once; another (no network) goes on being tried."""
PARKED_EVERY = 12
"""While stopped on a failure a player must settle, watch still tries one round in this many
(another clone may have settled it), and at once when this repository changes."""


@command(
    "watch",
    GAME,
    Param(
        "as_",
        "--as",
        envvar="SPLENDOR_PLAYER",
        metavar="NAME",
        help="Who you are ($SPLENDOR_PLAYER; default: the player whose e-mail in the header is your git e-mail).",
    ),
    Param("every", "--every", kind="int", low=1, high=86400, metavar="SECONDS", help="Seconds between rounds."),
    Param("once", "--once", kind="flag", help="One round, then exit (for cron and scripts)."),
    Param("maildir", "--maildir", kind="path", metavar="DIR", help="Read this Maildir instead of syncing with git."),
    Param("mbox", "--mbox", kind="path", metavar="FILE", help="Read this mbox file instead of syncing with git."),
    Param("folder", "--dir", kind="path", metavar="DIR", help="With --maildir/--mbox: where the games are."),
    Param("quiet", "--mute", kind="flag", help="Do not notify you when it is your turn."),
    Param("install", "--install", kind="flag", help="Print a service that runs `splendor watch` here (see --kind)."),
    Param("kind", "--kind", metavar="KIND", help="With --install: systemd, launchd or cron (default: this system's)."),
    Param("write", "--write", kind="flag", help="With --install: write the service file (not cron: crontab -e)."),
    JSON,
)
def watch(
    *,
    game: str | None = None,
    as_: str | None = None,
    every: int = EVERY,
    once: bool = False,
    maildir: str | None = None,
    mbox: str | None = None,
    folder: str = "games",
    quiet: bool = False,
    install: bool = False,
    kind: str | None = None,
    write: bool = False,
    json: bool = False,
) -> None:
    """Keep your games moving: sync every few minutes, post the shares you owe, tell you when it is your turn.

    Each round syncs the games of this repository as `splendor sync` does (with --maildir or
    --mbox: applies the mails, and mails your part of sealed games to the other players), then
    notifies you (mail or webhook, as `splendor notify` is set up) once when a turn becomes yours.
    One line per action, timestamped. A failed round (no network) is one line; the next round
    tries again. Ctrl-C or SIGTERM stops it after the round under way (exit 0; twice: at once, exit 130).

    --once does one round and exits with its error's code (for cron); --once --json prints what it did.

    --install prints a systemd user unit (Linux), a launchd agent (macOS) or, with --kind cron, a
    crontab line that runs it here; --write writes the unit or agent.

    Examples:

    splendor watch

    splendor watch --every 60 --as ann

    splendor watch --once --json

    splendor watch --maildir ~/Maildir --dir games

    splendor watch --install --write
    """
    if maildir is not None and mbox is not None:
        raise UsageError("--maildir and --mbox exclude each other: watch one of them")
    if install:
        _install(kind, write=write, every=every, as_=as_, game=game, maildir=maildir, mbox=mbox, folder=folder)
        return
    if kind is not None or write:
        raise UsageError("--kind and --write go with --install")
    if json and not once:
        raise UsageError("--json goes with --once (a round's report); the loop logs lines")
    mail = maildir is not None or mbox is not None
    if not mail:
        _top(game, mail=False)  # no repository: exit 2 at once
    watcher = Watcher(game=game, as_=as_, maildir=maildir, mbox=mbox, folder=folder, notify=not quiet, json=json)
    if once:
        watcher.round()
        if json:
            from ..output import json_text, out

            out(json_text(watcher.report))
        if watcher.failure is not None:
            raise watcher.failure
        return
    _loop(watcher, every)


# -- the loop -------------------------------------------------------------------------------------


class _Stop:
    """What the signals asked: the first SIGINT or SIGTERM to stop after the round, the second at once."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True


def _loop(watcher: Watcher, every: int) -> None:
    """Rounds every `every` seconds until a signal stops it."""
    import signal
    import time

    stop = _Stop()
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        log(f"watching {watcher.where} every {every}s (Ctrl-C stops)")
        while not stop.asked:
            watcher.round()
            if stop.asked and watcher.failure is not None:
                raise KeyboardInterrupt  # the signal broke the round (git was stopped too): abandoned
            wake = time.monotonic() + every
            while not stop.asked and (left := wake - time.monotonic()) > 0:
                time.sleep(min(left, 0.2))
        log("stopped")
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def log(line: str) -> None:
    """One line of the log on stdout, timestamped (UTC), made safe, flushed at once."""
    import datetime

    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    sys.stdout.write(f"{stamp} {safe(line)}\n")
    sys.stdout.flush()


# -- a round -------------------------------------------------------------------------------------


class Watcher:
    """One player's games, watched: a round syncs (or reads the mailbox), posts their part and notifies."""

    def __init__(
        self,
        *,
        game: str | None,
        as_: str | None,
        maildir: str | None,
        mbox: str | None,
        folder: str,
        notify: bool,
        json: bool = False,
    ) -> None:
        self.game, self.as_, self.maildir, self.mbox, self.folder = game, as_, maildir, mbox, folder
        self.notify, self.quiet = notify, json
        self.seen: dict[str, int] = {}
        """Each game's last event, as the previous round left it (by game file)."""
        self.told: dict[str, str] = {}
        """The turn each game last notified its player of (this process; the cache keeps it across)."""
        self.report: dict[str, Any] = {}
        self.failure: SplendorError | OSError | None = None
        self.report_error: dict[str, Any] | None = None
        self.last_failure: str | None = None
        self.strikes = 0
        """Rounds in a row that failed as `last_failure` says."""
        self.parked: tuple[str, int] | None = None
        """The state of the repository (`_state`) when watch stopped retrying a failure a player
        must settle, and the rounds skipped since."""

    @property
    def where(self) -> str:
        if self.maildir is not None:
            return f"the Maildir {self.maildir}"
        if self.mbox is not None:
            return f"the mbox {self.mbox}"
        return self.game or "this repository"

    def say(self, line: str) -> None:
        self.report["log"].append(safe(line))
        if not self.quiet:
            log(line)

    def round(self) -> None:
        """One round; a failure is logged (and kept in `failure`), never raised. The same failure
        is said `STRIKES` times at most (`_failed`); while parked on one a player must settle,
        the round is skipped unless the repository changed (or one round in `PARKED_EVERY`)."""
        self.report = {"ok": True, "error": None, "committed": [], "pushed": False, "games": [], "log": []}
        if self.parked is not None:
            state, skipped = self.parked
            now = self._state()
            if now == state and skipped + 1 < PARKED_EVERY:
                self.parked = (state, skipped + 1)
                self.report.update(ok=False, error=self.report_error)
                return
            self.parked = None
            if now != state:
                self.say("the repository changed: trying again")
        self.failure = None
        try:
            games = self._mail_round() if self.maildir is not None or self.mbox is not None else self._git_round()
            for loaded, me in games:
                self._game(loaded, me)
        except (SplendorError, OSError) as exc:  # OSError: a full disk, a folder taken away...
            self.failure = exc
            if isinstance(exc, SplendorError):
                code, exit_code, message = exc.code, exc.exit_code, str(exc)
            else:
                where = f"{exc.filename}: " if exc.filename else ""
                code, exit_code, message = "os-error", 1, f"{where}{exc.strerror or exc}"
            message = " ".join(message.split())
            self.report_error = {"code": code, "exit": exit_code, "message": safe(message)}
            self.report.update(ok=False, error=self.report_error)
            self._failed(message, exit_code)
            return
        if self.last_failure is not None and self.strikes >= STRIKES:
            self.say("the round worked again")
        self.last_failure, self.strikes = None, 0

    def _failed(self, message: str, exit_code: int) -> None:
        """Say a failed round, unless it failed so `STRIKES` times in a row already: then once
        more, and, when only a player can settle it (exit 4 or 5, over git), stop retrying and
        tell every player, once, what settles it (the failure names its command)."""
        self.strikes = self.strikes + 1 if message == self.last_failure else 1
        self.last_failure = message
        if self.strikes < STRIKES:
            self.say(f"round failed (next round tries again): {message}")
            return
        git = self.maildir is None and self.mbox is None
        settled_by_a_player = git and exit_code in (4, 5)
        if self.strikes > STRIKES:
            if settled_by_a_player:
                self.parked = (self._state(), 0)  # still not settled: back to waiting, silently
            return
        if not settled_by_a_player:
            self.say(f"round failed {STRIKES} times the same way (the next rounds try again, silently): {message}")
            return
        self.parked = (self._state(), 0)
        self.say(f"round failed {STRIKES} times the same way, and a player must settle it: {message}")
        self.say("no more rounds until this repository changes (or one in a while); the players are told once")
        if self.notify:
            self._tell_stuck(message)

    def _state(self) -> str:
        """What changes when someone acts on this repository: HEAD, the operation under way, the
        status of its files and the bytes of its games (a settled fork, a commit, a pull)."""
        import hashlib

        from ... import store
        from ...sharing import gitsync
        from .syncing import games_here

        try:
            repo = gitsync.locate(self.game) if self.game else gitsync.locate_folder(".")
            status = gitsync.git(repo.top, "status", "--porcelain", "-z")
            games = "".join(hashlib.sha256(store.read_bytes(path)).hexdigest() for path in games_here(self.game, repo))
            return f"{gitsync.head(repo)}\0{gitsync.under_way(repo)}\0{status}\0{games}"
        except (SplendorError, OSError):
            return ""

    def _tell_stuck(self, message: str) -> None:
        """Tell every player of each game here that it is stuck and what settles it (mail, webhooks)."""
        from ... import store
        from ...forks import split_fork
        from ...sharing import gitsync
        from ...sharing.notify import notify_stalled
        from ..services.notices import settings_for
        from .syncing import games_here

        repo = gitsync.locate(self.game) if self.game else gitsync.locate_folder(".")
        for path in games_here(self.game, repo):
            try:
                data = store.read_bytes(path)
                fork = split_fork(data)
                record = fork.record if fork is not None else store.read(path).record
                sent = notify_stalled(record.header, len(record.events), settings_for(path), message)
            except (SplendorError, OSError) as exc:
                self.say(f"{path}: not told: {exc}")
                continue
            for one in sent:
                self.say(f"{record.header.game}: told {one.line}")

    def _git_round(self) -> list[tuple[Loaded, str | None]]:
        from ...sharing.sync import AuditRefused
        from .syncing import gave_way, sync_here

        try:
            result = sync_here(self.game, self.as_, say=self.say)
        except AuditRefused as exc:
            sys.stderr.write(exc.details + "\n")
            raise
        for made in result.made:
            self.say(f"committed {made.commit[:8]} {made.subject}")
            self.report["committed"].append({"commit": made.commit, "first": made.first, "last": made.last})
        for line in result.merged:
            self.say(f"merged: {line}")
        if result.pushed and result.upstream is not None:
            self.say(f"pushed to {result.upstream.remote}/{result.upstream.branch}")
        self.report["pushed"] = result.pushed
        from ..services.gamefile import seen_now

        for synced in result.games:
            self.seen.setdefault(synced.loaded.path, synced.seen)
        # each copy checked against what this user saw of it, then remembered, as `sync` does
        games = [(seen_now(synced.loaded), synced.me) for synced in result.games]
        gave_way(self.say)
        return games

    def _mail_round(self) -> list[tuple[Loaded, str | None]]:
        import contextlib

        from ... import store
        from .mailing import apply

        before: dict[str, int] = {}
        for path in self._mail_games():
            with contextlib.suppress(SplendorError):  # apply says what is wrong with it
                before[path] = store.read(path).game.seq
                self.seen.setdefault(path, before[path])
        from ..services.quiet import captured

        with captured(self.say):
            apply(maildir=self.maildir, mbox=self.mbox, game=self.game, folder=self.folder)
        return [self._post_part(path, before.get(path, 0)) for path in self._mail_games()]

    def _mail_games(self) -> list[str]:
        from .syncing import scan

        found = scan(self.folder, depth=0) if os.path.isdir(self.folder) else []
        return sorted({*found, *([os.path.normpath(self.game)] if self.game else [])})

    def _post_part(self, path: str, before: int) -> tuple[Loaded, str | None]:
        """By mail: the player's part of a sealed game written, then mailed (`export --to`) to the
        other players with the events of theirs at the end of the log not mailed yet (those after
        what the cache says was mailed, else after the copy this round began with)."""
        from ...events import actor
        from ..services import cache
        from ..services.gamefile import writing
        from ..services.players import who_am_i
        from ..services.table_part import part
        from .mailing import export

        with writing(path) as loaded:
            header = loaded.record.header
            me = who_am_i(header.players, header.emails, self.as_, os.path.dirname(path))
            loaded = part(loaded.game).write_part(loaded, me)
        if me is None:
            return loaded, me
        slot = self._slot(loaded, me) + b"\0mailed"
        mailed = cache.get(slot, MAILED)
        since = int(mailed) if mailed and mailed.isdigit() else before
        tail = []  # my last events (and a deal that followed them, which nobody signs)
        for event in reversed(loaded.game.events):
            if event.seq <= since or actor(event) not in (me, ""):
                break
            tail.append(event)
        if not any(actor(event) == me for event in tail):
            return loaded, me
        to = [e for p, e in zip(header.players, header.emails) if p != me and e]
        if not to:
            self.say(f"{header.game}: #{tail[-1].seq}-{tail[0].seq} are yours: no address to mail them to")
            return loaded, me
        from ..services.quiet import captured

        with captured(self.say):
            export(game=path, last=len(tail), to=",".join(to))
        cache.put(slot, MAILED, str(loaded.game.seq))
        return loaded, me

    def _game(self, loaded: Loaded, me: str | None) -> None:
        """What a round says of one game: its new events, and a notification on a new turn of mine."""
        from ...events import actor
        from ...sharing import notify

        game, gid = loaded.game, loaded.record.header.game
        last = self.seen.get(loaded.path, game.seq)
        new = [e for e in game.events if e.seq > last]
        self.seen[loaded.path] = game.seq
        for event in new[:MAX_LINES]:
            self.say(f"{gid}: {'posted' if me and actor(event) == me else 'got'} {notify.entry(loaded, event)}")
        if len(new) > MAX_LINES:
            self.say(f"{gid}: ... and {len(new) - MAX_LINES} more events")
        where = notify.position(loaded)
        mine = bool(me) and where.to_move == me and where.waiting == (me,)
        entry: dict[str, Any] = {
            "path": loaded.path,
            "game": gid,
            "player": me,
            "seq": game.seq,
            "new": [e.seq for e in new],
            "to_move": where.to_move,
            "your_turn": mine,
            "finished": where.finished,
            "notified": [],
        }
        self.report["games"].append(entry)
        if not mine or me is None:
            return
        turn = f"{game.table.turn}@{_first_of_turn(loaded, me)}"
        if self._told(loaded, me) == turn:
            return
        self.say(f"{gid}: your turn, {me} (turn {game.table.turn + 1})")  # the turn under way, as `show` says it
        self._remember(loaded, me, turn)
        if not self.notify:
            return
        from ..services.notices import notify_after

        try:
            sent = notify_after(loaded)
        except UsageError as exc:
            self.say(f"{gid}: not notified: {exc}")
            return
        entry["notified"] = sent
        for line in sent:
            self.say(f"{gid}: notified {line}")

    def _slot(self, loaded: Loaded, me: str) -> bytes:
        return b"watch\0" + loaded.record.header.game.encode() + b"\0" + me.encode()

    def _told(self, loaded: Loaded, me: str) -> str | None:
        from ..services import cache

        key = f"{loaded.record.header.game}\0{me}"
        return self.told.get(key) or cache.get(self._slot(loaded, me), NOTIFIED)

    def _remember(self, loaded: Loaded, me: str, turn: str) -> None:
        from ..services import cache

        self.told[f"{loaded.record.header.game}\0{me}"] = turn
        cache.put(self._slot(loaded, me), NOTIFIED, turn)


def _part_of(event: object, me: str) -> bool:
    """Whether `event` is `me`'s part of the sealed protocol (a join, a shuffle, shares, keys): not a move."""
    from ...events import actor
    from ...sealing.events import CardsShown, DeckShuffled, KeysPublished, PlayerJoined

    return isinstance(event, (PlayerJoined, DeckShuffled, CardsShown, KeysPublished)) and actor(event) == me


def _first_of_turn(loaded: Loaded, me: str) -> int:
    """The seq of the last event before my turn began that was not mine (0: none): with the turn's
    number, what names a turn, so that an undo back to an earlier turn is a new one."""
    from ...events import actor

    for event in reversed(loaded.game.events):
        who = actor(event)
        if who and who != me:
            return event.seq
    return 0


# -- --install ------------------------------------------------------------------------------------


def _install(
    kind: str | None,
    *,
    write: bool,
    every: int,
    as_: str | None,
    game: str | None,
    maildir: str | None,
    mbox: str | None,
    folder: str,
) -> None:
    """Print (or write) the service that runs `splendor watch` here with these options."""
    import shutil

    from ..output import out

    kind = (kind or ("launchd" if sys.platform == "darwin" else "systemd")).strip().lower()
    if kind not in KINDS:
        raise UsageError(f"--kind: {safe(kind)} is not one of {', '.join(KINDS)}")
    top = _top(game, maildir is not None or mbox is not None)
    found = shutil.which("splendor")
    program = [found] if found else [sys.executable, "-m", "splendor_cli"]
    if not found:
        sys.stderr.write("splendor: no `splendor` on PATH: the service runs this Python's splendor_cli\n")
    args = [*program, "watch"]
    for flag, value in (("-g", game), ("--as", as_), ("--maildir", maildir), ("--mbox", mbox)):
        if value:
            args += [flag, os.path.abspath(value) if flag in ("-g", "--maildir", "--mbox") else value]
    if maildir is not None or mbox is not None:
        args += ["--dir", os.path.abspath(folder)]
    for part in (top, *args):
        if not part.isprintable():
            raise UsageError(f"{safe(part)}: a path or name with a control character cannot go in a service file")
    name = _service_name(top)
    if kind == "cron":
        if write:
            raise UsageError("--write: cron has no file of ours to write: add the line with `crontab -e`")
        out(_cron(top, [*args, "--once"], every))
        return
    from ..services.units import systemd_unit

    text, target, hint = (
        systemd_unit(top, [*args, "--every", str(every)], name)
        if kind == "systemd"
        else _launchd(top, [*args, "--every", str(every)], name)
    )
    if not write:
        out(text + f"\n# write it with --write ({target}), then: {hint}")
        return
    from ... import store

    if os.path.islink(target):
        raise UsageError(f"{target} is a symbolic link: not written through it")
    if os.path.lexists(target) and not os.path.isfile(target):
        raise UsageError(f"{target} is not a regular file: not replaced")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    store.write_atomic(target, text.encode("utf-8"), exclusive=not os.path.lexists(target))
    out(f"wrote {target}\nthen: {hint}")


def _top(game: str | None, mail: bool) -> str:
    """Where the watch runs: the repository's top (of -g, else of here); by mail, here."""
    if mail:
        return os.path.abspath(".")
    from ...sharing import gitsync

    repo = gitsync.locate(game) if game else gitsync.locate_folder(".")
    return os.path.abspath(str(repo.top))


def _service_name(top: str) -> str:
    """splendor-watch-FOLDER-HASH: one service per repository."""
    import re
    from hashlib import sha256

    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", os.path.basename(top)).strip("-")[:32] or "games"
    return f"splendor-watch-{slug}-{sha256(top.encode()).hexdigest()[:6]}"


def _launchd(top: str, args: list[str], name: str) -> tuple[str, str, str]:
    from xml.sax.saxutils import escape

    label = f"org.splendor-cli.{name}"
    target = os.path.join(os.path.expanduser("~"), "Library", "LaunchAgents", f"{label}.plist")
    logs = os.path.join(os.path.expanduser("~"), "Library", "Logs", f"{name}.log")
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        '<plist version="1.0">',
        "<dict>",
        f"  <key>Label</key><string>{escape(label)}</string>",
        "  <key>ProgramArguments</key>",
        "  <array>",
        *(f"    <string>{escape(a)}</string>" for a in args),
        "  </array>",
        f"  <key>WorkingDirectory</key><string>{escape(top)}</string>",
        "  <key>RunAtLoad</key><true/>",
        "  <key>KeepAlive</key><true/>",
        f"  <key>StandardOutPath</key><string>{escape(logs)}</string>",
        f"  <key>StandardErrorPath</key><string>{escape(logs)}</string>",
        "</dict>",
        "</plist>",
        "",
    ]
    return "\n".join(lines), target, f"launchctl load -w {target}"


def _cron(top: str, args: list[str], every: int) -> str:
    import shlex

    minutes = max(1, min(59, round(every / 60)))
    when = "* * * * *" if minutes == 1 else f"*/{minutes} * * * *"
    logs = os.path.join(os.path.expanduser("~"), ".cache", f"{_service_name(top)}.log")
    command = f"cd {shlex.quote(top)} && {shlex.join(args)} >> {shlex.quote(logs)} 2>&1"
    return when + " " + command.replace("%", "\\%")
