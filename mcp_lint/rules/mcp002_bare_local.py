"""MCP002's anchor for a local that holds only the caught exception's text.

`error_message = str(e)` builds no text for the model: it copies the foreign text, with no
words of the author's. LABELING.md puts an MCP002 finding at "the statement that builds/returns/
raises the text (where e is interpolated)", the one statement of the flow the fix goes to: the
first statement that puts the local into a message (`helpful = f"Failed to merge: {error_message}"`,
`return {"error": error_message}`), where that statement is the local's only reader. The local's
own statement stays a related location (a step of the flow)."""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.flow import Store, ValueFlow
from mcp_lint.model.walk import descendants


def bare_exception_text(value: cst.BaseExpression, name: str | None) -> bool:
    """Is `value` the caught exception `name`'s text and nothing else: `str(e)`, `repr(e)`,
    `e.args[0]`, `f"{e}"`?"""
    if not name:
        return False
    if type(value) is cst.Call:
        func = value.func
        return (
            type(func) is cst.Name
            and func.value in {"str", "repr"}
            and len(value.args) == 1
            and not value.args[0].keyword
            and not value.args[0].star
            and _is_name(value.args[0].value, name)
        )
    if type(value) is cst.Subscript:
        base = value.value
        return type(base) is cst.Attribute and base.attr.value == "args" and _is_name(base.value, name)
    if type(value) is cst.FormattedString:
        parts = value.parts
        if len(parts) != 1 or type(parts[0]) is not cst.FormattedStringExpression:
            return False
        part = parts[0]
        return part.format_spec is None and (_is_name(part.expression, name) or bare_exception_text(part.expression, name))
    return False


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return type(node) is cst.Name and node.value == name


def _words_around(value: cst.BaseExpression, local: str) -> bool:
    """Does `value` put the local `local` into something more than itself: an f-string with words,
    a dict item, a concatenation? Not `local` alone nor a call handed only it
    (`ToolError(error_message)`: the local is the message, and stays the flow's place)."""
    while type(value) is cst.Await:
        value = value.expression
    if _is_name(value, local):
        return False
    if type(value) is cst.Call:
        # `Reply(error=detail, status=...)`, `"; ".join([...])`: words or other parts beside it;
        # `detail.strip()`, `ToolError(detail)`: the local itself.
        func = value.func
        if type(func) is cst.Attribute and _is_name(func.value, local):
            return False
        return any(not _is_name(arg.value, local) or arg.keyword is not None for arg in value.args)
    return type(value) in (cst.FormattedString, cst.Dict, cst.ConcatenatedString, cst.BinaryOperation, cst.Tuple, cst.List)


def _read_only_in(scope: cst.CSTNode, local: str, statement: cst.CSTNode) -> bool:
    """Is every read of `local` in `scope` inside `statement`? A local also logged, tested or
    sent elsewhere (`logger.error(detail)`) is more than one message's part: it keeps its place."""
    inside = {id(node) for node in descendants(statement)}
    written: set[int] = set()
    named: list[cst.Name] = []
    for node in descendants(scope):  # one walk: the targets written and the names read
        if type(node) is cst.AssignTarget or type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
            if type(node.target) is cst.Name:
                written.add(id(node.target))
        elif type(node) is cst.Name and node.value == local:
            named.append(node)
    return all(id(node) in inside or id(node) in written for node in named)


def worded_place(flow: ValueFlow | None, source: Store, sent: cst.BaseExpression, at: cst.CSTNode, scope: cst.CSTNode) -> Store | None:
    """Where the bare text `source` stored first goes into a message on its way to `sent` (read
    at the statement `at`): the next store, or `at` itself (as a store of `sent`), when that is
    the local's only reader in `scope` (the function). None: nothing on the way adds words (the
    local is sent whole), the local is read elsewhere too, or the path is not known."""
    if flow is None or source.statement is None or source.slot is not None or source.element or "." in source.key:
        return None  # an item of a collection (`failures[sku] = str(e)`) or an attribute: not a bare local
    chain = flow.path(sent, at, source)
    if not chain:
        return None
    local = source.key
    if len(chain) > 1:  # the next store on the way is the one that must word it
        store, extends = chain[1]
        if store.statement is None or extends or not _words_around(store.value, local):
            return None
        return store if _read_only_in(scope, local, store.statement) else None
    if not _words_around(sent, local) or not _read_only_in(scope, local, at):
        return None
    return Store(key=source.key, value=sent, statement=at, handler=source.handler, conditions=source.conditions)  # type: ignore[arg-type]
