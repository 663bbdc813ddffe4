"""Regular expressions of module tables, compiled on their first use instead of at import.

mcp-lint's modules hold about a hundred patterns (the failure vocabulary, the rules' wording
tables); compiling all of them at import is a noticeable part of a one-file run's start, and a
run uses only some (a file with no `noqa`, no retry wording, no table rows...). `lazy_compile`
returns a stand-in that compiles on the first attribute asked of it and from then on answers
`search`, `match`... from the compiled pattern's own bound methods, so a use costs what a use of
the compiled pattern costs. The `mcp-lint` command also keeps their compiled programs between
runs (regex_store.py).

Only for a pattern a module keeps as a constant: a pattern made inside a function is compiled
when that function runs anyway.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, Generic

from mcp_lint.regex_store import compile_pattern

__all__ = ["LazyPattern", "lazy_compile"]

# The compiled pattern's methods, copied onto the stand-in once it is compiled (an attribute of
# the instance is found without a call to __getattr__).
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern(Generic[AnyStr]):
    """A `re.Pattern` compiled when it is first used; `pattern` and `flags` are as given."""

    def __init__(self, pattern: AnyStr, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def _compile(self) -> re.Pattern[AnyStr]:
        compiled = compile_pattern(self.pattern, self.flags)  # a stored program when the command runs
        for name in _METHODS:
            setattr(self, name, getattr(compiled, name))
        return compiled

    def __getattr__(self, name: str) -> Any:
        # Called only for what the instance does not hold yet: the methods before the first
        # compile, and the rarely used attributes (`groupindex`...) of the compiled pattern.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._compile(), name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self.flags!r})"


def lazy_compile(pattern: AnyStr, flags: int | re.RegexFlag = 0) -> LazyPattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled on first use (see the module's docstring)."""
    return LazyPattern(pattern, flags)
