"""A fast CST visitor: the CSTVisitor protocol without libcst's visit machinery.

libcst's `node.visit(visitor)` goes through `_visit_and_replace_children`, the transformer path,
for every node; on this project's workload that costs several times the parse. mcp-lint only
reads the tree, so this walker reads each node's fields directly, skips whitespace and
punctuation (which no rule looks at), and dispatches `visit_<Class>` / `leave_<Class>` like
CSTVisitor: a `visit_` returning False skips the children, `leave_` is still called.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import typing
from typing import Callable, Iterator

import libcst as cst

from mcp_lint import generated_code

# Fields that only hold whitespace, comments or punctuation.
_SKIPPED_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "leading_lines",
        "lines_after_decorators",
        "trailing_whitespace",
        "header",
        "footer",
        "comma",
        "semicolon",
        "colon",
        "equal",
        "dot",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "first_line",
        "empty_lines",
        "indent",
        "newline",
        "last_line",
        "asynchronous",
    }
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = tuple(
            f.name
            for f in dataclasses.fields(cls)
            if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace")
        )
        _FIELDS[cls] = fields
    return fields


# What a field value is, by its exact type: a node, a sequence of nodes, or neither (None, str,
# MaybeSentinel). CSTNode is an ABC, and `isinstance` against an ABC runs Python code; this table
# turns the millions of checks a corpus needs into dictionary lookups.
_NODE, _SEQUENCE, _OTHER = 1, 2, 0
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    kind = _NODE if issubclass(cls, cst.CSTNode) else _SEQUENCE if issubclass(cls, (list, tuple)) else _OTHER
    _KINDS[cls] = kind
    return kind


# How to read each child field, from its declared type: always one node (`Call.func`), always a
# sequence of nodes (`Call.args`), or anything else (`Optional[...]`, `Union[..., MaybeSentinel]`),
# looked at value by value; fields declared as text are left out.
_ONE, _MANY, _EITHER = 1, 2, 3
_PLANS: dict[type, tuple[tuple[str, int], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, int], ...]:
    types = {f.name: f.type for f in dataclasses.fields(cls)}
    plan = []
    for name in _child_fields(cls):
        declared = types[name]
        if declared in (str, bool, int) or typing.get_origin(declared) is typing.Literal:
            continue  # text, never a node (`Arg.star`, `Module.encoding`)
        if isinstance(declared, type) and issubclass(declared, cst.CSTNode):
            plan.append((name, _ONE))
        elif typing.get_origin(declared) in (collections.abc.Sequence, list, tuple) and all(
            isinstance(arg, type) and issubclass(arg, cst.CSTNode) for arg in _members(typing.get_args(declared)[:1])
        ):
            plan.append((name, _MANY))
        else:
            plan.append((name, _EITHER))
    _PLANS[cls] = found = tuple(plan)
    return found


def _members(args: tuple) -> list:
    """The classes a type argument names (the members of a Union)."""
    out = []
    for arg in args:
        out.extend(typing.get_args(arg) if typing.get_origin(arg) is typing.Union else [arg])
    return out


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's child nodes that carry code (no whitespace or punctuation), in field order."""
    reader = _READERS.get(type(node))
    if reader is None:
        reader = _reader(type(node))
    return reader(node) if reader else []


def _either(value: object, found: list[cst.CSTNode]) -> None:
    """Append what a field declared as anything (`Optional[...]`, a Union) holds: a node, the
    nodes of a sequence, or nothing (None, text, MaybeSentinel)."""
    kind = _KINDS.get(type(value))
    if kind is None:
        kind = _kind(type(value))
    if kind == _NODE:
        found.append(value)  # type: ignore[arg-type]
    elif kind == _SEQUENCE:
        for item in value:  # type: ignore[attr-defined]
            item_kind = _KINDS.get(type(item))
            if item_kind is None:
                item_kind = _kind(type(item))
            if item_kind == _NODE:
                found.append(item)


# Node class -> a function listing a node's children (the plan's fields, in order), or False for
# a class whose nodes never have any. Generated per class from its plan: one list display
# (`[node.func, *node.args]`) instead of a loop over the plan with a getattr and a branch per
# field, run once per node of every walk (the walks were a tenth of a cold run).
_READERS: dict[type, Callable[[cst.CSTNode], list[cst.CSTNode]] | bool] = {}


def _reader(cls: type) -> Callable[[cst.CSTNode], list[cst.CSTNode]] | bool:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _plan(cls)
    if not plan:
        _READERS[cls] = False
        return False
    fixed = [f"node.{name}" if how == _ONE else f"*node.{name}" for name, how in plan if how != _EITHER]
    if len(fixed) == len(plan):
        body = f"    return [{', '.join(fixed)}]"
    else:  # fields holding a node or not: appended in the plan's order
        lines = ["    found = []"]
        for name, how in plan:
            if how == _ONE:
                lines.append(f"    found.append(node.{name})")
            elif how == _MANY:
                lines.append(f"    found.extend(node.{name})")
            else:
                lines.append(f"    _either(node.{name}, found)")
        body = "\n".join([*lines, "    return found"])
    namespace: dict[str, object] = {"_either": _either}
    # (Field names are identifiers of libcst's dataclasses. Compiled once and kept between runs
    # with the dataclass methods' code when the command installed that store.)
    generated_code.run(f"def read(node):\n{body}\n", namespace)
    reader = namespace["read"]
    _READERS[cls] = reader  # type: ignore[assignment]
    return reader  # type: ignore[return-value]


def is_leaf(cls: type) -> bool:
    """Whether nodes of `cls` never have child nodes: none of their fields is declared to hold one.

    Names, strings, numbers and operators are; a third of the nodes a walk meets are names."""
    plan = _PLANS.get(cls)
    return not (plan if plan is not None else _plan(cls))


# Nested scopes: what `descendants(..., into_scopes=False)` leaves out, and a function's own
# statements stop at. None of them has subclasses: test membership by exact type.
SCOPES = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})


def descendants(node: cst.CSTNode, *, into_scopes: bool = True) -> Iterator[cst.CSTNode]:
    """`node` and everything below it, pre-order; optionally not entering nested functions,
    classes and lambdas (below `node` itself).

    The rules and the summary walk the same subtrees again and again (a function's body once
    per call it makes, per rule, per question), so the second walk of a root lists its nodes and
    later walks read that list (libcst trees are immutable). Entries keep their root, so an id
    reused by another node never answers for it; `forget_walks` drops them after each file."""
    key = (id(node), into_scopes)
    entry = _walked.get(key)
    if entry is not None and entry[0] is node:
        listed = entry[1]
        if listed is None:
            listed = list(_descendants(node, into_scopes))
            _walked[key] = (node, listed)
        return iter(listed)
    if len(_walked) >= _WALKED_LIMIT:
        _walked.clear()  # a caller outside the per-file analysis: keep memory bounded
    _walked[key] = (node, None)  # walked once: listed if it is walked again
    return _descendants(node, into_scopes)


# Root (id, into_scopes) -> (root, its nodes once walked twice, else None); see descendants.
_walked: dict[tuple[int, bool], tuple[cst.CSTNode, list[cst.CSTNode] | None]] = {}
_WALKED_LIMIT = 200_000


def forget_walks() -> None:
    """Drop the lists of walked subtrees (the end of a file's analysis: they hold its tree)."""
    _walked.clear()
    _held.clear()


def holds(root: cst.CSTNode, node: cst.CSTNode, *, into_scopes: bool = True) -> bool:
    """Is `node` `root` itself or below it: `any(n is node for n in descendants(root))`. Rules
    ask it of the same root for each of a function's calls or raises (is it inside this `try`?),
    a walk each; the second question about a root makes the set of the ids below it, and later
    ones look there (an id in the set is a node the entry keeps alive: no other node has it)."""
    key = (id(root), into_scopes)
    entry = _held.get(key)
    if entry is not None and entry[0] is root:
        ids = entry[1]
        if ids is None:
            ids = {id(n) for n in descendants(root, into_scopes=into_scopes)}
            _held[key] = (root, ids)
        return id(node) in ids
    if len(_held) >= _WALKED_LIMIT:
        _held.clear()  # a caller outside the per-file analysis: keep memory bounded
    _held[key] = (root, None)
    return any(n is node for n in descendants(root, into_scopes=into_scopes))


# Root (id, into_scopes) -> (root, the ids below it once asked about twice, else None); see holds.
_held: dict[tuple[int, bool], tuple[cst.CSTNode, set[int] | None]] = {}


def _descendants(node: cst.CSTNode, into_scopes: bool) -> Iterator[cst.CSTNode]:
    stack = [node]
    pop, extend, readers = stack.pop, stack.extend, _READERS  # locals: this loop runs once per node
    while stack:
        current = pop()
        yield current
        reader = readers.get(type(current))
        if reader is None:
            reader = _reader(type(current))
        if not reader:
            continue  # a leaf
        found = reader(current)
        found.reverse()
        if into_scopes or SCOPES.isdisjoint(map(type, found)):  # (a test in C: most nodes hold no scope)
            extend(found)
        else:  # exact types: isinstance against libcst's ABCs is slow
            extend([child for child in found if type(child) not in SCOPES])


class FastVisitor:
    """Subclass and define `visit_<NodeClass>` / `leave_<NodeClass>`; call `walk(node)`.

    Set `self.stopped = True` to end the walk early.
    """

    stopped: bool = False
    _dispatch: dict[type, tuple[Callable | None, Callable | None, bool]]

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._dispatch = {}

    def walk(self, node: cst.CSTNode) -> None:
        cls = type(node)
        self._walk(node, self._dispatch.get(cls) or self._handlers(cls))

    def _walk(self, node: cst.CSTNode, handlers: tuple[Callable | None, Callable | None, bool]) -> None:
        """`walk` with the node's handlers already looked up: the loop over the parent's children
        has them (a walk makes this call once per node, several hundred thousand per corpus)."""
        if self.stopped:
            return
        visit, leave, _ = handlers
        if visit is None or visit(self, node) is not False:
            dispatch = self._dispatch
            for child in children(node):
                child_handlers = dispatch.get(type(child)) or self._handlers(type(child))
                if child_handlers[2]:
                    continue  # a leaf nobody handles: nothing to do there
                self._walk(child, child_handlers)
                if self.stopped:
                    break
        if leave is not None:
            leave(self, node)

    def _handlers(self, cls: type) -> tuple[Callable | None, Callable | None, bool]:
        """(visit_X, leave_X, skip) for node class X; skip: a leaf with neither handler."""
        handlers = self._dispatch.get(cls)
        if handlers is None:
            visit = getattr(type(self), "visit_" + cls.__name__, None)
            leave = getattr(type(self), "leave_" + cls.__name__, None)
            handlers = self._dispatch[cls] = (visit, leave, visit is None and leave is None and is_leaf(cls))
        return handlers


class FindingVisitor(FastVisitor):
    """A FastVisitor looking for one thing: assigning a truthy `found` ends the walk."""

    _found: object = None

    @property
    def found(self):  # type: ignore[no-untyped-def]
        return self._found

    @found.setter
    def found(self, value) -> None:  # type: ignore[no-untyped-def]
        self._found = value
        self.stopped = bool(value) if not isinstance(value, cst.CSTNode) else True
