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


# A reply's own verdict attributes (`r.is_error`, `not r.is_success`, `not r.ok`): the HTTP
# clients' names for "the status says the call failed".
_FAILED_FLAGS = frozenset({"is_error", "is_client_error", "is_server_error"})
_SUCCEEDED_FLAGS = frozenset({"is_success", "ok"})


def found_failed_reply(conditions: Iterable[cst.BaseExpression]) -> frozenset[str]:
    """`found_failed`, and the replies a condition finds failed by their own verdict attribute
    (`if r.is_error:`, `if not resp.is_success:`, the `else` of `if resp.ok:`): inside that branch
    the reply is a failure the function found, as surely as by an error key. (Only for where a
    caller hands a found failure to a describer; `found_failed`'s other users keep its meaning.)"""
    conditions = tuple(conditions)
    found = set(found_failed(conditions))
    for condition in conditions:
        negated = False
        while type(condition) is cst.UnaryOperation and type(condition.operator) is cst.Not:
            negated, condition = not negated, condition.expression
        if not negated:
            found.update(_not_success_status(condition))
        if type(condition) is not cst.Attribute or type(condition.value) is not cst.Name:
            continue
        flag = condition.attr.value
        if (flag in _FAILED_FLAGS and not negated) or (flag in _SUCCEEDED_FLAGS and negated):
            found.add(condition.value.value)
    return frozenset(found)


def failed_positions(call: cst.Call, conditions: Iterable[cst.BaseExpression], body: cst.CSTNode) -> tuple[int, ...]:
    """The positions of `call`'s arguments that hold a value `conditions` found failed
    (`found_failed_reply`), whole or in parts: the local itself (`describe(r)`), a field of it
    (`describe(resp.status_code, ...)`), or a local of `body` assigned only from values reading
    it (`data = resp.json()`): the callee is handed what the caller found failed."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if not any(type(value) in (cst.Name, cst.Attribute) for value in positional):
        return ()
    failed = found_failed_reply(conditions)
    if not failed:
        return ()
    derived = _read_from(body, failed)
    return tuple(
        i
        for i, value in enumerate(positional)
        if (type(value) is cst.Name and (value.value in failed or value.value in derived))
        or (type(value) is cst.Attribute and type(value.value) is cst.Name and value.value.value in failed)
    )


def _read_from(body: cst.CSTNode, replies: frozenset[str]) -> frozenset[str]:
    """The locals `body` assigns only from values reading one of `replies` (`data =
    resp.json()`, `detail = resp.json().get("detail", resp.text)`)."""
    assigned: dict[str, list[cst.BaseExpression]] = {}
    for node in descendants(body, into_scopes=False):
        if type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            assigned.setdefault(node.targets[0].target.value, []).append(node.value)
    return frozenset(
        name
        for name, values in assigned.items()
        if name not in replies
        and all(any(type(n) is cst.Name and n.value in replies for n in descendants(value, into_scopes=False)) for value in values)
    )


def _not_success_status(condition: cst.BaseExpression) -> set[str]:
    """The reply a condition finds not successful by its status (`if resp.status_code != 200:`):
    `found_failed` leaves it out (a 204 or a redirect is no failure), but a caller that hands that
    reply to a describer whose every value is a failure treats it as one: the describer is where
    the failure text is built (D1), whichever status reaches it."""
    if type(condition) is not cst.Comparison or len(condition.comparisons) != 1:
        return set()
    left, target = condition.left, condition.comparisons[0]
    if type(left) is not cst.Attribute or left.attr.value != "status_code" or type(left.value) is not cst.Name:
        return set()
    bound = literal_value(target.comparator) if type(target.comparator) is cst.Integer else None
    if type(target.operator) is not cst.NotEqual or not isinstance(bound, int) or not 200 <= bound < 300:
        return set()
    return {left.value.value}
