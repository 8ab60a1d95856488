"""The commit sync audited last on each remote of each game (gate/remotes.py), kept as the memory of
seen games is: private, never through a link, bounded, written whole."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from splendor_cli.gate import Gate, Remotes, Seen
from splendor_cli.gate.remotes import MAX_BYTES, remote_key

A, B = "a" * 40, "b" * 40


def test_remembered_per_game_and_remote_private_and_forgotten(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "remotes"
    remotes = Remotes(str(folder))
    origin, other = remote_key("/srv/remote.git", "main"), remote_key("/srv/remote.git", "dev")
    assert remotes.commit("g", origin) is None
    remotes.remember("g", origin, A)
    remotes.remember("g", other, B)
    remotes.remember("h", origin, B)
    assert (remotes.commit("g", origin), remotes.commit("g", other), remotes.commit("h", origin)) == (A, B, B)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in folder.iterdir())
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    remotes.forget("g")
    assert remotes.commit("g", origin) is None and remotes.commit("h", origin) == B


def test_a_link_is_never_followed_and_a_huge_file_is_read_bounded(tmp_path: Path) -> None:
    """A link planted in place of a game's file is neither read nor written through; a file of
    more than MAX_BYTES is read up to the bound (what lies beyond is not there)."""
    folder = tmp_path / "remotes"
    folder.mkdir(mode=0o700)
    remotes = Remotes(str(folder))
    key = remote_key("u", "main")
    target = tmp_path / "elsewhere"
    target.write_text(f"{key} {A}\n")
    path = remotes.file("g")
    assert path is not None
    os.symlink(target, path)
    assert remotes.commit("g", key) is None
    remotes.remember("g", key, B)
    assert target.read_text() == f"{key} {A}\n"

    huge = remotes.file("h")
    assert huge is not None
    Path(huge).write_text("x" * MAX_BYTES + f"\n{key} {A}\n")
    assert remotes.commit("h", key) is None


def test_junk_is_ignored_and_off_keeps_nothing(tmp_path: Path) -> None:
    remotes = Remotes(str(tmp_path))
    key = remote_key("u", "main")
    remotes.remember("g", key, "not a commit")
    remotes.remember("g", "../../etc", A)
    assert remotes.lines("g") == {}
    off = Remotes(None)
    off.remember("g", key, A)
    assert off.commit("g", key) is None


def test_the_gate_remembers_and_forget_forgets_with_what_was_seen(tmp_path: Path) -> None:
    gate = Gate(seen=Seen(None), locks=str(tmp_path / "locks"), remotes=Remotes(str(tmp_path / "remotes")))
    key = remote_key("u", "main")
    gate.remember_remote("g", key, A)
    assert gate.remotes.commit("g", key) == A
    assert Gate(seen=Seen(None), locks=str(tmp_path)).remotes.commit("g", key) is None  # off by default
