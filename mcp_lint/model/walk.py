"""A fast CST visitor: the CSTVisitor protocol without libcst's visit machinery.

libcst's `node.visit(visitor)` goes through `_visit_and_replace_children`, the transformer path,
for every node; on this project's workload that costs several times the parse. mcp-lint only
reads the tree, so this walker reads each node's fields directly, skips whitespace and
punctuation (which no rule looks at), and dispatches `visit_<Class>` / `leave_<Class>` like
CSTVisitor: a `visit_` returning False skips the children, `leave_` is still called.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator

import libcst as cst

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


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's child nodes that carry code (no whitespace or punctuation), in field order."""
    found: list[cst.CSTNode] = []
    kinds = _KINDS
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        kind = kinds.get(type(value))
        if kind is None:
            kind = _kind(type(value))
        if kind == _NODE:
            found.append(value)
        elif kind == _SEQUENCE:
            for item in value:
                item_kind = kinds.get(type(item))
                if item_kind is None:
                    item_kind = _kind(type(item))
                if item_kind == _NODE:
                    found.append(item)
    return found


def descendants(node: cst.CSTNode, *, into_scopes: bool = True) -> Iterator[cst.CSTNode]:
    """`node` and everything below it, pre-order; optionally not entering nested functions,
    classes and lambdas (below `node` itself)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in reversed(children(current)):
            if not into_scopes and isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            stack.append(child)


class FastVisitor:
    """Subclass and define `visit_<NodeClass>` / `leave_<NodeClass>`; call `walk(node)`.

    Set `self.stopped = True` to end the walk early.
    """

    stopped: bool = False
    _dispatch: dict[type, tuple[Callable | None, Callable | None]]

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._dispatch = {}

    def walk(self, node: cst.CSTNode) -> None:
        if self.stopped:
            return
        cls = type(node)
        handlers = self._dispatch.get(cls)
        if handlers is None:
            handlers = (getattr(type(self), "visit_" + cls.__name__, None), getattr(type(self), "leave_" + cls.__name__, None))
            self._dispatch[cls] = handlers
        visit, leave = handlers
        if visit is None or visit(self, node) is not False:
            for child in children(node):
                self.walk(child)
                if self.stopped:
                    break
        if leave is not None:
            leave(self, node)


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
