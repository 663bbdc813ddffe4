"""`gitlab`: a GitLab Code Quality report (the JSON artifact of `artifacts:reports:codequality`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Sequence, TextIO

from mcp_lint import registry
from mcp_lint.findings import Finding
from mcp_lint.output import ReportOptions, relative_posix_path


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    seen: set[str] = set()
    issues: list[dict[str, Any]] = []
    for finding in findings:
        path = relative_posix_path(finding.filename)
        issues.append(
            {
                "description": f"{finding.code} {finding.message}",
                "check_name": finding.code,
                "fingerprint": _unique_fingerprint(finding, path, seen),
                "severity": _severity(finding.code),
                "location": {
                    "path": path,
                    "lines": {"begin": finding.location.row, "end": finding.end_location.row},
                },
            }
        )
    out.write(json.dumps(issues, indent=2, ensure_ascii=False))
    out.write("\n")


def _severity(code: str) -> str:
    # The record's severity is on GitLab's own scale.
    rule = registry.get_rule(code)
    return rule.severity.value if rule is not None else "major"


def _unique_fingerprint(finding: Finding, path: str, seen: set[str]) -> str:
    """A fingerprint that survives edits elsewhere in the file, unique within the report.

    GitLab matches issues between the base and the merge-request pipeline by fingerprint, so it
    must not contain the line number (it would "fix" and "introduce" every finding below an added
    line). It keys on the enclosing function and the flagged statement instead. Two identical
    statements in one function would collide, and GitLab keeps only one of a duplicated
    fingerprint, so a repeat is hashed again with its occurrence number (stable: findings arrive
    sorted).
    """
    parts = [path, finding.code, finding.message, finding.context, finding.statement]
    fingerprint = _sha256(parts)
    occurrence = 1
    while fingerprint in seen:
        occurrence += 1
        fingerprint = _sha256([*parts, str(occurrence)])
    seen.add(fingerprint)
    return fingerprint


def _sha256(parts: list[str]) -> str:
    # NUL never occurs in paths, messages or Python source, so no two part lists join alike.
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
