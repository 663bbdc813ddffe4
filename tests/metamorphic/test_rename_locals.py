"""Metamorphic: renaming a function's local variables consistently changes no verdict.

Every rule example (the VALID and INVALID code of each rule class) is linted as written and with
each local of each function (names bound by assignment, `for`, `with ... as`, `except ... as`,
`:=`, and comprehension targets; not parameters, globals, imports or attributes) renamed to an
opaque name: the findings (code, row) must be the same. Value flow follows stores, not names."""

from __future__ import annotations

import libcst as cst
import pytest

from mcp_lint.pipeline import lint_source
from mcp_lint.rules import all_rules

from .transforms import BoundNames


class _Locals(BoundNames):
    """The names a function body binds (`bound`), by function (nested functions have their own),
    and those it must keep (`kept`): parameters, globals, nonlocals, imports, nested defs."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: set[str] = set()

    def visit_Param(self, node: cst.Param) -> None:
        self.kept.add(node.name.value)

    def visit_Global(self, node: cst.Global) -> None:
        self.kept.update(item.name.value for item in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.kept.update(item.name.value for item in node.names)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        name = node.asname.name if node.asname else node.name
        if isinstance(name, cst.Name):
            self.kept.add(name.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.kept.add(node.name.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.kept.add(node.name.value)


class _Rename(cst.CSTTransformer):
    """Renames the locals of every function body (module-level names are left alone)."""

    def __init__(self) -> None:
        self.stack: list[dict[str, str]] = []
        self.count = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        found = _Locals()
        node.body.visit(found)
        params = _Locals()
        node.params.visit(params)
        names = sorted(found.bound - found.kept - params.kept - {"self", "cls", "_"})
        mapping = dict(self.stack[-1]) if self.stack else {}
        for name in names:
            self.count += 1
            mapping[name] = f"v{self.count}"
        for name in params.kept:
            mapping.pop(name, None)
        self.stack.append(mapping)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self.stack.pop()
        return updated_node

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # only the object is a name; `.attr` is not
        return False

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.Attribute:
        return updated_node.with_changes(value=original_node.value.visit(self), attr=original_node.attr)

    def visit_Arg(self, node: cst.Arg) -> None:
        return None

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        return updated_node.with_changes(keyword=original_node.keyword)  # `f(name=...)` keywords stay

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if self.stack and original_node.value in self.stack[-1]:
            return updated_node.with_changes(value=self.stack[-1][original_node.value])
        return updated_node


def _renamed(code: str) -> str:
    return cst.parse_module(code).visit(_Rename()).code


def _examples() -> list:
    cases = []
    for rule in all_rules():
        for kind in ("INVALID", "VALID"):
            for index, example in enumerate(getattr(rule, kind), start=1):
                cases.append(pytest.param(rule, example, id=f"{rule.code}-{kind.lower()}-{index}"))
    return cases


def _findings(code: str, rule, target) -> list[tuple[str, int]]:
    findings = lint_source(code, filename="server.py", target=target, select=("MCP0", rule.code))
    return sorted({(f.code, f.location.row) for f in findings})


@pytest.mark.parametrize(("rule", "example"), _examples())
def test_renaming_locals_changes_no_finding(rule, example) -> None:
    renamed = _renamed(example.code)
    assert _findings(renamed, rule, example.target) == _findings(example.code, rule, example.target)


def test_the_renaming_renames_locals_only() -> None:
    code = "import json\n\ndef f(a, *, b):\n    x = json.loads(a)\n    for y in x:\n        b.items.append(y)\n    return g(key=x)\n"
    assert _renamed(code) == "import json\n\ndef f(a, *, b):\n    v1 = json.loads(a)\n    for v2 in v1:\n        b.items.append(v2)\n    return g(key=v1)\n"
