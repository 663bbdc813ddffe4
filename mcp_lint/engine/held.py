"""Branch outcomes that hold on every path to a node of a control-flow graph (any frontend).

    held = HeldOutcomes(graph)
    held.at(graph.node_of(return_stmt))   # ((branch node, True), ...): tests known to hold there

A node is reached under a branch outcome when every path from the entry to it leaves that BRANCH
node along an edge of that outcome: inside `if not ok:`'s body (outcome False of nothing, True of
`not ok`), and also after `if ok: return data` (only the False edge goes on). A must-analysis:
the outcomes at a node are the intersection of those its incoming edges carry. Along an EXCEPTION
edge the source's outcomes at entry flow on (the test that raised has no outcome). What the tests
mean (a failed reply, a falsy verdict) is the caller's to judge: this module only knows the graph.

Not tracked: a local the test reads being assigned again after the branch (the outcome is kept).
"""

from __future__ import annotations

from typing import Optional, Tuple

from mcp_lint.engine.graph import ControlFlowGraph, Node

Outcome = Tuple[int, bool]  # (index of the BRANCH node, the outcome taken)


class HeldOutcomes:
    def __init__(self, graph: ControlFlowGraph) -> None:
        self.graph = graph
        live = graph.reachable()
        state: dict[int, Optional[frozenset[Outcome]]] = {node.index: None for node in graph.nodes}  # None: no path seen yet
        state[graph.entry.index] = frozenset()
        order = [node for node in graph.nodes if node in live]
        changed = True
        while changed:  # source order settles straight-line code in one pass; loops take a few
            changed = False
            for node in order:
                if node is graph.entry:
                    continue
                merged: Optional[frozenset[Outcome]] = None
                for edge in node.predecessors:
                    before = state[edge.source.index]
                    if before is None:
                        continue
                    outcome = graph.branch_outcome(edge)
                    carried = before | {(edge.source.index, outcome)} if outcome is not None else before
                    merged = carried if merged is None else merged & carried
                if merged is not None and merged != state[node.index]:
                    state[node.index] = merged
                    changed = True
        self._state = state

    def at(self, node: Node) -> tuple[tuple[Node, bool], ...]:
        """The (BRANCH node, outcome) pairs that hold whenever control reaches `node`, innermost
        (latest in source order) first; none for a node no path reaches."""
        held = self._state.get(node.index) or frozenset()
        return tuple((self.graph.nodes[index], outcome) for index, outcome in sorted(held, reverse=True))
