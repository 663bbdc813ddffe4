"""Every rule class's own VALID/INVALID examples (Fixit-style), run through the whole pipeline."""

from __future__ import annotations

import pytest

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source
from mcp_lint.registry import get_rule
from mcp_lint.rules import all_rules
from mcp_lint.rules.base import Example, Rule


def _cases(kind: str) -> list:
    cases = []
    for rule in all_rules():
        for index, example in enumerate(getattr(rule, kind), start=1):
            cases.append(pytest.param(rule, example, id=f"{rule.code}-{kind.lower()}-{index}"))
    return cases


def _rows(rule: Rule, example: Example) -> list[int]:
    # The default selection plus the rule itself: a rule that is off by default (MCP007) runs too.
    findings = lint_source(example.code, filename="server.py", target=example.target, select=("MCP0", rule.code))
    return sorted({f.location.row for f in findings if f.code == rule.code})


@pytest.mark.parametrize(("rule", "example"), _cases("INVALID"))
def test_invalid_example_is_flagged_on_its_rows(rule: Rule, example: Example) -> None:
    assert example.flagged, "an INVALID example must name the rows it expects"
    assert _rows(rule, example) == sorted(set(example.flagged))


@pytest.mark.parametrize(("rule", "example"), _cases("VALID"))
def test_valid_example_is_not_flagged(rule: Rule, example: Example) -> None:
    assert _rows(rule, example) == []


@pytest.mark.parametrize("rule", all_rules(), ids=[r.code for r in all_rules()])
def test_rule_has_examples_and_matches_the_registry(rule: Rule) -> None:
    info = get_rule(rule.code)
    assert info is not None and info.name == rule.name
    assert rule.INVALID and rule.VALID


def _fixed(rule: Rule, example: Example, text: str) -> str:
    """`--fix --unsafe-fixes` with only this rule selected, as Fixit applies one rule's fix."""
    outcome = fix_source(
        text, lambda source: lint_source(source, filename="server.py", target=example.target, select=(rule.code,)), unsafe=True
    )
    assert outcome.error is None, outcome.error
    return outcome.fixed


@pytest.mark.parametrize(("rule", "example"), _cases("INVALID"))
def test_invalid_example_fixes_to_its_expected_code(rule: Rule, example: Example) -> None:
    info = get_rule(rule.code)
    assert info is not None
    if info.fix_applicability not in {"safe", "unsafe"}:
        assert example.fixed is None, "a rule without an applicable fix cannot promise fixed code"
        assert _fixed(rule, example, example.code) == example.code
        return
    assert example.fixed is not None, "an INVALID example of a rule with a fix shows what the fix writes"
    assert _fixed(rule, example, example.code) == example.fixed
    # The fixed code is what the rule asks for: not flagged, and fixing it again changes nothing.
    assert _rows(rule, Example(example.fixed, target=example.target)) == []
    assert _fixed(rule, example, example.fixed) == example.fixed
