"""Reading a call's arguments as registrations and constructors pass them: by position or
keyword, and string literals (tool names, request methods).
"""

from __future__ import annotations

import libcst as cst


def string_value(expr: cst.BaseExpression | None) -> str | None:
    """The value of a plain string literal, None for anything else."""
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    """The argument passed at `index` or as `keyword=`."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[index].value if index < len(positional) else None


def keyword_string(call: cst.Call, keyword: str) -> str | None:
    """The string literal passed as `keyword=`."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return string_value(arg.value)
    return None


def name_argument(call: cst.Call) -> str | None:
    """The tool name of `@mcp.tool("name")` / `@mcp.tool(name="name")`."""
    return string_value(argument(call, 0, "name"))


def first_positional(call: cst.Call) -> cst.BaseExpression | None:
    """The first argument when it is passed by position."""
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0].value
    return None
