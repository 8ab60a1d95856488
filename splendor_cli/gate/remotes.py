"""What `splendor sync` last audited of each game on each remote: the remote's commit, so that a
history rewritten under it (a force-push over a pushed turn) is seen at the next sync, which
refuses it (sharing/rewritten.py), rather than taken as a fork or a fast-forward.

Kept beside the memory of seen games (`memory.Seen`), as it keeps it: one small file per game id
(named by the SHA-256 of the id), in a folder of the user's (the command line says which:
`$XDG_DATA_HOME/splendor-cli/remotes/`), a line per remote (`KEY COMMIT`: KEY names the remote's
address and branch, COMMIT the commit audited there last); read bounded and without following a
link, written whole through a temporary file (0600, in a folder made 0700) renamed over it.

Only the gate (`splendor_cli.gate`) writes it (`Gate.remember_remote`), once the remote's history
up to that commit passed the audit; `Gate.forget` forgets it with what was seen.

Standard library only.
"""

from __future__ import annotations

import re

from .memory import forget_private, game_file, read_private, write_private

MAX_BYTES = 64 << 10
"""The largest file read (64 KiB: some six hundred remotes of one game)."""
_LINE = re.compile(r"([0-9a-f]{32}) ([0-9a-f]{40}(?:[0-9a-f]{24})?)")


def remote_key(address: str, branch: str) -> str:
    """What names a remote in a line: the SHA-256 of its address and branch (32 hex digits)."""
    from hashlib import sha256

    return sha256(f"{address}\0{branch}".encode("utf-8", "surrogateescape")).hexdigest()[:32]


class Remotes:
    """The commits audited last on each remote of each game, kept in `folder` (None: off)."""

    __slots__ = ("folder",)

    def __init__(self, folder: str | None) -> None:
        self.folder = folder

    def __repr__(self) -> str:
        return f"Remotes({self.folder!r})"

    def file(self, game: str) -> str | None:
        """The file of game `game` (None: off)."""
        return game_file(self.folder, game)

    def lines(self, game: str) -> dict[str, str]:
        """Every remote's commit of game `game`, by the remote's key (`remote_key`): empty when off
        or unreadable (it is only a defence). Never follows a link; bounded to MAX_BYTES."""
        found = {}
        for line in read_private(self.file(game), MAX_BYTES).split("\n"):
            match = _LINE.fullmatch(line)
            if match:
                found[match[1]] = match[2]
        return found

    def commit(self, game: str, key: str) -> str | None:
        """The commit audited last of game `game` on the remote `key` (`remote_key`), if any."""
        return self.lines(game).get(key)

    def remember(self, game: str, key: str, commit: str) -> None:
        """Remember `commit` as the last audited of game `game` on the remote `key`. The gate's
        alone to call. Never fails: a file that cannot be written is only a defence lost."""
        path = self.file(game)
        if path is None or self.folder is None or not _LINE.fullmatch(f"{key} {commit}"):
            return
        lines = self.lines(game)
        if lines.get(key) == commit:
            return
        lines[key] = commit
        write_private(self.folder, path, "".join(f"{k} {c}\n" for k, c in lines.items()))

    def forget(self, game: str) -> None:
        """Forget every remote's commit of game `game` (the gate's alone to call)."""
        forget_private(self.file(game))
