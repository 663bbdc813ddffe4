"""MCP004: module state handed to a helper of the module that changes it in place.

`_put(NOTES, key, item)` with `store[key] = item` in `_put` changes `NOTES` at the call, exactly
like `NOTES[key] = item` written there: a rejection after it leaves the change behind.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model import effects as fx
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.mutations import chain, walk_statements
from mcp_lint.rules.base import FileContext, walk

_SELF = "self"


def params_changed(fn: FunctionFacts, ctx: FileContext) -> frozenset[str]:
    """The parameters a function changes in place (`store[key] = item`, `store.append(item)`,
    `del store[key]`, `record.status = s`): what its caller hands it there is changed."""
    memo: dict[int, frozenset[str]] = ctx.memo.setdefault("params_changed", {})  # type: ignore[assignment]
    found = memo.get(id(fn))
    if found is None:
        found = memo[id(fn)] = _params_changed(fn)
    return found


def _params_changed(fn: FunctionFacts) -> frozenset[str]:
    params = set(fn.params) - {_SELF, "cls"}
    # A parameter the function rebinds (`store = dict(store)`) is its own copy from there on.
    rebound = {n for n in fn.local_names if n in params and n in fn.single_assignments}
    params -= rebound
    if not params:
        return frozenset()
    out: set[str] = set()
    for stmt in walk_statements(fn.node.body, handlers=False):
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            targets: list[cst.BaseExpression] = []
            if type(small) in (cst.Assign,):
                targets = [t.target for t in small.targets]
            elif type(small) in (cst.AugAssign, cst.AnnAssign, cst.Del):
                targets = [small.target]
            for target in targets:
                if type(target) in (cst.Subscript, cst.Attribute) and (root := chain(target)) and root.split(".")[0] in params:
                    out.add(root.split(".")[0])
            for node in walk(small):
                if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in fx.CONTAINER_WRITES:
                    root = chain(node.func.value)
                    if root is not None and root.split(".")[0] in params:
                        out.add(root.split(".")[0])
    return frozenset(out)


def argument_for(call: cst.Call, fn: FunctionFacts, param: str) -> cst.BaseExpression | None:
    """The expression `call` hands to `fn`'s parameter `param` (by position or keyword)."""
    params = [p for p in fn.params if p not in (_SELF, "cls")] if fn.class_name is not None else list(fn.params)
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == param:
            return arg.value
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    index = params.index(param) if param in params else -1
    return positional[index] if 0 <= index < len(positional) else None
