"""What a tool returns when it fails: failure strings, error dicts, TextContent lists, error results.

Shared by MCP005 (failures returned as successes), MCP003 (their wording) and MCP004 (a returned
failure rejects the call).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.facts import literal_text
from mcp_lint.model.frameworks import (
    CALL_TOOL_RESULT_CLASSES,
    TEXT_CONTENT_CLASSES,
    TOOL_RESULT_CLASSES,
)
from mcp_lint.model.names import dotted, last_name
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.text import is_failure_text, starts_as_error

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


def failure_message_of(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None:
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
