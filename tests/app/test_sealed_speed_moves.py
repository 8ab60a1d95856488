"""`moves` of a sealed game in the user's own cache: the seat to move sees their blind reserves
opened, so the answer is kept under the file's bytes, the format, `--as` and the local key
(app/services/cache.py `seat_view_name`), and is served again only for the same question with the same key,
the file still extending what the user saw of the game (memory.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from app.test_sealed_cli import Machine

from splendor_cli import store


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
    done = bob("moves", "-g", path, "--as", "bob", "--json")
    assert done.code == 3 and "it is ann's turn, not bob's" in done.err
    stranger = Machine("zed", tmp_path / "zed", cache=ann.root / "cache")
    stranger.ok("key", "new", "--name", "zed")
    _unread(monkeypatch)
    done = stranger("moves", "-g", path, "--json")
    assert done.code != 0 and "the answer did not come from the cache" in done.out + done.err
    done = bob("moves", "-g", path, "--json")  # bob's cache never held it
    assert done.code != 0 and "the answer did not come from the cache" in done.out + done.err
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
    done = mindful("moves", "-g", old, "--json")
    assert done.code != 0 and "this copy is behind" in done.err, done.err


def test_the_table_as_my_key_sees_it_comes_from_my_cache(
    reserved: tuple[Path, Machine, Machine], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`state --json` of a sealed game is the local key's seat's view (their blind reserve face
    up): kept in the user's cache under the key too, so a second ask reads nothing; another key
    never meets it."""
    path, ann, bob = reserved
    mine = ann.ok("state", "-g", path, "--json")
    assert all("?" not in card for card in json.loads(mine)["players"][0]["reserved"])  # ann's view
    theirs = bob.ok("state", "-g", path, "--json")
    assert any("?" in card for card in json.loads(theirs)["players"][0]["reserved"])  # bob's: face down
    stranger = Machine("zed", tmp_path / "zed", cache=ann.root / "cache")
    stranger.ok("key", "new", "--name", "zed")
    _unread(monkeypatch)
    assert ann.ok("state", "-g", path, "--json") == mine
    assert bob.ok("state", "-g", path, "--json") == theirs
    done = stranger("state", "-g", path, "--json")
    assert done.code != 0 and "the answer did not come from the cache" in done.out + done.err
