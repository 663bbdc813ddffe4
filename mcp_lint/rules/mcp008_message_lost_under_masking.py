"""MCP008 message-lost-under-masking: a tool relies on a plain exception's text reaching the model
where the framework masks it (mcp >= 2.1 MCPServer, fastmcp with masking on: `mask_error_details=True`
in the code, or FASTMCP_MASK_ERROR_DETAILS set by a project file, read by the link step)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable


from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.exception_guards import catches
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import Delivery
from mcp_lint.model.names import last_name
from mcp_lint.model.summary import Latent, Payload
from mcp_lint.rules.base import PH_TOOL_ERROR, Example, FileContext, FixSpec, LinkedProject, Reach, RenderContext, Rendered, Rule
from mcp_lint.rules.exception_text import project_class
from mcp_lint.rules.plain_raises import delivered_class, plain_raises
from mcp_lint.rules.text import clip

# -- Version facts: the framework rows (frameworks.py, from mcp-error-semantics.md §2a) say what
# a plain exception becomes on each release, with or without the masking setting
# (`Channel.unexpected_exception`): masked on mcp 2.1+ MCPServer and fastmcp 2.4.0, and on
# fastmcp 2.5+ with mask_error_details=True; the masked text is the row's (checked in the wheels
# of mcp 2.3.0 Tool.run and fastmcp 2.14.7 / 3.4.11 / 4.2.3). Which raises carry a message for
# the model, and which classes the framework delivers anyway: rules/plain_raises.py.


class MessageLostUnderMasking(Rule):
    code = "MCP008"
    name = "message-lost-under-masking"

    INVALID = (
        Example(
            """\
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("orders")

@mcp.tool()
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ValueError(f"Order {order_id} not found; call list_orders for valid ids")
    return ORDERS[order_id]
""",
            flagged=(8,),
            target="mcp>=2.1,<3",
            fixed="""\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("orders")

@mcp.tool()
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ToolError(f"Order {order_id} not found; call list_orders for valid ids")
    return ORDERS[order_id]
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("orders")

@mcp.tool()
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ToolError(f"Order {order_id} not found; call list_orders for valid ids")
    return ORDERS[order_id]
""",
            target="mcp>=2.1,<3",
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        for found in plain_raises(fn, ctx):
            exc, cls, bases, text = found.exc, found.cls, found.bases, found.text
            class_qual = project_class(exc.func, ctx) or ""
            payload = MaskedRaise(
                cls=cls,
                text=clip(" ".join(text.replace("{}", "…").split()), 80),
                class_qual=class_qual,
                bases=bases,
                fixable=len(exc.args) == 1,
            )
            where = ctx.range(exc.func)
            edit = Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), PH_TOOL_ERROR)
            yield self.latent(
                ctx,
                found.fact.node,
                variant="raise",
                route="raise",
                payload=payload,
                fix_edits=(edit,) if payload.fixable else (),
                classes=(class_qual,) if class_qual else (),
            )

    def check_module(self, ctx: FileContext) -> Iterable[object]:
        """The module's own subclasses of the framework's ToolError (`class ToolExecutionError(
        ToolError)`): a project that has one chose which failures reach the model and how."""
        for qual, bases in ctx.model.classes.items():
            if any(delivered_class(base) for base in bases):
                yield OwnToolError(qual)

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        """A project class is delivered like ToolError when it subclasses one: its ancestors go
        into the payload for `render`. None where every tool's decorator intercepts exceptions, or
        every caller on the way catches the class or one of its bases (`except OSError` around a
        helper raising FileNotFoundError, `except AppError` around one raising its subclass)."""
        if reach.tools and reach.tools <= project.intercepted_tools:
            return None  # every tool on the way hands its exceptions to a wrapper first
        payload = _payload(latent)
        ancestors = project.class_ancestors(payload.class_qual) if payload.class_qual else ()
        names = frozenset({payload.cls, *payload.bases, *(last_name(a) for a in ancestors)}) - {""}
        if reach.guards and all(any(catches(t, names) for t in g) for g in reach.guards):
            return None
        return replace(latent, payload=replace(payload, ancestors=ancestors))

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        newest = context.framework.newest()  # what a fresh install gets, as MCP002 judges it
        row = newest[1] if newest is not None else None
        if row is None or context.forwards_exception_text():
            return None  # the text reaches the model (MCP002/MCP003 judge it there)
        failure = row.unexpected_exception(context.masked)
        if failure.delivery is not Delivery.MASKED:
            return None  # not masked either: a JSON-RPC error of a low-level server is no tool's message
        payload = _payload(latent)
        if any(delivered_class(a) for a in payload.ancestors[1:]):
            return None  # a project subclass of ToolError (or another delivered class)
        tool = context.tools[0] if len(context.tools) == 1 else "<tool>" if context.tools else context.function
        seen = failure.seen_by_model(tool)
        if context.masked:
            source = f" (from {context.framework.pinned_by})" if context.framework.pinned_by else ""
            # Credit where masking comes from: the code, or the project file that sets the variable.
            switch = f"masking turned on by {context.masked_by}" if context.masked_by else "mask_error_details=True"
            where = f"fastmcp{source} with {switch}"
        else:
            where = context.framework.describe_exception_text_release()
        cls = payload.cls
        # The text is in the code frame and a note: the message names who raises what.
        message = f"{context.subject} raises {cls} for the model to read, but the framework masks its text"
        notes = (f"its text: '{payload.text}'", f"on {where} only ToolError's text reaches the model: it receives \"{seen}\"")
        own = _own_tool_error(context.project)
        if own:
            # The project raises its own ToolError class for what the model must read and lets the
            # rest stay on the server: a swap to the framework's class would go past that design.
            help_text = f"No fix: the project raises its own {own} for what the model reads; raise {own} here if the model must read this"
            return Rendered(message, None, help=help_text, notes=notes)
        return Rendered(message, self._fix(latent, context, cls), help="Raise ToolError with the same text", notes=notes)

    def _fix(self, latent: Latent, context: RenderContext, cls: str) -> FixSpec | None:
        payload = _payload(latent)
        if not payload.fixable or not latent.fix_edits:
            return None
        # In the tool handler itself only the framework receives the exception (the link step
        # drops the fix where a caller's `except` would catch ToolError differently); a helper may
        # also be called from code that catches its class.
        applicability = Applicability.SAFE if context.is_tool else Applicability.UNSAFE
        return FixSpec(
            applicability,
            f"Raise {PH_TOOL_ERROR} instead of {cls}, with the same text",
            latent.fix_edits,
            ("ToolError",),
            raises="ToolError",
            replaces=cls,
            replaced_ancestors=payload.ancestors,
        )


@dataclass(frozen=True)
class MaskedRaise(Payload):
    """A plain exception raised with a message written for the model."""

    cls: str  # the class's short name
    text: str  # its message as the finding quotes it (at most 80 characters)
    class_qual: str  # the project class's qualified name, "" for a builtin or library class
    bases: tuple[str, ...]  # a builtin class's builtin bases (a caller catching one catches it)
    fixable: bool  # one argument: ToolError takes the message as it is
    # Filled in by `link_latent`: the project class and its qualified ancestors, the class first.
    ancestors: tuple[str, ...] = ()


@dataclass(frozen=True)
class OwnToolError:
    """A project class that subclasses the framework's ToolError (check_module's record)."""

    qual: str


def _own_tool_error(project: LinkedProject | None) -> str:
    """The short name of a ToolError subclass the project defines, "" when it has none."""
    if project is None:
        return ""
    found = sorted(record.qual for _summary, record in project.records(MessageLostUnderMasking.code) if isinstance(record, OwnToolError))
    return last_name(found[0]) if found else ""


def _payload(latent: Latent) -> MaskedRaise:
    assert isinstance(latent.payload, MaskedRaise)
    return latent.payload
