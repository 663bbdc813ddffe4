"""MCP002, where a caught exception's failed reply, read whole into a local, is reported.

`try: details = e.response.json() except ValueError: details = e.response.text`, then
`return {"error": ..., "details": details}`: where the clause already reports the statement that
sends the local on (its `str(e)`), the body is the same finding, not a second one where it is
read. A body parsed into data (`data = e.response.json()`) holds no words yet: they reach the
model at the statement that sends the local (or a field of it) on, so that statement is the one
flow's place (as for a body read from a reply one statement sends on,
tests/rules/test_mcp002_body_one_local.py). One exception: a message local the clause also fills
with other text of the exception (`msg = f"Failed: {e}"`, then `msg = f"Invalid: {data['errors']}"`
when the body says more) is built once per branch, each build a flow of its own, reported there.
A body read as text (`detail = e.response.text`) is the foreign text taken in: reported there.
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from mcp_lint.model.flow import Store, ValueFlow
from mcp_lint.model.names import root_of, unwrap_await

# `resp.json()`, `err.read()`, `raw.decode()`; `resp.text`, `resp.content`: the reply's whole body.
_BODY_CALLS = frozenset({"json", "read", "decode"})
_BODY_ATTRIBUTES = frozenset({"text", "content"})


def decoded_body_of(value: cst.BaseExpression, name: str, *, parsed: bool = False) -> bool:
    """Is `value` the body of a reply the exception `name` carries, read whole: `e.response.json()`,
    `e.response.text[:300]`, `e.read().decode()`, `e.response.json() if e.response else None`?
    `parsed`: only a body parsed into data (`.json()`), whose words a later statement picks; a
    body read as text (`.text`) is the foreign text itself, taken in where it is read."""
    value = unwrap_await(value)
    if type(value) is cst.IfExp:
        branches = (value.body, value.orelse)
        return any(decoded_body_of(b, name, parsed=parsed) for b in branches) and all(
            decoded_body_of(b, name, parsed=parsed) or _empty(b) for b in branches
        )
    if type(value) is cst.Subscript and all(type(s.slice) is cst.Slice for s in value.slice):
        value = value.value  # a clipped body is the body
    if type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in _BODY_CALLS:
        reader: cst.BaseExpression = value.func.value
        if parsed and value.func.attr.value != "json":
            return False
    elif type(value) is cst.Attribute and value.attr.value in _BODY_ATTRIBUTES and not parsed:
        reader = value.value
    else:
        return False
    if type(reader) is cst.Call:  # `e.read().decode()`
        return decoded_body_of(reader, name, parsed=parsed)
    root = root_of(reader)
    return type(root) is cst.Name and root.value == name


def _empty(value: cst.BaseExpression) -> bool:
    """`None`, `""`, `{}`: what a branch holds when there is no body."""
    if type(value) is cst.Name:
        return value.value == "None"
    if type(value) is cst.SimpleString:
        return value.value in {'""', "''"}
    return type(value) in (cst.Dict, cst.List) and not value.elements  # type: ignore[union-attr]


def build_on_the_way(
    flow: ValueFlow | None, source: Store, sent: cst.BaseExpression, at: cst.CSTNode, other_text: Callable[[Store], bool]
) -> Store | None:
    """The store on the way from the body's `source` to `sent` (read at `at`) into a message local
    that another statement fills with other text of the exception (`other_text`): where that
    branch's message is built. None: the sending statement is the flow's place."""
    if flow is None:
        return None
    for store, _ in (flow.path(sent, at, source) or [])[1:]:
        if store.statement is None:
            continue
        others = flow.stores.get(store.key, ())
        if any(other is not store and other.statement is not None and other_text(other) for other in others):
            return store
    return None
