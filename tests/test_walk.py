"""The fast walker reads the same children as a plain field-by-field reading of the tree."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import libcst as cst
import pytest

from mcp_lint.model import walk

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "mcp_lint").rglob("*.py"), *(ROOT / "examples").rglob("*.py"), *(ROOT / "tests" / "rules").glob("*.py")])
# Syntax the sources above may not use.
EXTRA = """\
async def f(a, /, b: int = 1, *args, c, **kw) -> None:
    async with x as (y, z), w:
        async for i in range(3):
            yield i
    match command.split():
        case [action, *rest] if rest:
            pass
        case {"k": v, **others}:
            pass
        case Point(x=0) | None:
            pass
    try:
        pass
    except* (ValueError, TypeError) as group:
        raise
    lam = lambda q=1, *r: q
    print(f"{a!r:>{b}} {'nested'}", *args, **kw)
    global g
    del a[1:2, ::3]
    assert (n := len(args)) > 0, "message"
    return [i for i in range(3) if i] or {k: v for k, v in kw.items()} or {*args}
"""


def reference_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Every CSTNode in a code-carrying field, by isinstance: slow and obviously right."""
    found: list[cst.CSTNode] = []
    for field in dataclasses.fields(node):
        if field.name in walk._SKIPPED_FIELDS or field.name.startswith("whitespace"):
            continue
        value = getattr(node, field.name)
        if isinstance(value, cst.CSTNode):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(item for item in value if isinstance(item, cst.CSTNode))
    return found


def every_node(module: cst.Module) -> list[cst.CSTNode]:
    out, stack = [], [module]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reference_children(node))
    return out


@pytest.mark.parametrize("source", [*SOURCES, None], ids=lambda p: p.name if p else "extra-syntax")
def test_children_and_leaves_match_a_plain_reading(source: Path | None) -> None:
    module = cst.parse_module(source.read_text(encoding="utf-8") if source else EXTRA)
    for node in every_node(module):
        expected = reference_children(node)
        assert walk.children(node) == expected, type(node).__name__
        if walk.is_leaf(type(node)):
            assert expected == [], type(node).__name__


def test_descendants_and_a_visitor_see_every_node_in_order() -> None:
    module = cst.parse_module(EXTRA)
    nodes = list(walk.descendants(module))
    assert [type(n) for n in nodes] == [type(n) for n in _preorder(module)]

    class Names(walk.FastVisitor):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def visit_Name(self, node: cst.Name) -> None:
            self.seen.append(node.value)

    visitor = Names()
    visitor.walk(module)
    assert visitor.seen == [n.value for n in nodes if isinstance(n, cst.Name)]


def _preorder(node: cst.CSTNode) -> list[cst.CSTNode]:
    out = [node]
    for child in reference_children(node):
        out.extend(_preorder(child))
    return out


@pytest.mark.parametrize("into_scopes", [True, False])
def test_a_walk_repeated_over_a_subtree_sees_what_the_first_walk_saw(into_scopes: bool) -> None:
    module = cst.parse_module(EXTRA + "\n\nclass C:\n    def m(self):\n        return [lambda q: q for _ in ()]\n")
    for node in every_node(module):
        first = list(walk.descendants(node, into_scopes=into_scopes))
        partial = next(walk.descendants(node, into_scopes=into_scopes))  # a walk left early
        assert partial is node
        assert list(walk.descendants(node, into_scopes=into_scopes)) == first
        assert list(walk.descendants(node, into_scopes=into_scopes)) == first
    body = module.body[0]
    assert isinstance(body, cst.FunctionDef)
    inner = {type(n) for n in walk.descendants(body.body, into_scopes=False)}
    assert cst.Lambda not in inner and cst.FunctionDef not in inner
    walk.forget_walks()


def test_a_listed_walk_never_answers_for_another_node_with_the_same_id() -> None:
    # Trees dropped without forgetting their walks: a later tree's nodes may be allocated where
    # theirs were, and must still be walked as themselves.
    texts = ["x = 1\n", "def f():\n    return g(y)\n", "import os\n", "try:\n    a()\nexcept E as e:\n    b(e)\n"]
    for round_ in range(40):
        module = cst.parse_module(texts[round_ % len(texts)] * (1 + round_ % 3))
        for node in every_node(module):
            list(walk.descendants(node))
        assert list(walk.descendants(module)) == _preorder(module)
        del module
    walk.forget_walks()


@pytest.mark.parametrize("into_scopes", [True, False])
def test_holds_answers_as_a_walk_does_asked_once_or_again(into_scopes: bool) -> None:
    module = cst.parse_module(EXTRA + "\n\nclass C:\n    def m(self):\n        return [lambda q: q for _ in ()]\n")
    nodes = every_node(module)
    roots = [n for n in nodes if type(n) in (cst.FunctionDef, cst.IndentedBlock, cst.Try, cst.Call, cst.ClassDef)]
    other = cst.parse_module("x = g(1)\n")  # nodes of another tree are never held
    for _ in range(3):  # the first question walks, later ones read the set of ids
        for root in roots:
            below = {id(n) for n in walk.descendants(root, into_scopes=into_scopes)}
            for node in nodes:
                assert walk.holds(root, node, into_scopes=into_scopes) is (id(node) in below)
            assert walk.holds(root, root, into_scopes=into_scopes)
            assert not any(walk.holds(root, n, into_scopes=into_scopes) for n in every_node(other))
    walk.forget_walks()
    assert not walk._held
