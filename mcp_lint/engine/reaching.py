"""Reaching definitions on a control-flow graph (graph.ControlFlowGraph, any frontend).

    defs = [Definition("msg", graph.node_of(stmt), strong=True), ...]
    reaching = ReachingDefinitions(graph, defs)
    reaching.at(graph.node_of(return_stmt), "msg")   # the definitions of msg that may reach it

A definition is a store into a key (a local, or an attribute chain `session.error`) at a node.
A strong definition replaces the key's value (`x = v`, `a, b = v`) and so kills the key's
earlier definitions on its way; a weak one adds to it (`x += v`, `x.append(v)`, `x[k] = v`)
and kills nothing. Along an EXCEPTION edge a node's own definitions have not happened yet (the
statement raised before storing), so the state at the node's entry flows on. Solved by the
usual forward worklist over bit sets (one bit per definition).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Sequence

from mcp_lint.engine.graph import ControlFlowGraph, EdgeKind, Node


@dataclass(frozen=True, eq=False)
class Definition:
    key: str
    node: Node
    strong: bool = True
    payload: object = None  # what the frontend stored (its store record), handed back as is


class ReachingDefinitions:
    def __init__(self, graph: ControlFlowGraph, definitions: Sequence[Definition]) -> None:
        self.graph = graph
        self.definitions = list(definitions)
        gen: dict[int, int] = {}  # by node index: bits of its definitions
        kill: dict[int, int] = {}
        by_key: dict[str, int] = {}
        for bit, definition in enumerate(self.definitions):
            by_key[definition.key] = by_key.get(definition.key, 0) | (1 << bit)
        for bit, definition in enumerate(self.definitions):
            index = definition.node.index
            gen[index] = gen.get(index, 0) | (1 << bit)
            if definition.strong:
                kill[index] = kill.get(index, 0) | by_key[definition.key]
        self._by_key = by_key
        self._entry = self._solve(gen, kill)

    def _solve(self, gen: dict[int, int], kill: dict[int, int]) -> list[int]:
        nodes = self.graph.nodes
        entry = [0] * len(nodes)
        out = [0] * len(nodes)
        pending = deque(range(len(nodes)))
        queued = set(pending)
        while pending:
            index = pending.popleft()
            queued.discard(index)
            node = nodes[index]
            state = 0
            for edge in node.predecessors:
                source = edge.source.index
                state |= entry[source] if edge.kind is EdgeKind.EXCEPTION else out[source]
            new_out = (state & ~kill.get(index, 0)) | gen.get(index, 0)
            if state == entry[index] and new_out == out[index] and index != self.graph.entry.index:
                continue
            entry[index], out[index] = state, new_out
            for edge in node.successors:
                target = edge.target.index
                if target not in queued:
                    queued.add(target)
                    pending.append(target)
        return entry

    def at(self, node: Node, key: str) -> list[Definition]:
        """The definitions of `key` that may reach `node`'s entry (before its own stores)."""
        bits = self._entry[node.index] & self._by_key.get(key, 0)
        out = []
        while bits:
            low = bits & -bits
            out.append(self.definitions[low.bit_length() - 1])
            bits ^= low
        return out

    def reaches(self, definition: Definition, node: Node) -> bool:
        bit = self._bit(definition)
        return bool(self._entry[node.index] >> bit & 1)

    def _bit(self, definition: Definition) -> int:
        index = getattr(self, "_bits", None)
        if index is None:
            index = self._bits = {id(d): bit for bit, d in enumerate(self.definitions)}
        return index[id(definition)]
