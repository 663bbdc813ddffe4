"""Branch outcomes that hold on every path to a statement (engine.held), as a frontend user
reads them: inside a branch, after a branch that left, merged away where paths join."""

from __future__ import annotations

import textwrap

import libcst as cst

from mcp_lint.engine.held import HeldOutcomes
from mcp_lint.engine.libcst_cfg import build_cfg

_EMPTY = cst.Module(body=[])


def _held(source: str) -> dict[str, set[tuple[str, bool]]]:
    """For each simple statement (by its code): the (test code, outcome) pairs that hold there."""
    function = cst.parse_module(textwrap.dedent(source)).body[0]
    graph = build_cfg(function)
    held = HeldOutcomes(graph)
    out = {}
    for node in graph.nodes:
        if isinstance(node.syntax, cst.BaseSmallStatement):
            code = _EMPTY.code_for_node(node.syntax).strip()
            out[code] = {(_EMPTY.code_for_node(branch.syntax.test), outcome) for branch, outcome in held.at(node)}
    return out


def test_inside_a_branch_its_test_holds_and_in_the_else_it_fails() -> None:
    held = _held("""
        def f(ok):
            if ok:
                return 'yes'
            else:
                return 'no'
    """)
    assert held["return 'yes'"] == {("ok", True)}
    assert held["return 'no'"] == {("ok", False)}


def test_after_a_branch_that_leaves_its_test_failed() -> None:
    held = _held("""
        def f(ok, why):
            if ok:
                return 'done'
            log(why)
            return why
    """)
    assert held["return why"] == {("ok", False)}
    assert held["log(why)"] == {("ok", False)}


def test_where_both_outcomes_join_nothing_holds() -> None:
    held = _held("""
        def f(ok):
            if ok:
                x = 1
            else:
                x = 2
            return x
    """)
    assert held["return x"] == set()
    assert held["x = 1"] == {("ok", True)}


def test_elif_holds_the_earlier_test_failed_and_its_own_held() -> None:
    held = _held("""
        def f(a, b):
            if a:
                return 1
            elif b:
                return 2
            return 3
    """)
    assert held["return 2"] == {("a", False), ("b", True)}
    assert held["return 3"] == {("a", False), ("b", False)}


def test_a_loop_body_keeps_what_held_before_the_loop_and_an_exception_path_too() -> None:
    held = _held("""
        def f(ok, rows):
            if ok:
                return 'fine'
            for row in rows:
                note(row)
            try:
                send()
            except OSError:
                return 'unsent'
            return 'sent'
    """)
    assert held["note(row)"] == {("ok", False)}
    assert held["return 'unsent'"] == {("ok", False)}
    assert held["return 'sent'"] == {("ok", False)}


def test_unreachable_statement_holds_nothing() -> None:
    held = _held("""
        def f(ok):
            return 1
            x = 2
    """)
    assert held["x = 2"] == set()
