"""An empty search or listing answered in a failure's clothes (`{"error": "No cycle data
available"}`, `[{"error": "No members found"}]`, "Table matching 'x' not found").

What happened decides, not the key that carries the sentence (bench/LABELING-decisions.md D2): a
search or a listing whose filter matched nothing has answered, while a lookup of one given key or
id that finds nothing has failed. The two are told apart by the shape of the function, never by
its name: the branch tests that a local came back empty (`if not rows:`, `if len(rows) == 0:`),
and the function's success path uses that local as a collection (iterates it, joins it, sums or
sorts it, slices it). A lookup's local is used whole or by its fields (`return {"item": row}`,
`rows[0]`), so its miss stays a failure."""

from __future__ import annotations

from typing import Callable

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.walk import descendants
from mcp_lint.rules.text import starts_as_error
from mcp_lint.vocabulary import EMPTY_RESULT, NOTHING_MATCHED

# Builtins that read every item of an iterable: a local handed to one is a collection.
_CONSUMERS = frozenset(
    {"sum", "len", "sorted", "max", "min", "list", "tuple", "set", "enumerate", "zip", "any", "all", "reversed", "map", "filter"}
)
# Methods whose result a loop iterates (`for k, v in rows.items()`): the receiver is a collection.
_ITERATED_METHODS = frozenset({"items", "values", "keys"})


def says_nothing_matched(message: cst.BaseExpression | None) -> bool:
    """Is the message an empty answer ("No cycle data available", "No tables found") or a
    sentence that nothing matched ("Table matching 'x' not found"), with no failure label
    ("Error: ...", "Failed ...") in front of it?"""
    text = literal_text(message) if message is not None else None
    if text is None:
        return False
    stripped = text.strip()
    if not stripped or starts_as_error(stripped):
        return False
    return bool(EMPTY_RESULT.search(stripped) or NOTHING_MATCHED.search(stripped))


def emptied_locals(condition: cst.BaseExpression) -> list[cst.Name]:
    """The names a condition tests for emptiness: `not x`, `not len(x)`, `len(x) == 0`, `x == []`,
    each side of an `or` (`not r or not r.get("records")` tests `r`)."""
    if type(condition) is cst.BooleanOperation and type(condition.operator) is cst.Or:
        return emptied_locals(condition.left) + emptied_locals(condition.right)
    if type(condition) is cst.UnaryOperation and type(condition.operator) is cst.Not:
        inner = condition.expression
        if type(inner) is cst.Name:
            return [inner]
        length = _length_of(inner)
        return [length] if length is not None else []
    if type(condition) is cst.Comparison and len(condition.comparisons) == 1:
        target = condition.comparisons[0]
        right = target.comparator
        if type(target.operator) in (cst.Equal, cst.LessThan) and type(right) is cst.Integer and right.value in ("0", "1"):
            if type(target.operator) is cst.Equal and right.value != "0":
                return []
            length = _length_of(condition.left)
            return [length] if length is not None else []
        if type(target.operator) is cst.Equal and type(condition.left) is cst.Name and type(right) in (cst.List, cst.Dict) and not right.elements:
            return [condition.left]
        if type(target.operator) is cst.Is and type(condition.left) is cst.Name and type(right) is cst.Name and right.value == "None":
            return [condition.left]
    return []


def _length_of(node: cst.BaseExpression) -> cst.Name | None:
    """`x` of `len(x)`."""
    if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "len" and len(node.args) == 1:
        arg = node.args[0].value
        return arg if type(arg) is cst.Name else None
    return None


def used_as_collection(fn: FunctionFacts, name: str) -> bool:
    """Does the function read the local `name` as a collection: iterate it (a loop or a
    comprehension, over it or its `.items()`), hand it to a builtin that reads every item, join
    it, or slice it? Indexing one item (`rows[0]`) is what a lookup does: not counted."""
    for node in descendants(fn.node):
        if type(node) in (cst.For, cst.CompFor):
            iterated = node.iter
            if type(iterated) is cst.Call and type(iterated.func) is cst.Attribute and iterated.func.attr.value in _ITERATED_METHODS:
                iterated = iterated.func.value
            if _is_name(iterated, name):
                return True
        elif type(node) is cst.Call and node.args and _is_name(node.args[0].value, name):
            func = node.func
            if (type(func) is cst.Name and func.value in _CONSUMERS) or (type(func) is cst.Attribute and func.attr.value == "join"):
                return True
        elif type(node) is cst.Subscript and _is_name(node.value, name):
            if any(type(element.slice) is cst.Slice for element in node.slice):
                return True
    return False


def keyed_by(value: cst.BaseExpression, is_key: Callable[[cst.Name], bool]) -> bool:
    """Is `value` the entry of a mapping under a key the model gave (`SHELVES.get(name)`,
    `SHELVES[name]`, `by_host.get(host) or by_host.get("*." + host)`; `is_key` says which names
    hold the model's key)? That entry is the record looked up, whatever it holds."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.BooleanOperation and type(value.operator) is cst.Or:
        return keyed_by(value.left, is_key)
    if type(value) is cst.Subscript:
        keys = [element.slice.value for element in value.slice if type(element.slice) is cst.Index]
    elif type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "get" and value.args:
        keys = [value.args[0].value]
    else:
        return False
    return any(type(key) is cst.Name and is_key(key) for key in keys)


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return type(node) is cst.Name and node.value == name
