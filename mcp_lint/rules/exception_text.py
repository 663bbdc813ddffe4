"""Where a caught exception's text (or an upstream error body) ends up in what a tool sends.

Shared by MCP002 (which reports it), MCP003 and MCP005 (which leave such messages to MCP002).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.facts import Handler, find_exception_text
from mcp_lint.model.frameworks import TOOL_ERROR_CLASSES
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import FileContext

_STATUS_ATTRS = frozenset({"status_code", "ok", "is_success", "is_error", "status", "is_client_error", "is_server_error"})
_BODY_ATTRS = frozenset({"text", "content", "json", "body", "reason_phrase"})


def is_tool_error_raise(exc: cst.BaseExpression | None, ctx: FileContext) -> bool:
    if not isinstance(exc, cst.Call):
        return False
    resolved = ctx.model.aliases.resolve(exc.func)
    return resolved in TOOL_ERROR_CLASSES or last_name(dotted(exc.func) or "") == "ToolError"


def _project_call(call: cst.Call, ctx: FileContext) -> bool:
    """A call to a function of the linted project (its own text sinks are checked there)."""
    name = dotted(call.func)
    if name is None:
        return False
    root = name.split(".")[0]
    if root in ("self", "cls"):
        return True
    if root in ctx.model.aliases.relative_names:
        return True
    resolved = ctx.model.aliases.resolve_dotted(name)
    if resolved is None:
        return f"{ctx.model.module}.{name}" in ctx.model.functions or name in {f.split(".")[-1] for f in ctx.model.functions}
    return resolved.split(".")[0] == ctx.model.module.split(".")[0]


def exception_text_in(
    expr: cst.CSTNode, handler: Handler | None, ctx: FileContext, params: frozenset[str] = frozenset(), *, through_locals: bool = True
) -> cst.CSTNode | None:
    """Exception text in `expr`, ignoring the exception object passed whole to a project helper
    (that helper's own page reports what it does with it); see find_exception_text for
    `through_locals`."""
    if isinstance(expr, cst.Call) and _project_call(expr, ctx):
        names = set(params) | ({handler.name} if handler and handler.name else set())
        for argument in expr.args:
            if isinstance(argument.value, cst.Name) and argument.value.value in names:
                continue
            found = find_exception_text(argument.value, handler, params, through_locals=through_locals)
            if found is not None:
                return found
        return None
    return find_exception_text(expr, handler, params, through_locals=through_locals)


def looks_like_exception_param(found: cst.CSTNode, param: str) -> bool:
    """A helper parameter is treated as an exception only when used like one (`str(e)`, `{e}`,
    `e.args`), and named like one."""
    return param in {"e", "ex", "exc", "err", "error", "exception", "error_obj"} or param.endswith(("_error", "_exc", "_exception"))


def status_bases(conditions: tuple[cst.BaseExpression, ...]) -> set[str]:
    bases: set[str] = set()
    for cond in conditions:
        for node in descendants(cond):
            if isinstance(node, cst.Attribute) and node.attr.value in _STATUS_ATTRS:
                base = dotted(node.value)
                if base:
                    bases.add(base)
    return bases


def upstream_body(value: cst.CSTNode, bases: set[str]) -> cst.CSTNode | None:
    for node in descendants(value):
        if isinstance(node, cst.Attribute) and node.attr.value in _BODY_ATTRS and dotted(node.value) in bases:
            return node
    return None
