"""A finding as an LSP diagnostic: the short message at the flagged span, the rule code with a link
to its page, the severity of the rule's record, and the evidence as related information."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from lsprotocol import types

from mcp_lint.findings import Finding
from mcp_lint.registry import Severity, get_rule
from mcp_lint.server.documents import Lines

SOURCE = "mcp-lint"


def severity(code: str) -> types.DiagnosticSeverity:
    """As in the SARIF report: a minor rule is a warning, the others are errors."""
    info = get_rule(code)
    if info is not None and info.severity is Severity.MINOR:
        return types.DiagnosticSeverity.Warning
    return types.DiagnosticSeverity.Error


def file_uri(filename: str) -> str:
    return Path(os.path.abspath(filename)).as_uri()


def diagnostic(finding: Finding, lines: Lines, uri: str, lines_of: Callable[[str], Lines | None]) -> types.Diagnostic:
    """`lines` are those of the linted text; `lines_of` gives those of another file (for the
    positions of related locations there), None when it cannot be read."""
    url = finding.url
    related: list[types.DiagnosticRelatedInformation] = []
    here = types.Location(uri, lines.range(finding.location, finding.end_location))
    # The evidence and the fix in a line each, at the finding itself; the long explanation stays
    # behind the link.
    for note in finding.notes:
        related.append(types.DiagnosticRelatedInformation(here, note))
    if finding.help:
        related.append(types.DiagnosticRelatedInformation(here, f"help: {finding.help}"))
    for other in finding.related:
        other_uri = file_uri(other.filename)
        other_lines = lines if other_uri == uri else lines_of(other.filename)
        if other_lines is None:
            continue
        span = other_lines.range(other.location, other.end_location)
        related.append(types.DiagnosticRelatedInformation(types.Location(other_uri, span), other.message))
    tags = [types.DiagnosticTag.Unnecessary] if finding.code == "MCP100" else None
    return types.Diagnostic(
        range=here.range,
        message=finding.message,
        severity=severity(finding.code),
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related or None,
        tags=tags,
    )
