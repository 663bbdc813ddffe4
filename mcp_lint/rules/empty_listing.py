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
    """Does the function answer with the local `name` as a collection: iterate it (a loop or a
    comprehension, over it or its `.items()`), hand it to a builtin that reads every item, join
    it, or slice it, where that use reaches what the function returns? Indexing one item
    (`rows[0]`) is what a lookup does: not counted. A write that walks its matches to change them
    (`for tag in matching: client.remove(tag)`, then a confirmation) has not listed them: its
    "No matching tags found" is a refusal of the call, a failure."""
    returned = _returned_names(fn)
    return any(_reaches_return(fn, use, returned) for use in _collection_uses(fn, name))


def _collection_uses(fn: FunctionFacts, name: str) -> list[cst.CSTNode]:
    """The statements or expressions that read `name` as a collection (see used_as_collection)."""
    uses: list[cst.CSTNode] = []
    for node in descendants(fn.node):
        if type(node) in (cst.For, cst.CompFor):
            iterated = node.iter
            if type(iterated) is cst.Call and type(iterated.func) is cst.Attribute and iterated.func.attr.value in _ITERATED_METHODS:
                iterated = iterated.func.value
            if _is_name(iterated, name):
                uses.append(node)
        elif type(node) is cst.Call and node.args and _is_name(node.args[0].value, name):
            func = node.func
            if (type(func) is cst.Name and func.value in _CONSUMERS) or (type(func) is cst.Attribute and func.attr.value == "join"):
                uses.append(node)
        elif type(node) is cst.Subscript and _is_name(node.value, name):
            if any(type(element.slice) is cst.Slice for element in node.slice):
                uses.append(node)
    return uses


def _returned_names(fn: FunctionFacts) -> set[str]:
    """The names the function's returns (and yields) read."""
    names: set[str] = set()
    for node in descendants(fn.node):
        if type(node) in (cst.Return, cst.Yield) and node.value is not None:
            names |= {sub.value for sub in descendants(node.value) if type(sub) is cst.Name}
    return names


def _reaches_return(fn: FunctionFacts, use: cst.CSTNode, returned: set[str]) -> bool:
    """Does a collection use reach the answer: inside a return or a yield, in the value of a local
    the returns read (`lines = [...]`, `text = "\\n".join(...)`), or a loop whose body fills such a
    local (`out.append(...)`, `out[k] = ...`, `text += ...`) or yields?"""
    if type(use) is cst.For:
        return _fills_returned(use.body, returned)
    for statement in descendants(fn.node):
        if type(statement) in (cst.Return, cst.Yield):
            holder = statement.value
        elif type(statement) in (cst.Assign, cst.AugAssign, cst.AnnAssign):
            targets = [t.target for t in statement.targets] if type(statement) is cst.Assign else [statement.target]
            if not any(type(t) is cst.Name and t.value in returned for t in targets):
                continue
            holder = statement.value
        else:
            continue
        if holder is not None and any(node is use for node in descendants(holder)):
            return True
    return False


def _fills_returned(body: cst.CSTNode, returned: set[str]) -> bool:
    for node in descendants(body):
        if type(node) is cst.Yield:
            return True
        if type(node) is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name:
            if node.func.value.value in returned and node.func.attr.value in _FILLERS:
                return True
        if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            for target in targets:
                base = target.value if type(target) is cst.Subscript else target
                if type(base) is cst.Name and base.value in returned:
                    return True
    return False


# Methods that add to a container: a loop calling one on a returned local builds the answer.
_FILLERS = frozenset({"append", "extend", "add", "update", "insert", "setdefault", "write"})


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
