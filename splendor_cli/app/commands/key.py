"""`splendor key new | show | export`: a player's keys, to sign moves and open sealed cards.

The secret keys (crypto/keys.py) live in one file, `$XDG_DATA_HOME/splendor-cli/keys/secret.toml`,
kept by services/keyfile.py (a private folder, never a link).

The cryptography (libsodium, through crypto/sodium.py) is imported inside the bodies: no other command loads it.
"""

from __future__ import annotations

import os
import sys

from ...errors import UsageError
from ..output import json_text, out
from ..params import JSON, Param, command


def _default_name() -> str:
    """The login name, when it is a valid player name (else "")."""
    import getpass

    from ...projection.variant import name_problem

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
    from ...crypto.keys import SecretKey
    from ...projection.variant import name_problem
    from ..services.keyfile import KEY_FILE, key_exists, keys_folder, write_key

    name = name or _default_name()
    if not name:
        raise UsageError("say whose keys these are: --name NAME (or $SPLENDOR_PLAYER)")
    problem = name_problem(name)
    if problem:
        raise UsageError(problem)
    folder = keys_folder()
    path = os.path.join(folder, KEY_FILE)
    if not force and os.path.lexists(path):
        raise key_exists(path)
    key = SecretKey.generate(name, os.urandom)
    write_key(folder, key, force=force)
    out(f"made the keys of {name} ({path})\nfingerprint: {key.public.fingerprint}")


@command("key show", JSON)
def key_show(*, json: bool = False) -> None:
    """Show your public keys and their fingerprint (never the secrets).

    Example:

    splendor key show --json
    """
    from ..services.keyfile import keys_folder, read_key

    public = read_key(keys_folder()).public
    if json:
        sys.stdout.write(json_text(public.to_json()))
        return
    out(
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
    secret keys instead, for a backup: whoever reads them plays as you. Your keys of each game
    you joined are kept beside them (`games` in the keys folder): back that file up too.

    Examples:

    splendor key export -o ann.pub.toml

    splendor key export --secret -o /media/usb/splendor-keys.toml
    """
    from ...crypto.keys import context
    from ..services.keyfile import CREATE, GAMES_FILE, keys_folder, read_key

    key = read_key(keys_folder())
    fd = None
    if output is not None and output != "-":
        # a new file only (never a FIFO, a device, a link, another user's file: O_EXCL, O_NOFOLLOW),
        # opened before anything is said, so that a refusal is its one line
        try:
            fd = os.open(output, CREATE, 0o600 if secret else 0o644)
        except FileExistsError:
            raise UsageError(f"{output} exists: an export is written to a new file only") from None
    if secret:
        text = key.to_toml()
        sys.stderr.write(
            "splendor: warning: these are your SECRET keys: whoever reads them signs moves and opens cards"
            " as you; keep the backup private\n"
        )
        games = os.path.join(keys_folder(), GAMES_FILE)
        if os.path.lexists(games):
            sys.stderr.write(
                f"splendor: your keys of each game you joined are in {games}: back that file up too (a game"
                " cannot go on without its line)\n"
            )
    else:
        text = key.public.to_toml(key.possession(context("key", key.name), os.urandom))
    if fd is None:
        sys.stdout.write(text)
        return
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
