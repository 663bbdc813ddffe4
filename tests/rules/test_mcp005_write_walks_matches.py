"""MCP005 on "No matching <things> found" in a tool that changes what it matched: the write walked
its matches to change them and never listed them, so its empty match is a refusal of the call (a
failure the model must see), while a listing that answers with its matches has answered."""

from __future__ import annotations

from ._support import check

SOURCE = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("tags")



class Store:
    def tags(self, item_id: str, pattern: str) -> list[str]:
        return []

    def untag(self, item_id: str, tag: str) -> None:
        pass


store = Store()


@mcp.tool()
def remove_tags(item_id: str, pattern: str) -> dict:
    matching = store.tags(item_id, pattern)
    if not matching:
        return {"error": "No matching tags found"}  # expect: MCP005
    for tag in matching:
        store.untag(item_id, tag)
    return {"removed": True}


@mcp.tool()
def find_tags(item_id: str, pattern: str) -> dict:
    matching = store.tags(item_id, pattern)
    if not matching:
        return {"error": "No matching tags found"}
    lines = []
    for tag in matching:
        lines.append(tag)
    return {"tags": lines}


@mcp.tool()
def tag_summary(item_id: str, pattern: str) -> str:
    matching = sorted(store.tags(item_id, pattern))
    if not matching:
        return "No matching tags found"
    return ", ".join(matching)
"""


def test_a_write_that_walks_its_matches_refuses_a_listing_answers() -> None:
    check(SOURCE)
