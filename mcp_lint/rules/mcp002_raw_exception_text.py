"""MCP002 raw-exception-text: a caught exception's own text flows into model-facing text."""

from __future__ import annotations

import re
from typing import Iterable, Iterator

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.facts import (
    FunctionFacts,
    Handler,
    find_exception_text,
    literal_text,
)
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.rules.base import (
    PH_LOGGER,
    PH_TOOL_ERROR,
    Example,
    FileContext,
    ReachContext,
    Rendered,
    Rule,
    indent_of,
    latent_fix,
)
from mcp_lint.rules.common import (
    is_protocol_error_class,
    py_str,
    raised_class,
    toolerror_available,
)
from mcp_lint.rules.exception_text import (
    exception_text_in,
    is_tool_error_raise,
    looks_like_exception_param,
    status_bases,
    upstream_body,
)
from mcp_lint.rules.results import is_error_result
from mcp_lint.rules.text import vague_reason


# `if resp.status_code != 200` / `if not resp.ok`: the branch handles an upstream failure.
def _caught_label(handler: Handler | None) -> str:
    if handler is None or not handler.caught:
        return "exception"
    names = [n if n.split(".")[0] not in {"builtins"} else last_name(n) for n in handler.caught]
    short = [last_name(n) if n.count(".") >= 2 else n for n in names]
    return "/".join(short)


def _raise_variant(exc: cst.Call, ctx: FileContext) -> str:
    """How a raised exception's text travels: "raise" (ToolError, read verbatim), "raise-protocol"
    (McpError/MCPError: its message is sent to the client whatever channel MCP001 says it takes)
    or "raise-other" (reaches the model only where the framework forwards exception text)."""
    if is_tool_error_raise(exc, ctx):
        return "raise"
    if is_protocol_error_class(raised_class(exc, ctx), None):
        return "raise-protocol"
    return "raise-other"


class RawExceptionText(Rule):
    code = "MCP002"
    name = "raw-exception-text"

    INVALID = (
        Example(
            """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather")

@mcp.tool
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except Exception as e:
        return f"Error: {e}"
""",
            flagged=(14,),
        ),
    )
    VALID = (
        Example(
            """\
import logging
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("weather")

@mcp.tool
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as e:
        logger.exception("forecast request failed")
        raise ToolError(f"The forecast service answered HTTP {e.response.status_code} for {city!r}; check the city name") from e
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        seen: set[int] = set()
        for handler in fn.handlers:
            if not handler.foreign:
                continue
            for node, value, variant in self._sinks(fn, handler, ctx):
                found = exception_text_in(value, handler, ctx)
                if found is None or id(node) in seen:
                    continue
                seen.add(id(node))
                yield self._latent(ctx, fn, node, value, handler, variant, found)
        # Upstream error bodies: `if not resp.ok: return f"Error: {resp.text}"`.
        for node, value, variant, conditions in self._all_sinks(fn, ctx):
            if id(node) in seen:
                continue
            bases = status_bases(conditions)
            body = upstream_body(value, bases) if bases else None
            if body is not None:
                seen.add(id(node))
                data = {"exc": "upstream response", "body": ctx.code(body)}
                yield self.latent(ctx, value, variant=f"{variant}-body", reach="raise" if variant.startswith("raise") else "return", statement=node, data=data)
        # Helpers that format an exception their caller caught: `def format_error(e): return f"Error: {e}"`.
        for index, param in enumerate(fn.params):
            if param in {"self", "cls"}:
                continue
            for node, value, variant, _ in self._all_sinks(fn, ctx):
                if id(node) in seen:
                    continue
                found = exception_text_in(value, None, ctx, frozenset({param}))
                if found is None or not looks_like_exception_param(found, param):
                    continue
                seen.add(id(node))
                data = {"exc": "exception", "param": param}
                yield self.latent(ctx, value, variant=f"{variant}-param", reach="raise" if variant.startswith("raise") else "return", statement=node, data=data, param=index)

    def _sinks(self, fn: FunctionFacts, handler: Handler, ctx: FileContext) -> Iterator[tuple[cst.CSTNode, cst.CSTNode, str]]:
        for ret in fn.returns:
            if ret.handler is handler and ret.node.value is not None:
                yield ret.node, ret.node.value, "return"
        for fact in fn.raises:
            if fact.handler is not handler or not isinstance(fact.node.exc, cst.Call):
                continue
            if fact.caught_here(last_name(dotted(fact.node.exc.func) or "")):
                continue  # caught again in this function: what happens there is checked there
            yield fact.node, fact.node.exc, _raise_variant(fact.node.exc, ctx)

    def _all_sinks(self, fn: FunctionFacts, ctx: FileContext):
        for ret in fn.returns:
            if ret.node.value is not None:
                yield ret.node, ret.node.value, "return", ret.conditions
        for fact in fn.raises:
            variant = _raise_variant(fact.node.exc, ctx)
            if variant in {"raise", "raise-protocol"}:
                yield fact.node, fact.node.exc, variant, fact.conditions

    def _latent(self, ctx: FileContext, fn: FunctionFacts, node, value, handler: Handler, variant: str, found: cst.CSTNode) -> Latent:
        traceback = isinstance(found, cst.Call)
        data = {
            "tool_args_only": "1" if handler.parses_parameters else "",
            "exc": _caught_label(handler),
            "traceback": "1" if traceback else "",
            "error_result": "1" if variant == "return" and is_error_result(value, ctx) else "",
            "class": last_name(raised_class(value, ctx) or "") if variant in {"raise-other", "raise-protocol"} else "",
        }
        fix = _build_fix(ctx, fn, node, value, handler, variant)
        return self.latent(
            ctx,
            value,
            variant=variant,
            reach="raise" if variant.startswith("raise") else "return",
            statement=node,
            data=data,
            fix_message=fix[0] if fix else "",
            fix_applicability=Applicability.UNSAFE if fix else None,
            fix_edits=fix[1] if fix else (),
            fix_needs=(("logger",) if variant == "raise-other" else ("ToolError", "logger")) if fix else (),
        )

    def render(self, latent: Latent, reach: ReachContext) -> Rendered | None:
        variant = latent.variant
        if latent.get("tool_args_only") and reach.is_tool:
            return None  # a parse error of the tool's own argument: the model can correct its input
        if variant.startswith("raise-other") and not reach.forwards_exception_text():
            return None  # masked or not forwarded on some candidate version: MCP008's business
        if variant.startswith("raise-protocol") and reach.masked:
            return None  # mask_error_details=True replaces a protocol error's message too
        if latent.get("traceback"):
            what = "a traceback"
        elif variant.endswith("-body"):
            what = f"an upstream error body ({latent.get('body')})"
        elif variant.endswith("-param"):
            what = f"the text of an exception its caller caught (parameter '{latent.get('param')}')"
        else:
            what = f"the text of a caught {latent.get('exc')}"
        if variant.startswith("return") and latent.get("error_result"):
            verb = f"returns {what} in its error result"
        elif variant.startswith("return"):
            verb = f"returns {what} as a normal result (isError: false)"
        elif variant.startswith("raise-protocol"):
            verb = f"puts {what} into {latent.get('class') or 'a protocol error'}, whose message is sent to the client as written"
        elif variant.startswith("raise-other"):
            verb = f"raises {latent.get('class') or 'an exception'} with {what}, which {reach.framework.describe()} forwards to the model"
        else:
            verb = f"puts {what} into ToolError, which the model reads verbatim"
        message = (
            f"{reach.subject} {verb}: raw library text the model cannot act on; "
            "log the exception and say which operation failed and what the next call can change"
        )
        fix = latent_fix(latent) if toolerror_available(reach) or variant == "raise-other" else None
        return Rendered(message, fix)


_OPENERS = {"(": ")", "[": "]", "{": "}", "'": "'", '"': '"'}
_TEXT_KWARGS = ("text", "message", "msg", "detail", "error")


def _message_expr(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The expression holding the message text in a returned/raised value."""
    while isinstance(value, cst.Await):
        value = value.expression
    if isinstance(value, (cst.List, cst.Tuple)) and len(value.elements) == 1:
        return _message_expr(value.elements[0].value)
    if isinstance(value, cst.Dict):
        for element in value.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                if element.key.evaluated_value in {"error", "message", "detail", "error_message"}:
                    return element.value
        return None
    if isinstance(value, cst.Call):
        for argument in value.args:
            if argument.keyword is not None and argument.keyword.value in _TEXT_KWARGS:
                return argument.value
        content = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == "content"), None)
        if content is not None:
            return _message_expr(content)
        positional = [a.value for a in value.args if a.keyword is None and not a.star]
        if positional:
            first = positional[0]
            return first if literal_text(first) is not None or isinstance(first, cst.Name) else _message_expr(first)
        return None
    return value


def _without_exception(expr: cst.BaseExpression, handler: Handler, ctx: FileContext) -> str | None:
    """Source of a string expression with the exception's text cut out ("" when nothing is left,
    None when it is not a string we can rewrite)."""
    if isinstance(expr, cst.SimpleString):
        return ctx.source(expr)
    if isinstance(expr, cst.ConcatenatedString):
        left = _without_exception(expr.left, handler, ctx)
        right = _without_exception(expr.right, handler, ctx)
        if left is None or right is None:
            return None
        return " ".join(part for part in (left, right) if part)
    if isinstance(expr, cst.FormattedString):
        parts = list(expr.parts)
        kept: list[cst.BaseFormattedStringContent] = []
        for index, part in enumerate(parts):
            if isinstance(part, cst.FormattedStringExpression) and find_exception_text(part.expression, handler) is not None:
                _drop_enclosing_pair(kept, parts, index)
                continue
            kept.append(part)
        kept = _trim_separators([p for p in kept if not (isinstance(p, cst.FormattedStringText) and not p.value)])
        if not kept:
            return ""
        if any(isinstance(p, cst.FormattedStringExpression) for p in kept):
            return ctx.module.code_for_node(expr.with_changes(parts=kept, lpar=[], rpar=[]))
        raw = "".join(p.value for p in kept if isinstance(p, cst.FormattedStringText))
        plain_prefix = expr.prefix.replace("f", "").replace("F", "")
        return f"{plain_prefix}{expr.quote}{raw.replace('{{', '{').replace('}}', '}')}{expr.quote}"
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        pieces = []
        for side in (expr.left, expr.right):
            if find_exception_text(side, handler) is not None and not isinstance(side, (cst.FormattedString, cst.ConcatenatedString)):
                continue
            text = _without_exception(side, handler, ctx)
            if text is None:
                return None
            if text:
                pieces.append(text)
        return " + ".join(pieces)
    return None


def _drop_enclosing_pair(kept: list[cst.BaseFormattedStringContent], parts: list, index: int) -> None:
    """`page ({e})` -> `page`: remove the bracket or quote pair around a removed placeholder."""
    if not kept or not isinstance(kept[-1], cst.FormattedStringText) or index + 1 >= len(parts):
        return
    after = parts[index + 1]
    if not isinstance(after, cst.FormattedStringText):
        return
    before_text = kept[-1].value.rstrip()
    if before_text and before_text[-1] in _OPENERS and after.value.startswith(_OPENERS[before_text[-1]]):
        kept[-1] = kept[-1].with_changes(value=before_text[:-1].rstrip())
        parts[index + 1] = after.with_changes(value=after.value[1:])


def _message_without_exception(value: cst.BaseExpression, handler: Handler, ctx: FileContext) -> str | None:
    """Source of the message with the exception text taken out, or None when nothing useful is left."""
    target = _message_expr(value)
    if target is None:
        return None
    code = _without_exception(target, handler, ctx)
    if not code:
        return None
    try:
        text = literal_text(cst.parse_expression(code))
    except cst.ParserSyntaxError:
        return None
    if text is None or not text.strip(" :;,.-") or vague_reason(text) == "generic":
        return None
    return code


def _trim_separators(parts: list[cst.BaseFormattedStringContent]) -> list[cst.BaseFormattedStringContent]:
    """Drop what introduced the removed exception text at the end: ": ", " - ", "\n"."""
    out = list(parts)
    while out and isinstance(out[-1], cst.FormattedStringText):
        stripped = re.sub(r"(?:[\s:;,\-–—(|]|\\n|\\t)+$", "", out[-1].value)
        if stripped:
            out[-1] = out[-1].with_changes(value=stripped)
            break
        out.pop()
    return out


def _build_fix(
    ctx: FileContext, fn: FunctionFacts, node: cst.CSTNode, value: cst.BaseExpression, handler: Handler, variant: str
) -> tuple[str, tuple[Edit, ...]] | None:
    where = ctx.range(node)
    line = ctx.lines[where.start.line - 1]
    if line[: where.start.column].strip() or ctx.lines[where.end.line - 1][where.end.column :].strip().startswith(";"):
        return None  # shares its line with another statement
    message = _message_without_exception(value, handler, ctx)
    if message is None:
        message = py_str(f"{fn.name} failed")
    indent = indent_of(ctx, node)
    cause = ""
    if isinstance(node, cst.Raise) and node.cause is not None:
        cause = " " + ctx.code(node.cause).strip()
    elif handler.name:
        cause = f" from {handler.name}"
    # A helper's own exception class stays (its callers may catch it); elsewhere ToolError.
    raised = ctx.source(value.func) if variant == "raise-other" and isinstance(value, cst.Call) else PH_TOOL_ERROR
    content = f"{PH_LOGGER}.exception({message})\n{indent}raise {raised}({message}){cause}"
    edit = Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), content)
    return (f"Log the exception and raise {raised}({message})", (edit,))
