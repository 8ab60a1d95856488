"""Turn notifications through real servers: an SMTP server (aiosmtpd) and an HTTP server for the
webhook, both on 127.0.0.1 in the test; the settings from a real notify.toml and git config.

The servers are shared with tests/app/test_mailing_cli.py (`smtp_sink`, `webhook_sink`,
`notify_settings`).
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import http.server
import json
import os
import random
import shutil
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from helpers import PATIENCE, cli, git, random_game, require

from splendor_cli import store
from splendor_cli.errors import UsageError
from splendor_cli.events.codec import Header
from splendor_cli.sharing import notify

# the test's server takes a login over its plain connection, as no real server should
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")

# -- the servers ------------------------------------------------------------------------------


class SmtpSink:
    """What an SMTP server received: each envelope's sender, recipients and raw message; the logins."""

    def __init__(self) -> None:
        self.envelopes: list[tuple[str, list[str], bytes]] = []
        self.logins: list[tuple[bytes, bytes]] = []
        self.port = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        content = envelope.original_content or envelope.content
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos), bytes(content)))
        return "250 OK"

    def messages(self) -> list[EmailMessage]:
        """Each message received, parsed."""
        parsed = []
        for _, _, data in self.envelopes:
            message = email.message_from_bytes(data, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            parsed.append(message)
        return parsed


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def smtp_sink(login: tuple[str, str] | None = None) -> Iterator[SmtpSink]:
    """A real SMTP server on 127.0.0.1; with `login`, it requires AUTH with that user and password
    (over the plain connection: allowed here only, `auth_require_tls=False`)."""
    controller_module = require("aiosmtpd.controller")
    from aiosmtpd.smtp import AuthResult, LoginPassword

    sink = SmtpSink()
    options: dict[str, Any] = {}
    if login is not None:
        user, secret = login[0].encode(), login[1].encode()

        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            if isinstance(data, LoginPassword):
                sink.logins.append((data.login, data.password))
                return AuthResult(success=(data.login, data.password) == (user, secret), handled=False)
            return AuthResult(success=False, handled=False)

        options = {"authenticator": authenticator, "auth_require_tls": False, "auth_required": True}
    sink.port = free_port()
    controller = controller_module.Controller(
        sink, hostname="127.0.0.1", port=sink.port, ready_timeout=PATIENCE, **options
    )
    controller.start()
    try:
        yield sink
    finally:
        controller.stop()


class WebhookSink:
    """What an HTTP server received: each POST's path, headers and JSON body."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], Any]] = []
        self.gets: list[str] = []
        self.status = 204
        self.url = ""


@contextlib.contextmanager
def webhook_sink() -> Iterator[WebhookSink]:
    """A real HTTP server on 127.0.0.1 in a thread, answering each POST with `sink.status`."""
    sink = WebhookSink()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(size)
            sink.posts.append((self.path, dict(self.headers.items()), json.loads(body)))
            self.send_response(sink.status)
            if 300 <= sink.status < 400:
                self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            sink.gets.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    sink.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/secret-token"
    try:
        yield sink
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def settings_writer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """A function that writes notify.toml (in a private $XDG_CONFIG_HOME); git config isolated
    (an empty global file, no system file), the folder `tmp_path`, no password in the environment."""
    config = tmp_path / "config"
    (config / "splendor").mkdir(parents=True)
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("SPLENDOR_SMTP_PASSWORD", "MY_SMTP_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)

    def write(text: str) -> Path:
        path = config / "splendor" / "notify.toml"
        path.write_text(text)
        return path

    return write


@pytest.fixture
def notify_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """`settings_writer` for the test."""
    return settings_writer(tmp_path, monkeypatch)


def local_smtp(port: int, extra: str = "") -> str:
    """notify.toml for the test's SMTP server."""
    return (
        f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\nfrom = "Splendor <splendor@example.org>"\n'
        + extra
    )


def new_game(path: Path, players: str = "ann=ann@example.org,bob=bob@example.org") -> None:
    code, _, err = cli("new", "-g", path, "--players", players, "--seed", 1)
    assert code == 0, err


def play(path: Path, *move: str) -> None:
    code, _, err = cli("play", "-g", path, *move)
    assert code == 0, err


# -- settings ---------------------------------------------------------------------------------


def test_settings_come_from_the_file_and_git_config_wins(notify_settings: Any, tmp_path: Path) -> None:
    """notify.toml gives every setting; git config overrides key by key (host here), and its
    webhook URLs (several values of one key) replace the file's."""
    notify_settings(
        '[smtp]\nhost = "mail.example.org"\nuser = "ann"\nfrom = "ann@example.org"\npassword_env = "MY_SMTP_SECRET"\n'
        '[webhook]\nurl = "https://hooks.example.org/a"\n'
    )
    settings = notify.load_settings()
    assert settings.smtp == notify.Smtp(
        host="mail.example.org",
        port=587,
        security="starttls",
        user="ann",
        password_env="MY_SMTP_SECRET",
        sender="ann@example.org",
    )
    assert settings.webhooks == ("https://hooks.example.org/a",)
    git(tmp_path, "init", "-q", "repo")
    repo = tmp_path / "repo"
    for key, value in [
        ("splendor.smtp.host", "smtp.example.net"),
        ("splendor.smtp.port", "465"),
        ("splendor.smtp.passwordCommand", "pass show mail"),
    ]:
        git(repo, "config", key, value)
    git(repo, "config", "--add", "splendor.webhook.url", "https://one.example.org/x")
    git(repo, "config", "--add", "splendor.webhook.url", "http://two.example.org/y")
    layered = notify.load_settings(cwd=str(repo))
    assert layered.smtp is not None
    assert (layered.smtp.host, layered.smtp.port, layered.smtp.security) == ("smtp.example.net", 465, "tls")
    assert layered.smtp.password_command == "pass show mail" and layered.smtp.user == "ann"
    assert layered.webhooks == ("https://one.example.org/x", "http://two.example.org/y")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('[smtp]\nhost = "mail.example.org"\nsecurity = "none"\n', "[smtp] security"),
        ('[smtp]\nhost = "127.0.0.1"\nport = 99999\n', "[smtp] port"),
        ('[smtp]\nhost = "127.0.0.1"\nsecurity = "ssl"\n', "[smtp] security"),
        ('[smtp]\nhost = "127.0.0.1"\npassword = "hunter2"\n', "[smtp] password"),
        ('[smtp]\nhost = "127.0.0.1"\nfrom = "not an address"\n', "[smtp] from"),
        ('[smtp]\nhost = "bad host\\r\\nname"\n', "[smtp] host"),
        ('[smtp]\nhost = "127.0.0.1"\npassword_env = "A-B"\n', "[smtp] password_env"),
        ('[smtp]\nhost = "127.0.0.1"\nnope = 1\n', "nope"),
        ('[webhook]\nurl = "ftp://example.org/x"\n', "[webhook] url"),
        ("[other]\nx = 1\n", "other"),
        ("[smtp\n", "not a TOML file"),
    ],
)
def test_a_bad_setting_is_a_usage_error_naming_its_key(notify_settings: Any, text: str, named: str) -> None:
    """Each bad setting (security none off this machine, a port out of range, a password in the
    file, ...) is refused with one line that names the key."""
    notify_settings(text)
    with pytest.raises(UsageError) as caught:
        notify.load_settings()
    assert named in str(caught.value) and "\n" not in str(caught.value)


def test_a_bad_git_setting_names_the_git_key(notify_settings: Any, tmp_path: Path) -> None:
    """In git config the key is named as git spells it."""
    git(tmp_path, "init", "-q", "repo")
    git(tmp_path / "repo", "config", "splendor.smtp.host", "127.0.0.1")
    git(tmp_path / "repo", "config", "splendor.smtp.port", "smtp")
    with pytest.raises(UsageError, match=r"splendor\.smtp\.port: 'smtp' is not a port"):
        notify.load_settings(cwd=str(tmp_path / "repo"))


# -- mails, through the real SMTP server ---------------------------------------------------------


def test_the_player_to_move_gets_a_mail_whose_block_applies_to_their_copy(notify_settings: Any, tmp_path: Path) -> None:
    """`notify` mails bob (to move): the subject names the game and ann's move, the body holds the
    board as plain text, and its move block applies cleanly to bob's copy of the game."""
    ann, bob = tmp_path / "ann.toml", tmp_path / "bob.toml"
    new_game(ann)
    shutil.copy(ann, bob)
    play(ann, "take", "white", "blue", "green")
    game_id = store.read(ann).record.header.game
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        code, out, err = cli("notify", "-g", ann)
    assert code == 0, err
    assert out.startswith(f"mailed bob <bob@example.org> via 127.0.0.1:{sink.port}: [splendor] your turn in {game_id}")
    [(sender, recipients, raw)] = sink.envelopes
    assert sender == "splendor@example.org" and recipients == ["bob@example.org"]
    [message] = sink.messages()
    assert message["Subject"] == f"[splendor] your turn in {game_id} (#2: ann took white blue green)"
    assert message["To"] == "bob <bob@example.org>" and message["X-Splendor-Game"] == game_id
    assert message["X-Splendor-Seq"] == "2" and message["Message-ID"] and message["Date"]
    body = message.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    assert "#2 ann: take white blue green" in text
    assert "Bank    w white 3   u blue 3   g green 3" in text and "| Level 3 |" in text  # the board, plain
    assert "\x1b" not in text and "splendor export -g" in text and "--to ann@example.org" in text
    mail = tmp_path / "turn.eml"
    mail.write_bytes(raw)
    code, out, err = cli("apply", "-g", bob, mail)
    assert code == 0, err
    assert f"{game_id}: applied #2 ann: take white blue green" in out  # from the attached game: the block, said once
    assert out.endswith("1 event applied to 1 game, 0 blocks applied already, 0 skipped, 0 failed\n")
    assert bob.read_bytes() == ann.read_bytes()


def test_a_password_from_the_environment_reaches_the_server(
    notify_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `user` set, notify logs in with the password of the variable `password_env` names."""
    path = tmp_path / "g.toml"
    new_game(path)
    monkeypatch.setenv("MY_SMTP_SECRET", "s3cret pass")
    with smtp_sink(login=("ann", "s3cret pass")) as sink:
        notify_settings(local_smtp(sink.port, 'user = "ann"\npassword_env = "MY_SMTP_SECRET"\n'))
        code, out, err = cli("notify", "-g", path)
    assert code == 0, err
    assert sink.logins == [(b"ann", b"s3cret pass")] and len(sink.envelopes) == 1
    assert "s3cret" not in out


def test_a_password_from_a_command_reaches_the_server(notify_settings: Any, tmp_path: Path) -> None:
    """`password_command` runs without a shell; the first line it prints is the password."""
    path = tmp_path / "g.toml"
    new_game(path)
    helper = tmp_path / "secret.py"
    helper.write_text("print('from a command')\nprint('second line, ignored')\n")
    command = f"{sys.executable} '{helper}'"
    with smtp_sink(login=("ann@example.org", "from a command")) as sink:
        notify_settings(local_smtp(sink.port, f'user = "ann@example.org"\npassword_command = "{command}"\n'))
        code, _, err = cli("notify", "-g", path)
    assert code == 0, err
    assert sink.logins == [(b"ann@example.org", b"from a command")] and len(sink.envelopes) == 1


def test_a_refused_login_or_no_server_is_one_line_exit_2(
    notify_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong password, a missing one, or no server listening: one line naming the server, exit 2."""
    path = tmp_path / "g.toml"
    new_game(path)
    monkeypatch.setenv("SPLENDOR_SMTP_PASSWORD", "wrong")
    with smtp_sink(login=("ann", "right")) as sink:
        notify_settings(local_smtp(sink.port, 'user = "ann"\n'))
        code, out, err = cli("notify", "-g", path)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert f"mail server 127.0.0.1:{sink.port}: login as 'ann' refused" in err and "wrong" not in err
        monkeypatch.delenv("SPLENDOR_SMTP_PASSWORD")
        code, _, err = cli("notify", "-g", path)
        assert code == 2 and "$SPLENDOR_SMTP_PASSWORD is unset" in err and err.count("\n") == 1
    assert sink.envelopes == []
    notify_settings(local_smtp(free_port()))
    code, _, err = cli("notify", "-g", path)
    assert code == 2 and err.count("\n") == 1 and "mail server 127.0.0.1:" in err and "refused" in err
    assert "Traceback" not in err


def test_an_address_or_a_name_cannot_add_a_header(notify_settings: Any, tmp_path: Path) -> None:
    """A game file's e-mail addresses are the file's strings: one carrying CRLF and a `Bcc:` gets
    no mail at all, and whatever the text put in a header, it stays one line."""
    path = tmp_path / "g.toml"
    header = Header(
        game="2026-12-02-ann-bob-1a2b",
        variant="base",
        players=("ann", "bob"),
        created="2026-12-02T00:00:00Z",
        emails=("ann@example.org", "bob@example.org\r\nBcc: eve@example.org"),
    )
    from helpers import deal

    loaded = store.create(path, header, deal(("ann", "bob"), random.Random(1)))
    loaded = store.append(loaded, loaded.game.decide(loaded.game.variant.parse_moves("take red red")[0]))
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        code, out, err = cli("notify", "-g", path)
    assert code == 0, err
    assert sink.envelopes == [] and "not a plain address, no mail" in out and "\r" not in out
    message = notify.build_message(
        sender="Splendor <splendor@example.org>",
        to_name="bob\r\nBcc: eve@example.org",
        to_address="bob@example.org",
        subject="[splendor] \x1b[31m#2\nBcc: eve@example.org",
        body="hello\n",
        game="x\r\nX-Evil: 1",
        seq=2,
    )
    data = message.as_bytes()
    parsed = email.message_from_bytes(data, policy=email.policy.default)
    assert parsed["Bcc"] is None and parsed["X-Evil"] is None
    assert [key for key in parsed if key.lower() == "to"] == ["To"]
    for key, value in parsed.items():
        assert "\n" not in str(value) and "\x1b" not in str(value), key
    with pytest.raises(UsageError):
        notify.build_message(
            sender="s@example.org",
            to_name="",
            to_address="a@b.org\r\nBcc: e@x.org",
            subject="",
            body="",
            game="g",
            seq=1,
        )


def test_at_the_end_every_player_with_an_address_hears_who_won(notify_settings: Any, tmp_path: Path) -> None:
    """A finished game mails every player who has an address (not p2, who has none) the result."""
    finished = random_game(3, players=3)
    assert finished.state.finished
    header = Header(
        game="2026-12-02-p1-p2-p3-1a2b",
        variant="base",
        players=("p1", "p2", "p3"),
        created="2026-12-02T00:00:00Z",
        emails=("p1@example.org", "", "p3@example.org"),
    )
    path = tmp_path / "done.toml"
    loaded = store.create(path, header, finished.events[0])
    loaded = store.append(loaded, *finished.events[1:])
    winners = loaded.game.table.winners()
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        code, out, err = cli("notify", "-g", path)
    assert code == 0, err
    assert sorted(rcpt for _, (rcpt,), _ in sink.envelopes) == ["p1@example.org", "p3@example.org"]
    assert "p2: no e-mail address in the game file, no mail" in out
    for message in sink.messages():
        assert message["Subject"].startswith(f"[splendor] game over in {header.game}: {' and '.join(winners)} won")
        body = message.get_body(("plain",))
        assert body is not None and "is over" in body.get_content()


def test_bot_seats_get_no_mail_but_the_webhook_fires(notify_settings: Any, tmp_path: Path) -> None:
    """When a bot seat is to move, nobody is mailed; the webhook still says whose turn it is."""
    path = tmp_path / "solo.toml"
    new_game(path, "ann=ann@example.org,bot:greedy")
    play(path, "take", "red", "red")
    with smtp_sink() as sink, webhook_sink() as hook:
        notify_settings(local_smtp(sink.port, f'[webhook]\nurl = "{hook.url}"\n'))
        code, out, err = cli("notify", "-g", path)
    assert code == 0, err
    assert sink.envelopes == [] and "bot:greedy: a bot seat, no mail" in out
    [(_, _, payload)] = hook.posts
    assert payload["to_move"] == "bot:greedy"


# -- the webhook --------------------------------------------------------------------------------


def test_the_webhook_gets_json_that_chat_services_take(notify_settings: Any, tmp_path: Path) -> None:
    """`notify --webhooks-only --webhook URL` POSTs the facts and one line (`content` for Discord, `text`
    for Slack), with a User-Agent; the output names the server, never the URL's path (a token)."""
    path = tmp_path / "g.toml"
    new_game(path)
    play(path, "take", "white", "blue", "green")
    game_id = store.read(path).record.header.game
    notify_settings('[smtp]\nhost = "127.0.0.1"\nsecurity = "none"\nfrom = "s@example.org"\n')
    with webhook_sink() as hook:
        code, out, err = cli("notify", "-g", path, "--webhooks-only", "--webhook", hook.url, "--json")
    assert code == 0, err
    [(where, headers, payload)] = hook.posts
    assert where == "/hooks/secret-token"
    assert headers["Content-Type"] == "application/json" and headers["User-Agent"].startswith("splendor-cli/")
    line = f"splendor {game_id} #2: ann took white blue green; bob to move"
    assert payload == {
        "game": game_id,
        "seq": 2,
        "last_move": "#2 ann: take white blue green",
        "to_move": "bob",
        "finished": False,
        "winners": [],
        "content": line,
        "text": line,
    }
    report = json.loads(out)
    assert report["sent"] == [{"kind": "webhook", "line": report["sent"][0]["line"]}]
    assert "secret-token" not in out and "127.0.0.1" in out


def test_a_failing_webhook_is_one_line_exit_2_without_its_path(notify_settings: Any, tmp_path: Path) -> None:
    """An error answer, or a redirect (urllib follows it as a GET, without the payload), is one
    line naming the server, exit 2."""
    path = tmp_path / "g.toml"
    new_game(path)
    notify_settings("")
    with webhook_sink() as hook:
        for status, said in (
            (500, "HTTP 500"),
            (302, "it redirects elsewhere, so nothing was posted"),
            (307, "HTTP 307"),
        ):
            hook.status = status
            code, _, err = cli("notify", "-g", path, "--webhook", hook.url)
            assert code == 2 and err.count("\n") == 1 and said in err and "secret-token" not in err
        assert len(hook.posts) == 3 and hook.gets == ["/elsewhere"]
    code, _, err = cli("notify", "-g", path)
    assert code == 2 and "nothing to notify with" in err


def test_a_duel_step_is_told_in_words(tmp_path: Path) -> None:
    """A Duel's steps read as sentences too (the webhook's line), and the board is in the mail."""
    path = tmp_path / "duel.toml"
    code, _, err = cli(
        "new", "-g", path, "--players", "ann=ann@example.org,bob=bob@example.org", "--variant", "duel", "--seed", 2
    )
    assert code == 0, err
    play(path, "take b2 c3 d4")
    loaded = store.read(path)
    payload = notify.webhook_payload(loaded)
    assert payload["content"].endswith("#2: ann took b2 c3 d4 (white white black); bob to move")
    found = notify.turn_mails(loaded, sender="s@example.org", now=0)
    [mail] = found.mails
    body = mail.message.get_body(("plain",))
    assert body is not None and "Splendor Duel" in body.get_content() and "BEGIN SPLENDOR MOVE" in body.get_content()
    assert os.fspath(path)  # the file is left as it was: composing reads only


def test_while_the_seeds_are_dealt_the_players_waited_for_are_told_to_seed(tmp_path: Path) -> None:
    """In a commit-then-reveal deal, the players the deal waits for get the mail, which says to
    run `splendor seed` (there is no board yet), with the whole game attached."""
    path = tmp_path / "s.toml"
    code, _, err = cli("new", "-g", path, "--players", "ann=ann@example.org,bob=bob@example.org", "--commit-seed")
    assert code == 0, err
    code, _, err = cli("seed", "-g", path, "--as", "ann")
    assert code == 0, err
    loaded = store.read(path)
    game_id = loaded.record.header.game
    [mail] = notify.turn_mails(loaded, sender="s@example.org", now=0).mails
    assert mail.recipient == "bob <bob@example.org>"
    body = mail.message.get_body(("plain",))
    assert body is not None and f"splendor seed -g games/{game_id}.toml --as bob" in body.get_content()
    assert [part.get_filename() for part in mail.message.iter_attachments()] == [f"{game_id}.toml"]
    assert notify.webhook_payload(loaded)["to_move"] is None
