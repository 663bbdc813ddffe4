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
