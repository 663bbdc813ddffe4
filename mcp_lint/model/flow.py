"""How values move through a function's locals: what a returned or raised expression is built
from, through any number of assignments and container writes, and conditions compared between a
caller and a helper.

Read by facts.collect_facts after its one walk of the body: the walk records every store (cheap),
and only the locals a returned or raised expression reaches are ever scanned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

import libcst as cst

from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.walk import FastVisitor, children

if TYPE_CHECKING:
    from mcp_lint.model.facts import Handler


@dataclass
class Store:
    """A value put into a local: `x = v`, `x += v`, `x[k] = v`, `x.attr = v`, `x.append(v)`,
    `for x in v`. `key` is the local, or the attribute chain written (`session.error`)."""

    key: str
    value: cst.BaseExpression
    statement: cst.BaseSmallStatement | None  # None: a `for`/`with` header, never reported
    handler: Handler | None
    conditions: tuple[cst.BaseExpression, ...] = ()  # tests of enclosing `if`s


# Methods that put their arguments into the receiver (lists, sets, dicts, deques, queues).
CONTAINER_ADDERS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft", "put", "put_nowait"}
)


def store_keys(target: cst.BaseExpression) -> list[str]:
    """What an assignment target writes: `x` -> x, `x.a.b` -> x.a.b, `x[k]` / `x.a[k].b` -> the
    container (x / x.a), `a, *b` -> a and b."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [k for el in target.elements for k in store_keys(el.value)]
    if isinstance(target, cst.StarredElement):
        return store_keys(target.value)
    if isinstance(target, cst.Attribute):
        chain = dotted(target)
        return [chain] if chain else store_keys(target.value)
    if isinstance(target, cst.Subscript):
        return store_keys(target.value)
    return []


def _last_statement(block: cst.BaseSuite) -> cst.CSTNode | None:
    last = block.body[-1] if block.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return last


def leaves(block: cst.BaseSuite) -> bool:
    """Does the block end by leaving the function (`return` or `raise` as its last statement)?"""
    return isinstance(_last_statement(block), (cst.Raise, cst.Return))


def condition_shape(test: cst.BaseExpression, slots: dict[str, int], local: set[str] | frozenset[str]) -> str | None:
    """A condition written over slots instead of local names, comparable between functions:
    `not os.path.exists(doc_path)` with doc_path in slot 0 -> "not os.path.exists(<slot 0>)".
    None when it reads no slot, or a local that has no slot (it depends on more than the slotted
    values)."""
    parts: list[str] = []
    if not _shape_into(test, slots, local, parts):
        return None
    shape = "".join(parts)
    return shape if _SLOT in shape else None


_SLOT = "\x00"  # marks a slot in a condition's shape; never part of a name or literal


def _shape_into(node: cst.CSTNode, slots: dict[str, int], local: set[str] | frozenset[str], out: list[str]) -> bool:
    if isinstance(node, cst.Name):
        if node.value in slots:
            out.append(f"{_SLOT}{slots[node.value]}")
            return True
        out.append(node.value)
        return node.value not in local
    if isinstance(node, cst.Attribute):
        ok = _shape_into(node.value, slots, local, out)
        out.append("." + node.attr.value)
        return ok
    if isinstance(node, (cst.SimpleString, cst.Integer, cst.Float)):
        out.append(node.value)
        return True
    if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        return False
    out.append(type(node).__name__ + "(")
    for child in children(node):
        if not _shape_into(child, slots, local, out):
            return False
        out.append(",")
    out.append(")")
    return True


def helper_slots(params: tuple[str, ...]) -> dict[str, int]:
    """Slots of a function's parameters as its callers pass them (a method's self/cls is not passed)."""
    skip = 1 if params and params[0] in {"self", "cls"} else 0
    return {name: index for index, name in enumerate(params[skip:])}


def failure_checked(node: cst.If) -> frozenset[str]:
    """Locals that `node` checks and, when the check fails, leaves by a raise or by a return that
    does not send them (`if not r.get("success"): raise ValueError(...)`): later code holds their
    success value. A bare presence test (`if not r`, `if r is None`) lets an error text or error
    dict through, so it checks nothing."""
    last = _last_statement(node.body)
    if not isinstance(last, (cst.Raise, cst.Return)) or _is_presence_test(node.test):
        return frozenset()
    names = names_read(node.test)
    if isinstance(last, cst.Return) and last.value is not None and names & names_read(last.value):
        return frozenset()  # `if "error" in r: return r` sends it
    return names


def _is_presence_test(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if isinstance(test, cst.Name):
        return True
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name):
        target = test.comparisons[0]
        return isinstance(target.comparator, cst.Name) and target.comparator.value == "None"
    return False


class _NameReader(FastVisitor):
    """The local names an expression reads (attribute names and keywords are not names)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self.walk(node.value)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        self.walk(node.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def names_read(expr: cst.CSTNode) -> frozenset[str]:
    reader = _NameReader()
    reader.walk(expr)
    return frozenset(reader.names)


# Calls whose result says something about a value without carrying it (its length, its type).
_OPAQUE_CALLS = frozenset({"len", "bool", "isinstance", "issubclass", "type", "id", "hash", "callable", "hasattr"})


class _RefCollector(FastVisitor):
    """What the value of an expression is built from: the locals (and attribute chains) it reads
    and the calls whose results it contains, each either whole (`json.dumps(r)`, `{"data": r}`,
    `f"{r}"`) or only in part (`r["error"]`, `r.text`, `r.get("x")`). Parts that only decide
    between values (an `if` test, a comparison, `not`, a subscript's key, `len(x)`) carry nothing."""

    def __init__(self) -> None:
        self.keys: dict[str, bool] = {}  # key -> read whole (False: only a part of it)
        self.calls: dict[int, bool] = {}  # id(call) -> its result carried whole
        self.part = 0  # > 0 while inside the object of an attribute access or a subscript

    def _read(self, key: str) -> None:
        self.keys[key] = self.keys.get(key, False) or not self.part

    def visit_Name(self, node: cst.Name) -> None:
        self._read(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        chain = dotted(node)
        if chain:
            self._read(chain)
        else:
            self.part += 1
            self.walk(node.value)
            self.part -= 1
        return False

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        self.part += 1
        self.walk(node.value)
        self.part -= 1
        return False  # the key selects, it is not carried

    def visit_Arg(self, node: cst.Arg) -> bool:
        self.walk(node.value)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if dotted(node.func) in _OPAQUE_CALLS:
            return False
        self.calls[id(node)] = self.calls.get(id(node), False) or not self.part
        return True

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        self.walk(node.body)
        self.walk(node.orelse)
        return False

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        return False

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> bool:
        return not isinstance(node.operator, cst.Not)

    def visit_CompIf(self, node: cst.CompIf) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _is_constructor(expr: cst.BaseExpression) -> bool:
    """`Api(...)`, `await httpx.AsyncClient()`: a call of a class (by the naming convention)."""
    while isinstance(expr, cst.Await):
        expr = expr.expression
    if not isinstance(expr, cst.Call):
        return False
    name = last_name(dotted(expr.func) or "")
    return name[:1].isupper()


class ValueFlow:
    """Where the values a function returns or raises come from, through its locals.

    Flow-insensitive on purpose (every store of a local counts, whatever its order): cheap, and
    what a reader assumes of `errors.append(...)` in a loop and `return {"errors": errors}` after
    it. Only the locals a returned or raised expression reaches are ever scanned.
    """

    def __init__(self, stores: dict[str, list[Store]]) -> None:
        self.stores = stores
        self.longer: dict[str, list[str]] = {}  # `session` -> [`session.error`, ...]
        for key in stores:
            parts = key.split(".")
            for cut in range(1, len(parts)):
                self.longer.setdefault(".".join(parts[:cut]), []).append(key)
        self._refs: dict[int, _RefCollector] = {}

    def refs(self, expr: cst.BaseExpression) -> _RefCollector:
        found = self._refs.get(id(expr))
        if found is None:
            found = self._refs[id(expr)] = _RefCollector()
            found.walk(expr)
        return found

    def _stores_of(self, key: str, whole: bool) -> Iterator[tuple[Store, bool]]:
        """Stores whose value a read of `key` sees, and whether whole: stores to it and to its
        parts (`x.a = ...` for a read of `x`) as read; the object it is part of (`x` for a read
        of `x.a`) only in part."""
        parts = key.split(".")
        for cut in range(1, len(parts)):
            for store in self.stores.get(".".join(parts[:cut]), ()):
                # `client = Api(...)` then `client.fetch()`: a service object, not data the
                # result is taken from.
                if not _is_constructor(store.value):
                    yield store, False
        for store in self.stores.get(key, ()):
            yield store, whole
        for longer in self.longer.get(key, ()):
            for store in self.stores[longer]:
                yield store, whole

    def reach(self, expr: cst.BaseExpression, checked: frozenset[str] = frozenset()) -> tuple[dict[int, bool], list[Store]]:
        """(id of each call whose result `expr` carries -> carried whole, the stores it carries)
        through any number of locals; locals in `checked` are not followed. A part of a part is
        a part."""
        start = self.refs(expr)
        calls = dict(start.calls)
        visited: dict[int, Store] = {}
        seen: dict[str, bool] = {}  # key -> followed whole
        queue = list(start.keys.items())
        while queue:
            key, whole = queue.pop()
            if seen.get(key, None) is True or (key in seen and not whole) or key.split(".", 1)[0] in checked:
                continue
            seen[key] = whole
            for store, store_whole in self._stores_of(key, whole):
                visited[id(store)] = store
                found = self.refs(store.value)
                for call, call_whole in found.calls.items():
                    calls[call] = calls.get(call, False) or (call_whole and store_whole)
                queue.extend((k, k_whole and store_whole) for k, k_whole in found.keys.items())
        return calls, list(visited.values())
