"""The failure texts a function sends toward the model, and whether the model reads them.

A rule that judges what a failure says (the words of a retry invitation, a secret in it) asks the
same two questions: which statements send failure text, travelling how, and, once the framework
is known, does that channel deliver the text or replace it? Both are answered here, once.

Channels (a latent's variant):
- "raise": a ToolError (or a subclass) raised: its text reaches the model verbatim;
- "raise-protocol": a protocol error (McpError): its message reaches the client unless the
  framework masks it;
- "raise-other": any other exception raised (and not caught in the function): its text
  reaches the model only where the framework forwards unexpected exceptions' text;
- "return": a failure the function returns (a failure string, an error dict or result, or
  text returned from an `except` clause).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, last_name
from mcp_lint.rules.base import FileContext, RenderContext
from mcp_lint.rules.common import is_protocol_error_class, raised_class
from mcp_lint.rules.exception_text import is_tool_error_raise
from mcp_lint.rules.results import error_result_text, failure_message_of

RAISE = "raise"
RAISE_PROTOCOL = "raise-protocol"
RAISE_OTHER = "raise-other"
RETURN = "return"

# Text returned from an `except` clause as it is written: a failure message by its place.
_TEXT_NODES = (cst.FormattedString, cst.SimpleString, cst.ConcatenatedString)


def _is_text(value: cst.BaseExpression) -> bool:
    """Text as written: a string, or strings joined by `+` or formatted by `%` (`Path.home() /
    ".app"` returned from an `except` clause is a fallback value, not a message)."""
    if isinstance(value, _TEXT_NODES):
        return True
    return type(value) is cst.BinaryOperation and type(value.operator) in (cst.Add, cst.Modulo)


@dataclass(frozen=True)
class FailureSink:
    statement: cst.Raise | cst.Return
    channel: str  # RAISE, RAISE_PROTOCOL, RAISE_OTHER or RETURN
    # What it sends: a raise's constructor arguments; a return's value (resolved through a local
    # assigned once), whole.
    values: tuple[cst.BaseExpression, ...]
    # The failure message within it, for a return (the text of an error dict's message, the
    # string itself); None for a raise (its arguments are the message).
    message: cst.BaseExpression | None
    conditions: tuple[cst.BaseExpression, ...]  # tests of the enclosing `if`s
    handler: Handler | None  # the `except` clause it is in


def raise_channel(built: cst.Call, ctx: FileContext) -> str:
    """How the exception `built` (`ToolError(...)`, `McpError(...)`, `ValueError(...)`) travels."""
    if is_tool_error_raise(built, ctx):
        return RAISE
    if is_protocol_error_class(raised_class(built, ctx), None):
        return RAISE_PROTOCOL
    return RAISE_OTHER


def failure_sinks(fn: FunctionFacts, ctx: FileContext) -> Iterator[FailureSink]:
    """The statements of `fn` that send failure text: the raises of an exception built here and
    not caught in `fn` itself, and the failure returns."""
    for fact in fn.raises:
        exc = fact.node.exc
        built = fn.value_of(exc) if exc is not None else None
        if type(built) is not cst.Call or fact.caught_here(last_name(dotted(built.func) or "")):
            continue
        yield FailureSink(fact.node, raise_channel(built, ctx), tuple(a.value for a in built.args), None, fact.conditions, fact.handler)
    for ret in fn.returns:
        if ret.node.value is None:
            continue
        value = fn.value_of(ret.node.value)
        message = failure_message_of(value, ctx) or error_result_text(value, ctx)
        if message is None and ret.handler is not None and _is_text(value):
            message = value
        if message is not None:
            yield FailureSink(ret.node, RETURN, (value,), message, ret.conditions, ret.handler)


def reaches_model(channel: str, context: RenderContext) -> bool:
    """Does text sent on `channel` reach the model on the framework `context` names? An
    unexpected exception's text only where the framework forwards it; a protocol error's
    message unless every candidate release masks it."""
    if channel == RAISE_OTHER:
        return context.forwards_exception_text()
    if channel == RAISE_PROTOCOL:
        return not context.protocol_error_masked()
    return True
