"""MCP004: a memo is not a mutation (bench/LABELING-decisions.md D5).

A module dict that holds replies keyed by the request (`if key in _SEEN: return _SEEN[key]` ...
`_SEEN[key] = reply`) and that nothing but that same lookup reads changes nothing the user can
notice when the call is then rejected: the next call with the same request gets the same reply.
It is recognised by what reads the store, never by its name: every use of the name in the module
is a keyed lookup (`X[k]`, `X.get(k)`, `k in X`) or a keyed write in the one function, or the
store's own upkeep anywhere (`len(X)`, `X.pop(k)`, `X.clear()` in a reset tool), and that function
looks up the key it writes. A store another function reads (a registry of records, a session's state served to another
tool) or hands on whole is state, and its write stays a mutation.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model import effects as fx
from mcp_lint.model.walk import children
from mcp_lint.rules.base import FileContext

# Methods of the store that read one key or keep the store's size: the memo's own upkeep.
_KEYED_METHODS = frozenset({"get", "pop", "setdefault", "popitem", "clear", "move_to_end"})


def is_memo(ctx: FileContext, function: cst.FunctionDef, name: str) -> bool:
    """Is the module-level `name`, written in `function`, a memo read only by its lookup there?"""
    memo: dict[str, frozenset[int]] = ctx.memo.setdefault("mcp004_memo", {})  # type: ignore[assignment]
    owners = memo.get(name)
    if owners is None:
        owners = memo[name] = _memo_owner(ctx.module, name)
    return id(function) in owners


def _memo_owner(module: cst.Module, name: str) -> frozenset[int]:
    """The one function (by id) that uses `name` only as a memo; empty when there is none."""
    owner: cst.FunctionDef | None = None
    lookups: set[str] = set()
    writes: set[str] = set()
    # (node, its ancestors nearest first (three at most), the innermost function around it,
    # whether it is inside an assignment's or a `del`'s target)
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...], cst.FunctionDef | None, bool]] = [(module, (), None, False)]
    while stack:
        node, above, function, in_target = stack.pop()
        if type(node) is cst.Name and node.value == name:
            if function is None:
                if not _defined_at_top(above, node):
                    return frozenset()
                continue
            use = _use(above, node)
            if use is not None and use[0] == "lookup" and (in_target or _item_changed(above)):
                use = None  # `X[k]["n"] = v`, `X[k].append(v)`: an item of the store changed in place
            if use is None:
                return frozenset()  # handed on, returned or iterated whole: no memo
            kind, key = use
            if kind == "upkeep":
                continue  # `_SEEN.clear()` in a reset function serves nobody an answer
            if owner is not None and owner is not function:
                return frozenset()  # looked up or written by another function too: shared state
            owner = function
            (writes if kind == "write" else lookups).add(key)
            continue
        inner = node if type(node) is cst.FunctionDef else function
        for child in children(node):
            if type(node) is cst.Attribute and child is node.attr:
                continue  # `other.NAME` is another object's attribute
            if type(node) is cst.Arg and child is node.keyword:
                continue
            if type(node) in (cst.FunctionDef, cst.ClassDef) and child is node.name:
                continue
            target = in_target or (type(node) in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign) and child is node.target) or type(node) is cst.Del
            stack.append((child, (node, *above[:2]), inner, target))
    if owner is None or not writes or not writes & lookups:
        return frozenset()
    return frozenset({id(owner)})


def _item_changed(above: tuple[cst.CSTNode, ...]) -> bool:
    """`X[k].append(v)` / `X[k].update(...)`: a method that changes the item looked up."""
    if len(above) < 3 or type(above[1]) is not cst.Attribute or above[1].value is not above[0]:
        return False
    return type(above[2]) is cst.Call and above[1].attr.value in fx.CONTAINER_WRITES


def _defined_at_top(above: tuple[cst.CSTNode, ...], node: cst.Name) -> bool:
    """`NAME: dict = {}` / `NAME = {}` at module level: the store's definition."""
    parent = above[0] if above else None
    if type(parent) is cst.AssignTarget:
        return parent.target is node
    return type(parent) is cst.AnnAssign and parent.target is node


def _use(above: tuple[cst.CSTNode, ...], node: cst.Name) -> tuple[str, str] | None:
    """How a function uses the store: ("write", key) for `X[k] = v`, ("lookup", key) for `X[k]`,
    `X.get(k)` or `k in X`, ("upkeep", "") for `len(X)`, `X.pop(k)`, `del X[k]`, `global X`;
    None for any other use (the store handed on, returned, iterated)."""
    code = cst.Module([]).code_for_node
    parent = above[0] if above else None
    grand = above[1] if len(above) > 1 else None
    if type(parent) is cst.Subscript and parent.value is node:
        if len(parent.slice) != 1 or type(parent.slice[0].slice) is not cst.Index:
            return None
        key = code(parent.slice[0].slice.value)
        if type(grand) in (cst.AssignTarget, cst.AugAssign) and getattr(grand, "target", None) is parent:
            return ("write", key)
        if type(grand) is cst.AnnAssign and grand.target is parent:
            return ("write", key)
        if type(grand) is cst.Del:
            return ("upkeep", "")
        return ("lookup", key)
    if type(parent) is cst.Attribute and parent.value is node and parent.attr.value in _KEYED_METHODS:
        if type(grand) is not cst.Call or grand.func is not parent:
            return None
        first = grand.args[0].value if grand.args else None
        return ("lookup", code(first)) if parent.attr.value in ("get", "setdefault") and first is not None else ("upkeep", "")
    if type(parent) is cst.ComparisonTarget and parent.comparator is node and type(parent.operator) in (cst.In, cst.NotIn):
        comparison = grand if type(grand) is cst.Comparison and len(grand.comparisons) == 1 else None
        return ("lookup", code(comparison.left)) if comparison is not None else ("upkeep", "")
    if type(parent) is cst.NameItem:
        return ("upkeep", "")  # `global X`
    if type(parent) is cst.Arg and type(grand) is cst.Call and type(grand.func) is cst.Name and grand.func.value == "len":
        return ("upkeep", "")
    return None
