"""The `except ... as e` clauses of a function that send the caught exception's text on to the
model: returned (`return str(e)`) or put into a ToolError (`raise ToolError(f"... {e}")`).

A message some helper raises and such a clause catches reaches the model there, whatever the
framework does with exceptions. Any rule whose raised text matters wherever it reaches the model
(a vague message, a secret, a retry invitation) marks these clauses and lets the linker judge
its raises through them (project_links reads the markers); the facts are the model's, not a rule's.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import PROTOCOL_ERROR_CLASSES, TOOL_ERROR_CLASSES
from mcp_lint.model.message_text import find_exception_text
from mcp_lint.model.names import AliasTable, dotted, last_name


def raises_tool_error(exc: cst.BaseExpression | None, aliases: AliasTable) -> bool:
    """`ToolError(...)` (any framework's, or a class of that name): its text reaches the model as written."""
    if type(exc) is not cst.Call:
        return False
    return aliases.resolve(exc.func) in TOOL_ERROR_CLASSES or last_name(dotted(exc.func) or "") == "ToolError"


def protocol_error_message(exc: cst.BaseExpression | None, aliases: AliasTable) -> cst.BaseExpression | None:
    """The message a protocol error is raised with (`McpError(ErrorData(code=..., message=m))`,
    `McpError(m)`): the client receives it as written. None for any other raise."""
    if type(exc) is not cst.Call or aliases.resolve(exc.func) not in PROTOCOL_ERROR_CLASSES or not exc.args:
        return None
    first = exc.args[0].value
    if type(first) is cst.Call:  # the error data: its `message`, the second positional argument
        keyword = next((a.value for a in first.args if a.keyword is not None and a.keyword.value == "message"), None)
        positional = [a.value for a in first.args if a.keyword is None and not a.star]
        return keyword if keyword is not None else positional[1] if len(positional) > 1 else None
    return first


def clauses_passing_text_on(fn: FunctionFacts, aliases: AliasTable, protocol_errors: bool = False) -> Iterator[tuple[cst.CSTNode, str, str]]:
    """(statement, route, Handler.site) for each `except ... as e` clause of `fn` that sends the
    caught exception's text on to the model: returned (route "return") or put into a ToolError
    (route "tool"); one statement per clause, the first in the function's order. With
    `protocol_errors`, also a clause that raises a protocol error with the text (route
    "protocol": the client reads its message as written), for a rule that judges what reaches the
    client."""
    seen: set[str] = set()
    for fact, value, route in (
        *((r, r.node.value, "return") for r in fn.returns),
        *((r, r.node.exc, "tool") for r in fn.raises),
    ):
        handler = fact.handler
        if handler is None or not handler.name or handler.site in seen or value is None:
            continue
        if route == "tool":
            message = protocol_error_message(value, aliases) if protocol_errors else None
            if message is not None:
                value, route = message, "protocol"
            elif type(value) is not cst.Call or not raises_tool_error(value, aliases) or not value.args:
                continue
            else:
                value = value.args[0].value
        if find_exception_text(fn.value_of(value), handler) is None:
            continue
        seen.add(handler.site)
        yield fact.node, route, handler.site
