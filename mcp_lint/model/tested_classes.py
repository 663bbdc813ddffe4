"""Exception classes a module's code tests by name: caught by an `except` clause or checked with
`isinstance`/`issubclass`. A fix that raises ToolError in place of such a class would slip past
that code (a caller's `except ProjectError`, a branch on `isinstance(r, ProjectError)`), so the
linker offers no such fix. Read from the text with two patterns: fast on every module, and a stray
match in a comment or a string only withholds a fix."""

from __future__ import annotations

import re

_NAMES = r"\(?\s*([\w.]+(?:\s*,\s*[\w.]+)*)"
_EXCEPT = re.compile(r"^[ \t]*except\*?\s*" + _NAMES, re.MULTILINE)
# `isinstance(value, Cls)` / `isinstance(obj.attr[0], (A, B))`: the first argument without commas.
_TYPE_TEST = re.compile(r"\b(?:isinstance|issubclass)\(\s*[^,()]*(?:\([^()]*\)[^,()]*)*,\s*" + _NAMES)


def tested_class_names(source: str) -> frozenset[str]:
    """The short names of the classes `source` catches or type-tests (`pkg.errors.E` -> `E`)."""
    names: set[str] = set()
    for pattern in (_EXCEPT, _TYPE_TEST):
        for match in pattern.finditer(source):
            names.update(part.strip().rsplit(".", 1)[-1] for part in match.group(1).split(",") if part.strip())
    return frozenset(names)
