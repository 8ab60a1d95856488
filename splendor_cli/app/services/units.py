"""The systemd user unit of `splendor watch --install`, written as systemd reads it.

systemd.syntax and systemd.exec say how each value is read:

- every line is stripped of leading and trailing whitespace, and a line ending with a backslash
  goes on at the next line: a value cannot end with whitespace or a backslash;
- specifiers (`%h`, `%n`...) are expanded in `Description=`, `WorkingDirectory=` and
  `ExecStart=`: a literal `%` is written `%%`;
- `WorkingDirectory=` is a path taken as it is after that (no quotes: a quote is part of the path,
  which then is not absolute, and the unit never starts), absolute, normalized, valid UTF-8;
- `ExecStart=` is split into words as a shell would: each word here is written in double quotes
  with C escapes (`\\\\`, `\\"`), and `$` is written `$$` (else it names an environment variable).

A path systemd cannot express that way (one ending with whitespace or a backslash, not UTF-8, or
with a control character) is refused (`unit_problem`). tests/app/test_watch_unit.py reads the unit
back as systemd does, and with `systemd-analyze verify` where it is installed.
"""

from __future__ import annotations

import os

from ...errors import UsageError, safe


def unit_problem(top: str, args: list[str]) -> str | None:
    """Why the folder `top` or a word of `args` cannot be written in a systemd unit (None: it can)."""
    for word in (top, *args):
        if not word.isprintable():
            return f"{safe(word)}: a path or name with a control character cannot go in a service file"
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            return f"{safe(word)}: a path that is not UTF-8 cannot go in a systemd unit"
    if top != top.strip() or top.endswith("\\"):
        return (
            f"{safe(top)}: systemd cannot name a folder whose name ends with a space or a backslash"
            " (it strips the one, and reads the other as a line going on): rename it, or use --kind cron"
        )
    if not os.path.isabs(top) or os.path.normpath(top) != top:
        return f"{safe(top)}: systemd takes an absolute, normalized working directory"
    return None


def _percent(text: str) -> str:
    """`text` with its specifiers' `%` doubled: systemd expands none of it."""
    return text.replace("%", "%%")


def exec_word(word: str) -> str:
    """One word of `ExecStart=`, read back as `word`: in double quotes, `\\` and `"` escaped, `%` and
    `$` doubled."""
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("$", "$$")
    return f'"{_percent(escaped)}"'


def systemd_unit(top: str, args: list[str], name: str) -> tuple[str, str, str]:
    """The unit that runs `args` in the folder `top` (a repository's), its path
    (`$XDG_CONFIG_HOME/systemd/user/NAME.service`), and how to start it.

    Raises:
        UsageError: systemd cannot express `top` or a word of `args` (`unit_problem`).
    """
    problem = unit_problem(top, args)
    if problem:
        raise UsageError(problem)
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    target = os.path.join(home, "systemd", "user", f"{name}.service")
    text = "\n".join(
        [
            "[Unit]",
            f"Description=splendor watch: keeps the games of {_percent(top)} moving",
            "After=network-online.target",
            "",
            "[Service]",
            "Type=simple",
            f"WorkingDirectory={_percent(top)}",
            "ExecStart=" + " ".join(exec_word(a) for a in args),
            "Restart=on-failure",
            "RestartSec=60",
            "",
            "[Install]",
            "WantedBy=default.target",
            "",
        ]
    )
    return text, target, f"systemctl --user daemon-reload && systemctl --user enable --now {name}.service"
