"""A content-addressed cache of what the read-only JSON commands print. Standard library only.

Bots call `state --json` and `moves --json` after every turn; loading a game means importing
attrs and the game's rules and replaying every event. The output depends only on the exact
bytes of the game file and on the program, so it is cached under the SHA-256 of both (the
program as a fingerprint of its installed files: their names, sizes and times): a changed
file, or a changed program, is a new key, never a stale answer. Entries are written only
after the file was read and fully re-validated. $SPLENDOR_NO_CACHE=1 turns it off;
$SPLENDOR_CACHE moves it (default: $XDG_CACHE_HOME/splendor-cli or ~/.cache/splendor-cli).

The fast path prints an entry without reading the game, so an entry is trusted only as far as
this module can vouch for it. What it guarantees:

- A hand-written, tampered, truncated or moved entry is never served. Each entry is the
  HMAC-SHA256 of its key and text (hex, then a newline) followed by the text; the MAC's secret
  is 32 random bytes in the file `hmac.key` of the cache folder, made by the first `put`
  (exclusively, without following a link, mode 0600). An entry whose MAC does not match is a
  miss, and is removed.
- The cache is simply off (`get` finds nothing, `put` does nothing; never an error) unless
  the folder is a real folder (not a link) of this user's that neither group nor others may
  write, and the key is a regular file of this user's, mode 0600, of exactly 32 bytes. Files
  are opened relative to the folder once it was opened and checked, so it cannot be swapped
  for a link in between.
- Reads never block and stay bounded: an entry is opened without following a link and
  without waiting (a FIFO is a miss, not a hang), must be a regular file of at most
  `MAX_BYTES`, and must be UTF-8.
- Writes go to a new file of a random name (created exclusively, without following a link,
  mode 0600), renamed over the entry when complete, and removed if anything fails; `put`
  never raises.
- Eviction (the oldest half, past `MAX_ENTRIES` entries) touches only the cache's own entry
  files: regular files named by exactly 64 lowercase hex digits. Nothing else in the folder
  (the key, a user's own files, folders, links) is counted, let alone removed.

What it does not guarantee: whoever can read the key can forge entries. The key is exactly as
private as the cache folder and as your account: another process of yours, or root, can
write any answer; so can anyone with a copy of the key (a backup, a synced home folder).
"""

from __future__ import annotations

import contextlib
import os
import stat
from hashlib import sha256

from ... import __version__

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the fast path imports this module
if TYPE_CHECKING:
    from ...events.codec import Record
    from ...store import Loaded

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_fingerprint: str | None = None


def fingerprint() -> str:
    """A digest of the installed program: the version, and each file's path, size and time."""
    global _fingerprint
    if _fingerprint is None:
        digest = sha256(__version__.encode())
        for folder, dirs, files in sorted(os.walk(_PACKAGE)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".csv")):
                    info = os.stat(os.path.join(folder, name))
                    digest.update(
                        f"{os.path.relpath(folder, _PACKAGE)}/{name}:{info.st_size}:{info.st_mtime_ns}\0".encode()
                    )
        _fingerprint = digest.hexdigest()
    return _fingerprint


MAX_ENTRIES = 4000
"""Past this many entries, a `put` removes the oldest half of them."""
MAX_BYTES = 16 << 20
"""The largest entry file read or written (16 MiB): a `moves --json` answer is a few KiB."""
KEY_FILE = "hmac.key"
"""The name of the MAC's secret key in the cache folder."""
KEY_BYTES = 32
_MAC_HEX = 64
"""An entry file starts with the HMAC-SHA256 of its key and text in hex, then a newline."""

_HEX = frozenset("0123456789abcdef")
_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _folder() -> str | None:
    from .folders import cache_folder

    folder = cache_folder()
    # "link/" would follow the link whatever the flags: the folder is named without a trailing slash
    return None if folder is None else folder.rstrip(os.sep) or os.sep


def view_name(command: str, at: int | None = None) -> str:
    """The cache key of a read-only view: `state`, `state@12` or `moves`."""
    return command if at is None else f"{command}@{at}"


def seat_view_name(command: str, seat: str, key: bytes) -> str:
    """The cache key of one seat's own view of a sealed game (`moves` of the seat to move, their
    blind reserves opened): the command, the seat asked for with `--as` ("" when none), and a
    digest of the local secret key (`key`: its secret bytes; b"" when there is none), so that the
    answer is only ever served to the same question asked with the same key. The cache is the
    user's own (its entries authenticated with its private key, hmac.key): what a seat sees
    there stays as private as the key itself."""
    holder = sha256(b"splendor-cli/cache/seat\0" + key).hexdigest()
    return f"{command}\0as {seat}\0key {holder}"


def _key(data: bytes, view: str) -> str:
    return sha256(f"{fingerprint()}\0{view}\0".encode() + data).hexdigest()


def _is_entry(name: str) -> bool:
    """Whether `name` is an entry's: exactly 64 lowercase hex digits (no dot, no suffix)."""
    return len(name) == 64 and _HEX.issuperset(name)


def _private(info: os.stat_result) -> bool:
    """Whether a folder is this user's and neither group nor others may write it."""
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def enabled() -> bool:
    """Whether there is a cache to read and write: it is not turned off ($SPLENDOR_NO_CACHE),
    and its folder is missing (`put` makes it) or is a private folder of this user's."""
    folder = _folder()
    if folder is None:
        return False
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _private(info)


def _open_folder(folder: str) -> int | None:
    """The cache folder, opened (not through a link), if it is a private folder of this user's."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    if _private(os.fstat(fd)):
        return fd
    os.close(fd)
    return None


def _read(folder: int, name: str, limit: int) -> tuple[os.stat_result, bytes] | None:
    """A regular file of at most `limit` bytes in `folder`, never through a link, never waiting
    on a FIFO; None if it is anything else. Raises OSError (FileNotFoundError: no such file)."""
    fd = os.open(name, _READ, dir_fd=folder)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks, size = [], 0
        while chunk := os.read(fd, min(limit + 1 - size, 1 << 20)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                return None
        return info, b"".join(chunks)
    finally:
        os.close(fd)


def _remove(folder: int, name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=folder)


def _publish(folder: int, name: str, content: bytes, *, replace: bool) -> None:
    """Write `content` to a new file of a random name (mode 0600), then rename it to `name`
    (`replace`) or link it there only if `name` does not exist (FileExistsError otherwise).
    The new file is removed whatever happens."""
    tmp = f"{name}.{os.urandom(8).hex()}.tmp"
    fd = os.open(tmp, _CREATE, 0o600, dir_fd=folder)
    try:
        try:
            os.fchmod(fd, 0o600)  # whatever the umask: the key must be exactly 0600
            view = memoryview(content)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
            return
        os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        _remove(folder, tmp)
        raise
    _remove(folder, tmp)


def _load_secret(folder: int) -> bytes | None:
    """The MAC's key, if it is a regular file of this user's, mode 0600, of exactly 32 bytes.
    Raises FileNotFoundError when there is none yet."""
    found = _read(folder, KEY_FILE, KEY_BYTES)
    if found is None:
        return None
    info, secret = found
    usable = info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) == 0o600 and len(secret) == KEY_BYTES
    return secret if usable else None


def _secret(folder: int, *, create: bool) -> bytes | None:
    """The MAC's key; `create`: made first if there is none (made whole, then linked into place,
    so that no process ever reads half a key)."""
    try:
        return _load_secret(folder)
    except FileNotFoundError:
        if not create:
            return None
    with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
        _publish(folder, KEY_FILE, os.urandom(KEY_BYTES), replace=False)
    return _load_secret(folder)


def _mac(secret: bytes, key: str, text: bytes) -> bytes:
    import hmac  # only where an entry is written or served: not on a cache that is off

    return hmac.digest(secret, key.encode("ascii") + b"\0" + text, "sha256").hex().encode("ascii")


def _authenticate(secret: bytes, key: str, text: bytes) -> bytes:
    """An entry file's content: the MAC of its key and text, a newline, the text."""
    return _mac(secret, key, text) + b"\n" + text


def _authentic(secret: bytes, key: str, entry: bytes) -> bytes | None:
    """The text of an entry (`_authenticate`), if its MAC is right for this key."""
    import hmac

    mac, newline, text = entry[:_MAC_HEX], entry[_MAC_HEX : _MAC_HEX + 1], entry[_MAC_HEX + 1 :]
    return text if newline == b"\n" and hmac.compare_digest(mac, _mac(secret, key, text)) else None


def get(data: bytes, view: str) -> str | None:
    """The cached output of `view` for a game file whose bytes are `data`, if any: only ever an
    entry this user's cache wrote for exactly this key."""
    path = _folder()
    if path is None:
        return None
    try:
        folder = _open_folder(path)
    except OSError:
        return None
    if folder is None:
        return None
    try:
        secret = _secret(folder, create=False)
        if secret is None:
            return None
        key = _key(data, view)
        found = _read(folder, key, MAX_BYTES)
        if found is None:
            return None
        text = _authentic(secret, key, found[1])
        if text is None:
            _remove(folder, key)  # forged, or made with another key: it can never be served
            return None
        return text.decode("utf-8")
    except (OSError, ValueError):  # ValueError: not UTF-8
        return None
    finally:
        os.close(folder)


def put(data: bytes, view: str, text: str) -> None:
    """Remember the output of `view` for `data`. Never fails: a cache is only a shortcut."""
    path = _folder()
    if path is None:
        return
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        folder = _open_folder(path)
        if folder is None:
            return
        try:
            secret = _secret(folder, create=True)
            key = _key(data, view)
            body = text.encode("utf-8")
            if secret is None or _MAC_HEX + 1 + len(body) > MAX_BYTES:  # too large to be read back
                return
            _publish(folder, key, _authenticate(secret, key, body), replace=True)
            _prune(folder)
        finally:
            os.close(folder)
    except Exception:  # put never fails: whatever went wrong, the answer is simply not kept
        pass


CHAIN = "chain"
"""The view of a game file's chain: its game id and the full digest of each of its events, kept
beside its answers so that the fast path can hold them against the memory of seen games."""


def put_chain(loaded: Loaded) -> None:
    """Remember, for `loaded`'s bytes, which game it is and the full digest of each of its events
    (`still_seen` reads them back). Never fails."""
    record = loaded.record
    put(loaded.data, CHAIN, "\n".join((record.header.game.encode("utf-8").hex(), *record.digests)) + "\n")


def still_seen(data: bytes) -> bool:
    """Whether a cached answer for the game file `data` may still be served by the fast path: its
    events extend what this user saw of the game (gate/memory.py; a copy rolled back behind what was
    seen, or one that contradicts it, is for the command to refuse). False when the memory is on
    and the file's chain is not in the cache."""
    from ...gate.memory import Seen
    from .folders import memory_folder

    memory = Seen(memory_folder())
    if not memory.enabled:
        return True
    text = get(data, CHAIN)
    if text is None:
        return False
    game, *digests = text.split()
    try:
        name = bytes.fromhex(game).decode("utf-8")
    except ValueError:
        return False
    return memory.extends(name, digests)


def _prune(folder: int) -> None:
    """Past MAX_ENTRIES entries, remove the oldest half of them, and nothing else."""
    with os.scandir(folder) as found:
        names = [e.name for e in found if _is_entry(e.name) and e.is_file(follow_symlinks=False)]
    if len(names) <= MAX_ENTRIES:
        return
    entries = []
    for name in names:
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            entries.append((info.st_mtime_ns, name))
    entries.sort()
    for _, name in entries[: len(entries) // 2]:
        _remove(folder, name)


# -- what this reader verified of a sealed game ------------------------------------------------

_VERIFIED = "verified"


def _game_key(record: Record) -> bytes:
    from ...events.codec import header_digest

    return f"game:{header_digest(record.header)}".encode()


def verified_prefix(record: Record) -> int:
    """How many of a sealed game's first events this user verified before (their signatures and
    proofs): the longest prefix of its events, compared by their full SHA-256 (`Record.digests`),
    that a file read before had (an undo, a copy that is behind, a settled fork share a prefix).
    0 for an open game, or when nothing is known (the cache is off, or nothing matches).

    Never the chain's 16-digit links: a player who finds two of his own events with the same 64
    bits (some 2^33 hashes) could swap one for the other, and the second would pass unverified.
    Nor a search by halves: only the full digests, compared from the first event on, make the
    matches a prefix. Entries of an earlier release (16-digit digests) match nothing."""
    from ...projection.table_protocol import find_protocol

    table = record.header.table
    if table == "open" or not record.events or not find_protocol(table).signed:
        return 0  # nothing signed, nothing verified (and an open game loads no protocol)
    key = _game_key(record)
    text = get(key, _VERIFIED)
    if text is None:
        return 0
    _KNOWN[(_folder(), key)] = text
    count = 0
    for known, digest in zip(text.split(), record.digests):
        if known != digest:
            break
        count += 1
    return count


_KNOWN: dict[tuple[str | None, bytes], str] = {}
"""The entry `verified_prefix` read (or `remember_verified` wrote) of each game, by cache folder,
in this process: `remember_verified` writes none that would say the same again."""


def remember_verified(loaded: Loaded) -> None:
    """Note that every event of `loaded`, a sealed game just read whole, was verified: the full
    digest of each event, in order (what `verified_prefix` compares). Nothing is written when the
    cache says so already (the same file read again)."""
    if not loaded.game.protocol.signed or not loaded.record.events:
        return
    key = _game_key(loaded.record)
    text = " ".join(loaded.record.digests) + "\n"
    where = (_folder(), key)
    if _KNOWN.get(where) == text:
        return
    put(key, _VERIFIED, text)
    _KNOWN[where] = text
