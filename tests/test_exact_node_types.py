""".ci/exact_node_types.py: isinstance against a concrete libcst node class becomes an exact type
test (the same answer without ABCMeta's Python-level check); abstract classes are left alone."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import libcst as cst

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("exact_node_types", ROOT / ".ci" / "exact_node_types.py")
assert _spec is not None and _spec.loader is not None
exact = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exact)
CONCRETE = exact.concrete_classes()


def rewrite(body: str) -> str:
    return exact._rewrite("import libcst as cst\n\n" + body, CONCRETE)[0].split("\n", 2)[2]


def test_concrete_classes_have_no_subclasses() -> None:
    for name in CONCRETE:
        assert not getattr(cst, name).__subclasses__()
    assert "Name" in CONCRETE and "Call" in CONCRETE
    assert "BaseExpression" not in CONCRETE and "CSTNode" not in CONCRETE and "BaseString" not in CONCRETE


def test_single_class_becomes_an_exact_test() -> None:
    assert rewrite("if isinstance(node, cst.Name):\n    pass\n") == "if type(node) is cst.Name:\n    pass\n"


def test_negated_test_reads_is_not() -> None:
    assert rewrite("ok = not isinstance(node.func, cst.Attribute)\n") == "ok = type(node.func) is not cst.Attribute\n"


def test_tuple_of_concrete_classes_becomes_membership() -> None:
    assert rewrite("x = [n for n in nodes if isinstance(n, (cst.Tuple, cst.List))]\n") == (
        "x = [n for n in nodes if type(n) in (cst.Tuple, cst.List)]\n"
    )


def test_parentheses_kept_where_the_grammar_needs_them() -> None:
    assert rewrite("same = isinstance(a, cst.Name) == flag\n") == "same = (type(a) is cst.Name) == flag\n"


def test_abstract_classes_are_left_alone() -> None:
    body = "a = isinstance(n, cst.BaseExpression)\nb = isinstance(n, (cst.Name, cst.BaseString))\nc = isinstance(n, str)\n"
    assert rewrite(body) == body


def test_a_module_without_the_libcst_alias_is_left_alone() -> None:
    source = "import libcst\n\nx = isinstance(n, libcst.Name)\n"
    assert exact._rewrite(source, CONCRETE) == (source, 0)


def test_rewritten_answers_match_isinstance() -> None:
    module = cst.parse_module("def f(a, b=1):\n    return [a.b(c) for c in 'xy' if c]\n")
    nodes = []
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
    for name in sorted(CONCRETE):
        cls = getattr(cst, name)
        assert inspect.isclass(cls)
        for node in nodes:
            assert isinstance(node, cls) == (type(node) is cls)


def test_mcp_lint_has_no_pending_rewrite() -> None:
    """After merging code with new isinstance checks: run `python .ci/exact_node_types.py`."""
    assert exact.main(["--check"]) == 0
