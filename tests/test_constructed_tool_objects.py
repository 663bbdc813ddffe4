"""The framework's Tool object built by its constructor (`Tool(fn=handler, name="x", ...)`), then
put on the server (`mcp.add_tool(tool)`, or straight into the tool manager's table): `handler` is
a tool, as with `Tool.from_function(handler)`, on mcp 1.x FastMCP, mcp 2.x MCPServer and fastmcp.
A project class of the same name is not the framework's and registers nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

SERVER = """\
from typing import Any

import httpx
HEAD


def register_lookup(server) -> None:
    def lookup(**kwargs: Any) -> str:
        try:
            return httpx.get("https://items.invalid/" + kwargs["item"]).text
        except httpx.HTTPError as e:
            return f"Error: {e}"

    tool = CLASS(fn=lookup, name="lookup_item", description="Look an item up.", parameters={})
    PUT


register_lookup(mcp)
"""

HEADS = {
    "mcp1": ("mcp>=1.9,<2", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.tools.base import Tool\n\nmcp = FastMCP('items')", "Tool"),
    "mcp2": ("mcp>=2,<3", "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.tools import Tool\n\nmcp = MCPServer('items')", "Tool"),
    "fastmcp2": ("fastmcp>=2.10,<3", "from fastmcp import FastMCP\nfrom fastmcp.tools import FunctionTool\n\nmcp = FastMCP('items')", "FunctionTool"),
    "fastmcp3": ("fastmcp>=3,<4", "from fastmcp import FastMCP\nfrom fastmcp.tools import FunctionTool\n\nmcp = FastMCP('items')", "FunctionTool"),
}


def _write(root: Path, server: str, requirement: str) -> Path:
    files = {"pyproject.toml": f'[project]\nname = "app"\nversion = "0"\ndependencies = ["{requirement}"]\n', "app/__init__.py": "", "app/server.py": server}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _run(root: Path) -> tuple[list[str], int]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    found = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if " MCP" in line)
    return found, result.exit_code


def _server(flavour: str, put: str) -> tuple[str, str]:
    requirement, head, cls = HEADS[flavour]
    return SERVER.replace("HEAD", head).replace("CLASS", cls).replace("PUT", put), requirement


@pytest.mark.parametrize("flavour", sorted(HEADS))
def test_the_function_of_a_tool_object_added_to_the_server_is_a_tool(tmp_path: Path, flavour: str) -> None:
    found, code = _run(_write(tmp_path, *_server(flavour, "server.add_tool(tool)")))
    assert "app/server.py:15: MCP002" in found
    assert "app/server.py:15: MCP005" in found
    assert code == 1


def test_a_tool_object_put_into_the_tool_managers_table_is_a_tool(tmp_path: Path) -> None:
    found, _ = _run(_write(tmp_path, *_server("mcp1", 'server._tool_manager._tools["lookup_item"] = tool')))
    assert "app/server.py:15: MCP002" in found


def test_a_project_class_named_tool_is_not_the_frameworks(tmp_path: Path) -> None:
    server, requirement = _server("mcp1", "HANDLERS.append(tool)")
    server = server.replace("from mcp.server.fastmcp.tools.base import Tool", "HANDLERS: list = []\n\n\nclass Tool:\n    def __init__(self, **kwargs) -> None:\n        self.kwargs = kwargs")
    found, code = _run(_write(tmp_path, server, requirement))
    assert found == []
    assert code == 2  # a server with no tool: the run says nothing was checked
