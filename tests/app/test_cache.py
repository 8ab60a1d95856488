"""The answers cache: keyed by the file's bytes and by the installed program, so that neither a
changed game file nor a changed program is ever answered from an old entry."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from splendor_cli.app.services import cache


def test_a_changed_program_changes_every_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key includes a fingerprint of the installed files: editing one (a new version, a local
    fix) gives new keys, so an answer computed by the old code is never served."""
    package = tmp_path / "splendor_cli"
    shutil.copytree(Path(cache.__file__).parents[2], package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_PACKAGE", str(package))
    monkeypatch.setattr(cache, "_fingerprint", None)
    before = cache._key(b"game bytes", "state")
    assert cache._key(b"game bytes", "state") == before
    assert cache._key(b"other bytes", "state") != before and cache._key(b"game bytes", "moves") != before
    rules = package / "variants" / "base" / "rules.py"
    rules.write_text(rules.read_text() + "\n# a fix\n")
    monkeypatch.setattr(cache, "_fingerprint", None)
    assert cache._key(b"game bytes", "state") != before


def test_an_entry_is_served_only_for_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """put then get returns the text for the same bytes and view, nothing for others."""
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path))
    cache.put(b"abc", "state", '{"seq": 1}\n')
    assert cache.get(b"abc", "state") == '{"seq": 1}\n'
    assert cache.get(b"abd", "state") is None and cache.get(b"abc", "moves") is None
    monkeypatch.setenv("SPLENDOR_NO_CACHE", "1")
    assert cache.get(b"abc", "state") is None


# -- the cache's threats: forged entries, odd files, a shared or foreign folder --------------------


@pytest.fixture(autouse=True)
def cache_in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's cache is its tmp_path (a private folder: pytest makes it 0700)."""
    monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path))


def _entry(folder: Path, data: bytes = b"abc", view: str = "state") -> Path:
    return folder / cache._key(data, view)


def test_a_hand_written_or_tampered_entry_is_never_served(tmp_path: Path) -> None:
    """Whoever writes a file where an entry goes cannot make `state --json` report what they
    like: an entry is served only with the MAC of its key and text under the user's secret key."""
    cache.put(b"abc", "state", '{"winner": "ann"}\n')
    assert cache.get(b"abc", "state") == '{"winner": "ann"}\n'
    forgeries = [
        b'{"winner": "mallory"}\n',  # a plain answer, as the cache used to keep them
        b"0" * 64 + b'\n{"winner": "mallory"}\n',  # a made-up MAC
        _entry(tmp_path).read_bytes().replace(b"ann", b"bob"),  # a genuine entry, edited
        _entry(tmp_path).read_bytes()[:-2],  # a genuine entry, truncated
    ]
    for forged in forgeries:
        _entry(tmp_path).write_bytes(forged)
        assert cache.get(b"abc", "state") is None, forged
        assert not _entry(tmp_path).exists()  # a miss that can never be served is removed
    _entry(tmp_path, b"never put").write_bytes(b'{"winner": "mallory"}\n')
    assert cache.get(b"never put", "state") is None
    cache.put(b"abc", "state", '{"winner": "ann"}\n')
    assert cache.get(b"abc", "state") == '{"winner": "ann"}\n'


def test_a_genuine_entry_moved_to_another_key_is_not_served(tmp_path: Path) -> None:
    """The MAC covers the key: one game's answer copied to another game's (or view's) name is a miss."""
    cache.put(b"abc", "state", '{"turn": 1}\n')
    genuine = _entry(tmp_path).read_bytes()
    for data, view in ((b"abd", "state"), (b"abc", "moves"), (b"abc", "state@1")):
        _entry(tmp_path, data, view).write_bytes(genuine)
        assert cache.get(data, view) is None, (data, view)
    assert cache.get(b"abc", "state") == '{"turn": 1}\n'


def test_the_key_is_private_made_once_and_needed(tmp_path: Path) -> None:
    """The first put makes the key: a regular file of the user's, mode 0600, 32 bytes; entries
    are 0600 too. Without the key nothing is served (and get makes none); a new key disowns the
    entries of the old one."""
    key = tmp_path / cache.KEY_FILE
    cache.put(b"abc", "state", "one\n")
    made = key.read_bytes()
    info = key.lstat()
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid == os.getuid()
    assert len(made) == 32 and stat.S_IMODE(_entry(tmp_path).stat().st_mode) == 0o600
    cache.put(b"abd", "state", "two\n")
    assert key.read_bytes() == made
    genuine = _entry(tmp_path).read_bytes()
    key.unlink()
    assert cache.get(b"abc", "state") is None and not key.exists()
    cache.put(b"other", "state", "three\n")
    assert key.read_bytes() != made and cache.get(b"other", "state") == "three\n"
    _entry(tmp_path).write_bytes(genuine)
    assert cache.get(b"abc", "state") is None


def test_the_key_is_made_exactly_0600_whatever_the_umask(tmp_path: Path) -> None:
    """A umask that would take the owner's bits still gives a usable key (the mode is set, not asked)."""
    old = os.umask(0o277)
    try:
        cache.put(b"abc", "state", "one\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / cache.KEY_FILE).stat().st_mode) == 0o600
    assert cache.get(b"abc", "state") == "one\n"


def _spoil_key(key: Path, how: str, elsewhere: Path) -> None:
    if how == "readable by others":
        key.chmod(0o644)
    elif how in ("short", "long"):
        key.write_bytes(key.read_bytes()[:31] if how == "short" else key.read_bytes() + b"\0")
    elif how == "a link to a copy":
        copy = elsewhere / "copied.key"
        shutil.copy2(key, copy)
        copy.chmod(0o600)
        key.unlink()
        key.symlink_to(copy)
    elif how == "a folder":
        key.unlink()
        key.mkdir(mode=0o700)
    elif how == "a fifo":
        key.unlink()
        os.mkfifo(key, 0o600)
    elif how == "someone else's":
        if os.getuid() != 0:
            pytest.skip("giving a file away takes root")
        os.chown(key, os.getuid() + 1, -1)


@pytest.mark.parametrize(
    "how", ["readable by others", "short", "long", "a link to a copy", "a folder", "a fifo", "someone else's"]
)
def test_an_unusable_key_turns_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """A key that is not a regular file of the user's, mode 0600, of 32 bytes (or one reached
    through a link) is not used: nothing is served, nothing is written, the key is left as it
    is, and nothing fails or waits."""
    folder, elsewhere = tmp_path / "cache", tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("SPLENDOR_CACHE", str(folder))
    cache.put(b"abc", "state", "one\n")
    assert cache.get(b"abc", "state") == "one\n"
    key = folder / cache.KEY_FILE
    _spoil_key(key, how, elsewhere)
    spoiled = key.lstat()
    assert cache.get(b"abc", "state") is None
    cache.put(b"abd", "state", "two\n")
    assert not _entry(folder, b"abd").exists() and cache.get(b"abd", "state") is None
    assert key.lstat().st_ino == spoiled.st_ino and key.lstat().st_mode == spoiled.st_mode
    assert sorted(p.name for p in folder.iterdir()) == sorted([cache.KEY_FILE, _entry(folder).name])


@pytest.mark.parametrize("how", ["group-writable", "world-writable", "a link", "a link/", "someone else's"])
def test_the_cache_is_off_in_a_folder_others_may_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The cache folder must be a real folder (not a link) of the user's that neither group nor
    others may write: otherwise nothing is read from it or written to it."""
    real = tmp_path / "real"
    monkeypatch.setenv("SPLENDOR_CACHE", str(real))
    cache.put(b"abc", "state", "one\n")
    assert cache.get(b"abc", "state") == "one\n" and cache.enabled()
    before = sorted(p.name for p in real.iterdir())
    if how in ("group-writable", "world-writable"):
        real.chmod(0o770 if how == "group-writable" else 0o1777)
    elif how.startswith("a link"):
        (tmp_path / "link").symlink_to(real)
        monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path / "link") + how[len("a link") :])
    else:
        uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    assert cache.get(b"abc", "state") is None and not cache.enabled()
    cache.put(b"abd", "state", "two\n")
    assert cache.get(b"abd", "state") is None
    assert sorted(p.name for p in real.iterdir()) == before


def test_a_non_utf8_entry_is_a_miss(tmp_path: Path) -> None:
    """An entry that is not UTF-8 is a miss, not a traceback: hand-written, or even authenticated with the key."""
    _entry(tmp_path).write_bytes(b'\xff\xfe{"seq": 1}\n')
    assert cache.get(b"abc", "state") is None
    cache.put(b"other", "state", "x\n")  # makes the key
    key = cache._key(b"abc", "state")
    _entry(tmp_path).write_bytes(cache._authenticate((tmp_path / cache.KEY_FILE).read_bytes(), key, b"\xff\xfe{}\n"))
    assert cache.get(b"abc", "state") is None


def test_a_fifo_named_like_an_entry_does_not_block(tmp_path: Path) -> None:
    """Reading a FIFO where an entry goes returns a miss at once instead of waiting for a writer."""
    cache.put(b"other", "state", "x\n")  # a key, so that get looks at the entry
    fifo = _entry(tmp_path)
    os.mkfifo(fifo, 0o600)
    found: list[str | None] = []
    reader = threading.Thread(target=lambda: found.append(cache.get(b"abc", "state")), daemon=True)
    reader.start()
    reader.join(5)
    blocked = reader.is_alive()
    if blocked:  # let the reader go (an end of file), so that the test fails rather than hangs
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
    assert not blocked and found == [None]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # not the cache's to remove


@pytest.mark.parametrize("kind", ["a link to a genuine entry", "huge", "too large though authenticated", "a folder"])
def test_an_entry_that_is_no_small_regular_file_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """An entry is read only from a regular file of at most MAX_BYTES, never through a link; anything
    else is a miss, and left where it is."""
    folder, elsewhere = tmp_path / "cache", tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("SPLENDOR_CACHE", str(folder))
    cache.put(b"abc", "state", "one\n")
    entry = _entry(folder)
    if kind == "a link to a genuine entry":
        entry.rename(elsewhere / entry.name)
        entry.symlink_to(elsewhere / entry.name)
    elif kind == "huge":
        with entry.open("r+b") as fh:
            fh.truncate(32 << 20)  # 32 MiB, twice MAX_BYTES (sparse: no disk used)
    elif kind == "too large though authenticated":
        secret, key = (folder / cache.KEY_FILE).read_bytes(), cache._key(b"abc", "state")
        entry.write_bytes(cache._authenticate(secret, key, b"x" * cache.MAX_BYTES))
    else:
        entry.unlink()
        entry.mkdir()
    assert cache.get(b"abc", "state") is None
    assert os.path.lexists(entry)


def test_eviction_touches_only_its_own_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$SPLENDOR_CACHE pointed at a folder of the user's own files: eviction counts and removes
    only the cache's entries (regular files named by 64 lowercase hex digits), the oldest first;
    never the key, other files, folders, links or FIFOs, however old or many."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    folder = tmp_path / "pictures"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("SPLENDOR_CACHE", str(folder))
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"jpeg")
    for n in range(4100):
        os.link(photo, folder / f"photo-{n}.jpg")  # hard links: as many files, made fast
    hexname = "ab" * 32
    (folder / f"{hexname}.bak").write_text("mine\n")
    (folder / hexname.upper()).write_text("mine\n")
    (folder / hexname[:63]).write_text("mine\n")
    (folder / hexname).mkdir()
    (folder / ("cd" * 32)).symlink_to(victim)
    os.mkfifo(folder / ("ef" * 32))
    (folder / "locks").mkdir()
    for path in folder.iterdir():
        os.utime(path, (0, 0), follow_symlinks=False)  # older than any entry
    theirs = {p.name: p.lstat().st_mode for p in folder.iterdir()}

    cache.put(b"first", "state", "first\n")  # over 4,000 files, but a single entry: nothing to evict
    assert {p.name: p.lstat().st_mode for p in folder.iterdir() if p.name in theirs} == theirs
    assert {p.name for p in folder.iterdir()} == {*theirs, cache.KEY_FILE, _entry(folder, b"first").name}
    key = (folder / cache.KEY_FILE).read_bytes()
    os.utime(_entry(folder, b"first"), (1, 1))

    monkeypatch.setattr(cache, "MAX_ENTRIES", 10)
    for n in range(25):
        cache.put(f"game {n}".encode(), "state", f"{n}\n")
        if n < 24:
            os.utime(_entry(folder, f"game {n}".encode()), (1000 + n, 1000 + n))
    assert {p.name: p.lstat().st_mode for p in folder.iterdir() if p.name in theirs} == theirs
    assert victim.read_text() == "precious\n" and (folder / cache.KEY_FILE).read_bytes() == key
    entries = [p for p in folder.iterdir() if p.name not in theirs and p.name != cache.KEY_FILE]
    assert 0 < len(entries) <= 10 and all(cache._is_entry(p.name) for p in entries)
    assert cache.get(b"game 24", "state") == "24\n" and cache.get(b"first", "state") is None


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A put that fails midway (a full disk, a failed rename) neither raises nor leaves its
    temporary file behind."""
    cache.put(b"other", "state", "x\n")
    before = sorted(p.name for p in tmp_path.iterdir())

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    for name in ("replace", "write"):
        with monkeypatch.context() as patched:
            patched.setattr(os, name, fail)
            cache.put(b"abc", "state", "one\n")
        assert sorted(p.name for p in tmp_path.iterdir()) == before, name
    assert cache.get(b"abc", "state") is None


def test_a_planted_link_where_a_temporary_file_goes_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A put writes a new file of a random name, created exclusively and never through a link:
    a link planted where it goes (the old name of `<entry>.<pid>.tmp`, or the random name itself)
    is not written through."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    folder = tmp_path / "cache"
    monkeypatch.setenv("SPLENDOR_CACHE", str(folder))
    cache.put(b"other", "state", "x\n")
    entry = _entry(folder)
    (folder / f"{entry.name}.{os.getpid()}.tmp").symlink_to(victim)
    cache.put(b"abc", "state", "one\n")
    assert victim.read_text() == "precious\n" and cache.get(b"abc", "state") == "one\n"
    monkeypatch.setattr(os, "urandom", lambda n: b"\0" * n)
    (folder / f"{_entry(folder, b'abd').name}.{'00' * 8}.tmp").symlink_to(victim)
    cache.put(b"abd", "state", "two\n")
    assert victim.read_text() == "precious\n" and cache.get(b"abd", "state") is None


def test_put_never_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A text that cannot be encoded, a cache folder that is a file or under one: put does nothing."""
    cache.put(b"abc", "state", "\ud800\n")
    assert cache.get(b"abc", "state") is None
    (tmp_path / "file").write_text("")
    for where in ("file", "file/cache"):
        monkeypatch.setenv("SPLENDOR_CACHE", str(tmp_path / where))
        cache.put(b"abc", "state", "one\n")
        assert cache.get(b"abc", "state") is None
