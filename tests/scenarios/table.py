"""Players at a table of real git clones, each running the real `splendor` in their own clone
with their own git identity (no user or system git config leaks in)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import attrs

GAME = "games/friday.toml"


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "COLUMNS": "100",
        **(extra or {}),
    }


def run_git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=_env(), capture_output=True, text=True)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


@attrs.define
class Player:
    """One person: a name, an address, a clone of the table's repository."""

    name: str
    home: Path
    env: dict[str, str] = attrs.Factory(dict)

    @property
    def email(self) -> str:
        return f"{self.name}@example.org"

    def splendor(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        """The real console entry point (`python -m splendor_cli`), run in the clone."""
        done = subprocess.run(
            [sys.executable, "-m", "splendor_cli", *args],
            cwd=self.home,
            env=_env(self.env),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if ok:
            assert done.returncode == 0, (self.name, args, done.stdout, done.stderr)
        return done

    def git(self, *args: str) -> str:
        return run_git(self.home, *args)


def table(tmp_path: Path, names: tuple[str, ...], *, rebase: bool) -> tuple[Path, list[Player]]:
    """A bare repository (the "server": any git host) and one empty clone of it per name, each with
    its own identity and `pull.rebase` as the player chose it."""
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    players = []
    for name in names:
        run_git(tmp_path, "clone", "-q", str(remote), name)
        player = Player(name=name, home=tmp_path / name)
        for key, value in (
            ("user.name", name),
            ("user.email", player.email),
            ("commit.gpgsign", "false"),
            ("pull.rebase", "true" if rebase else "false"),
        ):
            player.git("config", key, value)
        players.append(player)
    return remote, players
