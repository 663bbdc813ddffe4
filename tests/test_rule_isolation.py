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

# Known mentions of the older rules outside their modules (paths relative to mcp_lint/). The link
# step and the model name none any more (issue 20). What is left: comments and examples in the
# command line, noqa and report modules; shared rule helpers (rules/results.py, exception_text.py,
# text.py) saying which rule a helper serves; comments of one rule about another's defect; and one
# read across rules: MCP007 reads MCP008's latents (whether the project raises plain exceptions
# written for the model).
KNOWN_MENTIONS: dict[str, frozenset[str]] = {
    "MCP001": frozenset(
        {
            "cli.py", "noqa.py", "output/full.py", "rules/__init__.py", "rules/mcp002_raw_exception_text.py",
            "rules/mcp003_vague_error_message.py", "rules/results.py",
        }
    ),
    "MCP002": frozenset(
        {
            "cli.py", "output/github.py", "rules/__init__.py", "rules/exception_text.py", "rules/mcp003_vague_error_message.py",
            "rules/mcp005_error_returned_as_success.py", "rules/mcp007_unmasked_error_details.py",
            "rules/mcp008_message_lost_under_masking.py", "rules/text.py",
        }
    ),
    "MCP003": frozenset({"noqa.py", "rules/exception_text.py", "rules/mcp008_message_lost_under_masking.py", "rules/results.py"}),
    "MCP004": frozenset({"rules/results.py"}),
    "MCP005": frozenset({"rules/exception_text.py", "rules/results.py"}),
    "MCP006": frozenset({"rules/mcp005_error_returned_as_success.py"}),
    "MCP008": frozenset({"rules/mcp002_raw_exception_text.py"}),
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


def test_the_link_step_and_the_model_name_no_rule() -> None:
    # Issue 20: the engine under the rules is rule-neutral; a rule's needs at link time are its
    # own hooks (Rule.link_start, Rule.link_latent), its records typed payloads of its own.
    engine = {
        relative
        for relative, text in _sources().items()
        if (relative in {"project_links.py", "analysis.py"} or relative.startswith(("model/", "engine/", "linking/"))) and re.search(r"\bMCP\d{3}\b|\bmcp\d{3}_", text)
    }
    assert sorted(engine) == []


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
