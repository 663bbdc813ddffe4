"""MCP004, a helper called once per item of a loop: `for item in items: save_item(item)` where
`save_item` rejects a bad item before it writes. The call of item i writes; the call of item i+1
can still reject, so the call fails with the earlier items changed, though every item was there
to check before the first write. What the helper checks first is read from its summary
(FunctionSummary.checks_first, recorded here); which arguments change from turn to turn is read
off the caller's loop.
"""

from __future__ import annotations

from typing import Callable, Sequence

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.mutations import read_names
from mcp_lint.model.walk import children, descendants


def checks_first(fn: FunctionFacts, first_change_row: int | None, row_of: Callable[[cst.CSTNode], int]) -> tuple[str, ...]:
    """The parameters that the function's own conditional raises read (directly or through a
    local assigned once from them) when the raise comes before its first change: what a caller
    that calls it once per item has it check again for each item."""
    if first_change_row is None:
        return ()
    params = set(fn.params) - {"self", "cls"}
    if not params:
        return ()
    # A local assigned once from parameters (`level = item.get("level", 1)`) stands for them.
    through: dict[str, set[str]] = {}
    for name, value in fn.single_assignments.items():
        reads = {r.split(".")[0] for r in read_names(value)} & params
        if reads and name not in params:
            through[name] = reads
    found: list[str] = []
    for raise_ in fn.raises:
        if raise_.handler is not None or raise_.node.exc is None or not raise_.conditions:
            continue
        if row_of(raise_.node) >= first_change_row:
            continue
        if not all(_plain(condition) for condition in raise_.conditions):
            continue  # `if target.exists(): raise`: it may see what the turn before wrote
        for condition in raise_.conditions:
            for read in read_names(condition):
                head = read.split(".")[0]
                if head in params:
                    found.append(head)
                found.extend(sorted(through.get(head, ())))
    return tuple(dict.fromkeys(found))


# Calls a condition may make and still read only the values it is handed: builtins that compute,
# and the methods of text and mappings. Any other call may ask the world, which the write of the
# turn before can have changed (a file's existence, a row looked up): its outcome may depend on it.
_PLAIN_FUNCTIONS = frozenset({"len", "isinstance", "int", "str", "float", "bool", "set", "frozenset", "tuple", "list", "sorted", "any", "all", "min", "max", "abs", "round", "type"})
_PLAIN_METHODS = frozenset(
    {"get", "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "startswith", "endswith", "isdigit", "isnumeric", "isalnum", "isalpha",
     "isidentifier", "keys", "values", "items", "split", "count", "index", "find"}
)
# Wrappers of a sequence that hand out its items in turn (`enumerate(items)`, `zip(a, b)`).
_ITEM_WRAPPERS = frozenset({"enumerate", "zip", "sorted", "reversed", "list", "tuple"})


def _plain(condition: cst.BaseExpression) -> bool:
    """Does the condition compute on values only (no call that may ask the world)?"""
    for node in (condition, *descendants(condition)):
        if type(node) is not cst.Call:
            continue
        func = node.func
        if type(func) is cst.Name and func.value in _PLAIN_FUNCTIONS:
            continue
        if type(func) is cst.Attribute and func.attr.value in _PLAIN_METHODS:
            continue
        return False
    return True


def over_parameter(loop: cst.For | cst.While, params: Sequence[str]) -> bool:
    """Does the loop go over items the caller handed in (`for item in items`, `enumerate(items)`,
    `spec["rows"]`, `items.items()`), not over what the function lists or reads itself (a
    directory's files, a stream's chunks, a `while`)? Only then were all items there to check
    before the first turn wrote."""
    if type(loop) is not cst.For:
        return False
    source: cst.BaseExpression = loop.iter
    while type(source) is cst.Call:
        func = source.func
        if type(func) is cst.Name and func.value in _ITEM_WRAPPERS and source.args:
            source = source.args[0].value
        elif type(func) is cst.Attribute and func.attr.value in {"items", "values", "keys"} and not source.args:
            source = func.value
        else:
            return False
    while type(source) in (cst.Attribute, cst.Subscript):
        source = source.value  # type: ignore[attr-defined]
    return type(source) is cst.Name and source.value in params


def enclosing_loop(function: cst.FunctionDef, call: cst.Call) -> cst.For | cst.While | None:
    """The innermost `for`/`while` of the function's own body (not nested scopes) whose body
    holds the call."""
    found: cst.For | cst.While | None = None
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if type(node) in (cst.Lambda, cst.FunctionDef, cst.ClassDef):
            continue
        if type(node) in (cst.For, cst.While) and any(n is call for n in descendants(node.body, into_scopes=False)):
            found = node  # type: ignore[assignment]
            stack = list(children(node.body))  # an inner loop is innermost
            continue
        stack.extend(children(node))
    return found


def varying_arguments(loop: cst.For | cst.While, call: cst.Call, assigned: Sequence[str]) -> tuple[tuple[int, str], ...]:
    """(position or -1, keyword or "") of the call's arguments that read what changes from turn
    to turn: the loop's own names (`item` of `for item in items`) and names the body assigns
    (`assigned`)."""
    names = set(assigned)
    if type(loop) is cst.For:
        names.update(n.value for n in descendants(loop.target) if type(n) is cst.Name)
        if type(loop.target) is cst.Name:
            names.add(loop.target.value)
    out: list[tuple[int, str]] = []
    position = 0
    for argument in call.args:
        if argument.star:
            break
        reads = {r.split(".")[0] for r in read_names(argument.value)}
        if reads & names:
            out.append((-1, argument.keyword.value) if argument.keyword is not None else (position, ""))
        if argument.keyword is None:
            position += 1
    return tuple(out)
