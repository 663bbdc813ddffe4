"""Plain exceptions raised with a message written for the model (`raise ValueError("Order 5 not
found; call list_orders")`): what a framework that masks exception text would hide, whether a rule
reports each where masking is on or asks whether a project has any before it turns masking on."""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from typing import Iterator

import libcst as cst

from mcp_lint.model.facts import FunctionFacts, RaiseFact
from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS
from mcp_lint.model.message_text import find_exception_text, literal_text
from mcp_lint.model.names import dotted, last_name
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.common import is_protocol_error_class, raised_class
from mcp_lint.rules.exception_text import is_tool_error_raise, project_call
from mcp_lint.rules.text import vague_reason
from mcp_lint.vocabulary import INTERNAL_ERROR_WORDING

# Framework exception modules whose classes keep their text under masking (§2a: ToolError and
# ResourceError on MCPServer; §8: fastmcp re-raises every FastMCPError unmasked).
_DELIVERING_MODULES = ("fastmcp.exceptions.", "mcp.server.mcpserver.exceptions.", "mcp.server.fastmcp.exceptions.")

# Classes that signal a programming error, not a failure the model could act on (a TypeError in
# a tool's code is a wrong call or an unexpected value shape: the signature already typed the
# arguments).
_INTERNAL_CLASSES = frozenset(
    {
        "NotImplementedError",
        "AssertionError",
        "TypeError",
        "StopIteration",
        "StopAsyncIteration",
        "SystemExit",
        "KeyboardInterrupt",
        "GeneratorExit",
    }
)


def delivered_class(qualified: str) -> bool:
    """Does the framework deliver this class's text verbatim even when it masks other exceptions?"""
    return qualified in FRAMEWORK_DOMAIN_ERRORS or qualified.startswith(_DELIVERING_MODULES)


def builtin_bases(name: str) -> tuple[str, ...]:
    """`FileNotFoundError` -> (FileNotFoundError, OSError, Exception, BaseException): a caller's
    `except OSError` keeps it from the framework too."""
    cls = getattr(builtins, name, None)
    if not isinstance(cls, type) or not issubclass(cls, BaseException):
        return ()
    return tuple(c.__name__ for c in cls.__mro__ if c is not object)


@dataclass(frozen=True)
class PlainRaise:
    """A raise of a plain exception with an author-written message for the model."""

    fact: RaiseFact
    exc: cst.Call
    cls: str  # the class's short name
    bases: tuple[str, ...]  # a builtin class's builtin bases
    text: str  # the message's text (`{}` where it formats a value)


def plain_raises(fn: FunctionFacts, ctx: FileContext) -> Iterator[PlainRaise]:
    """The function's raises of a plain exception (not ToolError, not the framework's own classes,
    not a protocol error, not a programming error) that leave it with a message the model could
    act on."""
    for fact in fn.raises:
        exc = fact.node.exc
        if type(exc) is not cst.Call or is_tool_error_raise(exc, ctx):
            continue
        resolved = raised_class(exc, ctx)
        if resolved is None or is_protocol_error_class(resolved, dotted(exc.func)) or delivered_class(resolved):
            continue  # ToolError, the framework's own classes, a protocol error
        cls = last_name(resolved)
        if not cls[:1].isupper() or cls in _INTERNAL_CLASSES:
            continue  # `raise make_error(...)`: a factory, judged where it builds the exception
        if any(type(m) is cst.Call and project_call(m, ctx) for m in fact.managers):
            continue  # `with reported_to_model():` may turn it into a ToolError on its way out
        bases = builtin_bases(cls) if resolved == cls else ()
        if any(fact.caught_here(name) for name in bases or (cls,)):
            continue  # caught again in this function
        text = _message_text(fn, fact, exc)
        if text is not None:
            yield PlainRaise(fact, exc, cls, bases, text)


def _message_text(fn: FunctionFacts, fact: RaiseFact, exc: cst.Call) -> str | None:
    """The author-written message the raise sends, when it is one the model could act on."""
    positional = [a for a in exc.args if a.keyword is None and not a.star]
    if not positional:
        return None
    value = fn.value_of(positional[0].value)
    text = literal_text(value)
    if text is None:
        return None
    handler = fact.handler
    while handler is not None:  # the clause the raise is in, then the clauses around it
        if find_exception_text(value, handler) is not None:
            return None  # a caught exception's text passed on, not an author's message
        handler = handler.parent
    words = re.findall(r"[A-Za-z][\w'-]*", text.replace("{}", " "))
    if len(words) < 2 or vague_reason(text) == "generic" or INTERNAL_ERROR_WORDING.search(text):
        return None
    return text
