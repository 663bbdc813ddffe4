"""One count everywhere (issue 22): `check`'s "[*] N fixable" and "N more fixes available", `--diff`'s
"Would fix N" and `--fix`'s "N fixed" count the same findings, also when one fix mends two
findings and with unsafe fixes hidden or shown; two findings on one statement of a helper name
the same tools ("and N more")."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

# Line 7: an unused noqa (MCP100, a safe fix). Line 15: one statement, two findings: MCP005 (the
# channel, no fix of its own) and MCP002 (the exception text), whose unsafe fix rewrites the
# whole statement and so mends both.
SERVER = '''\
import logging

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
logger = logging.getLogger(__name__)
LIMIT = 10  # noqa: MCP003


@mcp.tool()
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        return f"Error: could not read {note_id}: {e}"
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "notes"\ndependencies = ["mcp>=1.9,<2"]\n\n[tool.mcp-lint]\nextend-select = ["MCP100"]\n'
    )
    (tmp_path / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def summary(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["check", "-n", "--output-format", "concise", *args, "server.py"], catch_exceptions=False)
    return [line for line in result.stdout.splitlines() if not line.startswith(("server.py:", "---", "+++", "@@", " ", "-", "+"))]


def test_safe_fixes_alone_count_alike(project: Path) -> None:
    assert summary() == ["Found 3 errors.", "[*] 1 fixable with the `--fix` option.", "2 more fixes available with `--fix --unsafe-fixes`."]
    assert summary("--diff") == ["Would fix 1 error."]
    assert summary("--fix") == ["Found 3 errors (1 fixed, 2 remaining).", "2 more fixes available with `--fix --unsafe-fixes`."]


def test_with_unsafe_fixes_one_fix_mending_two_findings_counts_two(project: Path) -> None:
    assert summary("--unsafe-fixes") == ["Found 3 errors.", "[*] 3 fixable with the `--fix` option."]
    assert summary("--diff", "--unsafe-fixes") == ["Would fix 3 errors."]
    assert summary("--fix", "--unsafe-fixes") == ["Found 3 errors (3 fixed, 0 remaining)."]
    assert "raise ToolError" in (project / "server.py").read_text()


def test_the_markers_are_what_the_summary_counts(project: Path) -> None:
    def marked(*args: str) -> list[str]:
        result = CliRunner().invoke(cli, ["check", "-n", "--output-format", "concise", *args, "server.py"], catch_exceptions=False)
        return [line.split()[1] for line in result.stdout.splitlines() if line.startswith("server.py:") and "[*]" in line]

    assert marked() == ["MCP100"]
    assert marked("--unsafe-fixes") == ["MCP100", "MCP005", "MCP002"]


def test_statistics_marks_a_rule_whose_findings_another_fix_mends(project: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "-n", "--statistics", "--unsafe-fixes", "server.py"], catch_exceptions=False)
    rows = [line.split() for line in result.stdout.splitlines()]
    assert sorted(rows) == [["1", "MCP002", "[*]", "raw-exception-text"], ["1", "MCP005", "[*]", "error-returned-as-success"], ["1", "MCP100", "[*]", "unused-noqa"]]


# A helper whose failure string five tools pass on: four return it, one returns a part of it.
HELPER_SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


def load(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as e:
        return f"Error: could not read {path}: {e}"


@mcp.tool()
def read_a(path: str) -> str:
    return load(path)


@mcp.tool()
def read_b(path: str) -> str:
    return load(path)


@mcp.tool()
def read_c(path: str) -> str:
    return load(path)


@mcp.tool()
def read_d(path: str) -> str:
    return load(path)


@mcp.tool()
def first_line(path: str) -> str:
    text = load(path)
    return text.splitlines()[0]


@mcp.tool()
def touch(path: str) -> int:
    load(path)
    return 0
'''


def test_two_findings_on_a_helpers_statement_name_the_same_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "files"\ndependencies = ["mcp>=1.9,<2"]\n')
    (tmp_path / "server.py").write_text(HELPER_SERVER)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "-n", "server.py"], catch_exceptions=False)
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("server.py:")] == [
        "server.py:11:9: MCP005 Helper 'load' returns a failure string as a normal result",
        "server.py:11:16: MCP002 Helper 'load' returns the text of a caught OSError as a normal result",
    ]
    # 'first_line' returns a part of the failure string: it reaches the model there too; 'touch'
    # drops the value.
    assert [line.strip() for line in lines if "note: reached from" in line] == [
        "= note: reached from tools 'first_line', 'read_a', 'read_b' and 2 more"
    ] * 2
