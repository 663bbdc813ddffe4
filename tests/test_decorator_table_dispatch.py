"""A decorator registry looked up by a dispatcher: `@tool("x")` stores what it decorates into a
module's table (`TOOLS[name] = fn`), and the tools/call handler runs `TOOLS[name](**arguments)`.
Each decorated function is on the dispatcher's path (Project._stored_functions), whether the
table is imported or the dispatcher's own module's; a table no tool looks up reaches nothing,
nor does a command-line entry point looking functions up in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

REGISTRY = """\
from typing import Any, Callable

TOOLS: dict[str, Callable[..., Any]] = {}


def tool(name: str) -> Callable:
    def decorator(fn: Callable) -> Callable:
        TOOLS[name] = fn
        return fn

    return decorator
"""

ITEMS = """\
import httpx
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

from app.registry import tool


@tool("lookup_item")
async def lookup_item(item: str) -> str:
    try:
        return httpx.get("https://items.invalid/" + item).text
    except httpx.HTTPError as e:
        return f"Error: {e}"


@tool("reserve_item")
async def reserve_item(item: str) -> str:
    try:
        return httpx.post("https://items.invalid/" + item).text
    except httpx.HTTPError:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message="Item service unavailable"))
"""

LOWLEVEL = """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent

from app import items  # noqa: F401  (registers its tools)
from app.registry import TOOLS

server = Server("items")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    handler = TOOLS[name]
    result = await handler(**arguments)
    return [TextContent(type="text", text=result)]
"""

FASTMCP_DISPATCH = """\
from mcp.server.fastmcp import FastMCP

from app import items  # noqa: F401  (registers its tools)
from app.registry import TOOLS

mcp = FastMCP("items")


@mcp.tool()
async def run_item_tool(name: str, arguments: dict) -> str:
    \"\"\"Run one of the item tools by name.\"\"\"
    return await TOOLS[name](**arguments)
"""

CLI_ONLY = """\
import asyncio
import sys

from mcp.server.fastmcp import FastMCP

from app import items  # noqa: F401
from app.registry import TOOLS

mcp = FastMCP("items")


@mcp.tool()
def ping() -> str:
    \"\"\"Say the server is up.\"\"\"
    return "pong"


def main() -> None:
    print(asyncio.run(TOOLS[sys.argv[1]](sys.argv[2])))
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    files = {"pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["mcp>=1.9,<2"]\n', "app/__init__.py": "", **files}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _check(root: Path) -> list[str]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    return sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if " MCP" in line)


@pytest.mark.parametrize("server", [LOWLEVEL, FASTMCP_DISPATCH], ids=["lowlevel", "fastmcp-dispatch-tool"])
def test_each_function_a_decorator_stores_in_the_dispatchers_table_is_on_its_path(tmp_path: Path, server: str) -> None:
    found = _check(_write(tmp_path, {"app/registry.py": REGISTRY, "app/items.py": ITEMS, "app/server.py": server}))
    assert "app/items.py:13: MCP002" in found
    assert "app/items.py:21: MCP001" in found


def test_a_table_in_the_dispatchers_own_module_is_read_the_same_way(tmp_path: Path) -> None:
    server = LOWLEVEL.replace("from app.registry import TOOLS\n", "").replace("from app import items  # noqa: F401  (registers its tools)\n", "")
    server = server.replace('server = Server("items")\n', 'server = Server("items")\n' + REGISTRY.split("\n", 2)[2])
    items = ITEMS.replace("from app.registry import tool", "from app.server import tool")
    found = _check(_write(tmp_path, {"app/items.py": items, "app/server.py": server + "\n\nfrom app import items  # noqa: E402,F401\n"}))
    assert "app/items.py:13: MCP002" in found


def test_a_table_only_a_command_line_entry_point_looks_up_is_no_tool_path(tmp_path: Path) -> None:
    found = _check(_write(tmp_path, {"app/registry.py": REGISTRY, "app/items.py": ITEMS, "app/server.py": CLI_ONLY}))
    assert not [line for line in found if line.startswith("app/items.py")]
