"""The miss branch of a low-level dispatcher: the statement reached when the requested tool name
matches none of its tools (`else: ... f"Unknown tool: {name}"`). The model only calls listed
tools, and the protocol's own example answers this case with a protocol error, so rules judge it
apart from a tool's failures."""

from __future__ import annotations


import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted


def _tool_name_vars(fn: FunctionFacts) -> set[str]:
    names = {"name", "tool_name", "params.name", "req.params.name", "request.params.name"}
    return names | {p for p in fn.params if "name" in p}


def misses_every_tool(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...]) -> bool:
    """Is the innermost condition the dispatcher's miss: `name not in TOOLS`, `name != "echo"`,
    the `else:` after `if name == "a": ... elif name == "b":`? A statement inside a tool's own
    branch (`elif name == "b":`) is that tool's, not an unknown tool's."""
    if not conditions:
        return False
    names = _tool_name_vars(fn)
    condition = conditions[-1]
    negated = type(condition) is cst.UnaryOperation and type(condition.operator) is cst.Not
    if negated:
        condition = condition.expression
    if type(condition) is cst.Comparison and len(condition.comparisons) == 1 and dotted(condition.left) in names:
        operator = condition.comparisons[0].operator
        if type(operator) in (cst.NotIn, cst.NotEqual, cst.IsNot):
            return not negated
        if type(operator) in (cst.Equal, cst.In, cst.Is):
            return negated
    return negated and dotted(condition) in names  # `if not name:`


def else_of_tool_branches(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...]) -> bool:
    """The `else:` after `if name == "a": ... elif name == "b":`: reached only by a tool name the
    dispatcher does not list. (A membership test, `name not in DATA`, may as well be about a
    record the tool looks up: only its wording, UNKNOWN_TOOL, tells.)"""
    if not conditions:
        return False
    condition = conditions[-1]
    if not (type(condition) is cst.UnaryOperation and type(condition.operator) is cst.Not):
        return False
    tested = condition.expression
    return (
        type(tested) is cst.Comparison
        and len(tested.comparisons) == 1
        and type(tested.comparisons[0].operator) is cst.Equal
        and type(tested.comparisons[0].comparator) is cst.SimpleString
        and dotted(tested.left) in _tool_name_vars(fn)
    )
