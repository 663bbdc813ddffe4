"""MCP005 through a serialiser of a local: `payload = {"error": ...}` then
`return [TextContent(text=json.dumps(payload))]` (or `return json.dumps(payload)`) sends what
`payload` says, as `return payload` does. A local holding a result's own data, serialised the
same way, is no failure."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import json

import mcp.types as types
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orchard")


async def fetch_tree(tree_id: str) -> dict | None:
    return None


@mcp.tool()
async def get_tree(tree_id: str) -> list[types.TextContent]:
    tree = await fetch_tree(tree_id)
    if tree is None:
        payload = {"error": f"Tree not found: {tree_id}", "tree_id": tree_id}
        return [types.TextContent(type="text", text=json.dumps(payload, indent=2))]  # expect: MCP005
    return [types.TextContent(type="text", text=json.dumps(tree, indent=2))]


@mcp.tool()
async def get_tree_text(tree_id: str) -> str:
    tree = await fetch_tree(tree_id)
    if tree is None:
        reply = {"error": f"Tree not found: {tree_id}"}
        return json.dumps(reply)  # expect: MCP005
    return json.dumps(tree)


@mcp.tool()
async def count_trees(row: int) -> list[types.TextContent]:
    summary = {"row": row, "count": 3}
    return [types.TextContent(type="text", text=json.dumps(summary, indent=2))]
"""


def test_a_serialised_local_sends_what_it_holds() -> None:
    check(SOURCE)
