"""Functions whose value can carry no text: a number, a flag or nothing.

A helper handed a caught exception that gives back only its status (`def status_of(err) -> int:
return err.response.status_code`) or a yes/no answer (`def is_retryable(err) -> bool`) puts none
of the exception's words into what its caller builds from the result. Its return annotation says
so, or every value it returns does (a number, `None`, a comparison, `int(...)`, `len(...)`).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted

__all__ = ["returns_no_text"]

# Builtin types whose values have no words in them.
_NON_TEXT_TYPES = frozenset({"int", "float", "bool", "complex", "None", "NoneType", "NoReturn", "Never"})
# Attributes that hold a number: an HTTP status, an OS error number, an exit code.
_NUMBER_ATTRS = frozenset({"status_code", "status", "http_status", "errno", "returncode"})
# Calls whose result is a number or a flag whatever they are given.
_NON_TEXT_CALLS = frozenset({"int", "float", "bool", "len", "abs", "round", "isinstance", "issubclass", "hasattr", "callable", "any", "all"})


def returns_no_text(facts: FunctionFacts) -> bool:
    """True when no value `facts`' function returns can hold text: its return annotation names
    only numbers, flags or None, or (without one) every `return` gives back such a value."""
    annotation = facts.node.returns
    if annotation is not None:
        return _annotation_is_non_text(annotation.annotation)
    values = [ret.node.value for ret in facts.returns]
    return bool(values) and all(value is None or _value_is_non_text(facts.value_of(value)) for value in values)


def _annotation_is_non_text(expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.SimpleString:  # `-> "int | None"`: a forward reference
        text = expr.evaluated_value
        parts = [part.strip() for part in text.split("|")] if isinstance(text, str) else []
        return bool(parts) and all(part in _NON_TEXT_TYPES for part in parts)
    if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.BitOr:  # `int | None`
        return _annotation_is_non_text(expr.left) and _annotation_is_non_text(expr.right)
    if type(expr) is cst.Subscript:  # `Optional[int]`, `Union[int, None]`
        if (dotted(expr.value) or "").rpartition(".")[2] not in {"Optional", "Union"}:
            return False
        inner = [element.slice.value for element in expr.slice if type(element.slice) is cst.Index]
        return bool(inner) and all(_annotation_is_non_text(value) for value in inner)
    name = dotted(expr) or ""
    return name.rpartition(".")[2] in _NON_TEXT_TYPES


def _value_is_non_text(expr: cst.BaseExpression) -> bool:
    if type(expr) in (cst.Integer, cst.Float, cst.Imaginary, cst.Comparison):
        return True
    if type(expr) is cst.Name:
        return expr.value in {"None", "True", "False"}
    if type(expr) is cst.UnaryOperation:
        return type(expr.operator) is cst.Not or _value_is_non_text(expr.expression)
    if type(expr) is cst.IfExp:
        return _value_is_non_text(expr.body) and _value_is_non_text(expr.orelse)
    if type(expr) is cst.Attribute:  # `err.response.status_code`
        return expr.attr.value in _NUMBER_ATTRS
    if type(expr) is cst.Call:
        called = dotted(expr.func) or ""
        if called == "getattr" and len(expr.args) >= 2:  # `getattr(err, "status_code", None)`
            name = expr.args[1].value
            return type(name) is cst.SimpleString and name.evaluated_value in _NUMBER_ATTRS
        return called in _NON_TEXT_CALLS
    return False
