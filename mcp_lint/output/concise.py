"""`concise`: one line per finding, `path:row:col: CODE [*] message`, for terminals and grep."""

from __future__ import annotations

from typing import Sequence, TextIO

from mcp_lint.findings import Finding
from mcp_lint.output import ReportOptions, is_fixable


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    for finding in findings:
        marker = "[*] " if options.show_fixes_hint and is_fixable(finding, options) else ""
        out.write(
            f"{finding.filename}:{finding.location.row}:{finding.location.column}: "
            f"{finding.code} {marker}{finding.message}\n"
        )

