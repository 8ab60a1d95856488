"""Turn notifications: who is told, what the mail and the webhook say, and sending them.

Three parts, none of which prints or reads argv:

- settings (`load_settings`): the SMTP server and the webhooks, from `git config` (keys
  `splendor.smtp.*`, `splendor.webhook.url`) layered over `$XDG_CONFIG_HOME/splendor/notify.toml`
  (`[smtp]` and `[webhook]` tables); git config wins, key by key. A password is never read from
  a file: it comes from an environment variable (`passwordEnv`, default `SPLENDOR_SMTP_PASSWORD`)
  or from a command's first line of output (`passwordCommand`, run without a shell);
- composition (pure): the mail to the player to move (`turn_mails`), with the last moves in
  words, the board as plain text, the move block of those moves (`mail.format_block`) and how to
  answer; at the end of the game, a mail to every player with an address; and the webhook's
  JSON (`webhook_payload`), whose `content` and `text` carry one line for Discord and Slack;
- sending (`send_mails` over smtplib, `post_webhook` over urllib), every failure a one-line
  UsageError naming the server.

The settings live in notify_settings.py and the sending in notify_send.py; this module composes
the notifications and names what callers use of the other two.

Every string of a game file that reaches a header is cut to printable characters, and an
address is used only when it is a plain `local@domain`: a name or an address of a hostile file
cannot add a header (a `Bcc:`) to a mail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import UNSAFE, UsageError, excerpt, safe
from ..events import SeedsRestarted, TurnUndone

if TYPE_CHECKING:
    from email.message import EmailMessage

    from ..events import Event
    from ..events.codec import Header
    from ..store import Loaded

from .notify_send import Mail, post_webhook, send_mails
from .notify_settings import Settings, Smtp, check_url, config_path, is_address, load_settings

__all__ = [  # what callers use of notify_settings and notify_send, named here as before they were split
    "Mail",
    "Settings",
    "Smtp",
    "config_path",
    "is_address",
    "load_settings",
    "post_webhook",
    "send_mails",
]

_UNSAFE = frozenset(UNSAFE)

MAX_MOVES = 12
"""The most moves a mail lists (and its block carries): the moves since the player's last."""
SUBJECT_TAG = "[splendor]"


# -- what happened ----------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Position:
    """A game as a notification tells it."""

    game: str
    title: str
    seq: int
    last_move: str
    """The last event as `play` reports it (`#5 bob: take white blue green`)."""
    last_said: str
    """The same in words (`bob took white blue green`)."""
    to_move: str | None
    finished: bool
    winners: tuple[str, ...]
    status: str
    """`ann to move`, `game over: ann won`, or who a commit-then-reveal deal waits for."""
    waiting: tuple[str, ...]
    """Who is to act now: the player to move (every player waited for, while the seeds are dealt)."""

    @property
    def line(self) -> str:
        """One line for a chat: `splendor GAME #5: bob took white blue green; ann to move`."""
        said = f"{self.last_said}; " if self.last_said else ""
        return _header_text(f"splendor {self.game} #{self.seq}: {said}{self.status}", 300)


def position(loaded: Loaded) -> Position:
    """Where the game of `loaded` stands."""
    game = loaded.game
    variant = game.variant
    last = game.events[-1]
    to_move: str | None = None
    winners: tuple[str, ...] = ()
    if game.seeding is not None and not game.states:
        seeding = game.seeding
        waiting = tuple(name for name in seeding.players if seeding.next_step(name))
        finished, status = False, seeding.waiting()
    elif (owed := game.protocol.waiting(game)) is not None:  # a sealed game's: who owes shares
        finished, waiting, status, to_move = False, *owed
    else:
        table = game.table
        finished = table.finished
        to_move = None if finished else table.player.name
        winners = tuple(table.winners()) if finished else ()
        status = variant.whose_turn(game.state)
        waiting = tuple(table.names()) if finished else (table.player.name,)
    return Position(
        game=loaded.record.header.game,
        title=variant.title,
        seq=game.seq,
        last_move=entry(loaded, last),
        last_said=said(loaded, last),
        to_move=to_move,
        finished=finished,
        winners=winners,
        status=status,
        waiting=waiting,
    )


def entry(loaded: Loaded, event: Event) -> str:
    """An event as `play` reports it: `#7 bob: take white blue green`, `#9 undo: back to ...`."""
    from ..events import actor
    from ..projection.log import event_notation

    notation = event_notation(loaded.game.variant, event)
    who = actor(event)
    return f"#{event.seq} {who}: {notation}" if who and not notation.startswith("undo") else f"#{event.seq} {notation}"


_PAST = {
    "take": "took",
    "reserve": "reserved",
    "buy": "bought",
    "pass": "passed",
    "replenish": "replenished",
    "replenish:": "replenished:",
    "privilege": "used a privilege on",
    "royal": "took the royal card",
    "steal": "stole",
    "return": "returned",
    "token": "took the bonus token",
}


def said(loaded: Loaded, event: Event) -> str:
    """An event in words: `bob took white blue green`, `undo: back to just after #4`."""
    from ..events import actor
    from ..projection.log import event_notation

    notation = event_notation(loaded.game.variant, event)
    who = actor(event)
    verb, _, rest = notation.partition(" ")
    if who and verb in _PAST:
        return " ".join(part for part in (who, _PAST[verb], rest) if part)
    if who and not notation.startswith("undo"):
        return f"{who}: {notation}"
    return notation


# -- the webhook ------------------------------------------------------------------------------


def webhook_payload(loaded: Loaded) -> dict[str, Any]:
    """The JSON a webhook gets: the facts, and one line as `content` (Discord) and `text` (Slack)."""
    where = position(loaded)
    return {
        "game": where.game,
        "seq": where.seq,
        "last_move": where.last_move or None,
        "to_move": where.to_move,
        "finished": where.finished,
        "winners": list(where.winners),
        "content": where.line,
        "text": where.line,
    }


# -- the mails --------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Mails:
    """The mails for a position, and a note for each player who gets none (and why)."""

    mails: tuple[Mail, ...]
    notes: tuple[str, ...]


def recipients(loaded: Loaded) -> tuple[list[tuple[str, str]], list[str]]:
    """Who gets a mail now, (name, address): the player to move, or everyone once the game is
    over (while seeds are dealt, every player the deal waits for); and notes for those left out
    (a bot seat, no address, an address that is not a plain one)."""
    from ..bots import seat_spec

    header = loaded.record.header
    emails = dict(zip(header.players, header.emails or ("",) * len(header.players)))
    chosen: list[tuple[str, str]] = []
    notes: list[str] = []
    for name in position(loaded).waiting:
        address = emails.get(name, "")
        if seat_spec(name):
            notes.append(f"{name}: a bot seat, no mail")
        elif not address:
            notes.append(f"{name}: no e-mail address in the game file, no mail")
        elif not is_address(address):
            notes.append(f"{name}: the game file's address {excerpt(address)} is not a plain address, no mail")
        else:
            chosen.append((name, address))
    return chosen, notes


def answer_addresses(loaded: Loaded, name: str) -> list[str]:
    """The plain addresses of the players but `name` and the bots: where `name`'s move goes."""
    from ..bots import seat_spec

    header = loaded.record.header
    pairs = zip(header.players, header.emails or ("",) * len(header.players))
    return [address for who, address in pairs if who != name and not seat_spec(who) and is_address(address)]


def since(loaded: Loaded, name: str, most: int = MAX_MOVES) -> tuple[Event, ...]:
    """The events after `name`'s last one (at most `most`, never the setup alone; at least the
    last): a turn another player played for `name` (its `by`) is not `name`'s own, so it is told."""
    from ..events import actor

    events = loaded.record.events
    start = len(events)
    while start > 1 and not (actor(events[start - 1]) == name and not _played_by_another(events[start - 1])):
        start -= 1
    start = max(start, len(events) - most, 1)
    return events[start:] if start < len(events) else events[-1:]


def _played_by_another(event: Event) -> bool:
    """Whether `event` is a turn (a step) that another player played for its player (`by`)."""
    by = getattr(event, "by", "")
    return bool(by) and isinstance(by, str) and not isinstance(event, TurnUndone | SeedsRestarted)


def git_place(path: str) -> str | None:
    """Where the game file at `path` is in its git work tree (its path from the top, with `/`:
    the same in every clone), or None when no folder above it holds a `.git` (a game played by
    mail). Looks at the folders only: runs no git."""
    import os

    full = os.path.abspath(path)
    folder = os.path.dirname(full)
    for _ in range(64):  # a bound on the depth, whatever the file system
        if os.path.lexists(os.path.join(folder, ".git")):
            return os.path.relpath(full, folder).replace(os.sep, "/")
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def played_for(loaded: Loaded, name: str) -> list[Event]:
    """The turns (steps) that other players played for `name` on purpose (`play --for`: the
    event's `by`) since `name`'s own last one, oldest first (at most MAX_MOVES)."""
    from ..events import actor

    found: list[Event] = []
    for event in reversed(loaded.record.events):
        if actor(event) != name:
            continue
        if not _played_by_another(event):
            break
        found.append(event)
    return found[::-1][-MAX_MOVES:]


def turn_mails(loaded: Loaded, *, sender: str, now: float | None = None, git: str | None = None) -> Mails:
    """The mails that tell the players of `loaded` where it stands (see `recipients`); `git`: the
    game file's path in its git work tree (a game played over git), else None (by mail)."""
    chosen, notes = recipients(loaded)
    mails = [
        Mail(name=name, addresses=(address,), message=turn_mail(loaded, name, address, sender=sender, now=now, git=git))
        for name, address in chosen
    ]
    return Mails(mails=tuple(mails), notes=tuple(notes))


def turn_mail(
    loaded: Loaded, name: str, address: str, *, sender: str, now: float | None = None, git: str | None = None
) -> EmailMessage:
    """The mail to player `name`: the moves since theirs (and the turns played for them), the
    board, the block, and how to answer, as the game travels: over git (`git`, the file's path in
    the repository, the same in every clone: `splendor sync`, `play`, `sync`), or by mail
    (`apply`, `play`, `export --to`, the game named by its id: `games/ID.toml`, where `apply`
    puts it)."""
    from .mail import format_block

    where = position(loaded)
    variant = loaded.game.variant
    moves = since(loaded, name)
    said_last = f" (#{where.seq}: {where.last_said})" if where.last_said else f" (#{where.seq})"
    if where.finished:
        winners = where.winners
        result = (
            f"{winners[0]} won"
            if len(winners) == 1
            else f"{' and '.join(winners)} won together"
            if winners
            else "nobody won"
        )
        subject = f"{SUBJECT_TAG} game over in {where.game}: {result}{said_last}"
        opening = [f"The game {where.game} ({where.title}) is over: {result}."]
    elif where.to_move == name:
        subject = f"{SUBJECT_TAG} your turn in {where.game}{said_last}"
        opening = [f"{name}, it is your turn in the game {where.game} ({where.title})."]
    else:
        subject = f"{SUBJECT_TAG} your move in {where.game}{said_last}"
        opening = [f"{name}, the game {where.game} ({where.title}) waits for you: {where.status}."]
    path = git or f"games/{where.game}.toml"
    lines = list(opening)
    for event in played_for(loaded, name):
        lines.append(f"Played for you by {getattr(event, 'by', '')}: {entry(loaded, event)}")
    lines += ["", "Since your last move:" if len(moves) > 1 else "The last move:"]
    lines += [f"  {entry(loaded, event)}" for event in moves]
    if loaded.game.states:  # the board as `name` sees it: the others' blind reserves face down
        from ..variants.common.display import Seen, hide_blind

        board = Seen(loaded.game.seq, hide_blind(loaded.game.state, name))
        lines += ["", variant.board_text(board, width=80, color=False, ascii=True).rstrip("\n")]
    others = answer_addresses(loaded, name)
    if not where.finished:
        step = f'splendor play -g {path} "MOVE"   (see: splendor moves -g {path})'
        if loaded.game.protocol.duties and where.to_move != name:  # a sealed game's shares, not a move
            step = f"splendor seal -g {path} --as {name}"
        elif not loaded.game.states:  # the seeds of a commit-then-reveal deal, not a move
            step = f"splendor seed -g {path} --as {name}"
        if git is not None:  # the game travels over git: sync brings it, and takes the answer back
            lines += [
                "",
                f"To answer, in your clone of the game's repository (game {where.game}):",
                "  splendor sync   (brings your copy up to date)",
                f"  {step}",
                "  splendor sync   (commits your turn and pushes it)",
            ]
        else:
            lines += [
                "",
                f"To answer by e-mail (game {where.game}):",
                f"  splendor apply this-mail.eml   (brings {path} up to date)",
                f"  {step}",
            ]
            lines.append(f"  splendor export -g {path} --to {','.join(others) if others else 'ADDRESS'}")
    whole = moves[0].seq <= 2
    block = [event for event in moves if event.seq > 1]
    if git is None:
        lines += ["", "To bring your copy up to date: splendor apply this-mail.eml, or splendor apply --maildir DIR."]
        if whole:
            lines.append(f"The whole game is attached ({where.game}.toml): splendor apply creates {path} from it.")
    body = "\n".join(safe(line) for line in "\n".join(lines).split("\n")) + "\n"  # the board is lines too
    if block:
        body += "\n" + format_block(where.game, block, variant)
    attachment = loaded.data if whole else None
    return build_message(
        sender=sender,
        to_name=name,
        to_address=address,
        subject=subject,
        body=body,
        game=where.game,
        seq=where.seq,
        attachment=attachment,
        now=now,
    )


def build_message(
    *,
    sender: str,
    to_name: str,
    to_address: str | Sequence[str],
    subject: str,
    body: str,
    game: str,
    seq: int,
    attachment: bytes | None = None,
    now: float | None = None,
) -> EmailMessage:
    """A text/plain mail (SMTP policy: CRLF, lines folded), the whole game file attached if given.

    Every header value is cut to one line of printable characters; each address must be plain.

    Raises:
        UsageError: the sender or a recipient is not a plain address.
    """
    import email.policy
    from email.headerregistry import Address
    from email.message import EmailMessage
    from email.utils import formatdate, make_msgid, parseaddr

    sender_name, sender_address = parseaddr(sender)
    if not is_address(sender_address):
        raise UsageError(f"the From address {excerpt(sender)} is not a plain e-mail address (splendor.smtp.from)")
    addresses = [to_address] if isinstance(to_address, str) else list(to_address)
    for one in addresses:
        if not is_address(one):
            raise UsageError(f"{excerpt(one)} is not a plain e-mail address")
    # SMTP's policy (CRLF), headers kept on one line up to RFC 5322's limit (the standard library
    # folds a header that nearly fits by moving it whole to a second line, which readers then keep
    # with a leading space), and any non-ASCII body encoded for 7-bit transport
    message = EmailMessage(policy=email.policy.SMTP.clone(max_line_length=998, cte_type="7bit"))
    message["From"] = Address(display_name=_header_text(sender_name, 64), addr_spec=sender_address)
    names = [_header_text(to_name, 64)] if len(addresses) == 1 else [""] * len(addresses)
    message["To"] = [Address(display_name=n, addr_spec=a) for n, a in zip(names, addresses)]
    message["Subject"] = _header_text(subject, 200)
    message["Date"] = formatdate(now, usegmt=True)
    message["Message-ID"] = make_msgid("splendor", domain=sender_address.rpartition("@")[2])
    message["X-Splendor-Game"] = _header_text(game, 100)
    message["X-Splendor-Seq"] = str(int(seq))
    message.set_content(body, subtype="plain", charset="utf-8")
    if attachment is not None:
        filename = f"{_file_name(game)}.toml"
        message.add_attachment(attachment, maintype="application", subtype="toml", filename=filename)
    return message


def _header_text(text: str, most: int) -> str:
    """One line of printable characters (no CR, LF or other control), at most `most` of them."""
    cleaned = "".join(c if c.isprintable() and ord(c) not in _UNSAFE else "?" for c in text)
    return cleaned if len(cleaned) <= most else cleaned[: most - 3] + "..."


def _file_name(game: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "_.@+-") else "-" for c in game)[:100] or "game"


# -- all at once ------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Sent:
    """One notification: a mail sent, a webhook posted, or a note on who got none."""

    kind: str
    """`mail`, `webhook` or `note`."""
    line: str

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "line": self.line}


def notify_game(
    loaded: Loaded,
    settings: Settings,
    *,
    mail: bool = True,
    webhooks: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    now: float | None = None,
) -> list[Sent]:
    """Tell the players where `loaded` stands: mail (when `mail` and a server is set) and each
    webhook (`webhooks`, else the settings'). A line for each notification and each note.

    Raises:
        UsageError: nothing to notify with, or a server fails (see `send_mails`, `post_webhook`).
    """
    hooks = list(settings.webhooks if webhooks is None else webhooks)
    for url in hooks:
        check_url(url, "--webhook")
    smtp = settings.smtp if mail else None
    if smtp is None and not hooks:
        raise UsageError(
            "nothing to notify with: set a mail server (git config splendor.smtp.host ...) or a webhook"
            f" (git config splendor.webhook.url URL), or write {config_path(env)}"
        )
    out: list[Sent] = []
    if smtp is not None:
        found = turn_mails(loaded, sender=smtp.sender or "nobody@invalid", now=now, git=git_place(loaded.path))
        out += [Sent(kind="note", line=safe(note)) for note in found.notes]
        out += [Sent(kind="mail", line=line) for line in send_mails(smtp, found.mails, env=env)]
    elif mail and settings.smtp is None:
        out.append(Sent(kind="note", line="no mail: no mail server is set (splendor.smtp.host)"))
    if hooks:
        payload = webhook_payload(loaded)
        out += [Sent(kind="webhook", line=post_webhook(url, payload)) for url in hooks]
    return out


def notify_stalled(
    header: Header, seq: int, settings: Settings, text: str, *, env: Mapping[str, str] | None = None
) -> list[Sent]:
    """Tell every player of the game of `header` (at event #`seq`), once, that it is stuck and
    what settles it (`text`, one line: the failure and its command): a mail to each player with a
    plain address (when a server is set) and each webhook (`stuck`: true). A line for each
    notification and each player left out. Raises what `notify_game` raises."""
    from ..bots import seat_spec

    hooks = list(settings.webhooks)
    for url in hooks:
        check_url(url, "--webhook")
    if settings.smtp is None and not hooks:
        raise UsageError(
            "nothing to notify with: set a mail server (splendor.smtp.host) or a webhook (splendor.webhook.url)"
        )
    line = safe(f"{header.game}: stuck at #{seq}: {text}")
    out: list[Sent] = []
    smtp = settings.smtp
    if smtp is not None:
        mails = []
        for name, address in zip(header.players, header.emails or ("",) * len(header.players)):
            if seat_spec(name) or not is_address(address):
                out.append(Sent(kind="note", line=safe(f"{name}: no plain e-mail address in the game file, no mail")))
                continue
            message = build_message(
                sender=smtp.sender or "nobody@invalid",
                to_name=name,
                to_address=address,
                subject=f"{header.game}: stuck, a player must settle it",
                body=f"{line}\n\nsplendor watch stopped retrying this game until its repository changes.\n",
                game=header.game,
                seq=seq,
            )
            mails.append(Mail(name=name, addresses=(address,), message=message))
        out += [Sent(kind="mail", line=sent) for sent in send_mails(smtp, mails, env=env)]
    payload = {"game": header.game, "seq": seq, "stuck": True, "content": line, "text": line}
    out += [Sent(kind="webhook", line=post_webhook(url, payload)) for url in hooks]
    return out
