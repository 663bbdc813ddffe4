"""`json`: the shape of ruff's `--output-format json`, so tools written for ruff read it as is,
plus what ruff has no key for: `help` (the fix in one line), `notes` (the evidence) and `related`
(the other locations of the finding, each with its own message)."""

from __future__ import annotations

import json
import os
from typing import Any, Sequence, TextIO

from mcp_lint.findings import Finding, Fix, Location, Related
from mcp_lint.output import ReportOptions, finding_help


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    # Keys are written in ruff's (alphabetical) order; non-ASCII stays readable as ruff's does.
    out.write(json.dumps([finding_object(f) for f in findings], indent=2, ensure_ascii=False))
    out.write("\n")


def finding_object(finding: Finding) -> dict[str, Any]:
    from mcp_lint.registry import get_rule

    rule = get_rule(finding.code)
    return {
        "cell": None,  # notebook cell: mcp-lint reads only .py files
        "code": finding.code,
        "end_location": _location(finding.end_location),
        "filename": os.path.abspath(finding.filename),
        "fix": _fix(finding.fix) if finding.fix is not None else None,
        "help": finding_help(finding) or None,
        "location": _location(finding.location),
        "message": finding.message,
        "name": rule.name if rule is not None else None,
        "noqa_row": finding.location.row,
        "notes": list(finding.notes),
        "related": [_related(related) for related in finding.related],
        "severity": rule.severity.value if rule is not None else None,
        "url": finding.url,
    }


def _related(related: Related) -> dict[str, Any]:
    return {
        "end_location": _location(related.end_location),
        "filename": os.path.abspath(related.filename),
        "location": _location(related.location),
        "message": related.message,
    }


def _fix(fix: Fix) -> dict[str, Any]:
    return {
        "applicability": fix.applicability.value,
        "edits": [
            {
                "content": edit.content,
                "end_location": _location(edit.end_location),
                "location": _location(edit.location),
            }
            for edit in fix.edits
        ],
        "message": fix.message,
    }


def _location(location: Location) -> dict[str, int]:
    return {"column": location.column, "row": location.row}
