"""A control-flow graph of one function, independent of the parser that built it.

Nodes stand for statements (and the synthetic points control passes through: entry, exit,
escape, an `except` clause's entry, a `finally` block's entry, a `with` statement's exceptional
exit). Each node keeps the frontend's syntax object it stands for (`syntax`) without looking into
it, so a graph built from another parser (tree-sitter, for TypeScript servers) has the same shape
and the same analyses (reaching definitions, reachability) run on it unchanged.

Edges are NORMAL (control falls through or jumps), LOOP_BACK (the end of a loop body, or a
`continue`, back to the loop's header) or EXCEPTION (an exception raised while the source runs).
An EXCEPTION edge leaves its source *before* the source's own effects take place: the assignment
of `x = fetch()` has not happened when `fetch()` raises. Dataflow analyses must propagate a
node's state at entry, not at exit, along such edges (reaching.py does).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable, Iterator


class NodeKind(enum.Enum):
    ENTRY = "entry"  # the function starts here
    EXIT = "exit"  # the function returns (a `return`, or the end of its body)
    ESCAPE = "escape"  # an exception leaves the function
    STATEMENT = "statement"  # a simple statement (assignment, call, return, raise, ...)
    BRANCH = "branch"  # the test of an `if`/`elif`: two successors
    LOOP = "loop"  # a loop's header (`for` target binding, `while` test)
    WITH = "with"  # a `with` header: evaluates the managers, binds the `as` targets
    WITH_EXIT = "with_exit"  # where an exception raised in a `with` body meets the managers' exit
    HANDLER = "handler"  # the entry of an `except` clause (binds its `as` name)
    FINALLY = "finally"  # the entry of a `finally` block
    MATCH = "match"  # a `match` statement's subject
    CASE = "case"  # one `case` pattern (and guard) of a `match`
    DEFINITION = "definition"  # a nested `def`/`class` statement (its body is its own graph)


class EdgeKind(enum.Enum):
    NORMAL = "normal"
    LOOP_BACK = "loop_back"
    EXCEPTION = "exception"


@dataclass(eq=False)
class Node:
    """One point of the graph. `syntax` is the frontend's node (None for entry, exit, escape)."""

    index: int
    kind: NodeKind
    syntax: object | None = None
    successors: list[Edge] = field(default_factory=list, repr=False)
    predecessors: list[Edge] = field(default_factory=list, repr=False)

    def __hash__(self) -> int:
        return self.index


@dataclass(frozen=True, eq=False)
class Edge:
    source: Node
    target: Node
    kind: EdgeKind


class ControlFlowGraph:
    """The graph of one function body.

    `entry`, `exit` and `escape` are synthetic nodes; `nodes` lists every node in build order
    (source order for statements). `node_of(syntax)` finds the node of a frontend syntax object
    (a statement, a clause, a case, a loop or `with` header). `shadowed_handlers` are the
    `except` clauses an earlier clause of the same `try` already catches everything of: they get
    no incoming edge, so their statements are unreachable.
    """

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self._by_syntax: dict[int, Node] = {}
        self.entry = self.add(NodeKind.ENTRY)
        self.exit = self.add(NodeKind.EXIT)
        self.escape = self.add(NodeKind.ESCAPE)
        self.shadowed_handlers: tuple[object, ...] = ()
        self._reachable: frozenset[Node] | None = None
        # The NORMAL edges out of a BRANCH node taken when its test holds (into the body), by
        # (source index, target index); every other NORMAL edge out of a BRANCH is taken when
        # the test fails (into the `else`, the `elif`, or the statement after the `if`).
        self._taken_when_true: set[tuple[int, int]] = set()

    # Building (frontends only).
    def add(self, kind: NodeKind, syntax: object | None = None) -> Node:
        node = Node(len(self.nodes), kind, syntax)
        self.nodes.append(node)
        if syntax is not None and kind is not NodeKind.WITH_EXIT:
            self._by_syntax.setdefault(id(syntax), node)
        return node

    def connect(self, source: Node, target: Node, kind: EdgeKind = EdgeKind.NORMAL) -> None:
        if any(edge.target is target and edge.kind is kind for edge in source.successors):
            return
        edge = Edge(source, target, kind)
        source.successors.append(edge)
        target.predecessors.append(edge)
        self._reachable = None

    def mark_taken_when_true(self, source: Node, edges: Iterable[Edge]) -> None:
        """Record that `edges` (out of the BRANCH `source`) are taken when its test holds."""
        for edge in edges:
            if edge.source is source and edge.kind is EdgeKind.NORMAL:
                self._taken_when_true.add((source.index, edge.target.index))

    # Reading.
    def branch_outcome(self, edge: Edge) -> bool | None:
        """The outcome of the BRANCH test `edge` is taken on: True into its body, False past it;
        None for an edge out of any other node, or an exceptional edge (the test raised)."""
        if edge.source.kind is not NodeKind.BRANCH or edge.kind is not EdgeKind.NORMAL:
            return None
        return (edge.source.index, edge.target.index) in self._taken_when_true

    def node_of(self, syntax: object) -> Node | None:
        return self._by_syntax.get(id(syntax))

    def successors(self, node: Node, kinds: Iterable[EdgeKind] | None = None) -> list[Node]:
        wanted = None if kinds is None else frozenset(kinds)
        return [edge.target for edge in node.successors if wanted is None or edge.kind in wanted]

    def predecessors(self, node: Node, kinds: Iterable[EdgeKind] | None = None) -> list[Node]:
        wanted = None if kinds is None else frozenset(kinds)
        return [edge.source for edge in node.predecessors if wanted is None or edge.kind in wanted]

    def edges(self) -> Iterator[Edge]:
        for node in self.nodes:
            yield from node.successors

    def reachable(self) -> frozenset[Node]:
        """The nodes some path from the entry reaches (any edge kind)."""
        if self._reachable is None:
            seen = {self.entry}
            stack = [self.entry]
            while stack:
                for edge in stack.pop().successors:
                    if edge.target not in seen:
                        seen.add(edge.target)
                        stack.append(edge.target)
            self._reachable = frozenset(seen)
        return self._reachable

    def path_exists(self, source: Node, target: Node, kinds: Iterable[EdgeKind] | None = None) -> bool:
        """Can control go from `source` to `target` (along edges of `kinds`, all when None)?"""
        wanted = None if kinds is None else frozenset(kinds)
        seen = {source}
        stack = [source]
        while stack:
            for edge in stack.pop().successors:
                if wanted is not None and edge.kind not in wanted:
                    continue
                if edge.target is target:
                    return True
                if edge.target not in seen:
                    seen.add(edge.target)
                    stack.append(edge.target)
        return False

    def is_reachable(self, syntax: object) -> bool:
        node = self.node_of(syntax)
        return node is not None and node in self.reachable()

    def unreachable(self) -> list[Node]:
        """Statement-like nodes no path from the entry reaches, in source order."""
        live = self.reachable()
        synthetic = (NodeKind.ENTRY, NodeKind.EXIT, NodeKind.ESCAPE, NodeKind.WITH_EXIT, NodeKind.FINALLY)
        return [node for node in self.nodes if node not in live and node.kind not in synthetic]

    def exception_reaches(self, source: Node, target: Node) -> bool:
        """Can an exception raised at `source` arrive at `target` (an `except` clause's entry, or
        the escape) before another clause takes it: along EXCEPTION edges, through the exits of
        `with` statements and the `finally` blocks it passes on its way out."""
        seen = {source}
        stack = [source]
        while stack:
            for edge in stack.pop().successors:
                if edge.kind is not EdgeKind.EXCEPTION:
                    continue
                reached = edge.target
                if reached is target:
                    return True
                if reached in seen:
                    continue
                seen.add(reached)
                if reached.kind is NodeKind.WITH_EXIT:
                    stack.append(reached)
                elif reached.kind is NodeKind.FINALLY and self.path_exists(reached, target):
                    return True  # the `finally` block runs, then the exception goes on
        return False
