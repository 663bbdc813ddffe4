"""How values move through a function's locals: what a returned or raised expression is built
from, through any number of assignments and container writes, and conditions compared between a
caller and a helper.

Read by function_body.collect_facts after its one walk of the body: the walk records every store (cheap),
and only the locals a returned or raised expression reaches are ever scanned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

import libcst as cst

from mcp_lint.engine.graph import EdgeKind, Node
from mcp_lint.engine.libcst_cfg import ClassBases, build_cfg
from mcp_lint.engine.reaching import Definition, ReachingDefinitions
from mcp_lint.model.call_args import string_value
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.library_tables import VALUE_ARGUMENTS
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.walk import FastVisitor, children


@dataclass
class Store:
    """A value put into a local: `x = v`, `x += v`, `x[k] = v`, `x.attr = v`, `x.append(v)`,
    `for x in v`. `key` is the local, or the attribute chain written (`session.error`)."""

    key: str
    value: cst.BaseExpression
    statement: cst.BaseSmallStatement | None  # None: a `for`/`with` header, never reported
    handler: Handler | None
    conditions: tuple[cst.BaseExpression, ...] = ()  # tests of enclosing `if`s
    slot: str | None = None  # `info["error"] = v`: the item it writes (the container is `key`)
    position: int | None = None  # `ok, message = v`: the element of v the local holds
    # `errors.append(v)`, `results[k] = v`: v is one element of a collection, its text is in the
    # collection but the collection is not v (a failure among results is not the tool's failure).
    element: bool = False


# Methods that put their arguments into the receiver (lists, sets, dicts, deques, queues).
CONTAINER_ADDERS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft", "put", "put_nowait"}
)
# Those of them that add the items of a sequence, as `+=` does (`x.extend(v)` is `x += v`).
SEQUENCE_EXTENDERS = frozenset({"extend", "extendleft"})


def literal_items(value: cst.BaseExpression) -> list[tuple[str, cst.BaseExpression]]:
    """The items of a returned literal, named as callers select them: a dict's constant keys,
    a tuple's "#<index>", an object's keyword arguments (`Result(rows=..., error=...)`)."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.Dict:
        return [
            (key, element.value)
            for element in value.elements
            if type(element) is cst.DictElement and (key := string_value(element.key)) is not None
        ]
    if type(value) is cst.Tuple:
        return [(f"#{i}", el.value) for i, el in enumerate(value.elements) if type(el) is not cst.StarredElement]
    if type(value) is cst.Call:
        return [(a.keyword.value, a.value) for a in value.args if a.keyword is not None]
    return []


def unpacked_element(store: Store) -> cst.BaseExpression | None:
    """The expression an unpacked local holds whole: element `position` of a tuple or list
    literal (`a, b = x, y`), or the matching awaitable of a call that produces each of its
    arguments' values in order (`a, b = await asyncio.gather(f(), g())`). None when the value is
    anything else, or has a starred element before it (the position is unknown)."""
    if store.position is None:
        return None
    value = store.value
    while type(value) is cst.Await:
        value = value.expression
    if type(value) in (cst.Tuple, cst.List):
        elements = [el.value for el in value.elements]
        starred = any(type(el) is cst.StarredElement for el in value.elements[: store.position + 1])
    elif type(value) is cst.Call and VALUE_ARGUMENTS.get(last_name(dotted(value.func) or ""), 0) is None:
        elements = [arg.value for arg in value.args if arg.keyword is None]
        starred = any(arg.star for arg in value.args[: store.position + 1])
    else:
        return None
    if starred or store.position >= len(elements):
        return None
    return elements[store.position]


def held_value(store: Store) -> cst.BaseExpression:
    """What a store puts into its local: the value, or for an unpacked local (`token, name =
    upload(path)`) the matching element of a literal (`unpacked_element`), else the local's own
    target (judged by its name: which element of a call's result it holds is not known here)."""
    if store.position is None:
        return store.value
    element = unpacked_element(store)
    if element is not None:
        return element
    statement = store.statement
    if type(statement) is cst.Assign and len(statement.targets) == 1:
        target = statement.targets[0].target
        if type(target) in (cst.Tuple, cst.List) and store.position < len(target.elements):
            return target.elements[store.position].value
    return store.value


# The engine's one reading of how an expression's value is built from other expressions. Both
# the value flow (`_RefCollector`: what a returned or raised value carries) and the taint trace
# (model/taint.py: where a rule's source enters a value) read composite expressions through it.
_COMPOSITE = (
    cst.FormattedString, cst.ConcatenatedString, cst.BinaryOperation, cst.BooleanOperation, cst.IfExp,
    cst.List, cst.Tuple, cst.Set, cst.Dict, cst.Await,
    cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp,
)  # fmt: skip
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)
# Methods that build text from their receiver and arguments (`"{}: {}".format(a, b)`,
# `", ".join(parts)`): the text carries all of them.
STRING_BUILDERS = frozenset({"format", "format_map", "join"})


def carried_parts(expr: cst.CSTNode) -> tuple[cst.CSTNode, ...] | None:
    """The sub-expressions whose values the value of `expr` is made of, for an expression that
    only combines values: an f-string's expressions (and those of its format specs), the two
    halves of an implicit concatenation, of `+`, `%`, `/` and any other binary operation, of
    `a or b`, the branches of a conditional expression (not its test), the elements of a list,
    tuple or set, the keys and values of a dict, what an `await` waits for, the element (or key
    and value) a comprehension makes each round, whose names its `for` clauses bind to items of
    what they iterate (`comprehension_sources`). None for anything else (a name, an attribute, a
    subscript, a call, a literal...): how that is read is the reader's question."""
    kind = type(expr)
    if kind not in _COMPOSITE:
        return None
    if kind in _COMPREHENSIONS:
        return (expr.key, expr.value) if kind is cst.DictComp else (expr.elt,)  # type: ignore[attr-defined]
    if kind is cst.FormattedString:
        return tuple(_fstring_expressions(expr))  # type: ignore[arg-type]
    if kind in (cst.ConcatenatedString, cst.BinaryOperation, cst.BooleanOperation):
        return (expr.left, expr.right)  # type: ignore[attr-defined]
    if kind is cst.IfExp:
        return (expr.body, expr.orelse)  # type: ignore[attr-defined]
    if kind is cst.Await:
        return (expr.expression,)  # type: ignore[attr-defined]
    if kind is cst.Dict:
        parts: list[cst.CSTNode] = []
        for element in expr.elements:  # type: ignore[attr-defined]
            if type(element) is cst.DictElement:
                parts.append(element.key)
            parts.append(element.value)
        return tuple(parts)
    return tuple(element.value for element in expr.elements)  # type: ignore[attr-defined]


def comprehension_sources(expr: cst.CSTNode) -> dict[str, cst.BaseExpression] | None:
    """For a comprehension, each name its `for` clauses bind, with what that clause iterates
    (`f"{k}={v}" for k, v in env.items()`: k and v -> `env.items()`); None for anything else."""
    if not isinstance(expr, _COMPREHENSIONS):
        return None
    sources: dict[str, cst.BaseExpression] = {}
    level: cst.CompFor | None = expr.for_in
    while level is not None:
        for name in _bound_names(level.target):
            sources[name] = level.iter
        level = level.inner_for_in
    return sources


def _fstring_expressions(expr: cst.FormattedString) -> Iterator[cst.BaseExpression]:
    for part in expr.parts:
        if type(part) is cst.FormattedStringExpression:
            yield part.expression
            for spec in part.format_spec or ():
                if type(spec) is cst.FormattedStringExpression:
                    yield spec.expression


def built_text_parts(call: cst.Call) -> tuple[cst.CSTNode, ...] | None:
    """The receiver and arguments of a text-building method call (STRING_BUILDERS), whose
    result carries them all; None for any other call."""
    func = call.func
    if not (type(func) is cst.Attribute and func.attr.value in STRING_BUILDERS):
        return None
    return (func.value, *(argument.value for argument in call.args))


def store_slot(target: cst.BaseExpression) -> str | None:
    """The constant item a subscript target writes: `info["error"]` -> "error"."""
    return _constant_key(target) if type(target) is cst.Subscript else None


def store_keys(target: cst.BaseExpression) -> list[str]:
    """What an assignment target writes: `x` -> x, `x.a.b` -> x.a.b, `x[k]` / `x.a[k].b` -> the
    container (x / x.a), `a, *b` -> a and b."""
    if type(target) is cst.Name:
        return [target.value]
    if type(target) in (cst.Tuple, cst.List):
        return [k for el in target.elements for k in store_keys(el.value)]
    if type(target) is cst.StarredElement:
        return store_keys(target.value)
    if type(target) is cst.Attribute:
        chain = dotted(target)
        return [chain] if chain else store_keys(target.value)
    if type(target) is cst.Subscript:
        return store_keys(target.value)
    return []


def _last_statement(block: cst.BaseSuite) -> cst.CSTNode | None:
    last = block.body[-1] if block.body else None
    if type(last) is cst.SimpleStatementLine:
        last = last.body[-1] if last.body else None
    return last


def leaves(block: cst.BaseSuite) -> bool:
    """Does the block end by leaving the function (`return` or `raise` as its last statement)?"""
    return type(_last_statement(block)) in (cst.Raise, cst.Return)


def condition_shape(test: cst.BaseExpression, slots: Mapping[str, int | str], local: set[str] | frozenset[str]) -> str | None:
    """A condition written over slots instead of local names, comparable between functions:
    `not os.path.exists(doc_path)` with doc_path in slot 0 -> "not os.path.exists(<slot 0>)".
    None when it reads no slot, or a local that has no slot (it depends on more than the slotted
    values)."""
    parts: list[str] = []
    if not _shape_into(_emptiness_as_not(test), slots, local, parts):
        return None
    shape = "".join(parts)
    return shape if _SLOT in shape else None


_SLOT = "\x00"  # marks a slot in a condition's shape; never part of a name or literal


def _emptiness_as_not(test: cst.BaseExpression) -> cst.BaseExpression:
    """`len(x) == 0`, `len(x) < 1`, `not len(x)` written as `not x`: a caller that left on one
    spelling of "x is empty" left on the others (had x been None, `len` would have raised)."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        counted = test.expression  # `not len(x)`
    elif type(test) is cst.Comparison and len(test.comparisons) == 1:
        target = test.comparisons[0]
        bound = target.comparator.value if type(target.comparator) is cst.Integer else None
        empty = (type(target.operator) in (cst.Equal, cst.LessThanEqual) and bound == "0") or (
            type(target.operator) is cst.LessThan and bound == "1"
        )
        if not empty:
            return test
        counted = test.left  # `len(x) == 0`, `len(x) <= 0`, `len(x) < 1`
    else:
        return test
    if type(counted) is cst.Call and dotted(counted.func) == "len" and len(counted.args) == 1 and not counted.args[0].star:
        return cst.UnaryOperation(cst.Not(), counted.args[0].value)
    return test


def _shape_into(node: cst.CSTNode, slots: Mapping[str, int | str], local: set[str] | frozenset[str], out: list[str]) -> bool:
    if type(node) is cst.Name:
        if node.value in slots:
            out.append(f"{_SLOT}{slots[node.value]}")
            return True
        out.append(node.value)
        return node.value not in local
    if type(node) is cst.Attribute:
        ok = _shape_into(node.value, slots, local, out)
        out.append("." + node.attr.value)
        return ok
    if type(node) in (cst.SimpleString, cst.Integer, cst.Float):
        out.append(node.value)
        return True
    if type(node) in (cst.Lambda, cst.FunctionDef, cst.ClassDef):
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


def first_param(params: tuple[str, ...]) -> str | None:
    """A function's first parameter other than self/cls, None when it has none."""
    return next((p for p in params if p not in {"self", "cls"}), None)


def keyword_slot(name: str) -> str:
    """The slot of the argument passed as `name=`, distinct from any positional slot (an int)."""
    return "=" + name


def keyword_slots(params: tuple[str, ...]) -> dict[str, str]:
    """Slots of a function's parameters as callers pass them by keyword (`analyze(queries=q)`):
    the slot is keyword_slot of the parameter's name."""
    return {name: keyword_slot(name) for name in params if name not in {"self", "cls"}}


def failure_checked(node: cst.If) -> frozenset[str]:
    """Locals that `node` checks and, when the check fails, leaves by a raise or by a return that
    does not send them (`if not r.get("success"): raise ValueError(...)`): later code holds their
    success value. A bare presence test (`if not r`, `if r is None`) lets an error text or error
    dict through, so it checks nothing."""
    last = _last_statement(node.body)
    if type(last) not in (cst.Raise, cst.Return) or _is_presence_test(node.test):
        return frozenset()
    names = names_read(node.test)
    if type(last) is cst.Return and last.value is not None and names & names_read(last.value):
        return frozenset()  # `if "error" in r: return r` sends it
    return names


def _is_presence_test(test: cst.BaseExpression) -> bool:
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test = test.expression
    if type(test) is cst.Name:
        return True
    if type(test) is cst.Comparison and len(test.comparisons) == 1 and type(test.left) is cst.Name:
        target = test.comparisons[0]
        return type(target.comparator) is cst.Name and target.comparator.value == "None"
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


class _TestedNameReader(_NameReader):
    """Names read anywhere but in returned values and assignment targets (nested scopes too: a
    closure reading a flag reads it)."""

    def visit_Return(self, node: cst.Return) -> bool:
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return True


def names_read_outside_returns(function: cst.FunctionDef) -> frozenset[str]:
    """The names a function reads outside its `return` values (in tests, calls, other statements):
    a status flag it unpacks but never reads there is not checked."""
    reader = _TestedNameReader()
    reader.walk(function.body)
    return frozenset(reader.names)


# Calls that run a function passed to them (`to_thread(fn, *args)`, `pool.submit(fn, x)`): their
# other arguments are that function's inputs, whose own returns decide what comes back.
RUNS_A_FUNCTION = frozenset({"to_thread", "run_sync", "run_in_executor", "submit", "partial", "call_soon", "start_soon"})

# Calls whose result says something about a value without carrying it (its length, its type).
_OPAQUE_CALLS = frozenset({"len", "bool", "isinstance", "issubclass", "type", "id", "hash", "callable", "hasattr"})


# How much of a value an expression reads: all of it (WHOLE), the items or attributes of these
# names (`r["error"]`, `r.get("error")`, `r.error` -> {"error"}), or some part (ANY_PART).
WHOLE = None
ANY_PART: frozenset[str] = frozenset({"*"})


def merge_modes(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None or b is None:
        return None
    merged = a | b
    return ANY_PART if "*" in merged else merged


def _compose(outer: frozenset[str] | None, inner: frozenset[str] | None) -> frozenset[str] | None:
    """The mode of a value read with `inner` inside an expression read with `outer`: what is
    selected of the innermost value decides (`x = r["data"]; return x["items"]` reads r's "data")."""
    return outer if inner is None else inner


def _constant_key(node: cst.Subscript) -> str | None:
    if len(node.slice) == 1 and type(node.slice[0].slice) is cst.Index:
        return string_value(node.slice[0].slice.value)
    return None


class _RefCollector(FastVisitor):
    """What the value of an expression is built from: the locals (and attribute chains) it reads
    and the calls whose results it contains, each with the mode it is read in: whole
    (`json.dumps(r)`, `{"data": r}`, `f"{r}"`), selected items (`r["error"]`, `r.get("error")`,
    `helper().error`) or some part (`r.to_text()`, `r[i]`). Parts that only decide between values
    (an `if` test, a comparison, `not`, a subscript's key, `len(x)`) carry nothing."""

    def __init__(self, is_project_call: Callable[[cst.Call], bool] = lambda call: False) -> None:
        self.is_project_call = is_project_call
        self.keys: dict[str, frozenset[str] | None] = {}
        self.calls: dict[int, frozenset[str] | None] = {}  # by id(call)
        self.mode: frozenset[str] | None = WHOLE  # how the expression being walked is read
        # Names a comprehension being walked binds (`error for error in rows`): its own, not the
        # function's locals of the same name.
        self.bound: frozenset[str] = frozenset()

    def _read(self, key: str, mode: frozenset[str] | None) -> None:
        self.keys[key] = merge_modes(self.keys[key], mode) if key in self.keys else mode

    def _walk_in(self, node: cst.CSTNode, mode: frozenset[str] | None) -> None:
        outer, self.mode = self.mode, mode
        self.walk(node)
        self.mode = outer

    def visit_Name(self, node: cst.Name) -> None:
        if node.value not in self.bound:
            self._read(node.value, self.mode)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        chain = dotted(node)
        if chain and chain.split(".", 1)[0] in self.bound:
            return False
        if chain:
            self._read(chain, self.mode)
        else:
            self._walk_in(node.value, frozenset({node.attr.value}))  # `helper().error`
        return False

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        key = _constant_key(node)
        self._walk_in(node.value, frozenset({key}) if key is not None else ANY_PART)
        return False  # the key selects, it is not carried

    def visit_Arg(self, node: cst.Arg) -> bool:
        self.walk(node.value)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if dotted(node.func) in _OPAQUE_CALLS:
            return False
        self.calls[id(node)] = merge_modes(self.calls[id(node)], self.mode) if id(node) in self.calls else self.mode
        # What a call returns carries its arguments, all of them when the call is read whole
        # (but a callback's inputs only in part).
        # A project function's own returns decide what of its arguments comes back (a converter
        # may turn an error dict into an error result): its arguments are carried in part.
        callee = last_name(dotted(node.func) or "")
        inner = (
            WHOLE
            if self.mode is WHOLE
            and callee not in RUNS_A_FUNCTION
            and not self.is_project_call(node)
            # `await gather(a(), b())` is the list of their values: each is one element of it
            # (unpacked, `x, y = await gather(...)`, each local is one whole: `unpacked_element`).
            and VALUE_ARGUMENTS.get(callee, 0) is not None
            else ANY_PART
        )
        func = node.func
        receiver = dotted(func.value) if type(func) is cst.Attribute else None
        if receiver is not None:
            # A method exposes some part of its receiver (`r.to_text()`), `r.get("k")` the item k;
            # `self.render()` is the object's behaviour, not its data.
            key = string_value(node.args[0].value if node.args else None) if func.attr.value == "get" else None
            if key is not None:
                self._read(receiver, frozenset({key}))
            elif receiver.split(".")[0] not in {"self", "cls"}:
                self._read(receiver, ANY_PART)
        elif type(func) is not cst.Name:
            self._walk_in(func, inner)
        for argument in node.args:
            self._walk_in(argument.value, inner)
        return False

    def _composite(self, node: cst.CSTNode) -> bool:
        # The parts the value is made of (carried_parts), not a conditional's test.
        for part in carried_parts(node) or ():
            self.walk(part)
        return False

    visit_IfExp = visit_FormattedString = visit_ConcatenatedString = visit_BinaryOperation = _composite
    visit_BooleanOperation = visit_List = visit_Tuple = visit_Set = visit_Dict = visit_Await = _composite

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        return False

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> bool:
        return type(node.operator) is not cst.Not

    def visit_CompIf(self, node: cst.CompIf) -> bool:
        return False

    def _comprehension(self, node: cst.BaseComp | cst.DictComp) -> bool:
        # The elements it makes (carried_parts), its own names left out, and what it iterates whole.
        sources = comprehension_sources(node) or {}
        outer = self.bound
        self.bound = outer | set(sources)
        for part in carried_parts(node) or ():
            self.walk(part)
        level: cst.CompFor | None = node.for_in
        while level is not None:
            self.walk(level.iter)
            level = level.inner_for_in
        self.bound = outer
        return False

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _bound_names(target: cst.BaseExpression) -> list[str]:
    if type(target) is cst.Name:
        return [target.value]
    if type(target) in (cst.Tuple, cst.List):
        return [name for element in target.elements for name in _bound_names(element.value)]
    if type(target) is cst.StarredElement:
        return _bound_names(target.value)
    return []


def _is_constructor(expr: cst.BaseExpression) -> bool:
    """`Api(...)`, `await httpx.AsyncClient()`: a call of a class (by the naming convention)."""
    while type(expr) is cst.Await:
        expr = expr.expression
    if type(expr) is not cst.Call:
        return False
    name = last_name(dotted(expr.func) or "")
    return name[:1].isupper()


class ValueFlow:
    """Where the values a function returns or raises come from, through its locals.

    Flow-sensitive where it matters: a read at a known statement (`at`: a return, a raise, the
    statement of a store being followed) sees only the stores of a local that reach it on the
    function's control-flow graph (engine.reaching), so text stored on a path that then raises,
    or in a branch a later assignment replaces, is not what a later return sends. The graph is
    built only for a function where a followed local has several stores; stores without a
    statement (`for`/`with` targets, `:=`) always count, as do `errors.append(...)` in a loop
    for a `return {"errors": errors}` after it. Only the locals a returned or raised expression
    reaches are ever scanned.
    """

    def __init__(
        self,
        stores: dict[str, list[Store]],
        is_project_call: Callable[[cst.Call], bool] = lambda call: False,
        function: cst.FunctionDef | None = None,
        class_bases: ClassBases | None = None,
    ) -> None:
        self.stores = stores
        self.is_project_call = is_project_call
        self.function = function
        self.class_bases = class_bases
        self._order: StoreOrder | None = None
        self._placed_keys: dict[str, bool] = {}
        self.longer: dict[str, list[str]] = {}  # `session` -> [`session.error`, ...]
        for key in stores:
            parts = key.split(".")
            for cut in range(1, len(parts)):
                self.longer.setdefault(".".join(parts[:cut]), []).append(key)
        self._refs: dict[int, _RefCollector] = {}

    def refs(self, expr: cst.BaseExpression) -> _RefCollector:
        found = self._refs.get(id(expr))
        if found is None:
            found = self._refs[id(expr)] = _RefCollector(self.is_project_call)
            found.walk(expr)
        return found

    def order(self) -> StoreOrder | None:
        """The function's stores placed on its control-flow graph (built on first question)."""
        if self._order is None and self.function is not None:
            self._order = StoreOrder(self.function, self.stores, self.class_bases)
        return self._order

    def built_order(self) -> StoreOrder | None:
        """The stores' placement on the graph if some question has built it, else None."""
        return self._order

    def reaching(self, key: str, at: cst.CSTNode | None) -> list[Store]:
        """The stores of `key` (a local or an attribute chain) whose value a read of it in the
        statement `at` may see (every store of it when `at` is unknown or not on the graph)."""
        return list(self._live(self.stores.get(key, []), at))

    def _placed(self, key: str) -> bool:
        """Can where `key` is read change which stores its read sees (a store list of it, of an
        object it is an attribute of, or of one of its attributes, holds several stores)?"""
        found = self._placed_keys.get(key)
        if found is None:
            parts = key.split(".")
            lists = [self.stores.get(key, ())] + [self.stores.get(".".join(parts[:cut]), ()) for cut in range(1, len(parts))]
            lists += [self.stores[longer] for longer in self.longer.get(key, ())]
            found = self._placed_keys[key] = any(len(stores) > 1 for stores in lists)
        return found

    def _live(self, stores: list[Store], at: cst.CSTNode | None) -> list[Store]:
        """The stores of one key that reach `at` (all of them when `at` is unknown)."""
        if at is None or len(stores) < 2:
            return stores
        order = self.order()
        return stores if order is None else [store for store in stores if order.reaches(store, at)]

    def _stores_of(self, key: str, mode: frozenset[str] | None, at: cst.CSTNode | None = None) -> Iterator[tuple[Store, frozenset[str] | None]]:
        """Stores whose value a read of `key` in `mode` sees, each with the mode its value is read
        in: stores to it (an item stored by key only when that item is read), stores to its
        attributes (`x.error = ...` for a read of `x`, when that attribute is read), and the
        object it is an attribute of (`x` for a read of `x.error`: its item "error")."""
        parts = key.split(".")
        for cut in range(1, len(parts)):
            for store in self._live(self.stores.get(".".join(parts[:cut]), []), at):
                # `client = Api(...)` then `client.fetch()`: a service object, not data the
                # result is taken from.
                if not _is_constructor(store.value):
                    yield store, frozenset({parts[cut]})
        for store in self._live(self.stores.get(key, []), at):
            if mode is not WHOLE and _is_constructor(store.value) and not store.element and store.position is None:
                # A part of a service object (`client.fetch()`) is not its arguments; an object
                # put into a list (`details.append(Detail(...))`) is the list's data.
                continue
            if store.position is not None:
                yield store, frozenset({f"#{store.position}"})  # an element: as items go, "#1"
            elif store.element:
                yield store, ANY_PART
            elif store.slot is None:
                yield store, mode
            elif mode is WHOLE or "*" in mode or store.slot in mode:
                yield store, WHOLE  # `info["error"] = v` read as info or info["error"]: all of v
        for longer in self.longer.get(key, ()):
            attribute = longer[len(key) + 1 :].split(".")[0]
            if mode is WHOLE or "*" in mode or attribute in mode:
                for store in self._live(self.stores[longer], at):
                    yield store, WHOLE if longer.count(".") == key.count(".") + 1 else ANY_PART

    def origins(
        self, expr: cst.BaseExpression, checked: frozenset[str] = frozenset(), at: cst.CSTNode | None = None
    ) -> tuple[dict[int, frozenset[str] | None], list[Store]]:
        """(id of each call whose result `expr` carries -> the mode it is carried in, the stores
        it carries) through any number of locals; locals in `checked` are not followed. `at`:
        the statement `expr` is read in, when known (only the stores reaching it count)."""
        calls, stores, _ = self.follow(expr, checked, at)
        return calls, stores

    def follow(
        self,
        expr: cst.BaseExpression,
        checked: frozenset[str] = frozenset(),
        at: cst.CSTNode | None = None,
        parents: dict[int, Store | None] | None = None,
    ) -> tuple[dict[int, frozenset[str] | None], list[Store], dict[str, frozenset[str] | None]]:
        """`origins`, and the names `expr` reads through any number of locals, each with the mode
        it is read in (a parameter read WHOLE: `text = str(value); return [TextContent(text=text)]`
        carries all of `value`). `parents`, when given, is filled with the step each store was
        reached by: by id(store), the store whose value read it (None: `expr` read it)."""
        start = self.refs(expr)
        calls = dict(start.calls)
        visited: dict[int, Store] = {}
        read: dict[str, frozenset[str] | None] = {}  # key -> mode read, wherever
        seen: dict[tuple[str, int], frozenset[str] | None] = {}  # (key, id(at)) -> mode followed so far
        queue: list[tuple[str, frozenset[str] | None, cst.CSTNode | None, Store | None]] = [(k, m, at, None) for k, m in start.keys.items()]
        while queue:
            key, mode, where, via = queue.pop()
            if key.split(".", 1)[0] in checked:
                continue
            # Where the read is matters only for a key some store list of which may be cut.
            place = (key, id(where) if where is not None and self._placed(key) else 0)
            if place in seen:
                before = seen[place]
                if before is WHOLE or (mode is not WHOLE and ("*" in before or mode <= before)):
                    continue
                mode = merge_modes(before, mode)
            seen[place] = mode
            read[key] = merge_modes(read[key], mode) if key in read else mode
            for store, store_mode in self._stores_of(key, mode, where):
                visited[id(store)] = store
                if parents is not None and id(store) not in parents and store is not via:
                    parents[id(store)] = via
                element = unpacked_element(store)
                if element is not None:
                    # `a, b = await gather(f(), g())`: `a` is what f() returns, read as `a` is.
                    found, store_mode = self.refs(element), mode
                else:
                    found = self.refs(store.value)
                for call, call_mode in found.calls.items():
                    carried = _compose(store_mode, call_mode)
                    calls[call] = merge_modes(calls[call], carried) if call in calls else carried
                queue.extend((k, _compose(store_mode, m), store.statement, store) for k, m in found.keys.items())
        return calls, list(visited.values()), read

    def path(self, expr: cst.BaseExpression, at: cst.CSTNode | None, source: Store) -> list[tuple[Store, bool]] | None:
        """The stores a value goes through from `source` to `expr` read at `at`, in the order
        the value flows (`source` first): `detail = str(e)`, `msg = f"...{detail}"` for
        `return msg`; each with whether it only extends a local that already holds the value
        (`msg += "."`). None when `expr` does not carry what `source` stored there."""
        parents: dict[int, Store | None] = {}
        _, stores, _ = self.follow(expr, at=at, parents=parents)
        if id(source) not in parents:
            return None
        chain: list[Store] = []
        step: Store | None = source
        while step is not None and all(step is not s for s in chain):
            chain.append(step)
            step = parents.get(id(step))
        return self._with_additions(chain, stores, parents)

    def _with_additions(self, chain: list[Store], stores: list[Store], parents: dict[int, Store | None]) -> list[tuple[Store, bool]]:
        """`chain` with the augmented assignments to one of its locals after it is written and
        before it is read on (`summary = "; ".join(errors)`, `summary += "."`, `return summary`):
        the value read on is the one they made. Only those the same read sees (they reach it) and
        that control reaches from the local's write count; an item appended to a list that holds
        the value is another value, not a step of this one."""
        order = self.order()
        if order is None:
            return [(store, False) for store in chain]
        out: list[tuple[Store, bool]] = []
        for store in chain:
            out.append((store, False))
            added = [
                other
                for other in stores
                if other is not store
                and other.key == store.key
                and parents.get(id(other)) is parents.get(id(store))
                and type(other.statement) is cst.AugAssign  # not `x.append(other_item)`
                and all(other is not s for s in chain)
                and order.follows(store, other)
            ]
            # In the order control runs through them (each addition after the ones it follows).
            added.sort(key=lambda other: sum(order.follows(before, other) for before in added if before is not other))
            out.extend((other, True) for other in added)
        return out


class StoreOrder:
    """A function's stores as definitions on its control-flow graph: which reach a statement."""

    def __init__(self, function: cst.FunctionDef, stores: Mapping[str, list[Store]], class_bases: ClassBases | None) -> None:
        self.graph = build_cfg(function, class_bases)
        definitions: list[Definition] = []
        self._definition: dict[int, Definition] = {}  # by id(store)
        for key, by_key in stores.items():
            for store in by_key:
                node = self.graph.node_of(store.statement) if store.statement is not None else None
                if node is None:
                    continue  # a `for`/`with` target, `:=`: placed nowhere, always counts
                definition = Definition(key, node, _replaces(store), store)
                definitions.append(definition)
                self._definition[id(store)] = definition
        self._solution = ReachingDefinitions(self.graph, definitions)

    def reaches(self, store: Store, at: cst.CSTNode) -> bool:
        definition = self._definition.get(id(store))
        node = self.graph.node_of(at)
        return definition is None or node is None or self._solution.reaches(definition, node)

    def follows(self, first: Store, then: Store) -> bool:
        """Can control go from `first`'s statement to `then`'s?"""
        a = self.graph.node_of(first.statement) if first.statement is not None else None
        b = self.graph.node_of(then.statement) if then.statement is not None else None
        return a is not None and b is not None and a is not b and self.graph.path_exists(a, b)

    def overwritable(self, stores: list[Store]) -> bool:
        """Does control go from one of `stores` to another (a default a later branch replaces)?
        Only once the store is made: its statement's own exception edge (`result = call()` raising
        into `except: result = {...}`) leaves before it stores."""
        nodes = [self.graph.node_of(store.statement) for store in stores if store.statement is not None]
        return any(a is not b and a is not None and b is not None and self._after_store(a, b) for a in nodes for b in nodes)

    def _after_store(self, source: Node, target: Node) -> bool:
        stored = self.graph.successors(source, (EdgeKind.NORMAL, EdgeKind.LOOP_BACK))
        return any(node is target or self.graph.path_exists(node, target) for node in stored)

    def reaching(self, key: str, at: cst.CSTNode) -> list[Store] | None:
        """The stores of `key` (placed on the graph) that reach `at`; None when `at` is not a
        statement of the graph."""
        node = self.graph.node_of(at)
        if node is None:
            return None
        return [definition.payload for definition in self._solution.at(node, key)]  # type: ignore[misc]


def _replaces(store: Store) -> bool:
    """A store that replaces the local's whole value (`x = v`, `a, b = v`), not one that adds
    to it (`x += v`, `x.append(v)`, `x[k] = v`)."""
    return type(store.statement) in (cst.Assign, cst.AnnAssign) and store.slot is None and not store.element
