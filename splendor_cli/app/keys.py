"""`splendor key new | show | export`: a player's keys, to sign moves and open sealed cards.

The secret keys (crypto/keys.py) live in one file, `$XDG_DATA_HOME/splendor-cli/keys/secret.toml`
(default `~/.local/share/...`), in a folder only its owner may enter (0700), written 0600 and
never through a symbolic link. A key file others may read, or that is a link, or a folder open
to others, is refused (exit 4): its keys may be known.

The cryptography (rbcl, nacl) is imported inside the bodies: no other command loads it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from typing import TYPE_CHECKING

from ..errors import GameFileError, UsageError
from .commands import _json_text, _out
from .params import JSON, Param, command

if TYPE_CHECKING:
    from ..crypto.keys import SecretKey

KEY_FILE = "secret.toml"
"""The name of the secret key file in the keys folder."""
MAX_BYTES = 16 << 10
"""The largest key file read (a key file is about 400 bytes)."""
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


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


def _read_key(folder: str) -> SecretKey:
    """The secret key kept in `folder`, every check passed.

    Raises:
        UsageError: there is no key.
        GameFileError: the file is a link, not a regular file, open to others, or malformed.
    """
    from ..crypto.errors import MalformedError
    from ..crypto.keys import SecretKey
    from ..projection.variant import name_problem

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


def _write_key(folder: str, key: SecretKey, *, force: bool) -> str:
    """Keep `key` in `folder` (made private if missing): written whole to a new file (0600), then
    linked into place, or renamed over the old key with `force`. Returns the file's path.

    Raises:
        UsageError: a key is there already and `force` is false.
    """
    path = os.path.join(folder, KEY_FILE)
    folder_fd = _open_folder(folder, create=True)
    try:
        tmp = f".{KEY_FILE}.{os.urandom(6).hex()}.tmp"
        fd = os.open(tmp, _CREATE, 0o600, dir_fd=folder_fd)
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
                    raise _exists(path) from None
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
    try:
        folder_fd = _open_folder(keys_folder(), create=False)
    except UsageError:
        return False
    try:
        try:
            fd = os.open(PUBLISHED_FILE, _READ, dir_fd=folder_fd)
        except FileNotFoundError:
            return False
        try:
            data = os.read(fd, 4 << 20)
        finally:
            os.close(fd)
    finally:
        os.close(folder_fd)
    return root.encode() in data.split(b"\n")


def remember_published(root: str) -> None:
    """Note that this user published their keys of the sealed game of first-event digest `root`."""
    folder_fd = _open_folder(keys_folder(), create=True)
    try:
        fd = os.open(PUBLISHED_FILE, _APPEND, 0o600, dir_fd=folder_fd)
        try:
            os.write(fd, root.encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
    finally:
        os.close(folder_fd)


def _exists(path: str) -> UsageError:
    return UsageError(
        f"a key exists already ({path}): `--force` replaces it, and the games it joined can no longer"
        " be played with the new one (back it up first: `splendor key export --secret -o FILE`)"
    )


def _default_name() -> str:
    """The login name, when it is a valid player name (else "")."""
    import getpass

    from ..projection.variant import name_problem

    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        return ""
    return "" if name_problem(login) else login


@command(
    "key new",
    Param(
        "name",
        "--name",
        envvar="SPLENDOR_PLAYER",
        metavar="NAME",
        help="Whose keys: your player name ($SPLENDOR_PLAYER; default: your login name).",
    ),
    Param("force", "--force", kind="flag", help="Replace the keys you have (they are lost: export them first)."),
)
def key_new(*, name: str | None = None, force: bool = False) -> None:
    """Make your keys: one to sign your moves, one to open sealed cards. Kept private on this machine.

    Refuses to replace keys you have without --force. Tell the other players your fingerprint
    (`splendor key show`) by another channel, so that they can check the key your games use.

    Example:

    splendor key new --name ann
    """
    from ..crypto.keys import SecretKey
    from ..projection.variant import name_problem

    name = name or _default_name()
    if not name:
        raise UsageError("say whose keys these are: --name NAME (or $SPLENDOR_PLAYER)")
    problem = name_problem(name)
    if problem:
        raise UsageError(problem)
    folder = keys_folder()
    path = os.path.join(folder, KEY_FILE)
    if not force and os.path.lexists(path):
        raise _exists(path)
    key = SecretKey.generate(name, os.urandom)
    _write_key(folder, key, force=force)
    _out(f"made the keys of {name} ({path})\nfingerprint: {key.public.fingerprint}")


@command("key show", JSON)
def key_show(*, json: bool = False) -> None:
    """Show your public keys and their fingerprint (never the secrets).

    Example:

    splendor key show --json
    """
    public = _read_key(keys_folder()).public
    if json:
        sys.stdout.write(_json_text(public.to_json()))
        return
    _out(
        f"name         {public.name}\n"
        f"fingerprint  {public.fingerprint}\n"
        f"signing      {public.signing.hex()}  (Ed25519)\n"
        f"card         {public.card.to_hex()}  (ristretto255)"
    )


@command(
    "key export",
    Param("secret", "--secret", kind="flag", help="The secret keys, for a backup (keep it private!)."),
    Param("output", "--output", "-o", kind="path", metavar="FILE", help="Write to FILE, a new file (- : stdout)."),
)
def key_export(*, secret: bool = False, output: str | None = None) -> None:
    """Print your public keys (TOML), for the other players; or your secret keys, for a backup.

    The public keys come with a proof that you hold their secrets. With --secret, print your
    secret keys instead, for a backup: whoever reads them plays as you.

    Examples:

    splendor key export -o ann.pub.toml

    splendor key export --secret -o /media/usb/splendor-keys.toml
    """
    from ..crypto.keys import context

    key = _read_key(keys_folder())
    if secret:
        text = key.to_toml()
        sys.stderr.write(
            "splendor: warning: these are your SECRET keys: whoever reads them signs moves and opens cards"
            " as you; keep the backup private\n"
        )
    else:
        text = key.public.to_toml(key.possession(context("key", key.name), os.urandom))
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    try:
        fd = os.open(output, _CREATE, 0o600 if secret else 0o644)
    except FileExistsError:
        raise UsageError(f"{output} exists: an export is written to a new file only") from None
    try:
        if secret:
            os.fchmod(fd, 0o600)  # whatever the umask
        data = memoryview(text.encode("utf-8"))
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    sys.stderr.write(f"splendor: wrote {output}\n")
