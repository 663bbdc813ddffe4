"""`github`: GitHub Actions workflow commands, which GitHub turns into annotations on the diff."""

from __future__ import annotations

from typing import Sequence, TextIO

from mcp_lint import registry
from mcp_lint.findings import Finding
from mcp_lint.output import ReportOptions

# Escaping rules of workflow commands (actions/toolkit `command.ts`): the message escapes `%` and
# line breaks; property values additionally escape the `:` and `,` that delimit them.
_DATA_ESCAPES = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A"})
_PROPERTY_ESCAPES = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"})


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    for finding in findings:
        properties = {
            "title": _title(finding.code),
            "file": finding.filename,
            "line": finding.location.row,
            "col": finding.location.column,
            "endLine": finding.end_location.row,
            "endColumn": finding.end_location.column,
        }
        rendered = ",".join(
            f"{key}={str(value).translate(_PROPERTY_ESCAPES)}" for key, value in properties.items()
        )
        message = f"{finding.code} {finding.message}".translate(_DATA_ESCAPES)
        out.write(f"::error {rendered}::{message}\n")


def _title(code: str) -> str:
    """The annotation's title names the rule: `MCP002 raw-exception-text`."""
    rule = registry.get_rule(code)
    return f"{code} {rule.name}" if rule is not None else code
