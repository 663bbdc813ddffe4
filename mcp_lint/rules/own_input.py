"""The function's own arguments a fix names when it drops a library error's text (issue 23).

`f"Could not write bibliography: {e}"` around `Path(bib_path).write_text(text)`: the library's
text named the path the model gave ("Permission denied: 'refs.bib'"), the one thing the model
needs to correct its call. The fix drops that text; what a maintainer writes instead names the
argument itself: "Could not write bibliography (bib_path: {bib_path})". The argument is the
model's own input, not anyone else's text.

Only arguments that say which thing the call acted on (a path, an id, a name, a date), passed
unchanged (never rebound in the function) straight into a call of the `try`, declared as a
scalar; never one whose name says it is a secret or may hold one (a URL's query), nor a payload.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, identifier_parts, last_name
from mcp_lint.rules.failure_words import bound_in, call_argument_names, calls_in, is_bulky
from mcp_lint.rules.http_status import in_details
from mcp_lint.rules.messages import Message, Placeholder

# The last word of a name that says it identifies what the call acted on.
_IDENTIFYING = frozenset(
    "id uuid guid path filepath filename file dir directory folder name dn slug ref sha branch tag date time day "
    "start end since until min max number num index page version locale language lang email calendar channel "
    "bucket table collection repo repository project owner org namespace region zone".split()
)
# Words of a name that holds, or may hold, a secret: never echoed into a message.
_SECRET = lazy_compile(r"(?i)token|secret|passw|pwd|key|credential|auth|cookie|session|cert|signature|otp|pin\b|url|uri|dsn|endpoint|conn")
# Annotations of a value short enough to name (`str`, `int`, `Path`, `str | None`).
_SCALARS = frozenset({"str", "int", "float", "Path", "PurePath", "UUID"})
# More than this many arguments read as a dump of the call, not as what failed.
_MOST = 3


def own_input(handler: Handler, fn: FunctionFacts) -> list[str]:
    """The function's arguments the `try` passes unchanged to a call, which name what it acted
    on, in the order the function declares them (at most three; none when more qualify)."""
    passed = {name for call in calls_in(handler.try_node.body) for name in call_argument_names(call)}
    rebound = bound_in(fn.node.body)
    found = [name for name, annotation in _parameters(fn.node) if name in passed and name not in rebound and _names_a_thing(name) and _scalar(annotation)]
    return found if len(found) <= _MOST else []


def keep_own_input(message: Message, handler: Handler, fn: FunctionFacts) -> None:
    """The arguments of `own_input` in parentheses after what failed, unless the message names
    an argument of the function already (the author chose what to name)."""
    read = [word for part in message.parts for p in part.pieces if isinstance(p, Placeholder) for word in _WORD.findall(p.source)]
    if set(read) & set(fn.params) or message.words().rstrip(" .").endswith(")"):
        return  # the author chose what to name, or ends on details of their own ("failed ({status})")
    # A name the words spell as the identifier ("item_id is not a valid SKU") is named already;
    # a plain word ("describe table") names the kind of thing, not which one.
    spelled = set(_WORD.findall(message.words()))
    for name in [name for name in own_input(handler, fn) if name not in spelled or name.islower() and "_" not in name]:
        if not in_details(message, f"{name}: ", name):
            return


_WORD = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _parameters(node: cst.FunctionDef) -> list[tuple[str, cst.BaseExpression | None]]:
    params = node.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return [(p.name.value, p.annotation.annotation if p.annotation is not None else None) for p in every]


def _names_a_thing(name: str) -> bool:
    words = [w.lower() for w in identifier_parts(name)]
    return bool(words) and words[-1] in _IDENTIFYING and not _SECRET.search(name) and not is_bulky(name)


def _scalar(annotation: cst.BaseExpression | None) -> bool:
    """`str`, `int`, `Path`, `str | None`, `Optional[str]`, `Annotated[str, Field(...)]`."""
    if annotation is None:
        return False
    if type(annotation) is cst.BinaryOperation and type(annotation.operator) is cst.BitOr:
        sides = [annotation.left, annotation.right]
        return any(_scalar(side) for side in sides) and all(_scalar(side) or _is_none(side) for side in sides)
    if type(annotation) is cst.Subscript:
        outer = last_name(dotted(annotation.value) or "")
        inner = [e.slice.value for e in annotation.slice if type(e.slice) is cst.Index]
        if outer == "Optional" and len(inner) == 1:
            return _scalar(inner[0])
        return outer == "Annotated" and bool(inner) and _scalar(inner[0])
    return last_name(dotted(annotation) or "") in _SCALARS


def _is_none(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "None"
