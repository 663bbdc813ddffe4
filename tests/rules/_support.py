"""Helpers shared by the per-rule tests.

Sources mark the lines where a finding is expected with `# expect: MCPnnn` (several codes may be
listed); `check` asserts the exact set of (code, row) for the whole snippet, so a finding of
another rule fails the test too.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.findings import Finding
from mcp_lint.pipeline import lint_paths, lint_source

_MARK = re.compile(r"#\s*expect:\s*(MCP\d{3}(?:\s*,\s*MCP\d{3})*)")


def expected(text: str) -> set[tuple[str, int]]:
    return {
        (code.strip(), row)
        for row, line in enumerate(text.splitlines(), start=1)
        for match in [_MARK.search(line)]
        if match
        for code in match.group(1).split(",")
    }


def check(source: str, target: str | None = None) -> list[Finding]:
    text = textwrap.dedent(source)
    findings = lint_source(text, filename="server.py", target=target)
    assert {(f.code, f.location.row) for f in findings} == expected(text)
    return findings


def only(source: str, target: str | None = None) -> Finding:
    findings = check(source, target)
    assert len(findings) == 1, findings
    return findings[0]


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def lint_tree(root: Path) -> list[Finding]:
    """Lint a project directory the way `mcp-lint check` does (discovery, then the project link)."""
    resolver = SettingsResolver()
    return lint_paths(discover([root], resolver), resolver).findings
