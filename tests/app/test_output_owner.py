"""`-o FILE` writes only where the user meant (issue 31, item 6): never into another user's FIFO
or device, never waiting on a FIFO nobody reads, and a private view (a sealed seat's, secret keys)
never into a FIFO at all, into a new file made 0600.

Through the real entry point in a process of its own (`python -m splendor_cli`), with real FIFOs
in the test's folder. Each FIFO's read end is opened first, without blocking, and drained by a
thread: a command that writes where it should not does not hang, it shows what it wrote. The one outer limit is the
subprocess's `timeout=PATIENCE` (a command waiting on a FIFO with no reader: only a hang takes
that long).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from app.test_sealed_cli import Machine, dealt
from helpers import PATIENCE, ROOT

SAMPLE = ROOT / "games" / "sample-3p.toml"
OTHER_UID = 54321
"""A user id nobody here has."""


def run(cwd: Path, *args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`splendor ARGS` in a process of its own, in `cwd` (`env` over this process's environment)."""
    return subprocess.run(
        [sys.executable, "-m", "splendor_cli", *map(str, args)],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


class Fifo:
    """A FIFO in the test's folder with a reader from the start: its read end opened without
    blocking before any writer, and drained by a thread, so that a command that writes into it,
    however much, never waits. The test holds a write end too (`_keep`), so that the reader sees
    the end of the data only when `written` lets it go, after the command has returned."""

    def __init__(self, path: Path, *, owner: int | None = None) -> None:
        self.path = path
        os.mkfifo(path, 0o666)
        if owner is not None:
            os.chown(path, owner, -1)
        self._fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self._keep: int | None = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.set_blocking(self._fd, True)
        self._data: list[bytes] = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while chunk := os.read(self._fd, 1 << 16):
            self._data.append(chunk)

    def written(self) -> bytes:
        """Every byte written into the FIFO (call it once the command has returned: the test's
        own write end closed, the reader reaches the end of the data at once)."""
        if self._keep is not None:
            os.close(self._keep)
            self._keep = None
            self._reader.join()
            os.close(self._fd)
        return b"".join(self._data)


@pytest.fixture
def fifos() -> Iterator[list[Fifo]]:
    made: list[Fifo] = []
    yield made
    for fifo in made:
        fifo.written()


def another_users(path: Path, fifos: list[Fifo]) -> Fifo:
    """A FIFO at `path` that belongs to another user (the suite runs as root on CI)."""
    if os.geteuid() != 0:
        pytest.skip("only root can give a FIFO to another user (CI runs the suite as root)")
    fifo = Fifo(path, owner=OTHER_UID)
    fifos.append(fifo)
    return fifo


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit 2, one line on stderr holding `words`, nothing on stdout."""
    assert done.returncode == 2, (done.returncode, done.stdout[:200], done.stderr)
    assert done.stderr.count("\n") == 1 and done.stdout == "", done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.mark.parametrize(
    "command", [("show", "--svg", "-g", SAMPLE), ("replay", "--html", "-g", SAMPLE)], ids=["svg", "html"]
)
def test_another_users_fifo_gets_nothing(tmp_path: Path, fifos: list[Fifo], command: tuple[object, ...]) -> None:
    """A FIFO that another user planted where the picture goes (a shared /tmp): refused, nothing
    written into it, though it has a reader; so is a link to it."""
    fifo = another_users(tmp_path / "x.svg", fifos)
    refused(run(tmp_path, *command, "-o", fifo.path), "another user")
    link = tmp_path / "link.svg"
    link.symlink_to(fifo.path)
    refused(run(tmp_path, *command, "-o", link), "another user")
    assert fifo.written() == b""
    assert stat.S_ISFIFO(os.lstat(fifo.path).st_mode)


def test_another_users_device_gets_nothing(tmp_path: Path) -> None:
    """A character device that is not the user's (nor the null device) is refused; /dev/null is
    written through, as before."""
    if os.geteuid() != 0:
        pytest.skip("only root can make a device node of another user (CI runs the suite as root)")
    device = tmp_path / "zero.svg"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero's numbers: harmless
    except PermissionError:
        pytest.skip("this system does not let root make a device node")
    os.chown(device, OTHER_UID, -1)
    refused(run(tmp_path, "show", "--svg", "-g", SAMPLE, "-o", device), "another user")
    done = run(tmp_path, "show", "--svg", "-g", SAMPLE, "-o", os.devnull)
    assert done.returncode == 0, done.stderr


def test_a_fifo_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    """The user's own FIFO with no reader: refused in one line (exit 2), never waited on (the
    command used to block in open() until someone read)."""
    pipe = tmp_path / "pipe.svg"
    os.mkfifo(pipe)
    refused(run(tmp_path, "show", "--svg", "-g", SAMPLE, "-o", pipe), "nobody reads")
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_the_users_own_fifo_with_a_reader_still_gets_the_picture(tmp_path: Path, fifos: list[Fifo]) -> None:
    fifo = Fifo(tmp_path / "pipe.svg")
    fifos.append(fifo)
    done = run(tmp_path, "show", "--svg", "-g", SAMPLE, "--at", "4", "-o", fifo.path)
    assert done.returncode == 0, done.stderr
    assert fifo.written().startswith(b"<svg")


# -- a private view: a sealed seat's ---------------------------------------------------------------


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Machine]:
    """A dealt sealed game and ann's machine (her key)."""
    path, ann, _ = dealt(tmp_path_factory.mktemp("sealed-out"))
    return path, ann


@pytest.mark.parametrize("command", [("show", "--svg"), ("replay", "--html")], ids=["svg", "html"])
def test_a_sealed_seats_view_never_goes_into_a_fifo(
    tmp_path: Path, fifos: list[Fifo], sealed: tuple[Path, Machine], command: tuple[str, ...]
) -> None:
    """ann's view (her key is here) into her own FIFO, which has a reader: refused, nothing
    written; to a new file: written, mode 0600; over a file of hers: 0600 too; `-o -` still prints it."""
    path, ann = sealed
    env = ann.env()
    fifo = Fifo(tmp_path / "view.svg")
    fifos.append(fifo)
    refused(run(tmp_path, *command, "-g", path, "-o", fifo.path, env=env), "private", "FIFO")
    assert fifo.written() == b""
    new = tmp_path / "new.svg"
    done = run(tmp_path, *command, "-g", path, "-o", new, env=env)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    old = tmp_path / "old.svg"
    old.write_text("old")
    old.chmod(0o644)
    done = run(tmp_path, *command, "-g", path, "-o", old, env=env)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(old.stat().st_mode) == 0o600 and old.read_text() != "old"
    done = run(tmp_path, *command, "-g", path, "-o", "-", env=env)
    assert done.returncode == 0 and done.stdout.lstrip().startswith(("<svg", "<!doctype html")), done.stderr


def test_a_sealed_seats_view_never_replaces_another_users_file(tmp_path: Path, sealed: tuple[Path, Machine]) -> None:
    """A file another user made where ann's view goes (writable to her): refused, left as it was."""
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user (CI runs the suite as root)")
    path, ann = sealed
    theirs = tmp_path / "theirs.svg"
    theirs.write_text("theirs")
    os.chown(theirs, OTHER_UID, -1)
    refused(run(tmp_path, "show", "--svg", "-g", path, "-o", theirs, env=ann.env()), "another user")
    assert theirs.read_text() == "theirs"


def test_secret_keys_never_go_into_a_fifo(tmp_path: Path, fifos: list[Fifo], sealed: tuple[Path, Machine]) -> None:
    """`key export --secret -o` a FIFO (another user's, or the user's own), which has a reader:
    refused, nothing written (an export is a new file only)."""
    _, ann = sealed
    mine = Fifo(tmp_path / "mine.toml")
    fifos.append(mine)
    targets = [mine]
    if os.geteuid() == 0:
        targets.append(another_users(tmp_path / "theirs.toml", fifos))
    for fifo in targets:
        refused(run(tmp_path, "key", "export", "--secret", "-o", fifo.path, env=ann.env()), "exists")
        assert fifo.written() == b""
