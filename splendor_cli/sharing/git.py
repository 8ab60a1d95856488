"""The one place that runs git: `Git`, git in one folder, with the same rules for every caller.

Every module that asks git something (sync's commits and exchange, the history audit, the
merge driver's install, the notification settings, who the user is, when a game last changed)
goes through `Git.run` (the raw answer, `Done`) or calling a `Git` (its output, a failure a
UsageError). The rules, kept here once:

- git never asks: no terminal prompt (`GIT_TERMINAL_PROMPT=0`), no editor for a merge's message
  (`GIT_MERGE_AUTOEDIT=no`), nothing on its standard input but what the caller gives it;
- a missing git is a UsageError saying what needs it (`GitMissing`), a git that does not answer
  within `timeout` seconds one too;
- an answer longer than `limit` bytes is refused (`limit`, per call: the settings read from git
  config are small, a history's files need not be);
- what git says is quoted for a person through `errors.excerpt` or `errors.safe` (`Done.last_line`,
  `Done.first_line`): a control character of a path or a message never reaches a terminal raw;
- a file of git's own folder (the merge message it prepared, the list of a shallow clone's cuts)
  is read bounded, and never through a symbolic link (`read_git_file`);
- a repository's config runs no program that splendor does not need (`SAFE`, before every
  command): no fsmonitor (`git status`-like commands would run `core.fsmonitor`), no hooks
  (`core.hooksPath`), no `ext::` transport; and `diff`, `log` and `show` run no external diff nor
  textconv filter (`--no-ext-diff --no-textconv`). What sync does need still runs as git runs it:
  the transport (`core.sshCommand`, credential helpers), signing, the merge driver.

Nothing here prints. Tests replace nothing here: they run git in temporary repositories.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

import attrs

from ..errors import UsageError, excerpt, safe

ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_MERGE_AUTOEDIT": "no"}
"""What every git run gets in its environment: it never waits for a person."""
SAFE = ("-c", "core.fsmonitor=false", "-c", f"core.hooksPath={os.devnull}", "-c", "protocol.ext.allow=never")
"""What every git run gets before its command: the programs a repository's config could make git
run, and that splendor never needs, turned off (docs/security.md)."""
_DIFFS = ("diff", "log", "show")
"""The commands that could run `diff.external` or a textconv filter: told not to."""
MAX_FILE = 64 << 10
"""The most read of a file of git's own folder (`read_git_file`)."""


class GitMissing(UsageError):
    """git is not installed (or not on PATH)."""


@attrs.frozen
class Done:
    """What a git run answered: its exit code and its output, as bytes."""

    args: tuple[str, ...]
    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def text(self) -> str:
        """The output as text (UTF-8, undecodable bytes replaced), stripped."""
        return self.stdout.decode("utf-8", "replace").strip()

    def last_line(self) -> str:
        """The last line git said (on stderr, else stdout), quoted for a message; or the exit code."""
        lines = (self.stderr or self.stdout).decode("utf-8", "replace").strip().splitlines()
        return excerpt(lines[-1], 200) if lines else f"exit {self.returncode}"

    def first_line(self) -> str:
        """The first line of git's stderr, safe to print (`errors.safe`), at most 200 characters; or the exit code."""
        lines = self.stderr.decode("utf-8", "replace").strip().splitlines()
        return safe(lines[0][:200]) if lines else f"exit {self.returncode}"


@attrs.frozen(kw_only=True)
class Git:
    """git run in `cwd` (`git -C CWD`), with `options` before every command (`--literal-pathspecs`)
    and `env` over the process's environment (and `ENV`)."""

    cwd: Path = attrs.field(converter=Path)
    options: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    needs: str = ""
    """What needs git, for the message when it is missing ("`splendor sync` needs it")."""

    def run(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        limit: int | None = None,
    ) -> Done:
        """Run `git ARGS`; what it answered, whatever its exit code.

        Raises:
            GitMissing: git is not installed (or not on PATH).
            UsageError: git did not answer within `timeout` seconds, or said more than `limit` bytes.
        """
        full = {**os.environ, **ENV, **dict(self.env), **(env or {})}
        plain = ("--no-ext-diff", "--no-textconv") if args and args[0] in _DIFFS else ()
        command = ["git", "-C", str(self.cwd), *SAFE, *self.options, *args[:1], *plain, *args[1:]]
        try:
            done = subprocess.run(
                command,
                input=stdin,
                stdin=subprocess.DEVNULL if stdin is None else None,
                capture_output=True,
                check=False,
                env=full,
                timeout=timeout,
            )
        except FileNotFoundError:
            needs = f": {self.needs}" if self.needs else ""
            raise GitMissing(f"git is not installed (or not on PATH){needs}") from None
        except subprocess.TimeoutExpired:
            raise UsageError(f"git {args[0]} did not answer within {timeout:g} s") from None
        if limit is not None and len(done.stdout) > limit:
            raise UsageError(f"git {args[0]}: more than {limit} bytes of output")
        return Done(args=tuple(args), returncode=done.returncode, stdout=done.stdout, stderr=done.stderr)

    def __call__(self, *args: str, stdin: bytes | None = None, env: Mapping[str, str] | None = None) -> str:
        """Run `git ARGS`; its output as text, stripped. A failure is a UsageError quoting git's last line."""
        done = self.run(*args, stdin=stdin, env=env)
        if not done.ok:
            raise UsageError(f"git {args[0]}: {done.last_line()}")
        return done.text

    def output(self, *args: str, stdin: bytes | None = None) -> bytes:
        """Run `git ARGS`; its output as bytes. A failure is a UsageError quoting git's first line
        (`git log failed: ...`, as the history audit says it)."""
        done = self.run(*args, stdin=stdin)
        if not done.ok:
            raise UsageError(f"git {args[0]} failed: {done.first_line()}")
        return done.stdout


def read_git_file(path: Path, limit: int = MAX_FILE) -> bytes | None:
    """The first `limit` bytes of a file of a repository's git folder (git's own: MERGE_MSG,
    shallow), never through a symbolic link; None when it cannot be read."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read(limit)
        except OSError:
            return None
