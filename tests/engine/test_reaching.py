"""Reaching definitions on the control-flow graph, as a frontend user reads them."""

from __future__ import annotations

import textwrap

import libcst as cst

from mcp_lint.engine.libcst_cfg import build_cfg
from mcp_lint.engine.reaching import Definition, ReachingDefinitions

_EMPTY = cst.Module(body=[])


def _solve(source: str, weak: tuple[str, ...] = ()) -> tuple[ReachingDefinitions, dict[str, object]]:
    """Every `name = ...` / `name += ...` line is a definition of `name` (`+=` and the lines in
    `weak` add to the value); returns the solution and the graph nodes by their code."""
    function = cst.parse_module(textwrap.dedent(source)).body[0]
    graph = build_cfg(function)
    nodes = {}
    definitions = []
    for node in graph.nodes:
        if node.syntax is None or not isinstance(node.syntax, cst.BaseSmallStatement):
            continue
        code = _EMPTY.code_for_node(node.syntax).strip()
        nodes[code] = node
        if isinstance(node.syntax, (cst.Assign, cst.AugAssign)):
            target = node.syntax.targets[0].target if isinstance(node.syntax, cst.Assign) else node.syntax.target
            strong = isinstance(node.syntax, cst.Assign) and code not in weak
            definitions.append(Definition(target.value, node, strong, code))
    return ReachingDefinitions(graph, definitions), nodes


def _reaching(solution: ReachingDefinitions, nodes: dict, at: str, key: str) -> set[str]:
    return {d.payload for d in solution.at(nodes[at], key)}


def test_later_assignment_kills_the_earlier_one() -> None:
    solution, nodes = _solve("def f():\n    x = 'a'\n    x = 'b'\n    return x\n")
    assert _reaching(solution, nodes, "return x", "x") == {"x = 'b'"}


def test_each_branch_reaches_the_join() -> None:
    solution, nodes = _solve(
        """
        def f(a):
            if a:
                x = 'yes'
            else:
                x = 'no'
            return x
        """
    )
    assert _reaching(solution, nodes, "return x", "x") == {"x = 'yes'", "x = 'no'"}


def test_store_on_a_path_that_raises_does_not_reach() -> None:
    solution, nodes = _solve(
        """
        def f(a):
            x = 'start'
            try:
                x = fetch(a)
            except OSError:
                x = 'failed'
                raise
            return x
        """
    )
    assert _reaching(solution, nodes, "return x", "x") == {"x = fetch(a)"}


def test_exception_edge_leaves_before_the_statement_stores() -> None:
    solution, nodes = _solve(
        """
        def f(a):
            x = 'start'
            try:
                x = fetch(a)
            except OSError:
                return x
        """
    )
    # `fetch` raised: its value was never stored
    assert _reaching(solution, nodes, "return x", "x") == {"x = 'start'"}


def test_loop_carries_values_around_and_weak_stores_add() -> None:
    solution, nodes = _solve(
        """
        def f(items):
            x = ''
            for item in items:
                x += item
            return x
        """
    )
    assert _reaching(solution, nodes, "return x", "x") == {"x = ''", "x += item"}
    assert _reaching(solution, nodes, "x += item", "x") == {"x = ''", "x += item"}
