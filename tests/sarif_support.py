"""SARIF reports in the tests: validation against the vendored schema, and golden files that do
not list the rules.

A SARIF report describes every rule of the registry (`tool.driver.rules`) and points each result
at its rule by index. Golden files hold neither: `golden_form` checks both against
`mcp_lint.registry.RULES` and puts placeholders in their place, so adding a rule changes no golden
file while a descriptor that disagrees with its record still fails.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mcp_lint import registry
from mcp_lint.findings import DOCS_URL

SCHEMA_PATH = Path(__file__).resolve().parent / "data" / "sarif-2.1.0-rtm.5.json"
# The digest of the vendored file (see tests/data/README.md): it is the published schema, unedited.
SCHEMA_SHA256 = "2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8"
RULES_PLACEHOLDER = "<one descriptor per record of mcp_lint.registry.RULES (tests/sarif_support.py checks them)>"
RULE_INDEX_PLACEHOLDER = "<the index of ruleId in the rules>"


def sarif_schema() -> dict[str, Any]:
    data = SCHEMA_PATH.read_bytes()
    assert hashlib.sha256(data).hexdigest() == SCHEMA_SHA256, f"{SCHEMA_PATH} is not the vendored schema"
    return json.loads(data)


def schema_errors(report: dict[str, Any]) -> list[str]:
    """What the SARIF 2.1.0 schema rejects in `report`, with the validator its `$schema` names."""
    import jsonschema

    schema = sarif_schema()
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return [error.message for error in validator(schema).iter_errors(report)]


def expected_descriptor(info: registry.RuleInfo) -> dict[str, Any]:
    """What the report must say of a rule, from its record (`fullDescription` comes from the page)."""
    descriptor = {"id": info.code, "name": info.name, "shortDescription": {"text": info.summary}}
    if info.code != "MCP000":  # no page of its own, like Finding.url
        descriptor["helpUri"] = DOCS_URL.format(code=info.code)
    descriptor["defaultConfiguration"] = {"level": info.severity.sarif_level}
    return descriptor


def check_rules(report: dict[str, Any]) -> None:
    """Every run describes exactly the registry's rules, in order, and every result's `ruleIndex`
    and `level` agree with its rule."""
    for run in report["runs"]:
        rules = run["tool"]["driver"]["rules"]
        assert [{k: v for k, v in rule.items() if k not in {"fullDescription", "help"}} for rule in rules] == [
            expected_descriptor(info) for info in registry.RULES
        ]
        assert all(rule["fullDescription"]["text"] for rule in rules)
        # A rule's help is its page: the Markdown as it is, its reason in a line.
        for rule in rules:
            page = registry.rule_doc(rule["id"])
            assert rule.get("help", {}).get("markdown") == page
            assert page is None or rule["help"]["text"]
        for result in run["results"]:
            rule = rules[result["ruleIndex"]]
            assert rule["id"] == result["ruleId"]
            assert result["level"] == rule["defaultConfiguration"]["level"]


def golden_form(text: str) -> str:
    """The report as its golden file holds it: rules and rule indexes checked, then replaced by
    placeholders. The layout is the writer's own (`json.dumps(indent=2)`), so the rest compares
    byte for byte."""
    report = json.loads(text)
    check_rules(report)
    for run in report["runs"]:
        run["tool"]["driver"]["rules"] = RULES_PLACEHOLDER
        for result in run["results"]:
            result["ruleIndex"] = RULE_INDEX_PLACEHOLDER
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
