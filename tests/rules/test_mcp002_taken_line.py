"""MCP002 on a value spread over several lines: the finding sits on the line where the caught
exception's text enters it (`text=f"...{exc}"` inside `return [TextContent(` ...), not on the
line that opens the statement; a one-line value, or one whose text is on its first line, keeps
the statement's start."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.types import TextContent

mcp = FastMCP("stock")


@mcp.tool()
async def reserve_item(sku: str) -> list[TextContent]:
    try:
        async with httpx.AsyncClient() as client:
            resp = await client.post("https://stock.invalid/reserve", json={"sku": sku})
            resp.raise_for_status()
        return [TextContent(type="text", text="Reserved.")]
    except httpx.HTTPError as exc:
"""


def _rows(handle: str) -> list[tuple[int, int]]:
    return [(f.location.row, f.location.column) for f in lint_source(HEADER + handle, filename="server.py") if f.code == "MCP002"]


def test_a_returned_list_spread_over_lines_is_reported_where_the_text_enters() -> None:
    handle = """\
        return [
            TextContent(
                type="text",
                text=f"Reservation failed: {exc}",
            )
        ]
"""
    assert _rows(handle) == [(19, 45)]


def test_a_dict_built_over_lines_in_a_local_is_reported_at_its_text_line() -> None:
    handle = """\
        result = {
            "status": "error",
            "error": str(exc),
        }
        return [TextContent(type="text", text=str(result))]
"""
    assert _rows(handle) == [(18, 26)]


def test_a_one_line_value_keeps_the_statements_start() -> None:
    handle = """\
        return [TextContent(type="text", text=f"Reservation failed: {exc}")]
"""
    assert _rows(handle) == [(16, 16)]


def test_a_value_whose_text_is_on_its_first_line_keeps_the_statements_start() -> None:
    handle = """\
        return [TextContent(type="text", text=f"Reservation failed: {exc}"),
                TextContent(type="text", text="Try again later.")]
"""
    assert _rows(handle) == [(16, 16)]
