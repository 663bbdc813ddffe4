"""`--fix` and `--diff` count as `check` does, and never write a read-only file (issue 22)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

# One statement, two findings (MCP005: the channel; MCP002: the exception text): one fix mends both.
SERVER = '''\
import logging

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
logger = logging.getLogger(__name__)


@mcp.tool()
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        return f"Error: could not read {note_id}: {e}"
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "notes"\ndependencies = ["mcp>=1.9,<2"]\n')
    (tmp_path / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", *args, "server.py"], catch_exceptions=False)


def test_a_finding_fixed_is_a_finding_in_every_count(project: Path) -> None:
    checked = run()
    assert "Found 2 errors." in checked.stdout
    diff = run("--diff", "--unsafe-fixes")
    assert diff.stdout.splitlines()[-1] == "Would fix 2 errors."
    fixed = run("--fix", "--unsafe-fixes")
    assert fixed.stdout.splitlines()[-1] == "Found 2 errors (2 fixed, 0 remaining)."
    assert "raise ToolError" in (project / "server.py").read_text()


def test_a_read_only_file_is_not_fixed(project: Path) -> None:
    path = project / "server.py"
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        result = run("--fix", "--unsafe-fixes")
        assert path.read_text() == SERVER
        assert "mcp-lint: warning: server.py is read-only: not fixed" in result.stderr
        assert result.exit_code == 1
        assert "Found 2 errors." in result.stdout.splitlines()
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
    finally:
        os.chmod(path, 0o644)
