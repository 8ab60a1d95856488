"""Measuring one command of the benches (`apply_mail.py`, `verify_git.py`): wall time, CPU time
and peak memory of a process of its own."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

# Run from a small process of its own: a child forked from the bench (which may hold every
# version of a file) would count the bench's memory in its peak (Linux keeps the largest resident
# set across exec).
_WRAPPER = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
print(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status))
"""


def measured(command: list[str], cwd: Path, env: Mapping[str, str]) -> tuple[float, float, float, int]:
    """Run `command` once: wall seconds, CPU seconds (user + system, its children included), peak
    memory in MB (the largest of the process and of the children it waited for), exit code."""
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *command], cwd=cwd, env=env, capture_output=True, text=True)
    wall, cpu, peak, code = out.stdout.split()
    return float(wall), float(cpu), float(peak), int(code)
