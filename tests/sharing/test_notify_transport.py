"""Notifications that work for their reader: a game played over git is answered with `splendor
sync` (the file named by its path in the repository, the same in every clone), a game played by
mail with `apply`, `play` and `export --to` (the file where `apply` puts it, by the game's id);
and a player whose turn another played for them (`play --for`) is told so in their next mail.
Through a real SMTP server (aiosmtpd on 127.0.0.1) and real git clones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import cli
from sharing.gitrepos import commit_all, remote_and_clones, run_git
from sharing.test_notify import local_smtp, settings_writer, smtp_sink

from splendor_cli import store

PLAYERS = "ann=ann@example.org,bob=bob@example.org"


@pytest.fixture
def notify_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    return settings_writer(tmp_path, monkeypatch)


def _body(sink: Any) -> str:
    [message] = sink.messages()
    body = message.get_body(("plain",))
    assert body is not None
    text: str = body.get_content()
    return text


def test_a_git_game_mail_says_sync_and_tells_of_a_turn_played_for_you(notify_settings: Any, tmp_path: Path) -> None:
    """In bob's clone, bob plays ann's turn for her (--for ann), then his own with --notify: ann's
    mail says bob played her turn, and how to answer over git (sync, play -g the file's path in
    the repository, sync), not "git pull ... commit and push", not apply, no path of bob's machine."""
    (tmp_path / "repos").mkdir()
    _, (ann, bob) = remote_and_clones(tmp_path / "repos", "ann", "bob")
    (ann / "games").mkdir()
    assert cli("new", "-g", ann / "games" / "friday.toml", "--players", PLAYERS, "--seed", 1)[0] == 0
    commit_all(ann, "ann", "new game")
    run_git(ann, "push", "-q", "origin", "main", who="ann")
    run_git(bob, "pull", "-q", "origin", "main", who="bob")
    path = bob / "games" / "friday.toml"
    assert cli("take", "r", "k", "w", "-g", path, "--for", "ann")[0] == 0
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        code, _, err = cli("play", "-g", path, "--notify", "take", "g", "g")
    assert code == 0, err
    assert "mailed ann <ann@example.org>" in err
    text = _body(sink)
    game_id = store.read(path).record.header.game
    assert "Played for you by bob: #2 ann: take white red black (played by bob)" in text
    assert f"in your clone of the game's repository (game {game_id})" in text
    assert "splendor sync   (brings your copy up to date)" in text
    assert 'splendor play -g games/friday.toml "MOVE"' in text and "splendor sync   (commits your turn" in text
    assert "git pull" not in text and "apply" not in text and str(tmp_path) not in text


def test_a_mail_game_mail_says_apply_play_export(notify_settings: Any, tmp_path: Path) -> None:
    """A game outside any git repository: the mail says apply, play and export --to, naming the
    file where apply puts the game (games/ID.toml), never the sender's path, and no git."""
    path = tmp_path / "mine" / "ann-copy.toml"
    path.parent.mkdir()
    assert cli("new", "-g", path, "--players", PLAYERS, "--seed", 1)[0] == 0
    with smtp_sink() as sink:
        notify_settings(local_smtp(sink.port))
        code, _, err = cli("play", "-g", path, "--notify", "take", "r", "k", "w")
    assert code == 0, err
    text = _body(sink)
    game_id = store.read(path).record.header.game
    assert f"To answer by e-mail (game {game_id}):" in text
    assert f"splendor apply this-mail.eml   (brings games/{game_id}.toml up to date)" in text
    assert f'splendor play -g games/{game_id}.toml "MOVE"' in text
    assert f"splendor export -g games/{game_id}.toml --to ann@example.org" in text
    assert "git" not in text and "ann-copy" not in text and "Played for you" not in text
