"""`moves` of a sealed game in the user's own cache: the seat to move sees their blind reserves
opened, so the answer is kept under the file's bytes, the format, `--as` and the local key
(app/cache.py `seat_view_name`), and is served again only for the same question with the same key,
the file still extending what the user saw of the game (memory.py)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from splendor_cli import store
from splendor_cli.app import entry

_DROPPED = ("SPLENDOR_PLAYER", "SPLENDOR_GAME", "SPLENDOR_NO_CACHE", "SPLENDOR_DEBUG", "SPLENDOR_NO_MEMORY")


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in (*values, *_DROPPED)}
    for name in _DROPPED:
        os.environ.pop(name, None)
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@attrs.define
class Machine:
    """One player's computer: a data folder (their key), a cache, a memory unless `forgetful`."""

    name: str
    root: Path
    forgetful: bool = True
    cache: Path | None = None

    def env(self) -> dict[str, str]:
        env = {
            "HOME": str(self.root),
            "XDG_DATA_HOME": str(self.root / "data"),
            "SPLENDOR_CACHE": str(self.cache or self.root / "cache"),
            "NO_COLOR": "1",
            "COLUMNS": "100",
        }
        if self.forgetful:
            env["SPLENDOR_NO_MEMORY"] = "1"
        return env

    def __call__(self, *args: object) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        argv = sys.argv
        sys.argv = ["splendor", *map(str, args)]
        code: Any = 0
        try:
            with _environment(self.env()), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    entry.main()
                except SystemExit as exc:
                    code = exc.code
        finally:
            sys.argv = argv
        return (code if isinstance(code, int) else (0 if code is None else 1)), out.getvalue(), err.getvalue()

    def ok(self, *args: object) -> str:
        code, out, err = self(*args)
        assert code == 0, (self.name, args, out, err)
        return out


@pytest.fixture(scope="module")
def reserved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Machine, Machine]:
    """A sealed 2-player base game where ann reserved blind and bob's share of it is in: ann to
    move, her moves name the card only she sees."""
    root = tmp_path_factory.mktemp("moves")
    ann, bob = Machine("ann", root / "ann"), Machine("bob", root / "bob")
    for machine in (ann, bob):
        machine.ok("key", "new", "--name", machine.name)
    path = root / "sealed.toml"
    ann.ok("new", "-g", path, "--players", "ann,bob", "--sealed")
    ann.ok("seal", "-g", path, "--as", "ann")
    bob.ok("seal", "-g", path, "--as", "bob")
    ann.ok("seal", "-g", path)
    bob.ok("seal", "-g", path)
    ann.ok("seal", "-g", path)
    ann.ok("play", "-g", path, "reserve", "deck", "1")
    bob.ok("play", "-g", path, "take", "white", "blue", "green")
    return path, ann, bob


def _unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, reading a game whole fails: an answer can only come from the cache."""

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the game was read: the answer did not come from the cache")

    monkeypatch.setattr(store, "read", refuse)


def test_the_seat_to_move_gets_their_moves_from_their_cache(
    reserved: tuple[Path, Machine, Machine], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, ann, _ = reserved
    listed = ann.ok("moves", "-g", path, "--json")
    texts = ann.ok("moves", "-g", path)
    reserve = json.loads(ann.ok("state", "-g", path, "--json", "--as", "ann"))["players"][0]["reserved"]
    assert reserve and all("?" not in card for card in reserve)  # ann sees her blind reserve
    assert json.loads(listed) and texts.splitlines() == [move["notation"] for move in json.loads(listed)]
    _unread(monkeypatch)
    assert ann.ok("moves", "-g", path, "--json") == listed
    assert ann.ok("moves", "-g", path) == texts


def test_another_key_or_seat_never_meets_the_answer(
    reserved: tuple[Path, Machine, Machine], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same cache folder, another key (a stranger's data folder): not served; `--as` another
    seat than the one to move is refused as before, cached or not."""
    path, ann, bob = reserved
    listed = ann.ok("moves", "-g", path, "--json")
    assert ann.ok("moves", "-g", path, "--json", "--as", "ann") == listed
    code, _, err = bob("moves", "-g", path, "--as", "bob", "--json")
    assert code == 3 and "it is ann's turn, not bob's" in err
    stranger = Machine("zed", tmp_path / "zed", cache=ann.root / "cache")
    stranger.ok("key", "new", "--name", "zed")
    _unread(monkeypatch)
    code, out, err = stranger("moves", "-g", path, "--json")
    assert code != 0 and "the answer did not come from the cache" in out + err
    code, out, err = bob("moves", "-g", path, "--json")  # bob's cache never held it
    assert code != 0 and "the answer did not come from the cache" in out + err
    assert ann.ok("moves", "-g", path, "--json") == listed


def test_a_cached_answer_still_meets_the_memory(reserved: tuple[Path, Machine, Machine], tmp_path: Path) -> None:
    """With the memory on, a copy that drops events this user saw is refused, even when its
    moves were cached when it was current."""
    path, ann, _ = reserved
    mindful = Machine("ann", ann.root, forgetful=False)
    old = tmp_path / "old.toml"
    old.write_bytes(path.read_bytes())
    listed = mindful.ok("moves", "-g", old, "--json")
    assert mindful.ok("moves", "-g", old, "--json") == listed
    newer = tmp_path / "new.toml"
    newer.write_bytes(path.read_bytes())
    mindful.ok("play", "-g", newer, json.loads(listed)[0]["notation"])
    code, _, err = mindful("moves", "-g", old, "--json")
    assert code != 0 and "events were removed" in err, err
