"""MCP005 error-returned-as-success: a tool reports a failure through a normal result."""

from __future__ import annotations

import re
from typing import Iterable

import libcst as cst
from packaging.version import Version

from mcp_lint.findings import Applicability, Edit
from mcp_lint.model.facts import FunctionFacts, Handler, find_exception_text
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.rules.base import (
    PH_TOOL_ERROR,
    Example,
    FileContext,
    FixSpec,
    ReachContext,
    Rendered,
    Rule,
)
from mcp_lint.rules.common import (
    decode_range,
    encode_range,
    error_result_expr,
    lowlevel_result_supported,
    toolerror_available,
)
from mcp_lint.rules.results import classify_return, envelope_callee
from mcp_lint.rules.text import clip, is_argument_complaint, is_single_lookup

# Tools whose contract is a status report: a "failed" status is their answer, not their failure.
_STATUS_TOOL = re.compile(r"(?:^|_)(?:status|health|healthcheck|check|checks|validate|validation|verify|ping|diagnose|diagnostics|doctor|test_connection|lint|probe)(?:_|$)", re.I)


def _caught_exception_text(
    value: cst.BaseExpression, handler: Handler, ctx: FileContext
) -> tuple[str, str, cst.BaseExpression | None] | None:
    """`except TrelloError as e: return str(e)` (or `f"{e}"`, `e.message`, a TextContent of it):
    whatever the class, returning the caught exception's text reports the failure as a result."""
    if not handler.name:
        return None
    while isinstance(value, cst.Await):
        value = value.expression
    if isinstance(value, (cst.List, cst.Tuple)) and len(value.elements) == 1:
        value = value.elements[0].value
    message: cst.BaseExpression = value
    callee = last_name(dotted(value.func) or "") if isinstance(value, cst.Call) else ""
    if isinstance(value, cst.Call) and callee == "CallToolResult":
        keywords = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
        if "isError" in keywords or "is_error" in keywords or "content" not in keywords:
            return None  # an error result (or one whose flag MCP006 judges)
        return _caught_exception_text(keywords["content"], handler, ctx)
    if callee[:1].isupper() and callee not in {"TextContent", "CallToolResult", "ToolResult"}:
        # `return SearchResponse(results=[SearchResult(title=error_msg)])`: a result object that
        # carries the failure's text in place of results.
        found = find_exception_text(value, handler)
        if found is None:
            return None
        text = found if isinstance(found, cst.Name) and found.value != handler.name else None
        return "exception-object", handler.name, text
    if isinstance(value, cst.Call) and callee == "TextContent":
        text = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == "text"), None)
        if text is None:
            return None
        message = text
    if not _is_text_expression(message) or find_exception_text(message, handler) is None:
        return None
    return "exception", handler.name, message


def _is_text_expression(node: cst.BaseExpression) -> bool:
    """A string built here: a literal, f-string, concatenation, `%`/`.format`, `str(x)`/`repr(x)`,
    or an attribute/name holding text (`e.message`, a local assigned the text)."""
    if isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Name, cst.Attribute, cst.Subscript)):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)):
        return True
    if isinstance(node, cst.Call):
        name = dotted(node.func) or ""
        return name in {"str", "repr"} or (isinstance(node.func, cst.Attribute) and node.func.attr.value == "format")
    return False


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
        lookup = is_single_lookup(fn.name, fn.params)
        # A return after an earlier branch's return (`if ok: return data` ... `return "..."`) is
        # reached only when that branch was not taken: it is as conditional as the branch.
        after_branch = False
        for ret in fn.returns:
            value = ret.node.value
            conditional = bool(ret.conditions) or ret.handler is not None or after_branch
            after_branch = after_branch or bool(ret.conditions)
            if value is None:
                continue
            resolved = fn.value_of(value)
            found = classify_return(resolved, ctx, conditional=conditional, lookup=lookup)
            if found is None and ret.handler is not None:
                found = _caught_exception_text(resolved, ret.handler, ctx)
            if found is None:
                continue
            kind, description, message = found
            if resolved is not value and kind == "string":
                message = value  # `msg = "Error: ..."; return msg` -> raise ToolError(msg)
            data = {
                "kind": kind,
                "what": clip(" ".join(description.replace("{}", "…").split()), 60),
                "msg": ctx.source(message) if message is not None else "",
                "stmt": encode_range(ctx, ret.node),
                "fn": fn.name,
                "cause": f" from {ret.handler.name}" if ret.handler is not None and ret.handler.name else "",
            }
            if ret.handler is not None or is_argument_complaint(description):
                # The check itself crashed, or the caller sent something wrong: a failure of the
                # call even where the tool's answer is a status report.
                data["own_failure"] = "1"
            callee = envelope_callee(resolved, ctx) if kind == "envelope" else None
            if callee is not None:
                data["via"] = callee  # the linker asks whether that helper sets isError
                data["via_required"] = "1" if description.startswith("the error text") else ""
            if message is value and getattr(value, "lpar", None):
                # `return (\n "a"\n "b"\n)`: turn `return (` into `raise ToolError(` and keep the layout.
                data["paren_head"] = encode_range(ctx, ret.node).split(":")[0] + ":" + str(ctx.range(ret.node).start.column + 1)
                data["msg_range"] = encode_range(ctx, message)
            yield self.latent(ctx, ret.node, variant=kind, reach="return", data=data)

    def render(self, latent: Latent, reach: ReachContext) -> Rendered | None:
        names = (reach.function, *reach.tools)
        if any(_STATUS_TOOL.search(n) for n in names) and not latent.get("own_failure"):
            return None  # a status-report tool: "failed" is its answer
        kind = latent.variant
        what = latent.get("what")
        shape = {
            "string": f"the string '{what}'",
            "dict": f"a dict with {what}",
            "content": f"a TextContent '{what}'",
            "result": f"a CallToolResult without isError ('{what}')",
            "content-dict": f"a TextContent holding a dict with {what}",
            "content-flag": f"a TextContent '{what}' whose error flag is not isError",
            "envelope": f"{what}",
            "exception": f"the text of the caught exception '{what}'",
            "exception-object": f"an object carrying the text of the caught exception '{what}'",
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
