"""Which locals a branch found failed: the conditions that test a value for a failure item."""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from mcp_lint.model.names import literal_value
from mcp_lint.model.walk import descendants
from mcp_lint.vocabulary import ERROR_KEYS, SUCCESS_KEYS

# Keys a check names when it tests a value for a failure (`"error" in r`, `r.get("success")`).
FAILURE_KEYS = frozenset((*ERROR_KEYS, *SUCCESS_KEYS))


def found_failed(conditions: Iterable[cst.BaseExpression]) -> frozenset[str]:
    """The names read by those of `conditions` that test a failure item (`if r.get("error"):`,
    `if not r["ok"]:`, `if "error" in r and status:`): inside their branch the value the name
    holds is a failure the function found (a condition naming no failure key tells nothing)."""
    found: set[str] = set()
    for condition in conditions:
        inside = list(descendants(condition, into_scopes=False))
        if any(type(n) is cst.SimpleString and literal_value(n) in FAILURE_KEYS for n in inside):
            found.update(n.value for n in inside if type(n) is cst.Name)
    return frozenset(found)
