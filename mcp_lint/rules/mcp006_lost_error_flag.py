"""MCP006 lost-error-flag: an error result the resolved framework version turns into a success or a crash."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

import libcst as cst

from mcp_lint.findings import Applicability, Edit
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import (
    CALL_TOOL_RESULT_CLASSES,
    ERROR_DATA_CLASSES,
    TOOL_RESULT_CLASSES,
    Channel,
    Construction,
    Family,
    FrameworkContext,
    ResultOutcome,
    ResultShape,
    channel,
    distribution_for,
    first_release_where,
    version,
)
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import Latent, Payload
from mcp_lint.rules.base import Example, FileContext, FixSpec, RenderContext, Rendered, Rule, Span, node_span
from mcp_lint.rules.common import lowlevel_failure_advice, lowlevel_result_supported
from mcp_lint.vocabulary import ERROR_FLAG_LOOKALIKE

# What each release does with an error result is read from the framework rows
# (frameworks.FRAMEWORK_TABLE, mcp-error-semantics.md sections 1, 3 and 4): `Channel.error_result`
# for the shapes, `structured_error_result` for a return annotation with an output schema,
# `v1_constructor` for McpError(ErrorData(...)). Two facts the rows do not carry:
# fastmcp's ToolResult.__init__ takes content/structured_content/meta (and is_error from 3.4) and
# nothing else, so any other flag raises TypeError on every release (checked in the 2.14.7, 3.4.11
# and 4.2.0 wheels); fastmcp 4.x runs on mcp 2.x (doc section 1), so `mcp.shared.exceptions.McpError`
# fails to import there while fastmcp's own alias raises TypeError.


# The two spellings of the error flag a result class reads; vocabulary.ERROR_FLAG_LOOKALIKE
# finds the others an author meant as one.
_REAL_FLAGS = ("isError", "is_error")


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def _is_false(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value in {"False", "None"} or type(node) is cst.Integer and node.value == "0"


def _flag(call: cst.Call) -> tuple[str, cst.Arg] | None:
    """The error flag a result constructor is given (keyword as written, and its argument)."""
    for argument in call.args:
        keyword = argument.keyword.value if argument.keyword is not None else ""
        if not keyword or _is_false(argument.value):
            continue
        if keyword in _REAL_FLAGS or ERROR_FLAG_LOOKALIKE.fullmatch(keyword):
            return keyword, argument
    return None


def _is_class(call: cst.Call, ctx: FileContext, qualified: frozenset[str], short: str) -> bool:
    resolved = ctx.model.aliases.resolve(call.func)
    return resolved in qualified or (resolved is None and last_name(dotted(call.func) or "") == short)


# Bare classes whose type hints are empty: mcp's func_metadata builds no output model for them
# (checked on mcp 1.18/1.30: `-> dict`, `-> list`, `-> Any` pass a CallToolResult through, while
# `-> str`, `-> dict[str, Any]` and models get a schema). `Any` is a class from Python 3.11.
_NO_SCHEMA = frozenset({"dict", "list", "tuple", "set", "frozenset", "object", "builtins.dict", "builtins.list", "builtins.tuple", "builtins.set", "builtins.object"})


def _output_schema_annotation(fn: FunctionFacts, ctx: FileContext) -> str:
    """The return annotation as written when it gives the tool an output schema (anything but a
    plain `CallToolResult`; `Annotated[CallToolResult, Model]` validates against Model), else ""."""
    returns = fn.node.returns
    if returns is None:
        return ""
    annotation = returns.annotation
    if type(annotation) is cst.SimpleString:
        text = str(annotation.evaluated_value).strip()
        return "" if last_name(text) == "CallToolResult" else text
    resolved = ctx.model.aliases.resolve(annotation) or dotted(annotation) or ""
    if resolved in CALL_TOOL_RESULT_CLASSES or last_name(resolved) == "CallToolResult":
        return ""
    if type(annotation) is not cst.Subscript and (resolved in _NO_SCHEMA or last_name(resolved) == "Any"):
        return ""
    return ctx.code(annotation)


def _v1_protocol_error(call: cst.Call, ctx: FileContext) -> str | None:
    """The qualified McpError class of `McpError(ErrorData(...))` (the v1 constructor), or None."""
    resolved = ctx.model.aliases.resolve(call.func) or ""
    if last_name(resolved) not in {"McpError", "MCPError"} or resolved.split(".")[0] not in {"mcp", "fastmcp"}:
        return None
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    first = positional[0] if len(positional) == 1 else next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "error"), None)
    if type(first) is cst.Call and (ctx.model.aliases.resolve(first.func) in ERROR_DATA_CLASSES or last_name(dotted(first.func) or "") == "ErrorData"):
        return resolved
    return None


class LostErrorFlag(Rule):
    code = "MCP006"
    name = "lost-error-flag"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")
NOTES: dict[str, str] = {"welcome": "Hello"}

@mcp.tool()
def read_note(note_id: str) -> CallToolResult:
    if note_id not in NOTES:
        return CallToolResult(content=[TextContent(type="text", text=f"Note {note_id} not found")], is_error=True)
    return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])
""",
            flagged=(10,),
            target="mcp>=1.19,<2",
            fixed="""\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")
NOTES: dict[str, str] = {"welcome": "Hello"}

@mcp.tool()
def read_note(note_id: str) -> CallToolResult:
    if note_id not in NOTES:
        return CallToolResult(content=[TextContent(type="text", text=f"Note {note_id} not found")], isError=True)
    return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])
""",
        ),
        Example(
            """\
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

mcp = MCPServer("orders")
SHIPPED: set[int] = {7}

@mcp.tool()
def cancel_order(order_id: int) -> CallToolResult:
    if order_id in SHIPPED:
        return CallToolResult(content=[TextContent(type="text", text="Order already shipped")], error=True)
    return CallToolResult(content=[TextContent(type="text", text="cancelled")])
""",
            flagged=(10,),
            target="mcp>=2.1,<3",
            fixed="""\
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

mcp = MCPServer("orders")
SHIPPED: set[int] = {7}

@mcp.tool()
def cancel_order(order_id: int) -> CallToolResult:
    if order_id in SHIPPED:
        return CallToolResult(content=[TextContent(type="text", text="Order already shipped")], isError=True)
    return CallToolResult(content=[TextContent(type="text", text="cancelled")])
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")
NOTES: dict[str, str] = {"welcome": "Hello"}

@mcp.tool()
def read_note(note_id: str) -> CallToolResult:
    if note_id not in NOTES:
        return CallToolResult(content=[TextContent(type="text", text=f"Note {note_id} not found")], isError=True)
    return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])
""",
            target="mcp>=1.19,<2",
        ),
        Example(
            """\
from fastmcp import FastMCP
from fastmcp.tools import ToolResult

mcp = FastMCP("orders")
SHIPPED: set[int] = {7}

@mcp.tool
def cancel_order(order_id: int) -> ToolResult:
    if order_id in SHIPPED:
        return ToolResult(content="Order already shipped; nothing was changed", is_error=True)
    return ToolResult(content="cancelled")
""",
            target="fastmcp>=3.4",
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        for ret in fn.returns:
            if ret.node.value is None:
                continue
            value = fn.value_of(ret.node.value)
            while type(value) is cst.Await:
                value = value.expression
            if type(value) is cst.Call:
                latent = self._result(fn, ctx, ret.node, value)
                if latent is not None:
                    yield latent
        for fact in fn.raises:
            exc = fact.node.exc
            exc = fn.value_of(exc) if exc is not None else None
            if type(exc) is not cst.Call:
                continue
            origin = _v1_protocol_error(exc, ctx)
            if origin is not None:
                yield self.latent(ctx, fact.node, variant="v1-constructor", route="raise", payload=V1ProtocolError(origin))

    def _result(self, fn: FunctionFacts, ctx: FileContext, statement: cst.Return, call: cst.Call) -> Latent | None:
        if _is_class(call, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult"):
            cls = "CallToolResult"
        elif _is_class(call, ctx, TOOL_RESULT_CLASSES, "ToolResult"):
            cls = "ToolResult"
        else:
            return None
        found = _flag(call)
        if found is None:
            return None
        keyword, argument = found
        assert argument.keyword is not None
        if cls == "CallToolResult":
            variant = {"isError": "camel", "is_error": "snake"}.get(keyword, "misspelled")
        else:
            variant = "toolresult-flag" if keyword == "is_error" else "toolresult-misspelled"
        payload = ErrorResult(
            cls=cls,
            keyword=keyword,
            keyword_at=node_span(ctx, argument.keyword),
            annotation=_output_schema_annotation(fn, ctx),
            structured=bool(_keyword(call, "structuredContent") or _keyword(call, "structured_content")),
        )
        return self.latent(ctx, statement, variant=variant, route="return", payload=payload)

    # -- rendering ------------------------------------------------------------------------
    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        framework = context.framework
        if not framework.versions or framework.family is Family.UNKNOWN:
            return None  # nothing holds on every release of an unknown framework
        tool = context.tools[0] if context.tools else context.function
        outcomes = [(release, self._outcome(latent, context, release, tool)) for release in framework.versions]
        if any(outcome is None for _, outcome in outcomes):
            return None  # report only what holds on every release the project may run on
        what = self._what(latent)
        groups: dict[str, list[str]] = {}
        for release, outcome in outcomes:
            assert outcome is not None
            groups.setdefault(outcome, []).append(release)
        notes = tuple(f"on {_releases(framework, releases, len(groups) == 1)} {outcome}" for outcome, releases in groups.items())
        verb = "raises" if latent.variant == "v1-constructor" else "returns"
        lost = "which fails on every release it may run on" if latent.variant == "v1-constructor" else "whose error flag is lost"
        message = f"{context.subject} {verb} {what}, {lost}"
        return Rendered(message, self._fix(latent, context), help=self._instead(latent, context), notes=notes)

    @staticmethod
    def _what(latent: Latent) -> str:
        if isinstance(latent.payload, ErrorResult):
            return f"{latent.payload.cls}(..., {latent.payload.keyword}=True)"
        return "McpError(ErrorData(...))"

    @staticmethod
    def _outcome(latent: Latent, context: RenderContext, release: str, tool: str) -> str | None:
        """What the client receives on `release`, or None when the error result works there."""
        family = context.framework.family
        row = channel(family, release)
        if row is None:
            return None
        variant = latent.variant
        if variant in {"camel", "snake", "misspelled"}:
            return _call_tool_result_outcome(latent, context, row, tool)
        if variant == "toolresult-flag":
            if row.error_result(ResultShape.TOOL_RESULT) is ResultOutcome.TYPE_ERROR:
                return f"ToolResult takes no is_error before fastmcp 3.4: the call raises TypeError and the model gets 'Error calling tool '{tool}': ... unexpected keyword argument' instead of your message"
            return None
        if variant == "toolresult-misspelled":
            if family is Family.FASTMCP:
                return f"ToolResult takes no '{_result(latent).keyword}' argument: the call raises TypeError and the model gets 'Error calling tool '{tool}': ... unexpected keyword argument' instead of your message"
            return None
        if variant == "v1-constructor" and row.v1_constructor_fails:
            assert isinstance(latent.payload, V1ProtocolError)
            if latent.payload.origin.startswith("fastmcp.") and row.v1_constructor is Construction.TYPE_ERROR:
                return (
                    "McpError is fastmcp's alias of MCPError(code, message): McpError(ErrorData(...)) raises TypeError "
                    f"and the model gets 'Error calling tool '{tool}': ... missing 1 required positional argument' instead of the message"
                )
            return "mcp 2.x has no McpError (it is MCPError(code, message)): the import raises ImportError and the server does not start"
        return None

    @staticmethod
    def _instead(latent: Latent, context: RenderContext) -> str:
        """What to write instead; the releases it names are where the rows start passing the
        result through (mcp 1.19 for a CallToolResult, fastmcp 3.4 for ToolResult(is_error=True))."""
        framework = context.framework
        family = framework.family
        if latent.variant == "v1-constructor":
            return "Raise ToolError with the message instead (MCPError(code, message) only for a protocol error)"
        tool_result_since = first_release_where(Family.FASTMCP, lambda row: row.error_result_survives(ResultShape.TOOL_RESULT))
        if latent.variant == "toolresult-misspelled":
            return f"Pass is_error=True (fastmcp >= {tool_result_since}) or raise ToolError instead"
        if latent.variant == "toolresult-flag" or family is Family.FASTMCP:
            return f"Raise ToolError instead (fastmcp >= {tool_result_since}: return ToolResult(..., is_error=True))"
        if family is Family.MCP_LOWLEVEL:
            return "Pass isError=True instead" if lowlevel_result_supported(framework) else lowlevel_failure_advice(context)[0]
        since = f"{distribution_for(family)} >= {first_release_where(family, _passes_call_tool_result)}"
        if latent.variant in {"snake", "misspelled"}:
            if framework.every(_passes_call_tool_result):
                return "Pass isError=True instead"
            return f"Pass isError=True (works on {since}) or raise ToolError instead"
        return f"Raise ToolError instead, or annotate the tool '-> CallToolResult' ({since})"

    def _fix(self, latent: Latent, context: RenderContext) -> FixSpec | None:
        """Spell the flag the way every candidate release reads it: `isError=` on CallToolResult
        where it works, `is_error=` on fastmcp >= 3.4's ToolResult."""
        if latent.variant in {"snake", "misspelled"}:
            replacement = "isError"
            works = all(self._outcome(_as(latent, "camel"), context, r, "") is None for r in context.framework.versions)
        elif latent.variant == "toolresult-misspelled":
            replacement = "is_error"
            works = all(self._outcome(_as(latent, "toolresult-flag"), context, r, "") is None for r in context.framework.versions)
        else:
            return None
        if not works:
            return None
        start, end = _result(latent).keyword_at
        return FixSpec(Applicability.UNSAFE, f"Pass the error flag as {replacement}=True", (Edit(start, end, replacement),))


@dataclass(frozen=True)
class ErrorResult(Payload):
    """A returned CallToolResult or ToolResult with an error flag."""

    cls: str  # "CallToolResult" or "ToolResult"
    keyword: str  # the flag as written (`isError`, `is_error`, a misspelling)
    keyword_at: Span  # where the keyword is: the fix respells it
    annotation: str  # the tool's return annotation when it gives an output schema, else ""
    structured: bool  # the result also passes structured content


@dataclass(frozen=True)
class V1ProtocolError(Payload):
    """`McpError(ErrorData(...))` raised: the module the class comes from (`mcp.shared...`)."""

    origin: str


def _result(latent: Latent) -> ErrorResult:
    assert isinstance(latent.payload, ErrorResult)
    return latent.payload


def _passes_call_tool_result(row: Channel) -> bool | None:
    return row.error_result_survives(ResultShape.CALL_TOOL_RESULT)


def _as(latent: Latent, variant: str) -> Latent:
    return replace(latent, variant=variant)


_SERIALIZED = "it is JSON-serialized into a text block and the wire says isError: false"
_ITERATED = "a low-level handler cannot return a CallToolResult yet: the model gets a pydantic validation text instead of your message"


def _call_tool_result_outcome(latent: Latent, context: RenderContext, row: Channel, tool: str) -> str | None:
    """CallToolResult(isError=True / is_error=True / a misspelled flag) on one row."""
    variant = latent.variant
    annotation = _result(latent).annotation
    structured = context.is_tool and bool(annotation) and not _result(latent).structured
    shape = ResultShape.CALL_TOOL_RESULT_SNAKE if variant == "snake" else ResultShape.CALL_TOOL_RESULT
    outcome = row.error_result(shape, structured_return=structured)
    if outcome is ResultOutcome.SERIALIZED:
        if not context.is_tool and row.structured_error_result is ResultOutcome.OUTPUT_VALIDATED:
            return "it is not passed through: serialized into text (isError: false), or replaced by an output-validation error when the tool's return annotation has a schema"
        return _SERIALIZED
    if outcome is ResultOutcome.INVALID:
        return _ITERATED
    if variant == "misspelled":  # whatever the row does with a real flag, this one is dropped
        return f"'{_result(latent).keyword}' is no field of CallToolResult: pydantic drops it and the wire says isError: false"
    if outcome is ResultOutcome.FLAG_IGNORED:
        return "is_error is no field of mcp 1.x's CallToolResult: it is ignored and the wire says isError: false"
    if outcome is ResultOutcome.OUTPUT_VALIDATED:
        return (
            f"the return annotation '-> {annotation}' gives the tool an output schema, so the missing structuredContent "
            f"fails validation and the model gets 'Error executing tool {tool}: 1 validation error ...' instead of your message"
        )
    return None


def _releases(framework: FrameworkContext, releases: list[str], every: bool) -> str:
    """How a message names the releases an outcome holds on: the whole assumption ('fastmcp 2.x /
    fastmcp 3.x (from pyproject.toml)') or, when outcomes differ, the spans of the framework rows
    those releases fall in ('mcp 1.10–1.18, 1.19–1.30'): the candidates are representatives."""
    if every:
        text = framework.describe()
        return text if framework.pinned_by else f"{text} (every release; no version pinned)"
    rows: dict[str, None] = {}
    for release in sorted(releases, key=version):
        row = channel(framework.family, release)
        if row is not None:
            rows.setdefault(row.span)
    dist = "fastmcp" if framework.family is Family.FASTMCP else "mcp"
    return f"{dist} {', '.join(rows)}{framework.source}"
