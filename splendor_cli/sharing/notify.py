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

Every string of a game file that reaches a header is cut to printable characters, and an
address is used only when it is a plain `local@domain`: a name or an address of a hostile file
cannot add a header (a `Bcc:`) to a mail.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import UNSAFE, GameFileError, UsageError, excerpt, safe

if TYPE_CHECKING:
    from email.message import EmailMessage

    from ..events import Event
    from ..projection import Game
    from ..store import Loaded

SECURITIES = ("starttls", "tls", "none")
"""How the SMTP connection is protected: STARTTLS (port 587), TLS from the start (port 465), or
nothing, only for a server on this machine."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
PASSWORD_ENV = "SPLENDOR_SMTP_PASSWORD"
MAX_CONFIG_BYTES = 64 << 10
"""The most read of notify.toml, of `git config`'s answer, and of a password command's output."""
TIMEOUT = 20.0
"""Seconds to wait for a mail server, a webhook or a password command."""
MAX_MOVES = 12
"""The most moves a mail lists (and its block carries): the moves since the player's last."""
SUBJECT_TAG = "[splendor]"

_UNSAFE = frozenset(UNSAFE)
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]{2,45}\]?")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDRESS = re.compile(rf"[A-Za-z0-9.!#$%&'*+/=?^_`{{|}}~-]{{1,64}}@{_LABEL}(?:\.{_LABEL})*")
"""A plain e-mail address, ASCII, without display name: nothing that could end a header."""

# How the settings are spelt: the git config key (as messages name it) of each TOML key.
_SMTP_KEYS = {
    "host": "splendor.smtp.host",
    "port": "splendor.smtp.port",
    "security": "splendor.smtp.security",
    "user": "splendor.smtp.user",
    "password_env": "splendor.smtp.passwordEnv",
    "password_command": "splendor.smtp.passwordCommand",
    "from": "splendor.smtp.from",
}
_WEBHOOK_KEY = "splendor.webhook.url"
_GIT_KEYS = {key.lower(): key for key in (*_SMTP_KEYS.values(), _WEBHOOK_KEY)}
"""git prints a key's last part in lower case: `splendor.smtp.passwordenv`."""


# -- settings ---------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Smtp:
    """Where and how mail is sent. The password is not kept here: `password` fetches it."""

    host: str
    port: int
    security: str
    user: str = ""
    password_env: str = PASSWORD_ENV
    password_command: str = ""
    sender: str = ""
    """The From address (`splendor.smtp.from`); "" when unset (then mail cannot be sent)."""

    @property
    def server(self) -> str:
        """`host:port`, as messages name the server."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


@attrs.frozen(kw_only=True)
class Settings:
    """What `notify` may use: a mail server (None when none is set) and webhook URLs."""

    smtp: Smtp | None = None
    webhooks: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return self.smtp is None and not self.webhooks


def config_path(env: Mapping[str, str] | None = None) -> str:
    """`$XDG_CONFIG_HOME/splendor/notify.toml`, by default `~/.config/splendor/notify.toml`."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        home = env.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".config")
    return os.path.join(base, "splendor", "notify.toml")


def load_settings(*, env: Mapping[str, str] | None = None, cwd: str | None = None, git: bool = True) -> Settings:
    """The settings of notify.toml, overlaid by `git config` (run in `cwd`), checked.

    Raises:
        UsageError: a setting is bad (the message names its key), or notify.toml cannot be read.
    """
    raw = read_config_file(config_path(env))
    if git:
        raw.update(read_git_config(cwd))
    return settings_from(raw)


def read_config_file(path: str) -> dict[str, tuple[Any, str]]:
    """The settings of a notify.toml, by git key, each with the name it has in the file; {} if none."""
    import tomllib

    from .. import store

    try:
        data = store.read_bytes(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return {}
    except (OSError, GameFileError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else str(exc).removeprefix(f"{path}: ")
        raise UsageError(f"{path}: cannot read the notification settings: {reason}") from None
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: not a TOML file: {safe(str(exc))}") from None
    raw: dict[str, tuple[Any, str]] = {}
    for table, value in doc.items():
        if table not in ("smtp", "webhook") or not isinstance(value, dict):
            raise UsageError(f"{path}: unknown setting {excerpt(table)}: the file has [smtp] and [webhook] tables")
        for key, item in value.items():
            where = f"{path}: [{table}] {key}"
            if table == "smtp" and key == "password":
                raise UsageError(f"{where}: never write a password in a file; use password_env or password_command")
            if table == "smtp" and key in _SMTP_KEYS:
                raw[_SMTP_KEYS[key]] = (item, where)
            elif table == "webhook" and key in ("url", "urls"):
                urls = item if isinstance(item, list) else [item]
                raw[_WEBHOOK_KEY] = (urls, where)
            else:
                known = ", ".join(_SMTP_KEYS) if table == "smtp" else "url"
                raise UsageError(f"{path}: [{table}] has no setting {excerpt(key)} (it has {known})")
    return raw


def read_git_config(cwd: str | None = None) -> dict[str, tuple[Any, str]]:
    """The `splendor.smtp.*` and `splendor.webhook.url` settings of git config ({} without git)."""
    from pathlib import Path

    from .git import Git, GitMissing

    try:
        done = Git(cwd=Path(cwd or ".")).run(
            "config", "-z", "--get-regexp", r"^splendor\.(smtp|webhook)\.", timeout=TIMEOUT
        )
    except GitMissing:
        return {}  # no git: notify.toml alone
    if done.returncode == 1:
        return {}  # no such key
    if done.returncode != 0:
        raise UsageError(f"git config failed: {done.first_line()}")
    if len(done.stdout) > MAX_CONFIG_BYTES:
        raise UsageError(f"git config: more than {MAX_CONFIG_BYTES} bytes of splendor settings")
    raw: dict[str, tuple[Any, str]] = {}
    urls: list[str] = []
    for item in done.stdout.decode("utf-8", "replace").split("\0"):
        if not item:
            continue
        key, _, value = item.partition("\n")
        name = _GIT_KEYS.get(key.lower())
        if name is None:
            raise UsageError(f"git config: unknown setting {excerpt(key)} (splendor.smtp.* has {_known_git_keys()})")
        if name == _WEBHOOK_KEY:
            urls.append(value)  # a key given several times: several webhooks
            raw[name] = (urls, name)
        else:
            raw[name] = (value, name)  # the last one wins, as git says
    return raw


def _known_git_keys() -> str:
    return ", ".join(key.rpartition(".")[2] for key in _SMTP_KEYS.values())


def settings_from(raw: Mapping[str, tuple[Any, str]]) -> Settings:
    """Check the raw settings (value and where it was set, by git key) and build the Settings."""

    def text(key: str, most: int = 256) -> str:
        if key not in raw:
            return ""
        value, where = raw[key]
        return _text(value, where, most)

    webhooks: list[str] = []
    if _WEBHOOK_KEY in raw:
        values, where = raw[_WEBHOOK_KEY]
        if not isinstance(values, list) or len(values) > 16:
            raise UsageError(f"{where}: one URL, or a list of at most 16")
        webhooks = [check_url(_text(value, where, 2048), where) for value in values]
    host = text("splendor.smtp.host", 255)
    if not host:
        extra = [key for key in _SMTP_KEYS.values() if key in raw and key != "splendor.smtp.host"]
        if extra and any(key != "splendor.smtp.passwordEnv" for key in extra):
            raise UsageError(f"{raw[extra[0]][1]} is set, but no mail server: set splendor.smtp.host too")
        return Settings(smtp=None, webhooks=tuple(webhooks))
    where = raw["splendor.smtp.host"][1]
    if not _HOST.fullmatch(host):
        raise UsageError(f"{where}: bad host name {excerpt(host)}")
    host = host.strip("[]")
    port = 0
    if "splendor.smtp.port" in raw:
        value, where = raw["splendor.smtp.port"]
        port = _port(value, where)
    security = text("splendor.smtp.security", 16).lower()
    if security and security not in SECURITIES:
        where = raw["splendor.smtp.security"][1]
        raise UsageError(f"{where}: {excerpt(security)} is not one of {', '.join(SECURITIES)}")
    if not security:
        security = "tls" if port == 465 else "starttls"
    if not port:
        port = {"tls": 465, "starttls": 587, "none": 25}[security]
    if security == "none" and host.lower() not in LOCAL_HOSTS:
        where = raw["splendor.smtp.security"][1]
        raise UsageError(
            f"{where}: none sends the password and the mail in clear: only for a server on this machine"
            f" ({', '.join(LOCAL_HOSTS)}), not {host}; use starttls (port 587) or tls (port 465)"
        )
    password_env = text("splendor.smtp.passwordEnv", 64) or PASSWORD_ENV
    if not _ENV_NAME.fullmatch(password_env):
        where = raw["splendor.smtp.passwordEnv"][1]
        raise UsageError(f"{where}: {excerpt(password_env)} is not the name of an environment variable")
    command = text("splendor.smtp.passwordCommand", 1024)
    if command:
        _split_command(command, raw["splendor.smtp.passwordCommand"][1])
    sender = text("splendor.smtp.from", 320)
    if sender:
        check_sender(sender, raw["splendor.smtp.from"][1])
    user = text("splendor.smtp.user", 256)
    smtp = Smtp(
        host=host,
        port=port,
        security=security,
        user=user,
        password_env=password_env,
        password_command=command,
        sender=sender,
    )
    return Settings(smtp=smtp, webhooks=tuple(webhooks))


def _text(value: Any, where: str, most: int) -> str:
    """A setting that must be a short line of printable text."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise UsageError(f"{where}: a text is expected, not {excerpt(value)}")
    text = str(value).strip()
    if len(text) > most or any(ord(c) in _UNSAFE or not c.isprintable() for c in text):
        raise UsageError(f"{where}: {excerpt(text)} must be one line of at most {most} printable characters")
    return text


def _port(value: Any, where: str) -> int:
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise UsageError(f"{where}: {excerpt(value)} is not a port (1 to 65535)")
    return int(text)


def _split_command(command: str, where: str) -> list[str]:
    import shlex

    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"{where}: cannot read the command: {exc}") from None
    if not words:
        raise UsageError(f"{where}: the command is empty")
    return words


def check_url(url: str, where: str) -> str:
    """A webhook URL: http or https, with a host. UsageError naming `where` otherwise."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        host = None
    if parts.scheme not in ("http", "https") or not host or any(c.isspace() for c in url):
        raise UsageError(f"{where}: {_url_label(url)} is not an http:// or https:// URL with a host")
    return url


def _url_label(url: str) -> str:
    """A webhook as messages name it: its scheme and server, never its path (which may hold a token)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "the URL"
    return safe(f"{parts.scheme}://{host}{port}") if parts.scheme and host else "the URL"


def check_sender(sender: str, where: str) -> str:
    """The From address (`Name <a@b.org>` or `a@b.org`): its plain address. UsageError if bad."""
    from email.utils import parseaddr

    name, address = parseaddr(sender)
    if not ADDRESS.fullmatch(address) or any(c in name for c in '"<>'):
        raise UsageError(f"{where}: {excerpt(sender)} is not an e-mail address like Name <you@example.org>")
    return address


def is_address(address: str) -> bool:
    """Whether `address` is a plain e-mail address that is safe in a header."""
    return len(address) <= 254 and ADDRESS.fullmatch(address) is not None


def password(smtp: Smtp, env: Mapping[str, str] | None = None) -> str:
    """The SMTP password: the first line that `password_command` prints, else `$password_env`.

    The command runs without a shell (its words split as a shell would), with no input.

    Raises:
        UsageError: the command fails, or no password is found.
    """
    import subprocess

    env = os.environ if env is None else env
    if smtp.password_command:
        words = _split_command(smtp.password_command, "splendor.smtp.passwordCommand")
        try:
            done = subprocess.run(
                words, capture_output=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT, check=False, env=dict(env)
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            reason = f"no answer within {TIMEOUT:g} s" if isinstance(exc, subprocess.TimeoutExpired) else exc.strerror
            raise UsageError(f"splendor.smtp.passwordCommand {excerpt(words[0])}: {reason}") from None
        if done.returncode != 0:
            raise UsageError(f"splendor.smtp.passwordCommand {excerpt(words[0])} failed (exit {done.returncode})")
        lines = done.stdout[:MAX_CONFIG_BYTES].decode("utf-8", "replace").splitlines()
        if not lines or not lines[0]:
            raise UsageError(f"splendor.smtp.passwordCommand {excerpt(words[0])} printed no password")
        return lines[0]
    found = env.get(smtp.password_env, "")
    if not found:
        raise UsageError(
            f"the mail server {smtp.server} wants a login for {excerpt(smtp.user)} but ${smtp.password_env} is unset:"
            " set it, or set splendor.smtp.passwordCommand"
        )
    return found


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
    elif game.sealing is not None and (not game.states or not game.table.finished):
        finished, waiting, status, to_move = False, *_sealed_waiting(game)
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


def _sealed_waiting(game: Game) -> tuple[tuple[str, ...], str, str | None]:
    """Who a sealed game waits for, where it stands, and who is to move: while a card the player
    to move must see waits for shares, the players who owe them (not the player to move)."""
    from ..projection.sealing import blocked, waiting

    sealing = game.sealing
    assert sealing is not None
    if not game.states:
        return sealing.waiting_for()[1], sealing.stage(), None
    state = game.table
    mover = state.player.name
    why = blocked(sealing, game.state, mover) if game.variant.at_turn_start(game.state) else ""
    if not why:
        return (mover,), game.variant.whose_turn(game.state), mover
    late = [name for _, names in waiting(sealing, game.state) for name in names if name != mover]
    owing = tuple(name for name in sealing.players if name in late)
    return owing or (mover,), f"{mover} to move, once {why}", str(mover)


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
class Mail:
    """One mail to send: who it is for (a player's name, or ""), the addresses, and the message."""

    name: str
    addresses: tuple[str, ...]
    message: EmailMessage

    @property
    def recipient(self) -> str:
        """`ann <ann@example.org>`, or the addresses."""
        if self.name and len(self.addresses) == 1:
            return f"{self.name} <{self.addresses[0]}>"
        return ", ".join(self.addresses)


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
    """The events after `name`'s last one (at most `most`, never the setup alone; at least the last)."""
    from ..events import actor

    events = loaded.record.events
    start = len(events)
    while start > 1 and actor(events[start - 1]) != name:
        start -= 1
    start = max(start, len(events) - most, 1)
    return events[start:] if start < len(events) else events[-1:]


def turn_mails(loaded: Loaded, *, sender: str, now: float | None = None) -> Mails:
    """The mails that tell the players of `loaded` where it stands (see `recipients`)."""
    chosen, notes = recipients(loaded)
    mails = [
        Mail(name=name, addresses=(address,), message=turn_mail(loaded, name, address, sender=sender, now=now))
        for name, address in chosen
    ]
    return Mails(mails=tuple(mails), notes=tuple(notes))


def turn_mail(loaded: Loaded, name: str, address: str, *, sender: str, now: float | None = None) -> EmailMessage:
    """The mail to player `name`: the moves since theirs, the board, the block, how to answer."""
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
    path = f"games/{where.game}.toml"
    lines = [*opening, "", "Since your last move:" if len(moves) > 1 else "The last move:"]
    lines += [f"  {entry(loaded, event)}" for event in moves]
    if loaded.game.states:
        lines += ["", variant.board_text(loaded.game, width=80, color=False, ascii=True).rstrip("\n")]
    others = answer_addresses(loaded, name)
    if not where.finished:
        step = f'splendor play -g {path} "MOVE"   (see: splendor moves -g {path})'
        if loaded.game.sealing is not None and where.to_move != name:  # a sealed game's shares, not a move
            step = f"splendor seal -g {path} --as {name}"
        elif not loaded.game.states:  # the seeds of a commit-then-reveal deal, not a move
            step = f"splendor seed -g {path} --as {name}"
        lines += ["", "To answer by e-mail:", f"  {step}"]
        lines.append(f"  splendor export -g {path} --to {','.join(others) if others else 'ADDRESS'}")
        lines.append("Over git: git pull, splendor play, then commit and push.")
    whole = moves[0].seq <= 2
    block = [event for event in moves if event.seq > 1]
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


# -- sending ----------------------------------------------------------------------------------


def send_mails(smtp: Smtp, mails: Sequence[Mail], *, env: Mapping[str, str] | None = None) -> list[str]:
    """Send each mail over one connection to the server; a line per mail sent.

    Raises:
        UsageError: no From address, the server cannot be reached, refuses the login or a mail
            (one line naming the server and how many mails were sent before).
    """
    import smtplib
    import ssl

    if not mails:
        return []
    if not smtp.sender:
        raise UsageError("no From address for the mails: set splendor.smtp.from (git config) or [smtp] from")
    sender = check_sender(smtp.sender, "splendor.smtp.from")
    secret = password(smtp, env) if smtp.user else ""
    sent: list[str] = []
    try:
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if smtp.security == "tls":
            client = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT)
        with client:
            client.ehlo()
            if smtp.security == "starttls":
                client.starttls(context=context)
                client.ehlo()
            if smtp.user:
                client.login(smtp.user, secret)
            for mail in mails:
                client.send_message(mail.message, from_addr=sender, to_addrs=list(mail.addresses))
                sent.append(f"mailed {mail.recipient} via {smtp.server}: {mail.message['Subject']}")
    except smtplib.SMTPAuthenticationError as exc:
        raise UsageError(f"mail server {smtp.server}: login as {excerpt(smtp.user)} refused ({_reason(exc)})") from None
    except (smtplib.SMTPException, OSError) as exc:
        done = f"; {len(sent)} of {len(mails)} mails sent" if sent else "; no mail sent"
        raise UsageError(f"mail server {smtp.server}: {_reason(exc)}{done}") from None
    return [safe(line) for line in sent]


def _reason(exc: BaseException) -> str:
    """Why the server failed, in one short line."""
    import smtplib
    import socket

    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "refused the recipient " + ", ".join(excerpt(r) for r in list(exc.recipients)[:3])
    if isinstance(exc, smtplib.SMTPResponseException):
        said = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"{exc.smtp_code} {safe(' '.join(said.split()))[:160]}"
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return f"{safe(str(exc))[:160]} (is splendor.smtp.security right?)"
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"no answer within {TIMEOUT:g} s"
    if isinstance(exc, socket.gaierror):
        return f"unknown host ({exc.strerror})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = " ".join(str(exc).split()) or type(exc).__name__
    return safe(text)[:160]


def post_webhook(url: str, payload: Mapping[str, Any], *, timeout: float = TIMEOUT) -> str:
    """POST `payload` as JSON to `url` (a redirect is an error); a line saying so.

    Raises:
        UsageError: the server cannot be reached or answers an error (the message names the
            server, never the URL's path, which may hold a token).
    """
    import json
    import urllib.error
    import urllib.request

    from .. import __version__

    label = _url_label(url)
    check_url(url, "the webhook URL")
    request = urllib.request.Request(
        url,
        data=json.dumps(payload, ensure_ascii=True).encode("ascii"),
        headers={"Content-Type": "application/json", "User-Agent": f"splendor-cli/{__version__}"},
        method="POST",
    )
    try:
        # urllib follows a 301/302/303 as a GET without the payload (and refuses a 307/308 of a
        # POST): whatever answers then, the webhook did not get the notification
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read(MAX_CONFIG_BYTES)
            status = int(response.status)
            redirected = response.geturl() != url
    except urllib.error.HTTPError as exc:
        hint = " (a redirect: give the final URL)" if 300 <= exc.code < 400 else ""
        raise UsageError(f"webhook {label}: HTTP {exc.code} {safe(str(exc.reason))[:80]}{hint}") from None
    except urllib.error.URLError as exc:
        reason = exc.reason if isinstance(exc.reason, BaseException) else OSError(str(exc.reason))
        raise UsageError(f"webhook {label}: {_reason(reason)}") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"webhook {label}: {_reason(exc)}") from None
    if redirected:
        raise UsageError(f"webhook {label}: it redirects elsewhere, so nothing was posted: give the final URL")
    return f"posted to {label}: HTTP {status}"


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
        found = turn_mails(loaded, sender=smtp.sender or "nobody@invalid", now=now)
        out += [Sent(kind="note", line=safe(note)) for note in found.notes]
        out += [Sent(kind="mail", line=line) for line in send_mails(smtp, found.mails, env=env)]
    elif mail and settings.smtp is None:
        out.append(Sent(kind="note", line="no mail: no mail server is set (splendor.smtp.host)"))
    if hooks:
        payload = webhook_payload(loaded)
        out += [Sent(kind="webhook", line=post_webhook(url, payload)) for url in hooks]
    return out
