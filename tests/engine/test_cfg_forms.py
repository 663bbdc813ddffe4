"""Every statement form libcst can parse has a place in the control-flow graph: the test below
lists one example of each, and fails when libcst grows a statement class no example covers."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import libcst as cst
import pytest

from mcp_lint.engine.libcst_cfg import build_cfg

from .test_cfg import _find, _label


@dataclass(frozen=True)
class Form:
    body: str  # statements of `f`, followed by `after()`
    node: str  # the statement (or compound header) whose edges are checked
    goes: frozenset[str]  # where it goes when it completes or jumps (exceptions apart)
    raises: bool  # whether it has an exceptional edge
    async_: bool = False
    outer: str = ""  # an enclosing function, for `nonlocal`


def _form(body: str, node: str, goes: set[str], *, raises: bool, **extra: object) -> Form:
    return Form(body, node, frozenset(goes), raises, **extra)  # type: ignore[arg-type]


FORMS: dict[str, Form] = {
    "Pass": _form("pass", "pass", {"after()"}, raises=False),
    "Expr": _form("call(a)", "call(a)", {"after()"}, raises=True),
    "Assert": _form("assert a", "assert a", {"after()"}, raises=True),
    "Assign": _form("x = a", "x = a", {"after()"}, raises=False),
    "AnnAssign": _form("x: int = a", "x: int = a", {"after()"}, raises=False),
    "AugAssign": _form("a += 1", "a += 1", {"after()"}, raises=True),
    "Del": _form("del a[0]", "del a[0]", {"after()"}, raises=True),
    "Import": _form("import os", "import os", {"after()"}, raises=True),
    "ImportFrom": _form("from os import path", "from os import path", {"after()"}, raises=True),
    # Deferred to first use: the statement itself cannot fail.
    "LazyImport": _form("lazy import os", "lazy import os", {"after()"}, raises=False),
    "LazyImportFrom": _form("lazy from os import path", "lazy from os import path", {"after()"}, raises=False),
    "TypeAlias": _form("type Rows = list[Row]", "type Rows = list[Row]", {"after()"}, raises=False),
    "Global": _form("global G", "global G", {"after()"}, raises=False),
    "Nonlocal": _form("nonlocal b", "nonlocal b", {"after()"}, raises=False, outer="b = 1"),
    "Raise": _form("raise ValueError(a)", "raise ValueError(a)", set(), raises=True),
    "Return": _form("return a", "return a", {"exit"}, raises=False),
    "Break": _form("for i in a:\n    break", "break", {"after()"}, raises=False),
    "Continue": _form("for i in a:\n    continue", "continue", {"for i in a"}, raises=False),
    "If": _form("if check(a):\n    g()", "if check(a)", {"g()", "after()"}, raises=True),
    "For": _form("for i in a:\n    g(i)", "for i in a", {"g(i)", "after()"}, raises=True),
    "While": _form("while more(a):\n    g()", "while more(a)", {"g()", "after()"}, raises=True),
    "With": _form("with open(a) as h:\n    g(h)", "with open(a) as h", {"g(h)"}, raises=True),
    "Try": _form("try:\n    g()\nexcept OSError:\n    pass", "g()", {"after()", "except OSError"}, raises=True),
    "TryStar": _form("try:\n    g()\nexcept* OSError:\n    pass", "g()", {"after()", "except* OSError"}, raises=True),
    "Match": _form("match a:\n    case 1:\n        g()", "match a", {"case 1"}, raises=False),
    "FunctionDef": _form("def inner():\n    g()", "def inner()", {"after()"}, raises=False),
    "ClassDef": _form("class Local:\n    pass", "class Local", {"after()"}, raises=False),
    "AsyncFor": _form("async for i in a:\n    g(i)", "async for i in a", {"g(i)", "after()"}, raises=True, async_=True),
    "AsyncWith": _form("async with lock(a):\n    g()", "async with lock(a)", {"g()"}, raises=True, async_=True),
}


def _statement_classes() -> set[str]:
    """The concrete statement classes of the installed libcst."""
    found: set[str] = set()
    pending: list[type] = [cst.BaseSmallStatement, cst.BaseCompoundStatement]
    while pending:
        base = pending.pop()
        for sub in base.__subclasses__():
            pending.append(sub)
            if not sub.__name__.startswith("Base") and sub.__module__.startswith("libcst."):
                found.add(sub.__name__)
    return found


def test_every_libcst_statement_class_has_a_form() -> None:
    missing = _statement_classes() - set(FORMS)
    assert not missing, f"statement forms with no control-flow example: {sorted(missing)}"


def _graph_of(form: Form):
    body = textwrap.indent(form.body + "\nafter()", "    ")
    header = "async def f(a):" if form.async_ else "def f(a):"
    source = f"{header}\n{body}\n"
    if form.outer:
        source = f"def outer():\n    {form.outer}\n" + textwrap.indent(source, "    ")
    module = cst.parse_module(source)
    functions = [node for node in _walk(module) if isinstance(node, cst.FunctionDef) and node.name.value == "f"]
    return build_cfg(functions[0], None)


def _walk(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _walk(child)


@pytest.mark.parametrize("name", sorted(FORMS))
def test_each_form_goes_where_python_goes(name: str) -> None:
    if name in {"LazyImport", "LazyImportFrom", "TypeAlias"} and not hasattr(cst, name):
        pytest.skip(f"this libcst has no {name}")
    form = FORMS[name]
    graph = _graph_of(form)
    node = _find(graph, form.node)
    jumps = {_label(n) for n in graph.successors(node, None)} - {"escape"}
    assert jumps == form.goes
    assert ("escape" in {_label(n) for n in graph.successors(node, None)}) is form.raises
    unreachable = {_label(n) for n in graph.unreachable()}
    assert ("after()" in unreachable) is (name in {"Raise", "Return"})

