"""The commands that send and take in mail: `notify`, `export` and `apply` (what `--notify` does
after a command is notices.py's `notify_after`).

Registered with `@command` as every family of commands is (app/registry.py imports it), and as
light to import: the game file's helpers (gamefile.py, output.py), the sharing modules and the
store are imported inside the bodies.

`apply` takes one mail (a file, or stdin) as it always did, and also every message of a Maildir
(`--maildir`) or an mbox file (`--mbox`): for each game it knows (the game files under `--dir`,
default `games/`, by the id in their header, and `-g FILE`) it applies every new block in order
of seq, once (a block applied already is a no-op); a mail that carries a whole game file (the
first mail of a game) creates `games/<id>.toml` after replaying it; `--commit` commits each turn
to git, authored by its player; `--notify` then tells the player to move.
"""

from __future__ import annotations

import os
import sys

from ..errors import ConflictError, GameFileError, SplendorError, StaleBlockError, UsageError, excerpt, safe
from .notices import notify_after, settings_for
from .params import GAME, JSON, NOTIFY, Param, command

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..events import Event
    from ..sharing.mail import MoveBlock
    from ..sharing.mailbox import RawMessage
    from ..store import Loaded


def _say(*lines: str) -> None:
    """Print lines that quote files or mails: each made safe."""
    from .output import out

    if lines:
        out("\n".join(safe(line) for line in lines))


# -- notify -----------------------------------------------------------------------------------


@command(
    "notify",
    GAME,
    Param("webhooks_only", "--webhooks-only", kind="flag", help="Post to the webhooks only: no mail."),
    Param("webhook", "--webhook", metavar="URL", help="Post to this webhook instead of the configured ones."),
    JSON,
)
def notify(
    *, game: str | None = None, webhooks_only: bool = False, webhook: str | None = None, json: bool = False
) -> None:
    """Tell the player to move that it is their turn (when the game is over: every player), now.

    By mail (to the address the game file gives the player; bots and players without one get none)
    and by webhook (JSON that Discord, Slack and ntfy-like services take).

    The mail holds the last moves, the board, their move block and how to answer.

    Settings: git config splendor.smtp.host, .port, .security, .user, .passwordEnv, .passwordCommand,
    .from and splendor.webhook.url, over ~/.config/splendor/notify.toml.

    Examples:

    splendor notify -g games/friday.toml

    splendor notify --webhooks-only --webhook https://discord.com/api/webhooks/ID/TOKEN
    """
    from ..sharing import notify as notifying
    from .gamefile import load
    from .output import json_text, out

    loaded = load(game)
    hooks = None if webhook is None else [webhook]
    sent = notifying.notify_game(loaded, settings_for(loaded.path), mail=not webhooks_only, webhooks=hooks)
    if json:
        where = notifying.position(loaded)
        out(json_text({"game": where.game, "seq": where.seq, "sent": [s.to_json() for s in sent]}))
    else:
        _say(*(s.line for s in sent))


# -- export -----------------------------------------------------------------------------------


@command(
    "export",
    GAME,
    Param("last", "--last", kind="int", low=1, help="How many of the last events to put in the block."),
    Param(
        "to",
        "--to",
        metavar="ADDRESS",
        help="Mail the block to these addresses (comma-separated) instead of printing it (needs splendor.smtp.*).",
    ),
    Param(
        "whole",
        "--whole",
        kind="flag",
        help="The whole game file too, for a player who has not got it (--to: always when the block starts at #2).",
    ),
)
def export(*, game: str | None = None, last: int = 1, to: str | None = None, whole: bool = False) -> None:
    """Print the last move(s) as a plain-text block to paste into a mail (see `splendor apply`).

    The block survives quoting (> ), line-end changes and re-wrapping of blank lines; a damaged one is refused.

    With --to, mail it instead (SMTP settings as for `splendor notify`); the first mail of a game
    carries the whole game file, from which `splendor apply` creates it.

    Examples:

    splendor export -g games/friday.toml --last 2

    splendor export -g games/friday.toml --to bob@example.org,carol@example.org
    """
    from ..sharing.mail import armour_game, export_text, printable_game
    from .gamefile import load
    from .output import out

    loaded = load(game)
    text = export_text(loaded.record, last)
    if to is None:
        out(text + ("\n" + armour_game(printable_game(loaded.data, loaded.record)) if whole else ""))
        return
    _say(_send_block(loaded, text, last=last, to=to, whole=whole))


def _send_block(loaded: Loaded, block: str, *, last: int, to: str, whole: bool) -> str:
    """Mail the block of the last `last` events to the addresses of `to`; the line that says so."""
    from ..sharing import notify

    addresses = [part.strip() for part in to.split(",") if part.strip()]
    if not addresses:
        raise UsageError("--to: give at least one address")
    for address in addresses:
        if not notify.is_address(address):
            raise UsageError(f"--to: {excerpt(address)} is not an e-mail address like bob@example.org")
    settings = settings_for(loaded.path)
    if settings.smtp is None:
        raise UsageError(
            "--to needs a mail server: set it with git config splendor.smtp.host HOST (and .from, .user)"
            f" or in {notify.config_path()}"
        )
    events = loaded.record.events[-last:]
    first, final = events[0], events[-1]
    attach = whole or first.seq <= 2
    header = loaded.record.header
    seqs = f"#{first.seq}" if first is final else f"#{first.seq}-{final.seq}"
    subject = f"{notify.SUBJECT_TAG} {header.game} {seqs}: {notify.said(loaded, final)}"
    where = notify.position(loaded)
    path = f"games/{header.game}.toml"
    lines = [f"A move in the game {header.game} ({where.title}): {where.status}.", ""]
    lines += [f"  {notify.entry(loaded, event)}" for event in events]
    lines += ["", f"Take it in: splendor apply -g {path} this-mail.eml (or: splendor apply --maildir DIR)."]
    if attach:
        lines.append(f"The whole game is attached ({header.game}.toml): splendor apply creates {path} from it.")
    body = "\n".join(safe(line) for line in lines) + "\n\n" + block
    message = notify.build_message(
        sender=settings.smtp.sender or "nobody@invalid",
        to_name="",
        to_address=addresses,
        subject=subject,
        body=body,
        game=header.game,
        seq=final.seq,
        attachment=loaded.data if attach else None,
    )
    mail = notify.Mail(name="", addresses=tuple(addresses), message=message)
    notify.send_mails(settings.smtp, [mail])
    count = f"{len(events)} events" if len(events) > 1 else "1 event"
    return f"sent {seqs} ({count}) to {', '.join(addresses)} via {settings.smtp.server}" + (
        " with the whole game attached" if attach else ""
    )


# -- apply ------------------------------------------------------------------------------------


@command(
    "apply",
    Param("mail", help="A mail (text or a whole .eml file) holding move blocks; - or none: stdin."),
    GAME,
    Param("maildir", "--maildir", kind="path", metavar="DIR", help="Read every message of this Maildir (new/, cur/)."),
    Param("mbox", "--mbox", kind="path", metavar="FILE", help="Read every message of this mbox file."),
    Param(
        "folder",
        "--dir",
        kind="path",
        metavar="DIR",
        help="Where the games are, and where a game mailed whole is created (default games/).",
    ),
    Param("commit", "--commit", kind="flag", help="Commit each turn applied to git, authored by its player."),
    NOTIFY,
)
def apply(
    *,
    mail: str | None = None,
    game: str | None = None,
    maildir: str | None = None,
    mbox: str | None = None,
    folder: str = "games",
    commit: bool = False,
    notify: bool = False,
) -> None:
    """Append the moves of `splendor export` blocks found in a mail, after checking game, chain and rules.

    A block already applied is a no-op; a block for another game is refused (exit 2).

    A stale block, after a turn this file lacks, is a conflict (exit 5) naming the missing turns.

    With --maildir or --mbox: every message, every game of --dir (default games/) and -g, blocks in
    order of seq; a block for a game not here is skipped with a note; running it twice changes nothing.

    A mail that carries a whole game file (the first of a game) creates games/GAME-ID.toml.

    --commit commits each turn to git, authored by its player (only the game file).

    Examples:

    splendor apply -g games/friday.toml ~/mail/bob-move.eml

    splendor apply --maildir ~/Maildir --commit
    """
    from .. import store
    from ..sharing import mailbox

    if maildir is not None and mbox is not None:
        raise UsageError("--maildir and --mbox exclude each other: run apply once for each")
    if commit:
        _check_repository(game, folder)
    if maildir is not None or mbox is not None:
        if mail is not None:
            raise UsageError("give a mail, or --maildir/--mbox, not both")
        read = mailbox.read_maildir(maildir) if maildir is not None else mailbox.read_mbox(mbox or "")
        _say(*(f"skipped: {note}" for note in read.notes))
        _take_in(read.messages, extra=game, new_path=None, folder=folder, strict=False, commit=commit, notify=notify)
        return
    try:
        if mail is None or mail == "-":
            data = sys.stdin.buffer.read(store.MAX_BYTES + 1)
            if len(data) > store.MAX_BYTES:
                raise GameFileError(f"the mail on standard input is larger than {store.MAX_BYTES} bytes: not read")
        else:
            data = store.read_bytes(mail)
    except OSError as exc:
        raise UsageError(f"{mail}: cannot read: {exc.strerror}") from None
    _apply_one(data, game=game, folder=folder, commit=commit, notify=notify)


def _apply_one(data: bytes, *, game: str | None, folder: str, commit: bool, notify: bool) -> None:
    """One mail: its blocks onto the game (-g, or the one found) as `apply` always did; a mail
    that carries a whole game file as a mailbox of one message (it may create the game, or bring
    the copy the blocks follow up to date first)."""
    from ..sharing.mail import block_games, find_game_files
    from ..sharing.mailbox import RawMessage
    from .gamefile import game_path

    wholes = find_game_files(data)
    carried = bool(wholes)
    try:
        target: str | None = game_path(game)
    except UsageError:
        if not carried:
            raise  # no game here, and nothing in the mail to make one
        target = None
    if target is not None and not carried:
        _apply_blocks(target, data, commit=commit, notify=notify)
        return
    there = target is not None and os.path.exists(target)
    if there and game is not None and target is not None:
        _same_game(target, [*(_id_in(whole) for whole in wholes), *block_games(data)])
    message = RawMessage(label=f"the mail {_mail_label(data)}".rstrip(), data=data)
    _take_in(
        [message],
        extra=target if there else None,
        new_path=game if game is not None and not os.path.lexists(game) else None,
        folder=folder,
        strict=True,
        commit=commit,
        notify=notify,
    )


def _mail_label(data: bytes) -> str:
    """How a mail is named in messages: its Subject (short), or ""."""
    import email.parser
    import email.policy

    try:
        subject = email.parser.BytesParser(policy=email.policy.default).parsebytes(data, headersonly=True)["Subject"]
    except Exception:  # a header that does not parse: the mail has no name
        return ""
    return excerpt(" ".join(str(subject).split()), 60) if subject else ""


def _apply_blocks(path: str, data: bytes, *, commit: bool, notify: bool) -> None:
    """The blocks of one mail onto one game file, all or none (what `apply MAIL` always did)."""
    from ..sharing.mail import apply_blocks, find_blocks
    from .gamefile import views, writing

    notes: list[str] = []
    with writing(path, behind_ok=True) as loaded:  # a copy behind what you saw: apply brings it up to date
        blocks = find_blocks(data, loaded.game.variant, notes)
        _note(*notes)
        try:
            outcome = apply_blocks(loaded.record, loaded.game, blocks)
        except StaleBlockError as exc:
            if not exc.missing:
                _write_fork(loaded, blocks)
            raise
        if outcome.events:
            loaded = _add(loaded, outcome.events, commit=commit)
    if outcome.events and loaded.game.states:  # nothing to show before the deal
        views(loaded)
    _say(outcome.message)
    if notify and outcome.events:
        _say(*notify_after(loaded))


def _note(*lines: str) -> None:
    """Say on stderr, a line each (made safe), what was left out: a mail skipped, blocks not read."""
    for line in lines:
        sys.stderr.write(f"splendor: {safe(line)}\n")


def _write_fork(loaded: Loaded, blocks: Sequence[MoveBlock]) -> None:
    """When `blocks` fork the game (the copies forked: a stale block), write the fork into the
    file as git's merge driver writes one (`mail.forked_file`), under the write lock the caller
    holds, and raise the ConflictError that says so and how `resolve` settles it; return when
    they fork nothing that can be written (the caller raises its own error)."""
    from .. import store
    from ..forks import describe_fork, split_fork
    from ..sharing.mail import forked_file

    forked = forked_file(loaded.data, loaded.record, loaded.game, blocks)
    fork = split_fork(forked) if forked is not None else None
    if forked is None or fork is None:
        return
    if store.read_bytes(loaded.path) != loaded.data:
        raise ConflictError(f"{loaded.path} changed while the mail was being applied: run the command again")
    store.write_atomic(loaded.path, forked, exclusive=False)
    raise ConflictError(
        f"the mail's move forks the game (the copies forked after #{fork.seq}): {loaded.path} now holds"
        f" both sides; {describe_fork(fork)}"
    )


def _peek_id(path: str) -> str:
    """The game id a file's header gives, read from its first lines ("" when none is seen)."""
    from .. import store

    try:
        head = store.read_bytes(path, 8192, head=True)
    except (OSError, GameFileError):
        return ""
    return _id_in(head)


def _id_in(data: bytes) -> str:
    """The game id in the header of a game file's bytes ("" when none is seen)."""
    import re

    found = re.search(rb'(?m)^game = "([^"\\\n]{1,100})"', data[:8192].split(b"\n[[events]]", 1)[0])
    return found.group(1).decode("utf-8", "replace") if found else ""


def _same_game(path: str, games: Sequence[str]) -> None:
    """-g names a game file: the mail must be for its game (a mail of another game is refused,
    rather than taken in elsewhere beside the file named)."""
    mine = _peek_id(path)
    others = [gid for gid in dict.fromkeys(games) if gid]
    if mine and others and mine not in others:
        raise UsageError(
            f"the mail is for game {excerpt(others[0])}, but {path} is game {excerpt(mine)}:"
            " give that game's file with -g, or leave -g out to take the mail in under --dir"
        )


_MAX_GAMES = 10_000
"""The most game files looked at under --dir."""


def _known_games(folder: str | None, game: str | None) -> tuple[dict[str, str], list[str]]:
    """The game files under `folder` (none: not looked at) and `game`, by the id in their header;
    notes on doubles."""
    known: dict[str, str] = {}
    notes: list[str] = []
    paths: list[str] = []
    if game is not None:
        paths.append(game)
    for root, dirs, files in os.walk(folder, followlinks=False) if folder is not None else ():
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [os.path.join(root, name) for name in sorted(files) if name.endswith(".toml")]
        if len(paths) > _MAX_GAMES:
            notes.append(f"more than {_MAX_GAMES} files under {folder}: the rest not looked at")
            break
    for path in paths:
        found = _peek_id(path)
        if not found:
            continue
        if found in known and os.path.realpath(known[found]) != os.path.realpath(path):
            notes.append(f"game {found} is in {known[found]} and in {path}: {known[found]} is used")
            continue
        known.setdefault(found, path)
    return known, notes


class _Tally:
    """What `apply` did with a mailbox, for its summary and its exit code."""

    def __init__(self) -> None:
        self.applied = 0
        self.games: set[str] = set()
        self.known = 0
        self.skipped = 0
        self.failures: list[SplendorError] = []
        self.retry: set[str] = set()
        """The messages (by label) to read again on the next run: a block of theirs waits for
        turns this copy lacks, or for a game not here yet."""

    def fail(self, where: str, exc: SplendorError) -> None:
        exc.args = (f"{where}: {' '.join(str(exc).split())}",)
        self.failures.append(exc)
        _say(f"failed: {exc}")

    def summary(self, messages: int) -> str:
        return (
            f"{_count(messages, 'message')} read: {_count(self.applied, 'event')} applied to"
            f" {_count(len(self.games), 'game')}, {_count(self.known, 'block')} applied already,"
            f" {self.skipped} skipped, {len(self.failures)} failed"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _take_in(
    messages: Sequence[RawMessage],
    *,
    extra: str | None,
    new_path: str | None,
    folder: str,
    strict: bool,
    commit: bool,
    notify: bool,
) -> None:
    """Every block and whole game file of `messages`, game by game (see the module docstring).

    `extra` is a game file known besides those of `folder` (-g); `new_path` is where a game mailed
    whole is created (-g naming a missing file: then, for one mail, the games of `folder` are
    not looked at), else `folder/<id>.toml`.
    `strict` (one mail given): a block for a game not here is an error (exit 2), not a note. A
    failure (a damaged block, a stale one, an illegal move) stops only its game's blocks; the
    first is raised at the end, after every game was done, so that the exit code says it.
    """
    from .. import store
    from ..sharing.mail import block_games, find_game_files

    known, notes = _known_games(None if strict and new_path else folder, extra)
    _say(*(f"note: {note}" for note in notes))
    tally = _Tally()
    holding: dict[str, list[RawMessage]] = {}
    wholes: dict[str, list[tuple[str, Loaded]]] = {}
    seen = _ReadMails(folder, extra) if not strict else None
    fresh = [message for message in messages if seen is None or not seen.has(message.data)]
    if seen is not None and len(fresh) < len(messages):
        _say(f"{_count(len(messages) - len(fresh), 'message')} read before, not read again")
    for message in fresh:
        label = message.label
        try:
            files = find_game_files(message.data)
            games = block_games(message.data)
        except GameFileError as exc:  # a mail that does not parse: skipped, the others are read
            if strict:
                raise
            _note(f"skipped {label}: {exc}")
            tally.skipped += 1
            continue
        for number, data in enumerate(files, start=1):
            try:
                whole = store.from_bytes(f"{label}: attached game file {number}", data)
            except (GameFileError, ConflictError) as exc:
                tally.fail(label, exc)
                continue
            wholes.setdefault(whole.record.header.game, []).append((label, whole))
        for found in games:
            holding.setdefault(found, []).append(message)
    for gid in sorted({*holding, *wholes}):
        path = known.get(gid)
        if path is None and gid not in wholes:
            where = ", ".join(sorted({m.label for m in holding[gid]})[:3])
            if strict:
                tally.fail(where, UsageError(f"a move block for game {excerpt(gid)}, which is not in {folder}/ nor -g"))
            else:
                tally.skipped += 1
                tally.retry.update(m.label for m in holding[gid])
                _say(f"skipped: {where}: a move block for game {gid}, which is not in {folder}/ (nor -g)")
            continue
        try:
            if path is None:
                path = _create(gid, wholes[gid][0], folder=folder, path=new_path, commit=commit)
                new_path = None
                known[gid] = path
            _take_game(path, gid, holding.get(gid, []), wholes.get(gid, []), tally=tally, commit=commit, notify=notify)
        except SplendorError as exc:
            tally.fail(gid, exc)
    if seen is not None:
        seen.add(message.data for message in fresh if message.label not in tally.retry)
    _say(tally.summary(len(messages)))
    if tally.failures:
        first = tally.failures[0]
        if len(tally.failures) > 1:
            first.args = (f"{first} (and {len(tally.failures) - 1} more failures: see above)",)
        raise first


class _ReadMails:
    """The mails a mailbox `apply` has read to the end before (by their bytes), kept in the user's
    own cache (app/cache.py: entries authenticated by its private key, never through a link), for
    these games (`--dir` and `-g`): a mail read before is not read again, so an old mail's stale
    block is said once, not on every run. A mail one of whose blocks waits for turns this copy
    lacks, or for a game not here yet, is read again next time. With the cache off
    ($SPLENDOR_NO_CACHE), every mail is read every time."""

    def __init__(self, folder: str, extra: str | None) -> None:
        where = "\0".join(os.path.abspath(p) for p in (folder, *([extra] if extra else [])))
        self.view = f"apply-mail\0{where}"

    def has(self, data: bytes) -> bool:
        from . import cache

        return cache.get(data, self.view) == "read"

    def add(self, mails: Iterable[bytes]) -> None:
        from . import cache

        for data in mails:
            cache.put(data, self.view, "read")


_SAFE_ID = r"[A-Za-z0-9][A-Za-z0-9_.@+-]{0,99}"
"""A game id that may name a file anywhere (no `:` nor `#`), without `..`."""


def _create(gid: str, whole: tuple[str, Loaded], *, folder: str, path: str | None, commit: bool) -> str:
    """Create the game that a mail carried whole, at `path` when given, else `folder/<id>.toml`;
    the setup only (the rest is appended as turns, see `_take_game`)."""
    import re

    from .. import store
    from . import memory

    label, loaded = whole
    if path is None:
        if not re.fullmatch(_SAFE_ID, gid) or ".." in gid:
            raise UsageError(f"{label}: the game id {excerpt(gid)} cannot name a file: create it yourself with -g FILE")
        path = os.path.join(folder, f"{gid}.toml")
        if os.path.lexists(path):
            raise UsageError(f"{path} exists and is not game {gid}: create it elsewhere with -g FILE")
    created = store.create(path, loaded.record.header, loaded.record.events[0])
    memory.remember(created)
    _say(f"created {path}: game {gid} ({', '.join(loaded.record.header.players)}), from {label}")
    if commit:
        _commit(created)
    return path


def _take_game(
    path: str,
    gid: str,
    messages: Sequence[RawMessage],
    wholes: Sequence[tuple[str, Loaded]],
    *,
    tally: _Tally,
    commit: bool,
    notify: bool,
) -> None:
    """The whole files and the blocks of one game, taken in under its write lock."""
    from ..sharing.mail import apply_blocks, find_game_blocks
    from .gamefile import views, writing

    with writing(path, behind_ok=True) as loaded:  # a copy behind what you saw: apply brings it up to date
        before = loaded.game.seq
        for label, whole in wholes:
            try:
                loaded = _take_whole(loaded, whole, label, tally=tally, commit=commit)
            except SplendorError as exc:
                tally.fail(f"{gid} ({label})", exc)
        blocks: dict[MoveBlock, str] = {}
        for message in messages:
            notes: list[str] = []
            try:
                found = find_game_blocks(message.data, gid, loaded.game.variant, notes)
            except SplendorError as exc:
                tally.fail(f"{gid} ({message.label})", exc)
                continue
            finally:
                _note(*(f"{message.label}: {note}" for note in notes))
            for block in found:
                blocks.setdefault(block, message.label)
        for block, label in sorted(blocks.items(), key=lambda pair: (pair[0].first, pair[0].last)):
            span = f"#{block.first}" if block.first == block.last else f"#{block.first}-{block.last}"
            try:
                outcome = apply_blocks(loaded.record, loaded.game, [block])
                if outcome.is_noop:
                    tally.known += 1
                    _say(f"{gid}: {span} applied already")
                    continue
                loaded = _add(loaded, outcome.events, commit=commit)
            except SplendorError as exc:
                if isinstance(exc, StaleBlockError) and exc.missing:
                    tally.retry.add(label)  # its turn may come in a later mail: read it again then
                elif isinstance(exc, StaleBlockError):
                    try:
                        _write_fork(loaded, [block])
                    except ConflictError as forked:  # the file is forked now: nothing more goes onto it
                        tally.fail(f"{gid} {span} ({label})", forked)
                        break
                tally.fail(f"{gid} {span} ({label})", exc)
                continue
            tally.applied += len(outcome.events)
            _say(*(f"{gid}: {line}" for line in outcome.message.splitlines() if line.startswith("applied")))
        changed = loaded.game.seq > before
    if changed:
        tally.games.add(gid)
        if loaded.game.states:  # nothing to show before the deal
            views(loaded)
        if notify:
            _say(*notify_after(loaded))


def _take_whole(loaded: Loaded, whole: Loaded, label: str, *, tally: _Tally, commit: bool) -> Loaded:
    """The events of a whole game file (mailed) that this copy lacks, appended; it must extend this copy."""
    from ..events.codec import event_digest
    from ..sharing import notify

    ours, theirs = loaded.record, whole.record
    if theirs.header != ours.header:
        raise ConflictError(f"the attached game file has another header than {loaded.path}: not the same game")
    for mine, other in zip(ours.events, theirs.events):
        if event_digest(mine) != event_digest(other):
            from ..sharing.mail import MoveBlock

            _write_fork(loaded, [MoveBlock(game=ours.header.game, events=theirs.events[1:])])
            raise ConflictError(
                f"the attached game file differs from {loaded.path} at #{mine.seq}:"
                f" the copies forked after #{mine.seq - 1}"
            )
    new = theirs.events[len(ours.events) :]
    if not new:
        if len(theirs.events) > 1:
            tally.known += 1
        return loaded
    loaded = _add(loaded, new, commit=commit)
    tally.applied += len(new)
    _say(*(f"{ours.header.game}: applied {notify.entry(loaded, event)}" for event in new))
    return loaded


def _add(loaded: Loaded, events: Sequence[Event], *, commit: bool) -> Loaded:
    """Append the events (each judged again); with `commit`, then commit them as `sync` does:
    one turn per commit, each by its player (their address from the header)."""
    from .gamefile import append

    loaded = append(loaded, *events)
    if loaded.game.sealing is not None:  # the local player's part of the protocol rides on the answer
        from .seal import write_part

        loaded = write_part(loaded, os.environ.get("SPLENDOR_PLAYER") or None)
    if commit:
        _commit(loaded)
    return loaded


def _commit(loaded: Loaded) -> None:
    """Commit what the game file has that HEAD lacks, a turn per commit (sharing/gitsync.py)."""
    from ..sharing import gitsync

    gitsync.commit_turns(gitsync.locate(loaded.path), loaded)


def _check_repository(game: str | None, folder: str) -> None:
    """--commit: the games are in a git work tree (checked before anything is written)."""
    from ..sharing import gitsync

    where = os.path.abspath(game) if game else os.path.join(os.path.abspath(folder), "_")
    while not os.path.isdir(os.path.dirname(where)):
        where = os.path.dirname(where)
    gitsync.locate(where)
