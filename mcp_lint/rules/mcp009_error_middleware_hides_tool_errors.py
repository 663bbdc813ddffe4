"""MCP009 error-middleware-hides-tool-errors: fastmcp's ErrorHandlingMiddleware (transform_errors
on) on a server with tools rewrites every tool failure into a protocol error."""

from __future__ import annotations

from typing import Iterable, Iterator

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import Family, FrameworkContext, MiddlewareEffect, channel
from mcp_lint.model.summary import Latent, ServerLatent
from mcp_lint.rules.base import Example, FileContext, FixSpec, RenderContext, Rendered, Rule, format_tools

# -- Version facts (mcp-error-semantics.md §2b; read in the wheels of fastmcp 2.9.0, 2.14.7,
# 3.4.11 and fastmcp-slim 4.2.3, fastmcp/server/middleware/error_handling.py): the class exists
# from 2.9.0 (2.8.1 has no middleware); `transform_errors` is its 4th parameter and defaults to
# True in every release; `_transform_error` turns any non-MCP exception, ToolError included, into
# McpError/MCPError(-32603 "Internal error: {e}"; ValueError/TypeError -32602 "Invalid params:
# {e}"; KeyError/FileNotFoundError/NotFoundError -32001 "Not found: {e}"). What the client then
# receives is the framework row's `error_middleware` (frameworks.py): fastmcp 2.x/3.x run on
# mcp 1.x, whose low-level call_tool turns the McpError back into a tool result, R("Internal
# error: {msg}"); on fastmcp 4.x (mcp 2.x) the MCPError reaches the wire, E(-32603, ...). On
# fastmcp 2.9-2.13 the tool manager has wrapped any other exception into ToolError before the
# middleware sees it (PREFIXES_WRAPPED_TEXT, run by tests/semantics). Rows of releases before the
# class existed (fastmcp < 2.9) have no `error_middleware`.
_TRANSFORM_POSITION = 3  # ErrorHandlingMiddleware(logger, include_traceback, error_callback, transform_errors)


def effect(release: str) -> MiddlewareEffect | None:
    """What the middleware does on a fastmcp release (the row's fact); None before it exists."""
    row = channel(Family.FASTMCP, release)
    return row.error_middleware if row is not None else None


def _effects(framework: FrameworkContext) -> set[MiddlewareEffect]:
    """What the middleware does on each candidate release that has it (every effect when the
    releases are unknown; none when every candidate predates the class)."""
    if not framework.versions:
        return set(MiddlewareEffect)
    return {e for e in (effect(v) for v in framework.versions) if e is not None}


def _prefixes(effects: set[MiddlewareEffect]) -> str:
    """Which prefix the model reads for which failure, on the releases of `effects` that keep a
    tool result: fastmcp 2.14+ label the exception's class; 2.9-2.13 see every exception but
    ToolError already wrapped by the tool manager, so all of them read 'Internal error: ...'."""
    labelled = "a ValueError as 'Invalid params: ...', a KeyError as 'Not found: ...'"
    wrapped = "any other exception as 'Internal error: Error calling tool ...: ...'"
    if MiddlewareEffect.PREFIXES_WRAPPED_TEXT not in effects:
        shown = labelled
    elif MiddlewareEffect.PREFIXES_TEXT not in effects:
        shown = wrapped
    else:
        shown = f"{labelled} (fastmcp 2.9–2.13: {wrapped})"
    return f"ToolError('...') as 'Internal error: ...', {shown}"


def _transform_argument(call: cst.Call) -> tuple[cst.Arg | None, bool]:
    """(the transform_errors argument, whether the call can be read: no *args/**kwargs)."""
    positional = 0
    for argument in call.args:
        if argument.star:
            return None, False
        if argument.keyword is not None:
            if argument.keyword.value == "transform_errors":
                return argument, True
            continue
        if positional == _TRANSFORM_POSITION:
            return argument, True
        positional += 1
    return None, True


class ErrorMiddlewareHidesToolErrors(Rule):
    code = "MCP009"
    name = "error-middleware-hides-tool-errors"

    INVALID = (
        Example(
            """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

mcp = FastMCP("orders")
mcp.add_middleware(ErrorHandlingMiddleware())

@mcp.tool
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ToolError(f"Order {order_id} not found; call list_orders")
    return ORDERS[order_id]
""",
            flagged=(6,),
            target="fastmcp>=4,<5",
            fixed="""\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

mcp = FastMCP("orders")
mcp.add_middleware(ErrorHandlingMiddleware(transform_errors=False))

@mcp.tool
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ToolError(f"Order {order_id} not found; call list_orders")
    return ORDERS[order_id]
""",
        ),
    )
    VALID = (
        Example(
            """\
from fastmcp import FastMCP
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

mcp = FastMCP("orders", middleware=[ErrorHandlingMiddleware(transform_errors=False)])

@mcp.tool
def get_order(order_id: int) -> str:
    return ORDERS[order_id]
""",
            target="fastmcp>=4,<5",
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        return ()  # a server's configuration, not a function's body: see check_module

    def check_module(self, ctx: FileContext) -> Iterator[ServerLatent]:
        for site in ctx.model.error_middleware:
            argument, readable = _transform_argument(site.call)
            if not readable:
                continue
            if argument is not None and not (type(argument.value) is cst.Name and argument.value.value == "True"):
                continue  # transform_errors=False, or a value we cannot read
            ctx.hint(site.top, site.top_index)
            ctx.current = site.top
            latent = self.latent(
                ctx,
                site.call,
                variant="explicit" if argument is not None else "default",
                route="tool",
                fix_edits=(self._edit(ctx, site.call, argument),),
            )
            yield ServerLatent(site.server, latent)  # rendered by Rule.link when the server has tools
        ctx.current = None

    @staticmethod
    def _edit(ctx: FileContext, call: cst.Call, argument: cst.Arg | None) -> Edit:
        """`transform_errors=True` -> `False`; otherwise the keyword is added after the last argument."""
        if argument is not None:
            where = ctx.range(argument.value)
            return Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), "False")
        if call.args:
            end = ctx.range(call.args[-1].value).end
            at = Location(end.line, end.column + 1)
            return Edit(at, at, ", transform_errors=False")
        end = ctx.range(call).end  # `ErrorHandlingMiddleware()`: just before the closing parenthesis
        at = Location(end.line, end.column)
        return Edit(at, at, "transform_errors=False")

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        framework = context.framework
        effects = _effects(framework)
        if not effects:
            return None  # every release the pins allow predates ErrorHandlingMiddleware: the import fails
        switch = "transform_errors=True" if latent.variant == "explicit" else "transform_errors on by default"
        source = f" (from {framework.pinned_by})" if framework.pinned_by else ""
        protocol = (
            "every tool failure becomes a JSON-RPC error the model never sees: ToolError('...') arrives as error "
            "-32603 'Internal error: ...', a ValueError as -32602 'Invalid params: ...'"
        )
        prefixed = f"the model reads every tool failure behind a protocol-style prefix: {_prefixes(effects)}"
        if effects == {MiddlewareEffect.PROTOCOL_ERROR}:
            notes = (f"on fastmcp 4.x{source} {protocol}",)
        elif MiddlewareEffect.PROTOCOL_ERROR not in effects:
            notes = (f"on fastmcp 2.x/3.x{source} {prefixed}",)
        else:
            assumed = f"both allowed by {framework.pinned_by}" if framework.pinned_by else "version not pinned, both assumed"
            notes = (f"on fastmcp 4.x {protocol}", f"on fastmcp 2.x/3.x {prefixed} ({assumed})")
        count = len(set(context.tools))
        served = f"tool '{context.tools[0]}'" if count == 1 else f"its {count} tools"
        message = f"ErrorHandlingMiddleware rewrites the failures of {served}"
        notes = (f"the middleware runs with {switch}", *notes)
        if count > 1:
            notes = (*notes, f"the server's {format_tools(context.tools)}")
        fix = FixSpec(Applicability.UNSAFE, "Pass transform_errors=False", latent.fix_edits)
        return Rendered(message, fix, help="Pass transform_errors=False, or remove the middleware", notes=notes)
