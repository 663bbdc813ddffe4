"""MCP005 error-returned-as-success: a tool reports a failure through a normal result."""

from __future__ import annotations

import re
from typing import Iterable

import libcst as cst
from packaging.version import Version

from mcp_lint.findings import Applicability, Edit
from mcp_lint.model.facts import FunctionFacts, literal_text
from mcp_lint.model.frameworks import CALL_TOOL_RESULT_CLASSES, TEXT_CONTENT_CLASSES, TOOL_RESULT_CLASSES
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.rules.base import PH_TOOL_ERROR, Example, FileContext, FixSpec, ReachContext, Rendered, Rule
from mcp_lint.rules.common import decode_range, encode_range, error_result_expr, lowlevel_result_supported, toolerror_available
from mcp_lint.rules.text import is_failure_text, starts_as_error

# Tools whose contract is a status report: a "failed" status is their answer, not their failure.
_STATUS_TOOL = re.compile(r"(?:^|_)(?:status|health|healthcheck|check|checks|validate|validation|verify|ping|diagnose|diagnostics|doctor|test_connection|lint|probe)(?:_|$)", re.I)
_ERROR_KEYS = ("error", "errors", "error_message", "errorMessage")
_MESSAGE_KEYS = ("error", "message", "error_message", "errorMessage", "detail", "details", "reason", "msg")


def _dict_items(node: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    if isinstance(node, cst.Dict):
        items: dict[str, cst.BaseExpression] = {}
        for element in node.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                key = element.key.evaluated_value
                if isinstance(key, str):
                    items[key] = element.value
        return items
    if isinstance(node, cst.Call) and dotted(node.func) == "dict" and not any(a.keyword is None for a in node.args):
        return {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    return None


def _is_falsy_literal(node: cst.BaseExpression) -> bool:
    return (isinstance(node, cst.Name) and node.value in {"None", "False"}) or (
        isinstance(node, cst.SimpleString) and node.evaluated_value == ""
    ) or (isinstance(node, (cst.List, cst.Dict)) and not node.elements)


def _unwrap(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression:
    while isinstance(value, cst.Await):
        value = value.expression
    if isinstance(value, cst.Call) and dotted(value.func) in {"json.dumps", "dumps", "orjson.dumps", "JSONResponse"} and value.args:
        return value.args[0].value
    return value


def error_dict_message(items: dict[str, cst.BaseExpression]) -> tuple[str, cst.BaseExpression | None] | None:
    """(why it is an error dict, the message expression) or None."""
    for key in _ERROR_KEYS:
        if key in items and not _is_falsy_literal(items[key]):
            inner = items[key]
            if isinstance(inner, cst.Dict) and {"code", "message"} <= set((_dict_items(inner) or {})):
                return None  # a JSON-RPC error object: MCP001's finding
            return f'an "{key}" key', inner
    success = items.get("success") or items.get("ok")
    if isinstance(success, cst.Name) and success.value == "False":
        message = next((items[k] for k in _MESSAGE_KEYS if k in items), None)
        return '"success": False', message
    status = items.get("status")
    if isinstance(status, cst.SimpleString) and str(status.evaluated_value).lower() in {"error", "failed", "failure", "fail"}:
        message = next((items[k] for k in _MESSAGE_KEYS if k in items), None)
        return f'"status": {status.value}', message
    return None


def failure_message_of(value: cst.BaseExpression, ctx: FileContext, *, require_failure: bool) -> cst.BaseExpression | None:
    """The message expression of a returned failure (string, error dict, TextContent list)."""
    found = classify_return(value, ctx, conditional=True)
    if found is None:
        return None
    return found[2]


def classify_return(value: cst.BaseExpression, ctx: FileContext, *, conditional: bool) -> tuple[str, str, cst.BaseExpression | None] | None:
    """(kind, description, message expression) when a returned value reports a failure."""
    value = _unwrap(value, ctx)
    text = literal_text(value)
    if text is not None:
        if is_failure_text(text) and (conditional or starts_as_error(text)):
            return "string", text, value
        return None
    items = _dict_items(value)
    if items is not None:
        found = error_dict_message(items)
        if found is None:
            return None
        if not conditional and (found[1] is None or literal_text(found[1]) is None):
            # `return {"result": data, "error": err}` outside any failure branch is an envelope
            # whose error slot may well be None: not a failure we can see.
            return None
        return "dict", found[0], found[1]
    if isinstance(value, (cst.List, cst.Tuple)) and len(value.elements) == 1:
        element = value.elements[0].value
        if isinstance(element, cst.Call) and _is_class(element.func, ctx, TEXT_CONTENT_CLASSES, "TextContent"):
            message = _kwarg(element, "text")
            inner = literal_text(message) if message is not None else None
            if inner is not None and is_failure_text(inner) and (conditional or starts_as_error(inner)):
                return "content", inner, message
        return None
    if isinstance(value, cst.Call) and not _is_class(value.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult"):
        # `return format_text_response(f"Error: {msg}")`: an error text wrapped into a normal
        # result by a formatting helper. Only a strong prefix counts ("Error: ...", "Failed ...").
        first = next((a.value for a in value.args if a.keyword is None and not a.star), None)
        if first is None:
            first = _kwarg(value, "text") or _kwarg(value, "message") or _kwarg(value, "content")
        inner = literal_text(first) if first is not None else None
        if inner is not None and starts_as_error(inner):
            return "string", inner, first
        return None
    if isinstance(value, cst.Call) and _is_class(value.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult"):
        if _kwarg(value, "isError") is not None or _kwarg(value, "is_error") is not None:
            return None
        content = _kwarg(value, "content")
        if content is not None:
            inner = classify_return(content, ctx, conditional=conditional)
            if inner is not None:
                return "result", inner[1], inner[2]
    return None


def error_result_text(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None:
    """The text of an explicit error result: CallToolResult(isError=True) / ToolResult(is_error=True)."""
    while isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return None
    is_result = _is_class(value.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult") or _is_class(
        value.func, ctx, TOOL_RESULT_CLASSES, "ToolResult"
    )
    flag = _kwarg(value, "isError") or _kwarg(value, "is_error")
    if not is_result or not (isinstance(flag, cst.Name) and flag.value == "True"):
        return None
    content = _kwarg(value, "content")
    if isinstance(content, (cst.List, cst.Tuple)) and len(content.elements) == 1:
        element = content.elements[0].value
        if isinstance(element, cst.Call) and _is_class(element.func, ctx, TEXT_CONTENT_CLASSES, "TextContent"):
            return _kwarg(element, "text")
        return element if literal_text(element) is not None else None
    if content is not None and literal_text(content) is not None:
        return content
    return None


def is_error_result(value: cst.BaseExpression, ctx: FileContext) -> bool:
    while isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return False
    flag = _kwarg(value, "isError") or _kwarg(value, "is_error")
    return isinstance(flag, cst.Name) and flag.value == "True"


def _kwarg(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for argument in call.args:
        if argument.keyword is not None and argument.keyword.value == name:
            return argument.value
    return None


def _is_class(func: cst.BaseExpression, ctx: FileContext, qualified: frozenset[str], short: str) -> bool:
    resolved = ctx.model.aliases.resolve(func)
    return resolved in qualified or last_name(dotted(func) or "") == short


class ErrorReturnedAsSuccess(Rule):
    code = "MCP005"
    name = "error-returned-as-success"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")

@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"
    del NOTES[note_id]
    return "deleted"
""",
            flagged=(8,),
        ),
        Example(
            """\
from fastmcp import FastMCP

mcp = FastMCP("tickets")

@mcp.tool
def close_ticket(ticket_id: int) -> dict:
    ticket = TICKETS.get(ticket_id)
    if ticket is None:
        return {"success": False, "message": f"Ticket {ticket_id} does not exist"}
    ticket.close()
    return {"success": True}
""",
            flagged=(9,),
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")

@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found; call list_notes for valid ids")
    del NOTES[note_id]
    return "deleted"

@mcp.tool()
def search_notes(query: str) -> str:
    hits = [n for n in NOTES.values() if query in n]
    if not hits:
        return "No notes found for that query"
    return "\\n".join(hits)

@mcp.tool()
def check_health() -> dict:
    if not DB.ping():
        return {"status": "error", "database": "unreachable"}
    return {"status": "ok"}
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        from mcp_lint.rules.mcp002_raw_exception_text import _looks_like_exception_use, _status_bases, _upstream_body, exception_text_in

        for ret in fn.returns:
            value = ret.node.value
            if value is None:
                continue
            conditional = bool(ret.conditions) or ret.handler is not None
            resolved = fn.value_of(value)
            found = classify_return(resolved, ctx, conditional=conditional)
            if found is None:
                continue
            kind, description, message = found
            if resolved is not value and kind == "string":
                message = value  # `msg = "Error: ..."; return msg` -> raise ToolError(msg)
            # Raw exception text or an upstream body in the same return is MCP002's finding, whose
            # fix also turns the return into a raise.
            if ret.handler is not None and ret.handler.foreign and exception_text_in(value, ret.handler, ctx) is not None:
                continue
            bases = _status_bases(ret.conditions)
            if bases and _upstream_body(value, bases) is not None:
                continue
            # `def format_error(e): return f"Error: {e}"`: when a caller passes the exception object
            # itself, MCP002 reports the helper; the linker then drops this finding.
            exc_param = next(
                (
                    i
                    for i, p in enumerate(fn.params)
                    if _looks_like_exception_use(value, p) and exception_text_in(value, None, ctx, frozenset({p})) is not None
                ),
                -1,
            )
            data = {
                "kind": kind,
                "what": " ".join(description.replace("{}", "…").split())[:60],
                "msg": ctx.source(message) if message is not None else "",
                "stmt": encode_range(ctx, ret.node),
                "fn": fn.name,
                "cause": f" from {ret.handler.name}" if ret.handler is not None and ret.handler.name else "",
                "unless_exc_param": str(exc_param) if exc_param >= 0 else "",
            }
            if message is value and getattr(value, "lpar", None):
                # `return (\n "a"\n "b"\n)`: turn `return (` into `raise ToolError(` and keep the layout.
                data["paren_head"] = encode_range(ctx, ret.node).split(":")[0] + ":" + str(ctx.range(ret.node).start.column + 1)
                data["msg_range"] = encode_range(ctx, message)
            yield self.latent(ctx, ret.node, variant=kind, reach="return", data=data)

    def render(self, latent: Latent, reach: ReachContext) -> Rendered | None:
        names = (reach.function, *reach.tools)
        if any(_STATUS_TOOL.search(n) for n in names):
            return None  # a status-report tool: "failed" is its answer
        kind = latent.variant
        what = latent.get("what")
        shape = {
            "string": f"the string '{what}'",
            "dict": f"a dict with {what}",
            "content": f"a TextContent '{what}'",
            "result": f"a CallToolResult without isError ('{what}')",
        }[kind]
        if reach.lowlevel and not lowlevel_result_supported(reach.framework):
            instead = (
                "raise an exception with the message instead (the low-level Server turns it into isError: true; "
                "returning CallToolResult(isError=True) works only from mcp 1.19)"
            )
        elif reach.lowlevel:
            instead = "return CallToolResult(..., isError=True) instead"
        elif reach.framework.family.value == "fastmcp" and reach.framework.versions and all(
            Version(v) >= Version("3.4") for v in reach.framework.versions
        ):
            instead = "raise ToolError (or return ToolResult(is_error=True)) instead"
        else:
            instead = "raise ToolError instead"
        message = f"{reach.subject} reports a failure as a normal result, {shape}: the wire says isError: false, so the client and model treat it as success; {instead}"
        return Rendered(message, self._fix(latent, reach))

    def _fix(self, latent: Latent, reach: ReachContext) -> FixSpec | None:
        msg = latent.get("msg")
        if not msg:
            return None
        start, end = decode_range(latent.get("stmt"))
        cause = latent.get("cause")
        if toolerror_available(reach):
            if latent.get("paren_head") and not cause:
                # Keep the parenthesised layout: only `return (` becomes `raise ToolError(`.
                msg_start, _ = decode_range(latent.get("msg_range"))
                head = Edit(start, msg_start, f"raise {PH_TOOL_ERROR}(" + "\n" * (msg_start.row - start.row) + " " * (msg_start.column - 1 if msg_start.row != start.row else 0))
                return FixSpec(Applicability.UNSAFE, f"Raise {PH_TOOL_ERROR}(...) instead", (head,), ("ToolError",))
            edit = Edit(start, end, f"raise {PH_TOOL_ERROR}({msg}){cause}")
            message = " ".join(msg.split())
            message = message if len(message) <= 60 else message[:57] + "..."
            return FixSpec(Applicability.UNSAFE, f"Raise {PH_TOOL_ERROR}({message}){cause} instead", (edit,), ("ToolError",))
        if reach.lowlevel and lowlevel_result_supported(reach.framework):
            edit = Edit(start, end, "return " + error_result_expr(msg))
            return FixSpec(Applicability.UNSAFE, "Return an error result (isError=True)", (edit,), ("CallToolResult", "TextContent"))
        return None
