"""MCP003 vague-error-message: a model-facing failure message gives the model nothing to act on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.message_text import find_exception_text
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import Latent, Payload
from mcp_lint.rules.base import (
    Example,
    FileContext,
    RenderContext,
    Rendered,
    Rule,
    latent_fix,
)
from mcp_lint.rules.common import is_protocol_error_class, protocol_error_message, raised_class
from mcp_lint.rules.exception_text import is_tool_error_raise
from mcp_lint.rules.results import error_result_text, failure_message_of
from mcp_lint.rules.text import clip, vague_reason
from mcp_lint.vocabulary import NOT_ARGUMENTS


@dataclass(frozen=True)
class VagueMessage(Payload):
    """The vague message as the finding quotes it (at most 80 characters, placeholders for the
    interpolated values)."""

    text: str


def _judged_text(expr: cst.BaseExpression, handler: Handler | None) -> tuple[str, bool] | None:
    """(text with exception placeholders removed, whether exception text was there)."""
    from mcp_lint.model.message_text import literal_text

    if type(expr) is cst.FormattedString and handler is not None:
        parts = []
        had_exception = False
        for part in expr.parts:
            if type(part) is cst.FormattedStringText:
                parts.append(part.value)
            elif find_exception_text(part.expression, handler) is not None:
                had_exception = True
            else:
                parts.append("{}")
        return "".join(parts), had_exception
    text = literal_text(expr)
    if text is None:
        return None
    had_exception = handler is not None and find_exception_text(expr, handler) is not None
    return text, had_exception


class VagueErrorMessage(Rule):
    code = "MCP003"
    name = "vague-error-message"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("billing")

@mcp.tool()
def refund(invoice_id: str, amount: float) -> str:
    if amount <= 0:
        raise ToolError("The operation failed. Please try again.")
    return issue_refund(invoice_id, amount)
""",
            flagged=(9,),
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("billing")

@mcp.tool()
def refund(invoice_id: str, amount: float) -> str:
    if amount <= 0:
        raise ToolError(f"amount must be positive, got {amount}; pass the refund amount in EUR")
    if is_rate_limited():
        raise ToolError("The payment provider is rate limiting us (HTTP 429); retry in 30 seconds")
    return issue_refund(invoice_id, amount)
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        # A vague message a helper raises reaches the model also where a clause catches it and
        # sends its text on, whatever the framework does with exceptions.
        yield from self.passing_on_markers(fn, ctx)
        for node, message, handler, route in self._messages(fn, ctx):
            judged = _judged_text(fn.value_of(message), handler)
            if judged is None:
                continue
            text, had_exception = judged
            reason = vague_reason(text)
            if reason is None:
                continue
            if had_exception and reason == "generic":
                continue  # only substance is the exception text: MCP002's finding
            display = " ".join(text.replace("{}", "…").split())
            args = [p for p in fn.params if p not in NOT_ARGUMENTS]
            fields = ", ".join(f"{a}={{{a}!r}}" for a in args[:3])
            template = (
                f'f"{fn.name} failed'
                + (f" for {fields}" if fields else "")
                + ': <what was observed>. <what the next call can change>; if it fails again, stop and report it."'
            )
            where = ctx.range(fn.value_of(message))
            edit = Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), template)
            yield self.latent(
                ctx,
                message,
                variant=f"{reason}-other" if route == "raise-other" else reason,
                route="raise" if route.startswith("raise") else route,
                statement=node,
                payload=VagueMessage(clip(display, 80)),
                delivered_when_passed_on=route.startswith("raise"),
                fix_message=f"Name what failed, what was observed, what the next call can change and when to stop, e.g. {template}",
                fix_applicability=Applicability.DISPLAY_ONLY,
                fix_edits=(edit,),
            )

    def _messages(self, fn: FunctionFacts, ctx: FileContext) -> Iterator[tuple[cst.CSTNode, cst.BaseExpression, Handler | None, str]]:
        for fact in fn.raises:
            exc = fact.node.exc
            if type(exc) is not cst.Call or not exc.args:
                continue
            if fact.caught_here(last_name(dotted(exc.func) or "")):
                continue  # caught in this function before it reaches anyone
            if is_tool_error_raise(exc, ctx):
                yield fact.node, exc.args[0].value, fact.handler, "raise"
            elif is_protocol_error_class(raised_class(exc, ctx), None):
                # McpError/MCPError: the channel is MCP001's defect, the wording this rule's.
                message = protocol_error_message(exc, ctx)
                if message is not None:
                    yield fact.node, message, fact.handler, "raise"
            else:
                yield fact.node, exc.args[0].value, fact.handler, "raise-other"
        for ret in fn.returns:
            if ret.node.value is None:
                continue
            found = failure_message_of(fn.value_of(ret.node.value), ctx)
            if found is None:
                found = error_result_text(fn.value_of(ret.node.value), ctx)
            if found is not None:
                yield ret.node, found, ret.handler, "return"

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        if latent.variant == "passes-on":
            return None  # a marker for the linker
        assert isinstance(latent.payload, VagueMessage)
        text = latent.payload.text
        if latent.variant.endswith("-other") and not context.forwards_exception_text():
            return None  # the framework masks this exception's text: the model never reads it
        notes: list[str] = []
        if latent.passed_on:
            notes.append(f"caught and sent on to the model: {latent.passed_on}")
        elif latent.variant.endswith("-other"):
            labels = context.framework.labels()
            source = f" (from {context.framework.pinned_by})" if context.framework.pinned_by else ""
            notes.append(f"a plain exception, whose text reaches the model on {labels}{source}")
        shown = clip(text, 40)
        if latent.variant.startswith("retry"):
            # The text is in the code frame and a note: a retry invitation is a sentence or two long.
            message = f"{context.subject} invites a retry without naming a transient condition"
            help_text = "Say what failed and what to change, or name the rate limit or timeout and when to retry"
            notes.insert(0, f"the message: '{text}'")
        else:
            message = f"{context.subject} fails with '{shown}', which names no operation or cause"
            help_text = "Say what failed, what was observed and what the next call can change"
            if shown != text:
                notes.append(f"the whole message: '{text}'")
        return Rendered(message, latent_fix(latent), help=help_text, notes=tuple(notes))
