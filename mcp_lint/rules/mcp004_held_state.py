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

Not a change either (`own_entry`, the general exclusions):
- an entry under a key this call just made (`sid = uuid4().hex; self._sessions[sid] = s`,
  `job = Job(...); self._jobs[job.id] = job`, a counter the call advances): the call's own new
  object, like a scratch file; nothing else can name it yet, so a rejection after it leaves
  nothing another call sees as changed;
- memoisation: an entry computed from its key alone by a call (`self._trees[p] = parse(read(p))`)
  and read back elsewhere in the class: computing it again gives the same entry;
- counters and meters: a held value named for a count or metric (`self.counter = n`,
  `self.stats[...]`), or an entry updated from its own old value (`self.hits[k] = self.hits.get(k, 0) + 1`).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model import effects as fx
from mcp_lint.model.effects import Effect
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.mutations import MutationKind, chain, walk_statements
from mcp_lint.model.mutations import read_names
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
    if _COUNTER_WORDS & set(identifier_words(parts[1])):
        return None  # `self.counter`, `self.stats`: meters of the traffic, not what a tool edits
    return name


def held_item_write(target: cst.BaseExpression, value: cst.BaseExpression | None = None, fn: FunctionFacts | None = None, ctx: FileContext | None = None) -> MutationKind | None:
    """`self.items[k] = v` / `del self.items[k]`: an item of held state changed (not the call's
    own new entry, a memo or a counter: `own_entry`)."""
    if not isinstance(target, cst.Subscript):
        return None
    base: cst.BaseExpression = target
    while isinstance(base, cst.Subscript):
        base = base.value  # `self.items[k][j]` changes `self.items`
    name = held_attribute(dotted(base))
    if name is None:
        return None
    if value is not None and fn is not None and ctx is not None and base is target.value and own_entry(name, _key_of(target), value, fn, ctx):
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


def held_container_call(call: cst.Call, fn: FunctionFacts | None = None, ctx: FileContext | None = None) -> MutationKind | None:
    """`self.items.append(x)`, `self.index.update(...)`: a container the object holds, changed
    (`self.items.setdefault(k, v)` under the call's own new key or as a memo is not)."""
    if not isinstance(call.func, cst.Attribute) or call.func.attr.value not in fx.CONTAINER_WRITES:
        return None
    name = held_attribute(chain(call.func.value))
    if name is None:
        return None
    if call.func.attr.value == "setdefault" and len(call.args) == 2 and fn is not None and ctx is not None:
        if own_entry(name, call.args[0].value, call.args[1].value, fn, ctx):
            return None
    return MutationKind(f"changes state the server's object holds ({name}.{call.func.attr.value})", (name,), effect=Effect.MODULE_STATE)


def held_writes(fn: FunctionFacts, ctx: FileContext) -> list[tuple[MutationKind, cst.SimpleStatementLine, cst.CSTNode]]:
    """Every write of held state in the body (not in `except` clauses, not in nested functions),
    as (kind, statement, node), for the function's summary; the caller checks `holds_state`."""
    out: list[tuple[MutationKind, cst.SimpleStatementLine, cst.CSTNode]] = []
    for stmt in walk_statements(fn.node.body, handlers=False):
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            kind: MutationKind | None = None
            if isinstance(small, cst.Assign):
                kind = next((k for t in small.targets if (k := held_item_write(t.target, small.value, fn, ctx) or held_replacement(t.target, small.value, fn)) is not None), None)
            elif isinstance(small, cst.Del):
                kind = held_item_write(small.target)
            if kind is not None:
                out.append((kind, stmt, small))
                continue
            for node in walk(small):
                if isinstance(node, cst.Call) and (kind := held_container_call(node, fn, ctx)) is not None:
                    out.append((kind, stmt, node))
                    break
    return out


# -- the general exclusions: the call's own new entry, memoisation, counters ---------------------

# Names of held values that meter the traffic (`self.counter`, `self.request_count`, `self.stats`).
_COUNTER_WORDS = frozenset({"count", "counts", "counter", "counters", "total", "totals", "metric", "metrics", "stats", "statistics", "tally", "hits", "misses"})
# Calls that make a key nothing else holds yet: random ids, tokens, clocks, `next(ids)`.
_FRESH_CALLS = frozenset({"uuid1", "uuid3", "uuid4", "uuid5", "uuid", "token_hex", "token_urlsafe", "token_bytes", "urandom", "getrandbits", "ObjectId", "ulid", "nanoid", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "now", "utcnow", "next"})
_FRESH_DOTTED = frozenset({"time.time"})
# A project helper named for making an id (`_new_id`, `generate_session_id`, `next_key`).
_MAKING_WORDS = frozenset({"new", "generate", "gen", "make", "next", "allocate", "mint", "create"})
_ID_WORDS = frozenset({"id", "ids", "uuid", "key", "token", "ident", "identifier", "handle", "sid"})
_DEPTH = 3


def _key_of(target: cst.Subscript) -> cst.BaseExpression | None:
    element = target.slice[0].slice if len(target.slice) == 1 else None
    return element.value if isinstance(element, cst.Index) else None


def own_entry(container: str, key: cst.BaseExpression | None, value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> bool:
    """Is `container[key] = value` no change another call would see: an entry under a key this
    call just made, a memo of a value computed from its key, or a counter's update?"""
    if key is None:
        return False
    return _fresh(key, fn, container, _DEPTH) or _counts_itself(container, value) or _memo(container, key, value, fn, ctx)


def _assigned(name: str, fn: FunctionFacts) -> list[cst.BaseExpression]:
    """The values the function puts into local `name` (plain assignments only); [] when unknown."""
    single = fn.single_assignments.get(name)
    if single is not None:
        return [single]
    stores = fn.stores.get(name, [])
    if any(s.slot is not None or s.element or s.position is not None for s in stores):
        return []
    return [s.value for s in stores]


def _fresh(key: cst.BaseExpression, fn: FunctionFacts, container: str, depth: int) -> bool:
    """Does the key hold something this call made: a fresh id (`uuid4().hex`, `next(self._ids)`,
    a project `_new_id()`), a held counter the call advances (`self._next += 1`), the next index
    of the container (`len(self.items)`), or the id of an object built in this call
    (`job = Job(...)`, key `job.id`) that the call did not hand it?"""
    if depth <= 0:
        return False
    for node in walk(key):
        if isinstance(node, cst.Call) and _makes_fresh(node, container):
            return True
    if isinstance(key, cst.Attribute) and isinstance(key.value, cst.Name):
        values = _assigned(key.value.value, fn)
        if len(values) == 1 and isinstance(values[0], cst.Call) and _built_with_own_id(values[0], key.attr.value, fn, depth):
            return True
    advanced = _advanced_counters(fn)
    for name in read_names(key):
        if name in advanced:
            return True
        root = name.split(".")[0]
        if root in fn.params or root == _SELF or root not in fn.local_names:
            continue
        values = _assigned(root, fn)
        if values and all(_fresh(v, fn, container, depth - 1) for v in values):
            return True
    return False


def _makes_fresh(call: cst.Call, container: str) -> bool:
    name = dotted(call.func) or ""
    last = last_name(name) if name else ""
    if name in _FRESH_DOTTED or last in _FRESH_CALLS:
        return True
    words = set(identifier_words(last)) if last else set()
    if words & _MAKING_WORDS and words & _ID_WORDS:
        return True
    # `len(self.items)` as the key of `self.items`: the next index, a new slot.
    return name == "len" and len(call.args) == 1 and dotted(call.args[0].value) == container


def _built_with_own_id(call: cst.Call, attr: str, fn: FunctionFacts, depth: int) -> bool:
    """`Job(...)`'s `id` when the construction makes it (no argument named for it) or is handed
    a fresh one (`Job(id=uuid4().hex)`)."""
    cls = last_name(dotted(call.func) or "")
    if not cls or not cls[:1].isupper():
        return False
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == attr:
            return _fresh(arg.value, fn, "", depth - 1)
    if not _ID_WORDS & set(identifier_words(attr)):
        return False
    # A positional argument from a parameter named for the id (`Job(job_id, ...)`) is the caller's key.
    return not any(isinstance(a.value, cst.Name) and a.value.value in fn.params and a.value.value.endswith(attr) for a in call.args)


def _advanced_counters(fn: FunctionFacts) -> frozenset[str]:
    """Held values the function advances (`self._next_id += 1`)."""
    out: set[str] = set()
    for node in walk(fn.node.body):
        if isinstance(node, cst.AugAssign) and (name := dotted(node.target)) and name.startswith(_SELF + "."):
            out.add(name)
    return frozenset(out)


def _counts_itself(container: str, value: cst.BaseExpression) -> bool:
    """`self.hits[k] = self.hits.get(k, 0) + 1`: an entry updated from its own old value by
    arithmetic, a meter."""
    return isinstance(value, cst.BinaryOperation) and any(n == container or n.startswith(container + ".") for n in read_names(value))


def _memo(container: str, key: cst.BaseExpression, value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> bool:
    """`self._trees[path] = parse(Path(path).read_text())`: the entry is computed by a call
    (not a constructor) from the key alone (no other argument of the call goes into it), and
    the class reads the container back by key: memoisation, computing it again gives the same."""
    keys = {n.split(".")[0] for n in read_names(key)}
    if not keys or not _computed_from(value, keys, fn, _DEPTH):
        return False
    return _read_back(container, fn, ctx)


def _computed_from(value: cst.BaseExpression, keys: set[str], fn: FunctionFacts, depth: int) -> bool:
    """Is `value` made by a function call from `keys` (and module names, constants) alone?"""
    if depth <= 0:
        return False
    computed = False
    for name in read_names(value):
        root = name.split(".")[0]
        if root in keys or root == _SELF:
            continue
        if root in fn.params:
            return False  # another argument of the call goes into the entry: the call's data
        if root in fn.local_names:
            values = _assigned(root, fn)
            if not values or not all(_computed_from(v, keys, fn, depth - 1) for v in values):
                return False
            computed = True
    for node in walk(value):
        if isinstance(node, cst.Call):
            callee = last_name(dotted(node.func) or "") or (node.func.attr.value if isinstance(node.func, cst.Attribute) else "")
            if callee and not callee[:1].isupper() and callee not in _CONTAINERS and any(n.split(".")[0] in keys for n in read_names(node)):
                computed = True
    return computed


_CONTAINERS = frozenset({"dict", "list", "set", "tuple", "frozenset", "str", "int", "float", "bool"})


def _read_back(container: str, fn: FunctionFacts, ctx: FileContext) -> bool:
    """Does a function of the same class read `container` by key (`self.c[k]`, `self.c.get(k)`,
    `k in self.c`) outside an assignment to it?"""
    for other in ctx.model.functions.values():
        if other.class_name != fn.class_name:
            continue
        for node in walk(other.node):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and dotted(node.func.value) == container:
                return True
            if isinstance(node, cst.Comparison) and any(isinstance(t.operator, cst.In) and dotted(t.comparator) == container for t in node.comparisons):
                return True
            if isinstance(node, cst.Return) and node.value is not None and isinstance(node.value, cst.Subscript) and dotted(node.value.value) == container:
                return True
    return False
