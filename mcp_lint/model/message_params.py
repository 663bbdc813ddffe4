"""Which parameters of an exception class's `__init__` reach the message it gives the exception.

`raise ApiError(exc)` sends `exc`'s text only if `ApiError.__init__` puts it into the message
(`super().__init__(f"call failed: {exc}")`); one that keeps it as a cause (`self.cause = exc;
super().__init__("the service is unavailable")`) sends the author's words. Read from the class's
own `__init__` (its summary, FunctionSummary.message_params), wherever it is constructed, instead of
guessed from the constructor call's syntax.
"""

from __future__ import annotations

import libcst as cst

from typing import TYPE_CHECKING, Callable, Iterable

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.message_text import find_exception_text
from mcp_lint.model.names import dotted

if TYPE_CHECKING:
    from mcp_lint.model.summary import FunctionSummary

__all__ = ["message_keywords", "message_params", "message_takes"]


def _message_values(facts: FunctionFacts) -> list[cst.BaseExpression] | None:
    """The values an `__init__` hands its base `__init__` as the message, and the values its
    locals there were stored from (value flow); None when it calls no base `__init__`."""
    messages = [value for call in facts.calls for value in _base_init_arguments(call.node)]
    if not messages:
        return None
    values = list(messages)
    flow = facts.value_flow
    if flow is not None:
        for message in messages:
            values.extend(store.value for store in flow.follow(message)[1])
    return values


def message_params(facts: FunctionFacts) -> tuple[int, ...] | None:
    """For a class's `__init__` that hands its base a message (`super().__init__(...)`,
    `Base.__init__(self, ...)`): the positions of its parameters (`self` counted) whose text is in
    that message, directly or through its locals. None for any other function, or an `__init__`
    that calls no base `__init__` (what the exception's text is then is not known here)."""
    if facts.name != "__init__" or not facts.class_name:
        return None
    values = _message_values(facts)
    if values is None:
        return None
    return tuple(
        index
        for index, param in enumerate(facts.params)
        if param not in {"self", "cls"} and any(find_exception_text(value, None, frozenset({param})) is not None for value in values)
    )


def message_keywords(facts: FunctionFacts) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """For a class's `__init__` that hands its base a message: (its keyword-only parameters, those
    of them whose text is in that message), as message_params counts the positional ones
    (`def __init__(self, message, *, body=None): super().__init__(message)` keeps `body` out).
    None for any other function, or one that calls no base `__init__`."""
    if facts.name != "__init__" or not facts.class_name or type(facts.node) is not cst.FunctionDef:
        return None
    values = _message_values(facts)
    if values is None:
        return None
    names = tuple(p.name.value for p in facts.node.params.kwonly_params)
    carried = tuple(n for n in names if any(find_exception_text(value, None, frozenset({n})) is not None for value in values))
    return names, carried


def _base_init_arguments(call: cst.Call) -> list[cst.BaseExpression]:
    """The message arguments of a base `__init__` call: all of `super().__init__(a, b)`'s, those
    after `self` of `Base.__init__(self, a)`; none for any other call."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "__init__":
        return []
    arguments = [a.value for a in call.args if not a.star]
    if type(func.value) is cst.Call and dotted(func.value.func) == "super":
        return arguments
    if dotted(func.value) is not None and arguments and type(arguments[0]) is cst.Name and arguments[0].value == "self":
        return arguments[1:]
    return []


def message_takes(
    ancestors: Iterable[str], init_of: Callable[[str], FunctionSummary | None], positions: tuple[int, ...]
) -> bool | None:
    """Does constructing the class whose `ancestors` (itself first) are given put the text of the
    constructor arguments at `positions` into the exception's message? Read from the nearest
    `__init__` the project defines (`init_of(qualified class)`, its FunctionSummary.message_params);
    None where none says (the builtin base's `__init__`: the arguments are the message) or it
    calls no base `__init__`."""
    for qual in ancestors:
        init = init_of(qual)
        if init is None:
            continue
        if init.message_params is None:
            return None
        shift = 1 if init.params and init.params[0] == "self" else 0
        return any(p + shift in init.message_params for p in positions)
    return None
