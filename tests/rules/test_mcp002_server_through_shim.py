"""A server class imported through a module of the project (a shim over the mcp 1.x/2.x rename:
`try: from mcp.server.mcpserver import MCPServer as FastMCP` / `except ModuleNotFoundError:
from mcp.server.fastmcp import FastMCP`, then `from ._compat import FastMCP`) builds that
framework's server: its tools are checked. A project module re-exporting some other class
makes no server."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

SHIM = """\
try:
    from mcp.server.mcpserver import MCPServer as FastMCP
    from mcp.server.mcpserver.exceptions import ToolError
except ModuleNotFoundError:
    from mcp.server.fastmcp import FastMCP
    from mcp.server.fastmcp.exceptions import ToolError
from httpx import Client as Session
"""

SERVER = """\
import httpx

from ._compat import SERVER_CLASS, ToolError

mcp = SERVER_CLASS("stock")


@mcp.tool()
def reserve_item(sku: str) -> str:
    try:
        httpx.post("https://stock.invalid/reserve", json={"sku": sku})
    except httpx.HTTPError as e:
        raise ToolError(f"Network error while reserving: {e}") from e
    return "Reserved."
"""


def _findings(tmp_path: Path, server_class: str) -> list[tuple[str, int, str]]:
    write_tree(tmp_path, {"stock/__init__.py": "", "stock/_compat.py": SHIM, "stock/server.py": SERVER.replace("SERVER_CLASS", server_class)})
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_a_server_class_from_the_projects_compat_module_has_its_tools_checked(tmp_path: Path) -> None:
    assert _findings(tmp_path, "FastMCP") == [("server.py", 13, "Tool 'reserve_item' puts the text of a caught httpx.HTTPError into ToolError")]


def test_another_class_from_the_projects_compat_module_makes_no_server(tmp_path: Path) -> None:
    assert _findings(tmp_path, "Session") == []
