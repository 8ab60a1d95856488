"""Where `show --svg -o` and `replay -o` write: a regular file is replaced whole, anything else
(a device, a FIFO, a link to one) is written through and stays what it was."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from helpers import PATIENCE, ROOT, cli

SAMPLE = ROOT / "games" / "sample-3p.toml"


def _read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    """A reader of the FIFO `path` in a thread, what it read appended to `into`."""

    def read() -> None:
        with open(path, "rb") as handle:
            into.append(handle.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(
    "command", [("show", "--svg", "-g", SAMPLE, "--at", "4"), ("replay", "--html", "-g", SAMPLE)], ids=["svg", "html"]
)
@pytest.mark.parametrize("through_link", [False, True], ids=["fifo", "link-to-fifo"])
def test_a_fifo_is_written_through_never_replaced(
    tmp_path: Path, command: tuple[object, ...], through_link: bool
) -> None:
    """As /dev/null would be: the picture goes into the FIFO (or the FIFO a link names), which
    is still a FIFO afterwards, and the link still a link."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = fifo
    if through_link:
        target = tmp_path / "link.svg"
        target.symlink_to(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    code, _, err = cli(*command, "-o", target)
    reader.join(PATIENCE)  # the command has closed the FIFO: the reader has its bytes at once
    assert not reader.is_alive(), f"nothing read from the FIFO in {PATIENCE:.0f} s"
    assert code == 0, err
    assert got and got[0].lstrip().startswith((b"<svg", b"<!doctype html"))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not through_link or os.path.islink(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({"pipe", target.name})  # no temporary file left


def test_regular_files_links_and_folders(tmp_path: Path) -> None:
    """A regular file is still replaced whole; a link to a regular file is still refused (exit
    2, the file untouched); a folder is refused; `-o -` is standard output."""
    plain = tmp_path / "t.svg"
    plain.write_text("old")
    assert cli("show", "--svg", "-g", SAMPLE, "-o", plain)[0] == 0
    assert plain.read_text().startswith("<svg")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    link = tmp_path / "l.svg"
    link.symlink_to(victim)
    code, _, err = cli("show", "--svg", "-g", SAMPLE, "-o", link)
    assert code == 2 and "symbolic link" in err and victim.read_text() == "keep"
    code, _, err = cli("show", "--svg", "-g", SAMPLE, "-o", tmp_path)
    assert code == 2 and "folder" in err
    code, out, _ = cli("show", "--svg", "-g", SAMPLE, "-o", "-")
    assert code == 0 and out.startswith("<svg")
