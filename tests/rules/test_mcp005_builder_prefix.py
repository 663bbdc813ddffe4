"""MCP005 on a text opened by an error builder's text (issue 20, cause M): `message =
sign_in_error_message(); message += ...; return [TextContent(text=message)]`, the builder a
function of the module named to build an error that returns text: the content block sends that
failure. Not a text opened by a helper of no such name (`page_header()`)."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.types import TextContent

mcp = FastMCP("wiki")


def sign_in_error_message() -> str:
    return "Your session has expired. Sign in again at the wiki's login page, then retry."


def page_header() -> str:
    return "Wiki page"


@mcp.tool()
async def read_page(page_id: str) -> list[TextContent]:
    try:
        async with httpx.AsyncClient() as client:
            reply = await client.get(f"/pages/{page_id}")
            reply.raise_for_status()
    except httpx.HTTPStatusError as e:
        message = sign_in_error_message()
        message += f"\\n\\nStatus: HTTP {e.response.status_code}"
        return [TextContent(type="text", text=message)]  # expect: MCP005
    text = page_header()
    text += "\\n" + reply.text
    return [TextContent(type="text", text=text)]
"""


def test_a_text_opened_by_an_error_builders_text_is_a_failure() -> None:
    check(SOURCE)
