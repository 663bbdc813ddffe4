"""The libcst frontend of the control-flow graph: `build_cfg(function)` for one `def`.

    graph = build_cfg(function_def, class_bases={"NotFound": ("LookupError",)})
    graph.successors(graph.node_of(statement))      # nodes control may go to next
    graph.is_reachable(statement)                    # False after a `return`, in a shadowed clause
    graph.shadowed_handlers                          # `except` clauses that can never run

Nodes are made for each small statement (`x = 1`, `return x`, `raise E`, a call line), each
compound statement's header (`if` test, loop header, `with` items, `match` subject, each `case`),
each `except` clause (HANDLER, binding its `as` name), each `finally` block's entry (FINALLY) and,
where an exception leaves a `with` body, the managers' exit (WITH_EXIT). A nested `def`/`class`
is one DEFINITION node: its body is its own graph. `node_of` finds a node by its libcst node
(a small statement, `cst.If`, `cst.For`, `cst.While`, `cst.With`, `cst.ExceptHandler`,
`cst.Finally`, `cst.Match`, `cst.MatchCase`, a nested `cst.FunctionDef`/`cst.ClassDef`).

What the graph says, statement by statement:
- `if`/`elif`/`else`: the test's node has an edge to each branch (or past the statement).
- `for`/`while` (and `async for`): the header goes to the body and, when the loop is done, to
  its `else` or past it; the body's end and `continue` go back to the header (LOOP_BACK);
  `break` goes past the `else`. `while True:` ends only by `break` (or a return, a raise).
- `try`: a statement of the body that may raise has an EXCEPTION edge to each `except` clause in
  order, and further out unless a clause catches everything (bare, `BaseException`,
  `Exception`); the `else` runs after the body completes; `finally` is entered from every way
  out (normal, return, break, continue, exception) and its end goes on to each of them. The
  `finally` block is one copy, so its end is joined to every continuation that entered it.
- A clause for a class an earlier clause of the same `try` already catches (`except Exception`
  then `except ValueError`; by the builtin exception tree and `class_bases`, the project's classes
  by the names written in the clauses -> their bases) is shadowed: no edge enters it.
- `with` (and `async with`): its header may raise outward; an exception in its body goes to the
  WITH_EXIT node and on outward, and also past the statement for `suppress(...)` managers.
- `match`: the subject goes to the first `case`; each `case` to its body and to the next case;
  the last case (or an irrefutable `case _:`/`case name:` without guard) ends the chain.
- `return` goes to the exit (through any `finally`); `raise` only has EXCEPTION edges.
Statements that cannot raise (`pass`, `x = y`, `return "text"`) have no EXCEPTION edge; any
other statement may raise.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Mapping, Sequence, Union

import libcst as cst

from mcp_lint.engine.graph import ControlFlowGraph, EdgeKind, Node, NodeKind

# Class names written in `except` clauses -> the names of their bases, as written where defined.
ClassBases = Mapping[str, Sequence[str]]

_CATCH_ALL = frozenset({"BaseException", "Exception"})
_BARE = ("BaseException",)
_SUPPRESSORS = frozenset({"suppress"})
_RETURN, _BREAK, _CONTINUE, _RAISE = "return", "break", "continue", "raise"


def build_cfg(function: cst.FunctionDef, class_bases: ClassBases | None = None) -> ControlFlowGraph:
    """The control-flow graph of `function`'s body (nested functions and classes not entered)."""
    builder = _Builder(class_bases or {})
    end = builder.block(function.body, [builder.graph.entry])
    builder.link(end, builder.graph.exit)
    builder.graph.shadowed_handlers = tuple(builder.shadowed)
    return builder.graph


def caught_classes(handler: cst.ExceptHandler | cst.ExceptStarHandler) -> tuple[str, ...] | None:
    """The class names a clause catches as written (`("BaseException",)` for a bare `except`),
    None when one is not a plain name (`except ERRORS_FROM_CONFIG()`)."""
    if handler.type is None:
        return _BARE
    exprs = [el.value for el in handler.type.elements] if type(handler.type) is cst.Tuple else [handler.type]
    names = []
    for expr in exprs:
        name = _dotted(expr)
        if name is None:
            return None
        names.append(name[len("builtins.") :] if name.startswith("builtins.") else name)
    return tuple(names)


def shadowed_clauses(node: cst.Try | cst.TryStar, class_bases: ClassBases | None = None) -> frozenset[int]:
    """Indexes of the clauses of `node` that an earlier clause already catches everything of."""
    if len(node.handlers) < 2:
        return frozenset()
    bases = class_bases or {}
    earlier: list[str] = []
    out = set()
    for index, handler in enumerate(node.handlers):
        names = caught_classes(handler)
        if names is None:
            continue  # unknown classes: shadow nothing, and are not shadowed
        if earlier and all(any(is_subclass(name, other, bases) for other in earlier) for name in names):
            out.add(index)
        earlier.extend(names)
    return frozenset(out)


# Library classes derived from BaseException directly, not from Exception (cancellation and
# green-thread exits): an `except Exception` does not catch them. By the last part of the name.
_NOT_EXCEPTIONS = frozenset({"CancelledError", "Cancelled", "GreenletExit", "Timeout"})


def is_subclass(name: str, other: str, bases: ClassBases, depth: int = 0) -> bool:
    """Is class `name` (as written) `other` or derived from it, as far as builtins and `bases`
    tell? A class neither builtin nor in `bases` (a library's) is taken to derive from
    `Exception`, as exception classes do but those of _NOT_EXCEPTIONS."""
    if name == other or other == "BaseException":
        return True
    found, base_class = _builtin_exception(name), _builtin_exception(other)
    if found is not None and base_class is not None:
        return issubclass(found, base_class)
    if depth > 20:
        return False
    known = bases.get(name)
    if known:
        return any(is_subclass(base, other, bases, depth + 1) for base in known)
    return found is None and other == "Exception" and name.rsplit(".", 1)[-1] not in _NOT_EXCEPTIONS


def _builtin_exception(name: str) -> type | None:
    found = getattr(builtins, name, None) if "." not in name else None
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def _dotted(expr: cst.BaseExpression) -> str | None:
    if type(expr) is cst.Name:
        return expr.value
    if type(expr) is cst.Attribute:
        inner = _dotted(expr.value)
        return f"{inner}.{expr.attr.value}" if inner else None
    return None


@dataclass
class _Loop:
    header: Node
    breaks: list[Node] = field(default_factory=list)


@dataclass
class _Handlers:
    live: list[Node]
    catches_all: bool


@dataclass
class _Finally:
    node: Node
    continuations: set[str] = field(default_factory=set)


@dataclass
class _With:
    exit: Node


_Frame = Union[_Loop, _Handlers, _Finally, _With]


class _Builder:
    def __init__(self, class_bases: ClassBases) -> None:
        self.graph = ControlFlowGraph()
        self.class_bases = class_bases
        self.frames: list[_Frame] = []
        self.shadowed: list[cst.CSTNode] = []

    def link(self, frontier: list[Node], target: Node, kind: EdgeKind = EdgeKind.NORMAL) -> None:
        for node in frontier:
            self.graph.connect(node, target, kind)

    def block(self, suite: cst.BaseSuite | cst.Else | cst.Finally, frontier: list[Node]) -> list[Node]:
        """Build the statements of `suite` after `frontier`; the nodes that complete normally."""
        kind = type(suite)
        if kind is cst.Else or kind is cst.Finally:
            suite = suite.body
            kind = type(suite)
        # Exact types (ABC isinstance checks are slow): a one-line suite holds small statements.
        if kind is cst.SimpleStatementSuite:
            for small in suite.body:
                frontier = self.small(small, frontier)
            return frontier
        for statement in suite.body:
            frontier = self.statement(statement, frontier)
        return frontier

    def statement(self, node: cst.BaseStatement, frontier: list[Node]) -> list[Node]:
        kind = type(node)
        if kind is cst.SimpleStatementLine:
            for small in node.body:
                frontier = self.small(small, frontier)
            return frontier
        if kind is cst.If:
            return self.if_(node, frontier)
        if kind is cst.For or kind is cst.While:
            return self.loop(node, frontier)
        if kind is cst.With:
            return self.with_(node, frontier)
        if kind is cst.Try or kind is cst.TryStar:
            return self.try_(node, frontier)
        if kind is cst.Match:
            return self.match(node, frontier)
        # A nested def/class: defining it runs its decorators (and defaults), not its body.
        definition = self.add(NodeKind.DEFINITION, node, frontier)
        if getattr(node, "decorators", ()):
            self.raise_from(definition)
        return [definition]

    def add(self, kind: NodeKind, syntax: object, frontier: list[Node]) -> Node:
        node = self.graph.add(kind, syntax)
        self.link(frontier, node)
        return node

    def small(self, node: cst.BaseSmallStatement, frontier: list[Node]) -> list[Node]:
        made = self.add(NodeKind.STATEMENT, node, frontier)
        kind = type(node)
        if kind is cst.Raise:
            self.raise_from(made)
            return []
        if _may_raise(node):
            self.raise_from(made)
        if kind is cst.Return:
            self.jump(made, _RETURN)
            return []
        if kind is cst.Break:
            self.jump(made, _BREAK)
            return []
        if kind is cst.Continue:
            self.jump(made, _CONTINUE)
            return []
        return [made]

    # Where exceptions and jumps go.
    def exception_targets(self) -> list[Node]:
        targets: list[Node] = []
        for frame in reversed(self.frames):
            if isinstance(frame, _Handlers):
                targets.extend(frame.live)
                if frame.catches_all:
                    return targets
            elif isinstance(frame, _Finally):
                frame.continuations.add(_RAISE)
                targets.append(frame.node)
                return targets
            elif isinstance(frame, _With):
                targets.append(frame.exit)
                return targets
        targets.append(self.graph.escape)
        return targets

    def raise_from(self, node: Node) -> None:
        for target in self.exception_targets():
            self.graph.connect(node, target, EdgeKind.EXCEPTION)

    def jump(self, node: Node, how: str) -> None:
        """A `return`, `break` or `continue` at `node`: through the `finally` blocks on the way."""
        for frame in reversed(self.frames):
            if isinstance(frame, _Finally):
                frame.continuations.add(how)
                self.graph.connect(node, frame.node)
                return
            if isinstance(frame, _Loop) and how != _RETURN:
                if how == _BREAK:
                    frame.breaks.append(node)
                else:
                    self.graph.connect(node, frame.header, EdgeKind.LOOP_BACK)
                return
        self.graph.connect(node, self.graph.exit)

    # Compound statements.
    def if_(self, node: cst.If, frontier: list[Node]) -> list[Node]:
        test = self.add(NodeKind.BRANCH, node, frontier)
        if not _simple(node.test):
            self.raise_from(test)
        before = len(test.successors)
        ends = self.block(node.body, [test])
        self.graph.mark_taken_when_true(test, test.successors[before:])
        if node.orelse is None:
            return ends + [test]
        if type(node.orelse) is cst.If:  # `elif`
            return ends + self.if_(node.orelse, [test])
        return ends + self.block(node.orelse, [test])

    def loop(self, node: cst.For | cst.While, frontier: list[Node]) -> list[Node]:
        header = self.add(NodeKind.LOOP, node, frontier)
        if type(node) is cst.For or not _simple(node.test):
            self.raise_from(header)  # iterating (or the test) may raise
        frame = _Loop(header)
        self.frames.append(frame)
        ends = self.block(node.body, [header])
        self.frames.pop()
        self.link(ends, header, EdgeKind.LOOP_BACK)
        done = [] if type(node) is cst.While and _always_true(node.test) else [header]
        if node.orelse is not None:
            done = self.block(node.orelse, done)
        return done + frame.breaks

    def with_(self, node: cst.With, frontier: list[Node]) -> list[Node]:
        header = self.add(NodeKind.WITH, node, frontier)
        self.raise_from(header)
        exit_node = self.graph.add(NodeKind.WITH_EXIT, node)
        self.frames.append(_With(exit_node))
        ends = self.block(node.body, [header])
        self.frames.pop()
        if exit_node.predecessors:
            self.raise_from(exit_node)
            if any(_last_name(item.item) in _SUPPRESSORS for item in node.items):
                ends = ends + [exit_node]
        return ends

    def try_(self, node: cst.Try | cst.TryStar, frontier: list[Node]) -> list[Node]:
        final = _Finally(self.graph.add(NodeKind.FINALLY, node.finalbody)) if node.finalbody is not None else None
        shadowed = shadowed_clauses(node, self.class_bases)
        clauses = [self.graph.add(NodeKind.HANDLER, handler) for handler in node.handlers]
        live = [clause for index, clause in enumerate(clauses) if index not in shadowed]
        self.shadowed.extend(node.handlers[index] for index in sorted(shadowed))
        catches_all = any(
            index not in shadowed and (caught_classes(handler) or ("?",))[0] in _CATCH_ALL
            for index, handler in enumerate(node.handlers)
        )
        if final is not None:
            self.frames.append(final)
        self.frames.append(_Handlers(live, catches_all))
        ends = self.block(node.body, frontier)
        self.frames.pop()
        if node.orelse is not None:
            ends = self.block(node.orelse, ends)
        for handler, clause in zip(node.handlers, clauses):
            ends = ends + self.block(handler.body, [clause])
        if final is None:
            return ends
        self.frames.pop()
        self.link(ends, final.node)
        final_ends = self.block(node.finalbody, [final.node])
        for how in sorted(final.continuations):
            for end in final_ends:
                if how == _RAISE:
                    self.raise_from(end)
                else:
                    self.jump(end, how)
        return final_ends if ends else []

    def match(self, node: cst.Match, frontier: list[Node]) -> list[Node]:
        subject = self.add(NodeKind.MATCH, node, frontier)
        if not _simple(node.subject):
            self.raise_from(subject)
        previous = [subject]
        ends: list[Node] = []
        for case in node.cases:
            made = self.add(NodeKind.CASE, case, previous)
            ends += self.block(case.body, [made])
            previous = [] if case.guard is None and _irrefutable(case.pattern) else [made]
        return ends + previous


def _irrefutable(pattern: cst.MatchPattern) -> bool:
    if type(pattern) is cst.MatchAs:
        return pattern.pattern is None or _irrefutable(pattern.pattern)
    if type(pattern) is cst.MatchOr:
        return any(_irrefutable(element.pattern) for element in pattern.patterns)
    return False


def _always_true(test: cst.BaseExpression) -> bool:
    return (type(test) is cst.Name and test.value == "True") or (type(test) is cst.Integer and test.value not in {"0", "0x0"})


def _last_name(expr: cst.BaseExpression) -> str:
    if type(expr) is cst.Call:
        expr = expr.func
    name = _dotted(expr) or ""
    return name.rsplit(".", 1)[-1]


_CONSTANTS = frozenset({cst.Name, cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary, cst.Ellipsis})
# A type alias's value and a lazy import's module are evaluated on first use, not where they stand.
_DEFERRED = tuple(getattr(cst, name) for name in ("TypeAlias", "LazyImport", "LazyImportFrom") if hasattr(cst, name))
_NEVER_RAISE = (cst.Pass, cst.Break, cst.Continue, cst.Global, cst.Nonlocal, *_DEFERRED)


def _simple(expr: cst.BaseExpression | None) -> bool:
    """An expression that cannot raise (as far as a reader is concerned): names, literals, and
    literal containers, f-strings and comparisons of those."""
    if expr is None or type(expr) in _CONSTANTS:
        return True
    if type(expr) is cst.ConcatenatedString:
        return _simple(expr.left) and _simple(expr.right)
    if type(expr) is cst.FormattedString:
        return all(type(part) is not cst.FormattedStringExpression or _simple(part.expression) for part in expr.parts)
    if type(expr) in (cst.Tuple, cst.List, cst.Set):
        return all(type(el) is not cst.StarredElement and _simple(el.value) for el in expr.elements)
    if type(expr) is cst.Dict:
        return all(type(el) is cst.DictElement and _simple(el.key) and _simple(el.value) for el in expr.elements)
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Not:
        return _simple(expr.expression)
    if type(expr) is cst.BooleanOperation:
        return _simple(expr.left) and _simple(expr.right)
    if type(expr) is cst.Comparison:
        return all(
            type(c.operator) in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual) and _simple(c.comparator)
            for c in expr.comparisons
        ) and _simple(expr.left)
    return False


def _may_raise(node: cst.BaseSmallStatement) -> bool:
    if isinstance(node, _NEVER_RAISE):
        return False
    if type(node) is cst.Return:
        return not _simple(node.value)
    if type(node) is cst.Expr:
        return not _simple(node.value)
    if type(node) is cst.Assign:
        return not (all(type(t.target) is cst.Name for t in node.targets) and _simple(node.value))
    if type(node) is cst.AnnAssign:
        return not (type(node.target) is cst.Name and _simple(node.value))
    return True
