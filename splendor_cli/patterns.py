"""Regular expressions compiled when first used.

A pattern compiled at a module's top costs its compilation on every start of the command line,
whether the command uses it or not (some 0.1 to 0.3 ms each: `bench/startup.py`). A
`LazyPattern` is declared the same way and compiled by its first match, once per process.
"""

from __future__ import annotations

import re


class LazyPattern:
    """`re.compile(source, flags)`, compiled at its first use; the same matching methods."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.source, self.flags)
        return compiled

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def __repr__(self) -> str:
        return f"LazyPattern({self.source!r})"
