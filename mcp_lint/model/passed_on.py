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
from mcp_lint.model.frameworks import TOOL_ERROR_CLASSES
from mcp_lint.model.message_text import find_exception_text
from mcp_lint.model.names import AliasTable, dotted, last_name


def raises_tool_error(exc: cst.BaseExpression | None, aliases: AliasTable) -> bool:
    """`ToolError(...)` (any framework's, or a class of that name): its text reaches the model as written."""
    if not isinstance(exc, cst.Call):
        return False
    return aliases.resolve(exc.func) in TOOL_ERROR_CLASSES or last_name(dotted(exc.func) or "") == "ToolError"


def clauses_passing_text_on(fn: FunctionFacts, aliases: AliasTable) -> Iterator[tuple[cst.CSTNode, str, str]]:
    """(statement, route, Handler.site) for each `except ... as e` clause of `fn` that sends the
    caught exception's text on to the model: returned (route "return") or put into a ToolError
    (route "tool"); one statement per clause, the first in the function's order."""
    seen: set[str] = set()
    for fact, value, route in (
        *((r, r.node.value, "return") for r in fn.returns),
        *((r, r.node.exc, "tool") for r in fn.raises),
    ):
        handler = fact.handler
        if handler is None or not handler.name or handler.site in seen or value is None:
            continue
        if route == "tool":
            if not isinstance(value, cst.Call) or not raises_tool_error(value, aliases) or not value.args:
                continue
            value = value.args[0].value
        if find_exception_text(fn.value_of(value), handler) is None:
            continue
        seen.add(handler.site)
        yield fact.node, route, handler.site
