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
        else:
            found.update(_failed_status(condition))
    return frozenset(found)


def _failed_status(condition: cst.BaseExpression) -> set[str]:
    """The reply a condition finds failed by its HTTP status (`if resp.status_code >= 400:`,
    `== 404`): a caller handing it whole to a describer found the failure as surely as by an
    error key. Not `!= 200` (a 204 or a redirect is no failure) nor a success test."""
    if type(condition) is not cst.Comparison or len(condition.comparisons) != 1:
        return set()
    left, target = condition.left, condition.comparisons[0]
    if type(left) is not cst.Attribute or left.attr.value != "status_code" or type(left.value) is not cst.Name:
        return set()
    bound = literal_value(target.comparator) if type(target.comparator) is cst.Integer else None
    if not isinstance(bound, int):
        return set()
    operator = type(target.operator)
    failed = (operator in (cst.GreaterThanEqual, cst.Equal) and bound >= 400) or (operator is cst.GreaterThan and bound >= 399)
    return {left.value.value} if failed else set()
