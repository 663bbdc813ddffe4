"""Tools registered in the project's pytest modules are fixtures, not tools of the server.

A test registers a tool that fails on purpose (`def failing_tool(): raise ValueError("bad")`) to
check the server's error handling; no client ever calls it. The server's own tools, and helpers
they reach, are checked as always, also when a test module defines them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ._support import lint_tree, write_tree

SERVER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("search", mask_error_details=True)


@mcp.tool
def search(query: str) -> str:
    try:
        return httpx.get("https://search.example.com", params={"q": query}).text
    except httpx.HTTPError as e:
        return f"Error: {e}"
"""

FIXTURE_TOOLS = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError


def test_a_failing_tool_reports_an_error_result():
    mcp = FastMCP("fixture", mask_error_details=True)

    @mcp.tool
    def failing_tool() -> str:
        raise ToolError("bad")

    @mcp.tool
    def erroring_tool() -> str:
        return "Error: something went wrong"

    assert mcp
"""


@pytest.mark.parametrize("name", ["tests/test_server.py", "tests/unit/server_test.py", "tests/conftest.py"])
def test_tools_registered_in_a_test_module_are_not_checked(tmp_path: Path, name: str) -> None:
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'search'\ndependencies = ['fastmcp>=3,<4']\n", "search/server.py": SERVER, name: FIXTURE_TOOLS})
    findings = lint_tree(tmp_path)
    assert {(f.code, Path(f.filename).name, f.location.row) for f in findings} == {
        ("MCP002", "server.py", 13),
        ("MCP005", "server.py", 13),
    }


def test_tools_in_a_fixture_module_that_is_no_test_module_are_checked(tmp_path: Path) -> None:
    # Only pytest's own module names mark fixtures: a demo server under tests/ is still a server.
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'search'\ndependencies = ['fastmcp>=3,<4']\n", "tests/fixtures/demo_server.py": FIXTURE_TOOLS})
    findings = lint_tree(tmp_path)
    assert {(f.code, f.location.row) for f in findings} >= {("MCP003", 10), ("MCP005", 14)}
