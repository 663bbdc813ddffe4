"""Pieces several rules share: reading error constructors, building ToolError/error-result fixes."""

from __future__ import annotations

import re

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import (
    TOOL_ERROR_IMPORT,
    Channel,
    FrameworkContext,
    ResultShape,
    distribution_for,
    first_release_where,
)
from mcp_lint.model.names import dotted, last_name
from mcp_lint.rules.base import (
    PH_CALL_TOOL_RESULT,
    PH_TEXT_CONTENT,
    FileContext,
    RenderContext,
)


def arg(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == keyword:
            return a.value
    positional = [a for a in call.args if a.keyword is None and a.star == ""]
    if position < len(positional):
        return positional[position].value
    return None


def describe_failure(message: str, code: str) -> str:
    """A few words on what kind of failure a message reports, for rule messages."""
    text = message.lower()
    if re.search(r"not found|no such|does ?n[o']t exist|missing|unknown (?!tool)", text):
        return "a missing record"
    if re.search(r"permission|denied|unauthori[sz]ed|forbidden|not allowed", text):
        return "a permission failure"
    if re.search(r"timeout|timed out|unavailable|upstream|api |http|request failed|connection|rate limit", text):
        return "an upstream failure"
    if code in {"INVALID_PARAMS", "-32602"} or re.search(r"invalid|must be|required|out of range|format", text):
        return "an invalid argument value"
    return "a failure of its own execution"


def error_result_expr(text_code: str) -> str:
    """A tool-result error that every low-level Server version accepts (isError works on 2.x too)."""
    return f'{PH_CALL_TOOL_RESULT}(content=[{PH_TEXT_CONTENT}(type="text", text={text_code})], isError=True)'


def lowlevel_result_supported(framework: FrameworkContext) -> bool:
    """Does CallToolResult(isError=True) from a handler reach the client on every candidate
    release (mcp >= 1.19 for the low level)?"""
    return framework.every(lambda row: row.error_result_survives(ResultShape.CALL_TOOL_RESULT))


def _passes_error_result(row: Channel) -> bool | None:
    return row.error_result_survives(ResultShape.CALL_TOOL_RESULT)


def lowlevel_failure_advice(context: RenderContext, result: str = "CallToolResult(isError=True)") -> tuple[str, str]:
    """How a low-level call_tool handler should hand the model a failure, rendered from the rows
    of the candidate releases, as (help, note): return `result` where every candidate passes a
    returned CallToolResult through (mcp 1.19+, 2.x); raise an ordinary exception where every
    candidate turns its text into an error result (mcp 1.x: before 1.19 a returned CallToolResult
    is iterated as content and fails validation); each way with its range when neither holds on
    all. A handler registered without the decorator (`request_handlers[CallToolRequest] = h`)
    bypasses both: what it returns is the response, and what it raises a JSON-RPC error. The note
    ("" when none) says which releases decided."""
    framework = context.framework
    rows = framework.channels()
    if context.kind == "raw-dispatch" or all(_passes_error_result(row) for row in rows):
        return f"Return {result} instead", ""
    since = first_release_where(framework.family, _passes_error_result)
    dist = distribution_for(framework.family)
    if since is None:  # no release passes it through (not a low-level family)
        return "Raise an ordinary exception with the message instead", ""
    if all(row.exception_text_reaches_model() for row in rows):
        server = " / ".join(sorted({row.series for row in rows}))
        return "Raise an ordinary exception with the message instead", (
            f"{server}{framework.source} turns a raised exception into isError: true with its text; "
            f"a returned {result} works only from {dist} {since}"
        )
    older = [row for row in rows if not _passes_error_result(row)]
    spans = ", ".join(row.span for row in older)
    broken = " / ".join(sorted({outcome.value for row in older if (outcome := row.error_result(ResultShape.CALL_TOOL_RESULT))}))
    server = " / ".join(sorted({row.series for row in older}))
    return f"Return {result} on {dist} {since}+, else raise an ordinary exception", (
        f"on {dist} {spans}{framework.source} a returned CallToolResult is {broken}; "
        f"{server} turns a raised exception into isError: true with its text"
    )


def toolerror_available(context: RenderContext) -> bool:
    return context.framework.family in TOOL_ERROR_IMPORT


def is_protocol_error_class(name: str | None, raw: str | None) -> bool:
    from mcp_lint.model.frameworks import (
        LEGITIMATE_PROTOCOL_ERRORS,
        PROTOCOL_ERROR_CLASSES,
    )

    if name in LEGITIMATE_PROTOCOL_ERRORS:
        return False  # UrlElicitationRequiredError: the one protocol error a tool should raise
    if name in PROTOCOL_ERROR_CLASSES:
        return True
    # `from mcp.shared.exceptions import McpError` resolves exactly; a re-export from elsewhere in
    # the `mcp`/`fastmcp` packages still names the class McpError/MCPError.
    return bool(name) and last_name(name) in {"McpError", "MCPError"} and name.split(".")[0] in {"mcp", "fastmcp"}


def raised_class(exc: cst.BaseExpression | None, ctx: FileContext) -> str | None:
    """Qualified (or written) name of the class a `raise X(...)` constructs; None for bare raises."""
    if type(exc) is cst.Call:
        return ctx.model.aliases.resolve(exc.func) or dotted(exc.func)
    return None


def protocol_error_built_by(facts: FunctionFacts, ctx: FileContext) -> str | None:
    """The protocol error class a factory function returns (`def not_found(what): return
    McpError(ErrorData(...))`), or None when it returns none."""
    for ret in facts.returns:
        if ret.node.value is None:
            continue
        value = facts.value_of(ret.node.value)
        if type(value) is not cst.Call:
            continue
        resolved = ctx.model.aliases.resolve(value.func)
        if is_protocol_error_class(resolved, dotted(value.func)):
            return last_name(resolved or dotted(value.func) or "McpError")
    return None


def protocol_error_message(call: cst.Call, ctx: FileContext) -> cst.BaseExpression | None:
    """The message of `McpError(ErrorData(code=..., message=...))` (v1) or `MCPError(code, message)` (v2)."""
    from mcp_lint.model.frameworks import ERROR_DATA_CLASSES

    first = arg(call, 0, "error")
    if type(first) is cst.Call and (
        ctx.model.aliases.resolve(first.func) in ERROR_DATA_CLASSES or last_name(dotted(first.func) or "") == "ErrorData"
    ):
        return arg(first, 1, "message")
    return arg(call, 1, "message")
