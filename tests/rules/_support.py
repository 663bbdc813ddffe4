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


_SERVER_LINE = re.compile(r"^(\w+ = (?:FastMCP|MCPServer)\(.*\))$", re.MULTILINE)


def unmasked(header: str) -> str:
    """A snippet header with MCP007 expected at its server constructor: for the snippets whose
    tools do I/O that no `try` handles (a database, HTTP, files, a subprocess) on a server that
    forwards the text of such a failure to the model (mcp 1.x, unmasked fastmcp)."""
    marked, count = _SERVER_LINE.subn(r"\1  # expect: MCP007", header, count=1)
    assert count == 1, "the header builds no FastMCP/MCPServer server"
    return marked


def said(finding: Finding) -> str:
    """What the `full` output says of a finding besides its frames: the message, the help and
    the notes, one a line (the claim, the fix, the evidence)."""
    return "\n".join([finding.message, finding.help, *finding.notes])


def check(source: str, target: str | None = None) -> list[Finding]:
    text = textwrap.dedent(source)
    findings = lint_source(text, filename="server.py", target=target)
    found, wanted = {(f.code, f.location.row) for f in findings}, expected(text)
    assert found == wanted, f"not expected: {sorted(found - wanted)}, missing: {sorted(wanted - found)}"
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
