"""Where a player's secret key is kept, and the sealed games whose keys they published: the
files under `$XDG_DATA_HOME/splendor-cli/keys/` (default `~/.local/share/...`), in a folder only
its owner may enter (0700), written 0600 and never through a symbolic link. A key file others may
read, or that is a link, or a folder open to others, is refused (exit 4): its keys may be known.
No command is here (commands/key.py, commands/seal.py): whatever needs the key imports this module alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from typing import TYPE_CHECKING

from ...errors import GameFileError, UsageError

if TYPE_CHECKING:
    from ...crypto.keys import SecretKey

KEY_FILE = "secret.toml"
"""The name of the secret key file in the keys folder."""
MAX_BYTES = 16 << 10
"""The largest key file read (a key file is about 400 bytes)."""
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
"""How a new private file is opened: created, never over a file there, never through a link."""


def keys_folder() -> str:
    """Where a player's keys are: $XDG_DATA_HOME/splendor-cli/keys (default ~/.local/share/...;
    a relative $XDG_DATA_HOME is ignored, as the XDG specification asks)."""
    data = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data):
        data = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "splendor-cli", "keys")


def _open_folder(folder: str, *, create: bool) -> int:
    """The keys folder, opened (never through a link), once checked private: this user's, and
    neither group nor others may enter it. `create`: made first (0700) when missing.

    Raises:
        UsageError: there is no folder and `create` is false (no key yet).
        GameFileError: the folder is a link, not a folder, someone else's, or open to others.
    """
    if create and not os.path.lexists(folder):
        os.makedirs(os.path.dirname(folder), mode=0o700, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # made meanwhile: checked below like any other
            os.mkdir(folder, 0o700)
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UsageError(f"no key yet ({folder} does not exist): make one with `splendor key new`") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise GameFileError(
                f"{folder} is a symbolic link or no folder: keys are kept in a folder of their own"
            ) from None
        raise
    info = os.fstat(fd)
    problem = _private(info, folder, "folder", 0o700)
    if problem:
        os.close(fd)
        raise GameFileError(problem)
    return fd


def _private(info: os.stat_result, path: str, what: str, mode: int) -> str:
    """What makes a key file or folder unsafe ("" when nothing does): another owner, or any
    permission for the group or others."""
    if info.st_uid != os.getuid():
        return f"the key {what} {path} belongs to someone else (uid {info.st_uid}): refused"
    if info.st_mode & 0o077:
        return (
            f"the key {what} {path} is open to others (mode {stat.S_IMODE(info.st_mode):04o}): its keys may be"
            f" known; if no one read them, `chmod {mode:o} {path}`, else make new ones (`splendor key new --force`)"
        )
    return ""


def key_bytes(folder: str) -> bytes:
    """The bytes of the secret key file kept in `folder`, every check of its safety passed, not
    parsed (no cryptography loaded: what names the key in the user's cache).

    Raises:
        UsageError: there is no key.
        GameFileError: the folder or file is a link, not a regular file, open to others, or too large.
    """
    path = os.path.join(folder, KEY_FILE)
    folder_fd = _open_folder(folder, create=False)
    try:
        try:
            fd = os.open(KEY_FILE, _READ, dir_fd=folder_fd)
        except FileNotFoundError:
            raise UsageError(f"no key yet ({path} does not exist): make one with `splendor key new`") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise GameFileError(f"{path} is a symbolic link: a key file is never read through a link") from None
            raise
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise GameFileError(f"{path} is not a regular file: refused")
            problem = _private(info, path, "file", 0o600)
            if problem:
                raise GameFileError(problem)
            data = os.read(fd, MAX_BYTES + 1)
        finally:
            os.close(fd)
    finally:
        os.close(folder_fd)
    if len(data) > MAX_BYTES:
        raise GameFileError(f"{path}: not a key file (larger than {MAX_BYTES} bytes)")
    return data


def read_key(folder: str) -> SecretKey:
    """The secret key kept in `folder`, every check passed.

    Raises:
        UsageError: there is no key.
        GameFileError: the file is a link, not a regular file, open to others, or malformed.
    """
    from ...crypto.keys import SecretKey
    from ...errors import MalformedError
    from ...projection.variant import name_problem

    path = os.path.join(folder, KEY_FILE)
    data = key_bytes(folder)
    try:
        key = SecretKey.from_toml(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise GameFileError(f"{path}: not a key file (not UTF-8)") from None
    except MalformedError as exc:
        raise GameFileError(f"{path}: {exc}") from None
    problem = name_problem(key.name)
    if problem:
        raise GameFileError(f"{path}: {problem}")
    return key


def write_key(folder: str, key: SecretKey, *, force: bool) -> str:
    """Keep `key` in `folder` (made private if missing): written whole to a new file (0600), then
    linked into place, or renamed over the old key with `force`. Returns the file's path.

    Raises:
        UsageError: a key is there already and `force` is false.
    """
    path = os.path.join(folder, KEY_FILE)
    folder_fd = _open_folder(folder, create=True)
    try:
        tmp = f".{KEY_FILE}.{os.urandom(6).hex()}.tmp"
        fd = os.open(tmp, CREATE, 0o600, dir_fd=folder_fd)
        try:
            try:
                os.fchmod(fd, 0o600)  # whatever the umask
                data = memoryview(key.to_toml().encode("utf-8"))
                while data:
                    data = data[os.write(fd, data) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            if force:
                os.replace(tmp, KEY_FILE, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
            else:
                try:
                    os.link(tmp, KEY_FILE, src_dir_fd=folder_fd, dst_dir_fd=folder_fd, follow_symlinks=False)
                except FileExistsError:
                    raise key_exists(path) from None
            os.fsync(folder_fd)
        finally:
            with contextlib.suppress(FileNotFoundError):  # renamed into place, or never linked
                os.unlink(tmp, dir_fd=folder_fd)
    finally:
        os.close(folder_fd)
    return path


PUBLISHED_FILE = "published"
"""The roots (first-event digests) of the sealed games whose keys this user published, one a line."""
_APPEND = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC


def published_before(root: str) -> bool:
    """Whether this user published their keys of the sealed game of first-event digest `root`
    (hex): a copy of that game without them is an older copy or a replay, never to be played."""
    return [root] in _lines(PUBLISHED_FILE)


def remember_published(root: str) -> None:
    """Note that this user published their keys of the sealed game of first-event digest `root`."""
    _note(PUBLISHED_FILE, root)


SHUFFLED_FILE = "shuffled"
"""The shuffles this user wrote, one a line: the game's root (hex) and the shuffle's seq."""


def _lines(name: str) -> list[list[str]]:
    try:
        folder_fd = _open_folder(keys_folder(), create=False)
    except UsageError:
        return []
    try:
        try:
            fd = os.open(name, _READ, dir_fd=folder_fd)
        except FileNotFoundError:
            return []
        try:
            data = os.read(fd, 4 << 20)
        finally:
            os.close(fd)
    finally:
        os.close(folder_fd)
    return [line.split() for line in data.decode("ascii", "replace").split("\n") if line.strip()]


def _note(name: str, line: str) -> None:
    folder_fd = _open_folder(keys_folder(), create=True)
    try:
        fd = os.open(name, _APPEND, 0o600, dir_fd=folder_fd)
        try:
            os.write(fd, line.encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
    finally:
        os.close(folder_fd)


def shuffles_made(root: str) -> list[int]:
    """The seqs of the shuffles this user wrote in the game of first-event digest `root` (hex)."""
    return [int(w[1]) for w in _lines(SHUFFLED_FILE) if len(w) == 2 and w[0] == root and w[1].isdigit()]


def note_shuffled(root: str, seq: int) -> None:
    """Note that this user wrote a shuffle as event #`seq` of the game `root`."""
    _note(SHUFFLED_FILE, f"{root} {seq}")


GAMES_FILE = "games"
"""The randomness this user keeps for each game of keys of format 4 they joined, one line a game:
the game's root (hex) and 32 random bytes (hex), from which their card key and shuffle seeds of
that game come (`sealing.signing.GameKey`). Lost, it is lost: the game cannot go on with this key."""


def game_secret(root: str, *, make: bool) -> bytes | None:
    """The 32 random bytes this user keeps for the game of root `root` (hex); when there are none
    and `make`, new ones, noted (fsynced) before they are used. None: none, and not `make`."""
    for words in _lines(GAMES_FILE):
        if len(words) == 2 and words[0] == root and len(words[1]) == 64:
            try:
                return bytes.fromhex(words[1])
            except ValueError:
                continue
    if not make:
        return None
    kept = os.urandom(32)
    _note(GAMES_FILE, f"{root} {kept.hex()}")
    return kept


ACTED_FILE = "acted"
"""The last event this user's key wrote in each game of keys, one line a game: the game's root
(hex), the event's seq, its full digest (hex) and the game's id (key_history.py)."""


def last_acted(root: str) -> tuple[int, str, str] | None:
    """The seq, full digest and game id of the last event this user's key wrote in the game of
    root `root` (hex), as noted; None when none is."""
    for words in _lines(ACTED_FILE):
        if len(words) == 4 and words[0] == root and words[1].isdigit():
            return int(words[1]), words[2], words[3]
    return None


def set_acted(root: str, entry: tuple[int, str, str] | None) -> None:
    """Note `entry` (seq, full digest, game id) as the last event this user's key wrote in the game
    of root `root`, in place of the one noted (None: forget it). The file is written anew, atomically."""
    lines = [" ".join(words) for words in _lines(ACTED_FILE) if words and words[0] != root]
    if entry is not None:
        lines.append(f"{root} {entry[0]} {entry[1]} {entry[2]}")
    folder_fd = _open_folder(keys_folder(), create=True)
    try:
        tmp = f".{ACTED_FILE}.{os.urandom(6).hex()}.tmp"
        fd = os.open(tmp, CREATE, 0o600, dir_fd=folder_fd)
        try:
            try:
                data = memoryview("".join(line + "\n" for line in lines).encode("ascii"))
                while data:
                    data = data[os.write(fd, data) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, ACTED_FILE, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
            os.fsync(folder_fd)
        finally:
            with contextlib.suppress(FileNotFoundError):  # renamed into place
                os.unlink(tmp, dir_fd=folder_fd)
    finally:
        os.close(folder_fd)


def key_exists(path: str) -> UsageError:
    """The error of `key new` when a key is there already (`--force` replaces it)."""
    return UsageError(
        f"a key exists already ({path}): `--force` replaces it, and the games it joined can no longer"
        " be played with the new one (back it up first: `splendor key export --secret -o FILE`)"
    )
