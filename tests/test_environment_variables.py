"""`MCP_LINT_*` environment variables (issue 22): each sets its option as ruff's `RUFF_*` do, the
command line wins, `--help` names them, a bad value is a usage error naming the variable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    """Return one note."""
    if name not in NOTES:
        return f"Error: no note named {name}"
    return NOTES[name]
'''

# Every option ruff has a variable for (RUFF_OUTPUT_FORMAT, RUFF_OUTPUT_FILE, RUFF_CACHE_DIR,
# RUFF_NO_CACHE), and the two a CI job sets once for every run (the framework, the workers).
VARIABLES = (
    "MCP_LINT_OUTPUT_FORMAT",
    "MCP_LINT_OUTPUT_FILE",
    "MCP_LINT_CACHE_DIR",
    "MCP_LINT_NO_CACHE",
    "MCP_LINT_TARGET",
    "MCP_LINT_JOBS",
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    for name in [name for name in os.environ if name.startswith("MCP_LINT_")]:
        monkeypatch.delenv(name)
    return tmp_path


def check(*args: str, env: dict[str, str]):
    return CliRunner().invoke(cli, ["check", "-n", *args], catch_exceptions=False, env=env)


def test_output_file_from_the_environment_takes_the_report(project: Path) -> None:
    result = check("--output-format", "concise", ".", env={"MCP_LINT_OUTPUT_FILE": "report.txt"})
    assert result.exit_code == 1
    assert result.stdout == ""
    report = (project / "report.txt").read_text()
    assert report.startswith("server.py:11:9: MCP005 Tool 'read_note' returns a failure string")
    assert "Found 1 error." in report
    # `-o` on the command line wins.
    check("--output-format", "concise", "-o", "mine.txt", ".", env={"MCP_LINT_OUTPUT_FILE": "report2.txt"})
    assert (project / "mine.txt").is_file() and not (project / "report2.txt").exists()


def test_target_from_the_environment_is_credited_to_the_variable(project: Path) -> None:
    result = check(".", env={"MCP_LINT_TARGET": "mcp>=1.9,<2"})
    assert "note: on mcp 1.x FastMCP (from MCP_LINT_TARGET) the wire says isError: false" in result.stdout
    flag = check("--target", "mcp>=1.9,<2", ".", env={"MCP_LINT_TARGET": "fastmcp>=3"})
    assert "(from --target)" in flag.stdout and "MCP_LINT_TARGET" not in flag.stderr + flag.stdout
    unused = check(".", env={"MCP_LINT_TARGET": "fastmcp>=3"})
    assert "mcp-lint: warning: 'fastmcp>=3' (from MCP_LINT_TARGET) names fastmcp, which no linted file imports" in unused.stderr


def test_jobs_from_the_environment(project: Path) -> None:
    one = check("--output-format", "concise", ".", env={"MCP_LINT_JOBS": "1"})
    assert one.exit_code == 1 and one.stdout.startswith("server.py:11:9: MCP005 ")
    bad = check(".", env={"MCP_LINT_JOBS": "0"})
    assert bad.exit_code == 2
    assert "(env var: 'MCP_LINT_JOBS'): 0 is not in the range x>=1" in bad.stderr


def test_help_names_every_variable(project: Path) -> None:
    text = " ".join(CliRunner().invoke(cli, ["check", "--help"]).stdout.split())
    for name in VARIABLES:
        assert f"env var: {name}" in text


def test_readme_lists_every_variable() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for name in VARIABLES:
        assert f"`{name}`" in readme
