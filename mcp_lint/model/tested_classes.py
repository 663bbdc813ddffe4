"""Exception classes a module's code tests by name: caught by an `except` clause or checked with
`isinstance`/`issubclass`. A fix that raises ToolError in place of such a class would slip past
that code (a caller's `except ProjectError`, a branch on `isinstance(r, ProjectError)`), so the
linker offers no such fix. Also the classes whose caught exception's message the code reads in a
test (`except ApiError as exc: if "404" in exc.message:`): a fix that rewrites that message would
break the branch. Read from the text with patterns: fast on every module, and a stray match in a
comment or a string only withholds a fix."""

from __future__ import annotations

import re

from mcp_lint.lazy_re import lazy_compile

_NAMES = r"\(?\s*([\w.]+(?:\s*,\s*[\w.]+)*)"
_EXCEPT = lazy_compile(r"^[ \t]*except\*?\s*" + _NAMES, re.MULTILINE)
# `isinstance(value, Cls)` / `isinstance(obj.attr[0], (A, B))`: the first argument without commas.
_TYPE_TEST = lazy_compile(r"\b(?:isinstance|issubclass)\(\s*[^,()]*(?:\([^()]*\)[^,()]*)*,\s*" + _NAMES)


def tested_class_names(source: str) -> frozenset[str]:
    """The short names of the classes `source` catches or type-tests (`pkg.errors.E` -> `E`)."""
    names: set[str] = set()
    for pattern in (_EXCEPT, _TYPE_TEST):
        for match in pattern.finditer(source):
            names.update(part.strip().rsplit(".", 1)[-1] for part in match.group(1).split(",") if part.strip())
    return frozenset(names)


_NAMED_EXCEPT = lazy_compile(r"^([ \t]*)except\*?\s*" + _NAMES + r"\s*\)?\s+as\s+(\w+)\s*:", re.MULTILINE)
_CLAUSE_LINES = 40  # how far below its `except` a clause's test of the message is looked for


def message_tested_class_names(source: str) -> frozenset[str]:
    """The short names of the classes whose caught exception's text a clause tests: `"404" in
    exc.message`, `"not found" in str(exc)`, `str(exc).startswith(...)`, `exc.args[0] == ...`."""
    names: set[str] = set()
    lines = source.splitlines()
    for match in _NAMED_EXCEPT.finditer(source):
        indent, caught, bound = match.group(1), match.group(2), re.escape(match.group(3))
        text = rf"(?:str\(\s*{bound}\s*\)|{bound}\.(?:message|msg|args(?:\[\d+\])?))"
        test = re.compile(rf"\bin\s+{text}(?!\w)|{text}(?:\.(?:lower|casefold|strip)\(\))?\s*(?:[=!]=|\.(?:startswith|endswith|find|count)\()")
        first = source.count("\n", 0, match.end()) + 1
        for line in lines[first : first + _CLAUSE_LINES]:
            if line.strip() and len(line) - len(line.lstrip(" \t")) <= len(indent):
                break  # the clause has ended
            if test.search(line):
                names.update(part.strip().rsplit(".", 1)[-1] for part in caught.split(",") if part.strip())
                break
    return frozenset(names)
