"""Where notifications go, and how: the SMTP server and the webhooks (`load_settings`), from
`git config` (keys `splendor.smtp.*`, `splendor.webhook.url`) layered over
`$XDG_CONFIG_HOME/splendor/notify.toml` (`[smtp]` and `[webhook]` tables); git config wins, key
by key. A password is never read from a file: it comes from an environment variable
(`passwordEnv`, default `SPLENDOR_SMTP_PASSWORD`) or from a command's first line of output
(`passwordCommand`, run without a shell: `password`). Every value is checked as it is read (a
host, a port, a plain address, an http(s) URL), each problem a one-line UsageError naming the
setting.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import UNSAFE, GameFileError, UsageError, excerpt, safe

SECURITIES = ("starttls", "tls", "none")
"""How the SMTP connection is protected: STARTTLS (port 587), TLS from the start (port 465), or
nothing, only for a server on this machine."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
PASSWORD_ENV = "SPLENDOR_SMTP_PASSWORD"
MAX_CONFIG_BYTES = 64 << 10
"""The most read of notify.toml, of `git config`'s answer, and of a password command's output."""
TIMEOUT = 20.0
"""Seconds to wait for a mail server, a webhook or a password command."""

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
        raise UsageError(f"{where}: {url_label(url)} is not an http:// or https:// URL with a host")
    return url


def url_label(url: str) -> str:
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
