"""Reading a call's arguments as registrations and constructors pass them: by position or
keyword, and string literals (tool names, request methods).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.names import literal_value


def string_value(expr: cst.BaseExpression | None) -> str | None:
    """The value of a plain string literal, None for anything else (bytes included)."""
    if type(expr) is cst.SimpleString:
        value = literal_value(expr)
        return value if isinstance(value, str) else None
    return None


def argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    """The argument passed at `index` or as `keyword=`."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[index].value if index < len(positional) else None


def keyword_values(call: cst.Call, keyword: str) -> list[cst.BaseExpression | None]:
    """What `call` may pass as `keyword=`: each value written (`keyword=v`, or under the key of a
    `**{"keyword": v}` literal), and None for each `**mapping` that may hold it but cannot be read
    (`**options`, `**settings.as_kwargs()`, a dict literal that itself unpacks another mapping).
    Empty when the call certainly does not pass it."""
    found: list[cst.BaseExpression | None] = []
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            found.append(arg.value)
        elif arg.star == "**":
            found.extend(_mapping_values(arg.value, keyword))
    return found


def _mapping_values(mapping: cst.BaseExpression, keyword: str) -> list[cst.BaseExpression | None]:
    """The values a `**mapping` passes as `keyword=` (see keyword_values)."""
    if type(mapping) is not cst.Dict:
        return [None]
    found: list[cst.BaseExpression | None] = []
    for element in mapping.elements:
        if type(element) is not cst.DictElement:
            return [None]  # `**{**base, ...}`: what `base` holds is unknown
        key = string_value(element.key)
        if key is None:
            return [None]  # a computed key may be the keyword
        if key == keyword:
            found.append(element.value)
    return found


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
