"""The error result a fix returns in an mcp 2.x low-level `tools/call` handler.

There a raised exception is a JSON-RPC error the model never reads (E(0, text) on handshake-era
connections, E(-32603, "Internal server error") on newer ones), so a fix cannot turn a failure
returned as a success into a raise, as it does under a framework with ToolError or on mcp 1.x's
low level. The handler must return a `CallToolResult`; one with `isError=True` is delivered as an
error result on every 2.x release (docs/mcp-error-semantics.md section 3). The fix keeps the
author's return and only gives it the flag and the new text: the `TextContent` the author built,
in the author's spelling, and `is_error=` where the module already writes it so (2.x takes both).
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import CodeRange

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, last_name
from mcp_lint.rules.base import PH_CALL_TOOL_RESULT, FileContext

_FLAGS = ("isError", "is_error")


def v2_lowlevel_dispatcher(fn: FunctionFacts, ctx: FileContext) -> bool:
    """Is `fn` registered in this module as the `tools/call` handler of an mcp 2.x low-level
    Server (`Server(name, on_call_tool=fn)`, `add_request_handler("tools/call", ..., fn)`)?"""
    return any(t.function == fn.qualname and t.kind == "dispatch" and t.lowlevel_major == 2 for t in ctx.model.tools)


def _text_content(element: cst.BaseExpression) -> cst.Call | None:
    if type(element) is cst.Call and last_name(dotted(element.func) or "") == "TextContent":
        return element
    return None


def _only_text_content(content: cst.BaseExpression) -> cst.Call | None:
    """The one `TextContent(...)` of a content list `[TextContent(...)]`."""
    if type(content) is not cst.List or len(content.elements) != 1 or type(content.elements[0]) is not cst.Element:
        return None
    return _text_content(content.elements[0].value)


def _text_argument(call: cst.Call) -> cst.Arg | None:
    return next((arg for arg in call.args if arg.keyword is not None and arg.keyword.value == "text"), None)


def message_slot(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The expression holding the message in a success result a 2.x handler returns:
    `CallToolResult(content=[TextContent(type="text", text=MESSAGE)])` or `[TextContent(...,
    text=MESSAGE)]`; None for any other shape (several blocks, a flag already there)."""
    call = _result_call(value)
    if call is not None:
        content = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "content"), None)
        block = _only_text_content(content) if content is not None else None
    else:
        block = _only_text_content(value)
    argument = _text_argument(block) if block is not None else None
    return argument.value if argument is not None else None


def _result_call(value: cst.BaseExpression) -> cst.Call | None:
    if type(value) is not cst.Call or last_name(dotted(value.func) or "") != "CallToolResult":
        return None
    if any(arg.keyword is not None and arg.keyword.value in _FLAGS for arg in value.args) or any(arg.star for arg in value.args):
        return None
    return value


def error_result(value: cst.BaseExpression, message: str, ctx: FileContext) -> tuple[str, tuple[str, ...]] | None:
    """The code of `value` as an error result carrying `message` (the code of the new text), as
    the author laid it out, and the placeholders it needs (`CallToolResult` where the author
    returned a bare content list)."""
    slot = message_slot(value)
    if slot is None:
        return None
    flag = "is_error" if any("is_error=" in line for line in ctx.lines) else "isError"
    whole, inner = ctx.range(value), ctx.range(slot)
    code = ctx.written(CodeRange(whole.start, inner.start)) + message + ctx.written(CodeRange(inner.end, whole.end))
    if _result_call(value) is None:
        return f"{PH_CALL_TOOL_RESULT}(content={code}, {flag}=True)", ("CallToolResult",)
    body = code[: code.rindex(")")]
    core = body.rstrip()
    trailing = body[len(core) :]
    if "\n" in trailing:  # one argument a line, the closing parenthesis on its own
        last = core.rsplit("\n", 1)[-1]
        indent = last[: len(last) - len(last.lstrip())]
        return f"{core}{'' if core.endswith(',') else ','}\n{indent}{flag}=True,{trailing})", ()
    return f"{core}{'' if core.endswith(',') else ','} {flag}=True{trailing})", ()
