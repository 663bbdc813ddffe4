"""A rule id finds everything, and nothing else names it: a rule's code ("MCP010") and its module's
name appear in no file of mcp_lint/ but the rule's own module(s) (`rules/mcp010_*.py`) and the
registry. What two rules share is rule-neutral model or engine data (the mutation table in
model/mutations.py, the clauses that pass exception text on in model/passed_on.py), never one
rule's module read by another, nor a branch of the driver on a rule's code.

Rules the driver reports itself (MCP000, MCP100: no `implementation`) are the driver's by design
and not checked. The older rules still have places that name them; they are listed below as they
are today, so that the list can only shrink: a new mention fails, and so does a listed one that
is gone (remove it from the list). Untangling them is the engine work of issue 20.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mcp_lint
from mcp_lint.registry import RULES

PACKAGE = Path(mcp_lint.__file__).resolve().parent

# Known mentions of the older rules outside their modules (paths relative to mcp_lint/). Most are
# comments that say which rule a shared helper serves; project_links.py branches on codes.
KNOWN_MENTIONS: dict[str, frozenset[str]] = {
    "MCP001": frozenset(
        {
            "cli.py", "model/frameworks.py", "model/message_text.py", "model/summary.py", "model/returned_values.py",
            "noqa.py", "rules/mcp008_message_lost_under_masking.py", "rules/mcp003_vague_error_message.py",
            "rules/mcp002_raw_exception_text.py", "rules/__init__.py", "rules/results.py", "output/full.py",
        }
    ),
    "MCP002": frozenset(
        {
            "cli.py", "model/library_tables.py", "model/facts.py", "model/summary.py", "model/exception_origin.py",
            "rules/mcp008_message_lost_under_masking.py", "rules/mcp003_vague_error_message.py", "rules/__init__.py",
            "rules/text.py", "rules/mcp007_unmasked_error_details.py", "rules/exception_text.py",
            "rules/mcp005_error_returned_as_success.py", "output/github.py",
        }
    ),
    "MCP003": frozenset(
        {"model/message_text.py", "noqa.py", "rules/mcp008_message_lost_under_masking.py", "rules/results.py", "rules/exception_text.py"}
    ),
    "MCP004": frozenset({"model/message_text.py", "model/facts.py", "model/summary.py", "rules/results.py", "project_links.py", "analysis.py"}),
    "MCP005": frozenset({"model/summary.py", "rules/base.py", "rules/results.py", "rules/exception_text.py"}),
    "MCP006": frozenset({"rules/mcp005_error_returned_as_success.py"}),
    "MCP007": frozenset({"model/module_model.py", "server_env.py", "cache.py"}),
    # MCP007's masking fix is unsafe where masking would turn messages into MCP008 findings.
    "MCP008": frozenset(
        {"model/summary.py", "server_env.py", "rules/mcp002_raw_exception_text.py", "cache.py", "rules/mcp007_unmasked_error_details.py"}
    ),
    "MCP009": frozenset({"model/registration.py", "model/frameworks.py", "model/module_model.py", "model/summary.py"}),
}

CHECKED = [rule for rule in RULES if rule.implementation]


def _sources() -> dict[str, str]:
    return {path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def _own(relative: str, code: str) -> bool:
    """The rule's own modules (`rules/mcp010_*.py`) and the registry."""
    return relative == "registry.py" or relative.startswith(f"rules/{code.lower()}_")


def mentions(code: str, module: str, sources: dict[str, str]) -> set[str]:
    """Files of mcp_lint/ outside the rule's own that name its code or its module."""
    pattern = re.compile(rf"\b(?:{re.escape(code)}|{re.escape(module)})\b")
    return {relative for relative, text in sources.items() if not _own(relative, code) and pattern.search(text)}


@pytest.mark.parametrize("rule", CHECKED, ids=lambda rule: rule.code)
def test_nothing_outside_a_rule_names_it(rule) -> None:
    module = rule.implementation.split(":")[0].rsplit(".", 1)[-1]
    found = mentions(rule.code, module, _sources())
    known = KNOWN_MENTIONS.get(rule.code, frozenset())
    assert sorted(found - known) == [], f"{rule.code} is named outside its module and the registry"
    assert sorted(known - found) == [], f"{rule.code} is no longer named there: shorten KNOWN_MENTIONS"


def test_the_newest_rules_have_no_known_mention() -> None:
    # MCP010 and MCP011 were added on the engine: their module, page, tests and registry line only.
    assert "MCP010" not in KNOWN_MENTIONS and "MCP011" not in KNOWN_MENTIONS
    assert {"MCP010", "MCP011"} <= {rule.code for rule in CHECKED}


def test_the_check_sees_a_mention(tmp_path: Path) -> None:
    # The check itself: a driver line that branches on a rule's code, or imports its module, is found.
    sources = {
        "project_links.py": 'if latent.code == "MCP010":\n    pass\n',
        "rules/mcp011_retry_invited_after_uncertain_mutation.py": "from mcp_lint.rules.mcp004_mutation_before_validation import x\n",
        "rules/mcp010_sensitive_detail_in_message.py": 'code = "MCP010"\n',
        "registry.py": '"MCP010"\n',
    }
    assert mentions("MCP010", "mcp010_sensitive_detail_in_message", sources) == {"project_links.py"}
    assert mentions("MCP004", "mcp004_mutation_before_validation", sources) == {"rules/mcp011_retry_invited_after_uncertain_mutation.py"}
    assert mentions("MCP001", "mcp001_protocol_error_in_tool", sources) == set()
