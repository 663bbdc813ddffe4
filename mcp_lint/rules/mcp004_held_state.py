"""MCP004: state an object holds for the server's lifetime.

A server often keeps what its tools edit in an object made once (`plans = PlanManager()` at
module level, or the server class whose `__init__` registers the tools as closures over `self`).
A method that writes `self._items[k] = v`, `self.items.append(x)` or replaces `self.plan = {...}`
with the call's arguments changes what the next call sees, exactly like a module-level dict: a
rejection after it leaves the change behind.

Not held: an object the module builds inside a function (`report = Report(); report.add(...)`,
made per call, dies with it), what `__init__` and other dunder methods set up, a set-up method
called without arguments (lazy initialisation), caches, locks and meters (`fx.BOOKKEEPING`) and
records of the traffic itself (`fx.AUDIT_RECORDS`: an audit trail, a history of calls).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model import effects as fx
from mcp_lint.model.effects import Effect
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.mutations import MutationKind, chain, walk_statements
from mcp_lint.model.names import dotted, identifier_words, last_name
from mcp_lint.rules.base import FileContext, walk

_SELF = "self"


def holds_state(fn: FunctionFacts, ctx: FileContext) -> bool:
    """Is `self` in `fn` an object that outlives the call: `fn` is a method (or a closure in a
    method) of a class this module never builds inside a function, and not its set-up?"""
    memo: dict[int, bool] = ctx.memo.setdefault("held_state", {})  # type: ignore[assignment]
    found = memo.get(id(fn))
    if found is None:
        found = memo[id(fn)] = _holds_state(fn, ctx)
    return found


def _holds_state(fn: FunctionFacts, ctx: FileContext) -> bool:
    method = _owning_method(fn, ctx)
    if method is None or _sets_up(fn):
        return False
    if method.name.startswith("__") and (method is fn or method.name != "__init__"):
        return False  # `__init__`, `__enter__`: the object's own set-up (a closure in `__init__` is a tool it registers)
    if method is not fn and not method.name.startswith("__") and _sets_up(method):
        return False
    return method.class_name is not None and method.class_name not in _built_per_call(ctx)


def _owning_method(fn: FunctionFacts, ctx: FileContext) -> FunctionFacts | None:
    """`fn` itself when it is a method taking `self`, else the innermost enclosing one."""
    if fn.class_name is not None and fn.params[:1] == (_SELF,):
        return fn
    if _SELF in fn.params:
        return None  # a parameter named `self` of a plain function: whatever the caller hands in
    parts = fn.qualname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        outer = ctx.model.functions.get(".".join(parts[:cut]))
        if outer is not None and outer.class_name is not None and outer.params[:1] == (_SELF,):
            return outer
    return None


def _sets_up(fn: FunctionFacts) -> bool:
    """Named for set-up and called without arguments (`connect()`, `_ensure_loaded()`), or named
    for metering (`_check_rate`): what it writes is the object's own plumbing."""
    words = identifier_words(fn.name)
    own = [p for p in fn.params if p not in (_SELF, "cls")]
    return bool(words) and ((words[0] in fx.SETUP_VERBS and not own) or bool(fx.METERING_WORDS & set(words)))


def _built_per_call(ctx: FileContext) -> frozenset[str]:
    """Classes of this module built by a statement inside a function (`report = Report()`): their
    instances belong to one call."""
    found = ctx.memo.get("built_per_call")
    if found is None:
        classes = {name.split(".")[-1] for name in ctx.model.classes}
        built: set[str] = set()
        for facts in ctx.model.functions.values():
            for value in facts.single_assignments.values():
                if isinstance(value, cst.Call) and (name := last_name(dotted(value.func) or "")) in classes:
                    built.add(name)
        found = ctx.memo["built_per_call"] = frozenset(built)
    return found  # type: ignore[return-value]


def held_attribute(name: str | None) -> str | None:
    """`self.items` of `self.items` / `self.items[k]`; None for anything else or bookkeeping."""
    if not name:
        return None
    parts = name.split(".")
    if len(parts) != 2 or parts[0] != _SELF or fx.BOOKKEEPING.search(parts[1]) or fx.AUDIT_RECORDS.search(parts[1]):
        return None
    return name


def held_item_write(target: cst.BaseExpression) -> MutationKind | None:
    """`self.items[k] = v` / `del self.items[k]`: an item of held state changed."""
    if not isinstance(target, cst.Subscript):
        return None
    base: cst.BaseExpression = target
    while isinstance(base, cst.Subscript):
        base = base.value  # `self.items[k][j]` changes `self.items`
    name = held_attribute(dotted(base))
    if name is None:
        return None
    return MutationKind(f"changes state the server's object holds ({name}[...])", (name,), effect=Effect.MODULE_STATE)


def held_replacement(target: cst.BaseExpression, value: cst.BaseExpression | None, fn: FunctionFacts) -> MutationKind | None:
    """`self.plan = {...}` / `self.current = path`: the held value replaced by one made of the
    call's arguments or a fresh container. What the next call reads back is then the argument,
    so reading it later is no read-back of the change (nothing is listed as changed). A value
    built otherwise (`self.client = Client()`) is set-up."""
    if not isinstance(target, cst.Attribute) or value is None:
        return None
    name = held_attribute(chain(target))
    if name is None:
        return None
    params = set(fn.params) - {_SELF, "cls"}
    fresh = isinstance(value, (cst.Dict, cst.List, cst.Set, cst.DictComp, cst.ListComp, cst.SetComp))
    if not fresh and not (isinstance(value, cst.Name) and value.value in params):
        if not any(isinstance(n, cst.Name) and n.value in params for n in walk(value)) or isinstance(value, cst.Call):
            return None
    return MutationKind(f"replaces state the server's object holds ({name})", (), result_is_outcome=False, effect=Effect.MODULE_STATE)


def held_container_call(call: cst.Call) -> MutationKind | None:
    """`self.items.append(x)`, `self.index.update(...)`: a container the object holds, changed."""
    if not isinstance(call.func, cst.Attribute) or call.func.attr.value not in fx.CONTAINER_WRITES:
        return None
    name = held_attribute(chain(call.func.value))
    if name is None:
        return None
    return MutationKind(f"changes state the server's object holds ({name}.{call.func.attr.value})", (name,), effect=Effect.MODULE_STATE)


def held_writes(fn: FunctionFacts) -> list[tuple[MutationKind, cst.SimpleStatementLine, cst.CSTNode]]:
    """Every write of held state in the body (not in `except` clauses, not in nested functions),
    as (kind, statement, node), for the function's summary; the caller checks `holds_state`."""
    out: list[tuple[MutationKind, cst.SimpleStatementLine, cst.CSTNode]] = []
    for stmt in walk_statements(fn.node.body, handlers=False):
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            kind: MutationKind | None = None
            if isinstance(small, cst.Assign):
                kind = next((k for t in small.targets if (k := held_item_write(t.target) or held_replacement(t.target, small.value, fn)) is not None), None)
            elif isinstance(small, cst.Del):
                kind = held_item_write(small.target)
            if kind is not None:
                out.append((kind, stmt, small))
                continue
            for node in walk(small):
                if isinstance(node, cst.Call) and (kind := held_container_call(node)) is not None:
                    out.append((kind, stmt, node))
                    break
    return out


# -- state handed to a helper that changes it in place ------------------------------------------


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
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            targets: list[cst.BaseExpression] = []
            if isinstance(small, (cst.Assign,)):
                targets = [t.target for t in small.targets]
            elif isinstance(small, (cst.AugAssign, cst.AnnAssign, cst.Del)):
                targets = [small.target]
            for target in targets:
                if isinstance(target, (cst.Subscript, cst.Attribute)) and (root := chain(target)) and root.split(".")[0] in params:
                    out.add(root.split(".")[0])
            for node in walk(small):
                if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in fx.CONTAINER_WRITES:
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
