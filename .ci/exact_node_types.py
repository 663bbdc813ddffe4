#!/usr/bin/env python3
"""Rewrite `isinstance(x, cst.Name)` as `type(x) is cst.Name` where the class is a concrete libcst
node class, in mcp_lint's own code.

Why: libcst's node classes are ABCs, so every `isinstance` against one that does not match runs
`ABCMeta.__instancecheck__`, a Python-level call (millions per corpus run: a walk tests each node
against several classes). A concrete libcst node class has no subclasses (libcst's own, and
mcp-lint defines none), so an exact type test gives the same answer without that call. Abstract
classes (`cst.BaseExpression`, `cst.BaseString`, ...) and tuples naming one are left as they are.
Patching libcst's metaclass instead would change libcst for every user of the process.

    python .ci/exact_node_types.py            # rewrite mcp_lint/ in place, print the files changed
    python .ci/exact_node_types.py --check    # exit 1 if a rewrite is pending (no writes)

Mechanical and idempotent: after merging a branch that adds new `isinstance` checks, run it again.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from pathlib import Path

import libcst as cst

ROOT = Path(__file__).resolve().parents[1] / "mcp_lint"


def concrete_classes() -> frozenset[str]:
    """libcst's node classes (by the name `cst.<Name>` spells) that have no subclasses."""
    found = set()
    for name, value in vars(cst).items():
        if inspect.isclass(value) and issubclass(value, cst.CSTNode) and not value.__subclasses__():
            found.add(name)
    return frozenset(found)


class _Exact(cst.CSTTransformer):
    def __init__(self, concrete: frozenset[str], alias: str) -> None:
        self.concrete = concrete
        self.alias = alias
        self.changed = 0

    def _class(self, node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value == self.alias
            and node.attr.value in self.concrete
        )

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not (isinstance(updated.func, cst.Name) and updated.func.value == "isinstance" and len(updated.args) == 2):
            return updated
        subject, kinds = updated.args[0], updated.args[1]
        if subject.keyword or kinds.keyword or subject.star or kinds.star:
            return updated
        kinds_value = kinds.value
        if self._class(kinds_value):
            operator: cst.BaseCompOp = cst.Is()
        elif (
            isinstance(kinds_value, cst.Tuple)
            and kinds_value.elements
            and all(isinstance(e, cst.Element) and self._class(e.value) for e in kinds_value.elements)
        ):
            operator = cst.In()
        else:
            return updated
        self.changed += 1
        test = cst.Call(cst.Name("type"), [cst.Arg(subject.value)])
        return cst.Comparison(
            test,
            [cst.ComparisonTarget(operator, kinds_value)],
            lpar=[cst.LeftParen()],
            rpar=[cst.RightParen()],
        )


def _rewrite(source: str, concrete: frozenset[str]) -> tuple[str, int]:
    module = cst.parse_module(source)
    alias = None
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Import):
                    for name in small.names:
                        if isinstance(name.name, cst.Name) and name.name.value == "libcst" and name.asname is not None:
                            alias = name.asname.name.value  # type: ignore[union-attr]
    if alias is None:
        return source, 0
    exact = _Exact(concrete, alias)
    out = module.visit(exact)
    code = out.code
    return _drop_parens(code), exact.changed


def _drop_parens(code: str) -> str:
    """Remove the parentheses around a rewritten test where the grammar does not need them."""
    module = cst.parse_module(code)
    return module.visit(_Parens()).code


class _Parens(cst.CSTTransformer):
    """`(type(x) is cst.Name)` -> `type(x) is cst.Name` where it stands alone: an operand of
    `and`/`or`, after `not`, an `if`/`elif`/`while`/`assert` test, a whole argument, a `return`
    or assigned value, a comprehension's condition, a conditional expression's test."""

    @staticmethod
    def _ours(node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Comparison)
            and len(node.lpar) == 1
            and len(node.comparisons) == 1
            and isinstance(node.comparisons[0].operator, (cst.Is, cst.In))
            and isinstance(node.left, cst.Call)
            and isinstance(node.left.func, cst.Name)
            and node.left.func.value == "type"
        )

    def _strip(self, node: cst.BaseExpression) -> cst.BaseExpression:
        return node.with_changes(lpar=[], rpar=[]) if self._ours(node) else node

    def leave_BooleanOperation(self, original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BooleanOperation:
        return updated.with_changes(left=self._strip(updated.left), right=self._strip(updated.right))

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        if isinstance(updated.operator, cst.Not) and self._ours(updated.expression):
            inner = updated.expression
            assert isinstance(inner, cst.Comparison)
            target = inner.comparisons[0]
            negated = cst.IsNot() if isinstance(target.operator, cst.Is) else cst.NotIn()
            return cst.Comparison(inner.left, [target.with_changes(operator=negated)], lpar=updated.lpar, rpar=updated.rpar)
        return updated

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        return updated.with_changes(test=self._strip(updated.test))

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.While:
        return updated.with_changes(test=self._strip(updated.test))

    def leave_Assert(self, original: cst.Assert, updated: cst.Assert) -> cst.Assert:
        return updated.with_changes(test=self._strip(updated.test))

    def leave_IfExp(self, original: cst.IfExp, updated: cst.IfExp) -> cst.IfExp:
        return updated.with_changes(test=self._strip(updated.test))

    def leave_CompIf(self, original: cst.CompIf, updated: cst.CompIf) -> cst.CompIf:
        return updated.with_changes(test=self._strip(updated.test))

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(value=self._strip(updated.value))

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        return updated.with_changes(value=self._strip(updated.value)) if updated.value is not None else updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        return updated.with_changes(value=self._strip(updated.value))

    def leave_AnnAssign(self, original: cst.AnnAssign, updated: cst.AnnAssign) -> cst.AnnAssign:
        return updated.with_changes(value=self._strip(updated.value)) if updated.value is not None else updated

    def leave_GeneratorExp(self, original: cst.GeneratorExp, updated: cst.GeneratorExp) -> cst.GeneratorExp:
        return updated.with_changes(elt=self._strip(updated.elt))

    def leave_ListComp(self, original: cst.ListComp, updated: cst.ListComp) -> cst.ListComp:
        return updated.with_changes(elt=self._strip(updated.elt))

    def leave_SetComp(self, original: cst.SetComp, updated: cst.SetComp) -> cst.SetComp:
        return updated.with_changes(elt=self._strip(updated.elt))

    def leave_Element(self, original: cst.Element, updated: cst.Element) -> cst.Element:
        return updated.with_changes(value=self._strip(updated.value))

    def leave_Lambda(self, original: cst.Lambda, updated: cst.Lambda) -> cst.Lambda:
        return updated.with_changes(body=self._strip(updated.body))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report pending rewrites, change nothing")
    args = parser.parse_args(argv)
    concrete = concrete_classes()
    # Only files where an isinstance call may name a concrete class are parsed (libcst's parse of
    # every module is most of the time this takes).
    candidate = re.compile(r"isinstance\((?:[^()]|\([^()]*\))*?\bcst\.(?:%s)\b" % "|".join(sorted(concrete)))
    pending = 0
    for path in sorted(ROOT.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not candidate.search(source):
            continue
        code, changed = _rewrite(source, concrete)
        if not changed or code == source:
            continue
        pending += changed
        print(f"{path.relative_to(ROOT.parent)}: {changed}")
        if not args.check:
            path.write_text(code, encoding="utf-8")
    if args.check and pending:
        print(f"{pending} isinstance checks against concrete libcst classes: run .ci/exact_node_types.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
