"""A command body run from another (`watch`'s round, a race settled by `sync`): what it prints on
stdout given, line by line, to the caller instead."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable


class captured:
    """What a command body prints on stdout while inside, each line given to `say`."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say, self.buffer = say, io.StringIO()

    def __enter__(self) -> None:
        self.saved = sys.stdout
        sys.stdout = self.buffer

    def __exit__(self, *exc: object) -> None:
        sys.stdout = self.saved
        for line in self.buffer.getvalue().splitlines():
            if line.strip():
                self.say(line)


__all__ = ["captured"]
