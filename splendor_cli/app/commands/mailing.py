"""The commands that send and take in mail: `notify`, `export` and `apply` (what `--notify` does
after a command is notices.py's `notify_after`).

Registered with `@command` as every family of commands is (app/registry.py imports it), and as
light to import: the game file's helpers (gamefile.py, output.py), the sharing modules and the
store are imported inside the bodies.

`apply` takes one mail (a file, or stdin) as it always did, and also every message of a Maildir
(`--maildir`) or an mbox file (`--mbox`); taking them in is the sharing floor's service
(sharing/inbox.py), given this machine's gate, cache and key (`_desk`); `--commit` commits each
turn to git, authored by its player; `--notify` then tells the player to move.
"""

from __future__ import annotations

import os
import sys

from ...errors import GameFileError, UsageError, excerpt, safe
from ..params import GAME, JSON, NOTIFY, Param, command

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ...events import Event
    from ...sharing.mail_desk import Desk
    from ...store import Loaded


def _say(*lines: str) -> None:
    """Print lines that quote files or mails: each made safe."""
    from ..output import out

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
    from ...sharing import notify as notifying
    from ..output import json_text, out
    from ..services.gamefile import load
    from ..services.notices import settings_for

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
    from ...sharing.mail import armour_game, export_text, printable_game
    from ..output import out
    from ..services.gamefile import load

    loaded = load(game)
    text = export_text(loaded.record, last)
    if to is None:
        out(text + ("\n" + armour_game(printable_game(loaded.data, loaded.record)) if whole else ""))
        return
    _say(_send_block(loaded, text, last=last, to=to, whole=whole))


def _send_block(loaded: Loaded, block: str, *, last: int, to: str, whole: bool) -> str:
    """Mail the block of the last `last` events to the addresses of `to`; the line that says so."""
    from ...sharing import notify

    addresses = [part.strip() for part in to.split(",") if part.strip()]
    if not addresses:
        raise UsageError("--to: give at least one address")
    for address in addresses:
        if not notify.is_address(address):
            raise UsageError(f"--to: {excerpt(address)} is not an e-mail address like bob@example.org")
    from ..services.notices import settings_for

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
    from ... import store
    from ...sharing import mailbox
    from ...sharing.inbox import take_in

    if maildir is not None and mbox is not None:
        raise UsageError("--maildir and --mbox exclude each other: run apply once for each")
    if commit:
        _check_repository(game, folder)
    if maildir is not None or mbox is not None:
        if mail is not None:
            raise UsageError("give a mail, or --maildir/--mbox, not both")
        read = mailbox.read_maildir(maildir) if maildir is not None else mailbox.read_mbox(mbox or "")
        _say(*(f"skipped: {note}" for note in read.notes))
        desk = _desk(folder, game, commit=commit, notify=notify)
        try:
            take_in(desk, read.messages, extra=game, new_path=None, folder=folder, strict=False)
        finally:
            _play_raced(desk)
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
    desk = _desk(folder, game, commit=commit, notify=notify)
    try:
        _apply_one(desk, data, game=game, folder=folder)
    finally:
        _play_raced(desk)


def _play_raced(desk: Desk) -> None:
    """The user's moves that a race of protocol steps left out (the mail's steps came first: the
    rule of `sharing.mail_desk.race_side`), played again after them; a line each."""
    if desk.raced:
        from ..services.races import play_raced

        play_raced(desk.raced, os.environ.get("SPLENDOR_PLAYER") or None, _say)


def _apply_one(desk: Desk, data: bytes, *, game: str | None, folder: str) -> None:
    """One mail: its blocks onto the game (-g, or the one found) as `apply` always did; a mail
    that carries a whole game file as a mailbox of one message (it may create the game, or bring
    the copy the blocks follow up to date first)."""
    from ...sharing.inbox import apply_mail, id_in, same_game, take_in
    from ...sharing.mail import block_games, find_game_files
    from ...sharing.mailbox import RawMessage
    from ..services.gamefile import game_path

    wholes = find_game_files(data)
    carried = bool(wholes)
    try:
        target: str | None = game_path(game)
    except UsageError:
        if not carried:
            raise  # no game here, and nothing in the mail to make one
        target = None
    if target is not None and not carried:
        apply_mail(desk, target, data)
        return
    there = target is not None and os.path.exists(target)
    if there and game is not None and target is not None:
        same_game(target, [*(id_in(whole) for whole in wholes), *block_games(data)])
    message = RawMessage(label=f"the mail {_mail_label(data)}".rstrip(), data=data)
    take_in(
        desk,
        [message],
        extra=target if there else None,
        new_path=game if game is not None and not os.path.lexists(game) else None,
        folder=folder,
        strict=True,
    )


def _mail_label(data: bytes) -> str:
    """How a mail is named in messages: its Subject (short), or "". Only the Subject field is
    parsed, and at most `mail_bounds.MAX_SUBJECT` bytes of it."""
    import email.parser
    import email.policy

    from ...sharing.mail_bounds import subject as subject_field

    field = subject_field(data)
    if field is None:
        return ""
    try:
        subject = email.parser.BytesParser(policy=email.policy.default).parsebytes(field, headersonly=True)["Subject"]
    except Exception:  # a header that does not parse: the mail has no name
        return ""
    return excerpt(" ".join(str(subject).split()), 60) if subject else ""


def _note(*lines: str) -> None:
    """Say on stderr, a line each (made safe), what was left out: a mail skipped, blocks not read."""
    for line in lines:
        sys.stderr.write(f"splendor: {safe(line)}\n")


class _ReadMails:
    """What a mailbox `apply` remembers of the mails it read before (by their bytes), kept in the
    user's own cache (app/services/cache.py: entries authenticated by its private key, never
    through a link), for these games (`--dir` and `-g`): a mail read to the end is not read again,
    so an old mail's stale block is said once, not on every run; of a mail some blocks of which
    wait (for turns this copy lacks, for a fork to be settled, for a game not here yet), the
    blocks dealt with are remembered, never tried again, and the mail is read again (one waiting
    only for games not here, once one of them is here). With the cache off ($SPLENDOR_NO_CACHE),
    every mail is read every time."""

    def __init__(self, folder: str, extra: str | None) -> None:
        where = "\0".join(os.path.abspath(p) for p in (folder, *([extra] if extra else [])))
        self.view = f"apply-mail\0{where}"

    def recall(self, data: bytes) -> str | None:
        from ..services import cache

        return cache.get(data, self.view)

    def keep(self, data: bytes, memo: str) -> None:
        from ..services import cache

        if cache.get(data, self.view) != memo:
            cache.put(data, self.view, memo)


def _desk(folder: str, game: str | None, *, commit: bool, notify: bool) -> Desk:
    """What taking mail in asks of this machine (sharing/inbox.py): the user's gate, their sealed
    games' part (as $SPLENDOR_PLAYER, else their key's seat), the mails read before (the cache),
    and, after each game changed, its views cached and (`notify`) its player to move told."""
    from ...sharing.mail_desk import Desk
    from ..services.gamefile import append, gate, views

    def own_part(loaded: Loaded) -> Loaded:
        """The local player's part of the protocol (a sealed game's) written, then committed (--commit)."""
        from ..services.table_part import part

        loaded = part(loaded.game).write_part(loaded, os.environ.get("SPLENDOR_PLAYER") or None)
        if commit:
            _commit(loaded)
        return loaded

    def add(loaded: Loaded, events: Sequence[Event]) -> Loaded:
        return own_part(append(loaded, *events))  # the local player's part rides on the answer

    def went_on(loaded: Loaded) -> Loaded:
        from ..services.table_part import go_on_from

        go_on_from(loaded)  # the key goes on in the copy a race's rule kept, and writes its part there
        return own_part(loaded)

    def changed(loaded: Loaded) -> None:
        if loaded.game.states:  # nothing to show before the deal
            views(loaded)
        if notify:
            from ..services.notices import notify_after

            _say(*notify_after(loaded))

    return Desk(
        gate=gate(),
        add=add,
        went_on=went_on,
        changed=changed,
        say=_say,
        note=_note,
        read_before=_ReadMails(folder, game),
        commit=_commit if commit else None,
    )


def _commit(loaded: Loaded) -> None:
    """Commit what the game file has that HEAD lacks, a turn per commit (sharing/gitsync.py)."""
    from ...sharing import gitsync

    gitsync.commit_turns(gitsync.locate(loaded.path), loaded)


def _check_repository(game: str | None, folder: str) -> None:
    """--commit: the games are in a git work tree (checked before anything is written)."""
    from ...sharing import gitsync

    where = os.path.abspath(game) if game else os.path.join(os.path.abspath(folder), "_")
    while not os.path.isdir(os.path.dirname(where)):
        where = os.path.dirname(where)
    gitsync.locate(where)
