"""`sarif`: SARIF 2.1.0, read by GitHub code scanning and most IDE/CI viewers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence, TextIO

from mcp_lint import __version__, registry
from mcp_lint.findings import DOCS_URL, Applicability, Finding, Fix, Location
from mcp_lint.output import ReportOptions, finding_help, path_to_uri_reference

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mcp-lint/mcp-lint"
_SRCROOT = "%SRCROOT%"


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    rule_index = {rule.code: index for index, rule in enumerate(registry.RULES)}
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mcp-lint",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(rule) for rule in registry.RULES],
                    }
                },
                # Our columns count code points, not SARIF's default UTF-16 code units.
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": {_SRCROOT: {"uri": _directory_uri(Path.cwd())}},
                "results": [_result(finding, rule_index) for finding in findings],
            }
        ],
    }
    out.write(json.dumps(log, indent=2, ensure_ascii=False))
    out.write("\n")


def _directory_uri(directory: Path) -> str:
    # A base URI must end with a slash, or relative references replace its last segment.
    uri = directory.as_uri()
    return uri if uri.endswith("/") else uri + "/"


def level(code: str) -> str:
    """The rule's severity as a SARIF level (minor rules, advice and hygiene, are warnings)."""
    rule = registry.get_rule(code)
    return rule.severity.sarif_level if rule is not None else "error"


def _rule(rule: registry.RuleInfo) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _first_paragraph(rule.code, "what it does") or rule.summary},
    }
    page = registry.rule_doc(rule.code)
    if page is not None:
        # The rule's help is its page: why it matters in a line, the whole page as Markdown
        # (GitHub code scanning shows it beside every result of the rule).
        why = _first_paragraph(rule.code, "why is this bad?") or rule.summary
        descriptor["help"] = {"text": why, "markdown": page}
    # MCP000 (unreadable file) has no rule page, like `Finding.url`.
    if rule.code != "MCP000":
        descriptor["helpUri"] = DOCS_URL.format(code=rule.code)
    descriptor["defaultConfiguration"] = {"level": level(rule.code)}
    return descriptor


def _first_paragraph(code: str, section: str) -> str | None:
    """The first paragraph under the heading `section` (lower case) of the rule's page, joined
    into one line."""
    doc = registry.rule_doc(code)
    if doc is None:
        return None
    paragraph: list[str] = []
    in_section = False
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            if paragraph:
                break
            in_section = stripped.lstrip("#").strip().lower() == section
        elif in_section:
            if stripped:
                paragraph.append(stripped)
            elif paragraph:
                break
    return " ".join(paragraph) or None


def _result(finding: Finding, rule_index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {"ruleId": finding.code}
    if finding.code in rule_index:
        result["ruleIndex"] = rule_index[finding.code]
    result["level"] = level(finding.code)
    result["message"] = {"text": finding.message}
    result["locations"] = [
        {
            "physicalLocation": {
                "artifactLocation": _artifact_location(finding.filename),
                "region": _region(finding.location, finding.end_location),
            }
        }
    ]
    if finding.related:
        result["relatedLocations"] = [
            {
                "id": index,
                "physicalLocation": {
                    "artifactLocation": _artifact_location(related.filename),
                    "region": _region(related.location, related.end_location),
                },
                "message": {"text": related.message},
            }
            for index, related in enumerate(finding.related)
        ]
    if finding.fix is not None and finding.fix.applicability is not Applicability.DISPLAY_ONLY:
        result["fixes"] = [_fix(finding.filename, finding.fix, finding_help(finding))]
    return result


def _fix(filename: str, fix: Fix, description: str) -> dict[str, Any]:
    return {
        "description": {"text": description},
        "artifactChanges": [
            {
                "artifactLocation": _artifact_location(filename),
                "replacements": [
                    {
                        "deletedRegion": _region(edit.location, edit.end_location),
                        "insertedContent": {"text": edit.content},
                    }
                    for edit in fix.edits
                ],
            }
        ],
    }


def _artifact_location(filename: str) -> dict[str, str]:
    return {"uri": path_to_uri_reference(filename), "uriBaseId": _SRCROOT}


def _region(start: Location, end: Location) -> dict[str, int]:
    # Both SARIF and mcp-lint use 1-based rows and columns with an exclusive end column.
    return {
        "startLine": start.row,
        "startColumn": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }
