"""MCP002's anchor for a local that holds only the caught exception's text.

`error_message = str(e)` builds no text for the model: it copies the foreign text, with no
words of the author's. LABELING.md puts an MCP002 finding at "the statement that builds/returns/
raises the text (where e is interpolated)", the one statement of the flow the fix goes to: the
first statement that puts the local into a message (`helpful = f"Failed to merge: {error_message}"`,
`return {"error": error_message}`). The local's own statement stays a related location (a step
of the flow)."""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.flow import Store, ValueFlow


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
        return not (len(value.args) == 1 and _is_name(value.args[0].value, local))
    return True


def worded_place(flow: ValueFlow | None, source: Store, sent: cst.BaseExpression, at: cst.CSTNode) -> Store | None:
    """Where the bare text `source` stored first goes into a message on its way to `sent` (read
    at the statement `at`): a later store, or `at` itself (as a store of `sent`). None: nothing on
    the way adds words (the local is sent whole), or the path is not known."""
    if flow is None or source.statement is None or source.slot is not None or source.element or "." in source.key:
        return None  # an item of a collection (`failures[sku] = str(e)`) or an attribute: not a bare local
    chain = flow.path(sent, at, source)
    if not chain:
        return None
    local = source.key.split(".")[0]
    for store, extends in chain[1:]:
        if store.statement is None or extends:
            return None
        if type(store.value) is cst.Name:
            local = store.key.split(".")[0]  # `msg = error_message`: a copy, still bare
            continue
        return store if _words_around(store.value, local) else None
    if not _words_around(sent, local):
        return None
    return Store(key=source.key, value=sent, statement=at, handler=source.handler, conditions=source.conditions)  # type: ignore[arg-type]
