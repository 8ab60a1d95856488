"""A test's code run in a child process, called like a function, so that a hang fails the test.

The fuzz tests feed the loaders thousands of hostile inputs, and none may make a loader hang. A
clock around each load (SIGALRM) bets on how long a load takes on a loaded machine; instead the
loads run in a child process, and the test waits for each answer only until the whole test has
taken PATIENCE seconds (helpers.py): a loader that never returns fails the test, however loaded
the machine, and a slow one never does. The child is started once and kept (a call costs a round
trip through a pipe, not a start); it runs `python tests/child.py`, so that it imports the test
modules by their plain names (`test_fuzz`, `sharing.test_fuzz_inputs`).

In the child, a call's exception comes back as its traceback, raised in the test as an
AssertionError (hypothesis shrinks it as any failure); a child that dies is a failure naming its
exit code and the end of its output, and the next call starts another.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any

from helpers import PATIENCE


class Hang(BaseException):
    """A call the child never answered (a BaseException: hypothesis does not shrink it, no
    `except Exception` hides it, and the test fails at once)."""


class Child:
    """A child process that runs functions of the test modules: `call("test_fuzz", "judged", ...)`.
    A context manager: on the way out, the child is stopped."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._output = tempfile.TemporaryFile()  # noqa: SIM115 - the child's output, closed on __exit__
        self._requests: Connection | None = None
        self._answers: Connection | None = None
        self.deadline = time.monotonic() + PATIENCE

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
        self._output.close()

    def start_clock(self) -> None:
        """A new test begins: it may wait PATIENCE seconds in all, from now."""
        self.deadline = time.monotonic() + PATIENCE

    def _start(self) -> None:
        to_child, from_parent = os.pipe()
        to_parent, from_child = os.pipe()
        self._process = subprocess.Popen(
            [sys.executable, __file__, str(to_child), str(from_child)],
            pass_fds=(to_child, from_child),
            stdin=subprocess.DEVNULL,
            stdout=self._output,
            stderr=self._output,
        )
        os.close(to_child)
        os.close(from_child)
        self._requests = Connection(from_parent, readable=False)
        self._answers = Connection(to_parent, writable=False)

    def call(self, module: str, function: str, *args: Any) -> Any:
        """`module.function(*args)` in the child (arguments and result picklable: plain values)."""
        if self._process is None:
            self._start()
        assert self._requests is not None and self._answers is not None
        self._requests.send((module, function, args))
        if not self._answers.poll(max(0.0, self.deadline - time.monotonic())):
            self.close()
            raise Hang(f"{module}.{function} did not return: the test has waited {PATIENCE:.0f} s in all")
        try:
            kind, value = self._answers.recv()
        except EOFError:
            code = self.close()
            raise AssertionError(f"the child process died (exit {code}) in {function}:\n{self._tail()}") from None
        if kind == "error":
            raise AssertionError(value)
        return value

    def close(self) -> int | None:
        """Stop the child (killed if it is still running); its exit code."""
        process, self._process = self._process, None
        for connection in (self._requests, self._answers):
            if connection is not None:
                connection.close()
        self._requests = self._answers = None
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        return process.wait()

    def _tail(self) -> str:
        self._output.seek(0)
        return self._output.read()[-3000:].decode("utf-8", "replace")


def _serve(requests: Connection, answers: Connection) -> None:
    """The child's loop: each request called, its result or its traceback sent back."""
    while True:
        try:
            module, function, args = requests.recv()
        except EOFError:
            return
        try:
            answer: tuple[str, Any] = ("ok", getattr(importlib.import_module(module), function)(*args))
        except Exception as exc:
            answer = ("error", f"{exc}\n--- in the child process:\n{traceback.format_exc()}")
        answers.send(answer)


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))
