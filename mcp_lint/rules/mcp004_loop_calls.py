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
        for condition in raise_.conditions:
            for read in read_names(condition):
                head = read.split(".")[0]
                if head in params:
                    found.append(head)
                found.extend(sorted(through.get(head, ())))
    return tuple(dict.fromkeys(found))


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
