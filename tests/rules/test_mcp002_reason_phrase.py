"""MCP002 on a failed HTTP reply: its body (`resp.text`) is upstream text, the status line's
reason (`resp.reason_phrase`, the fixed name of the status code) is not."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source

SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("stock")


def auth_help() -> str:
    return "Sign in again with the stock service."


@mcp.tool()
async def release_item(sku: str) -> str:
    async with httpx.AsyncClient() as client:
        resp = await client.post("https://stock.invalid/release", json={"sku": sku})
    if resp.status_code >= 400:
        return f"Release refused: HTTP {resp.status_code} REASON"
    return "Released."


@mcp.tool()
async def reserve_item(sku: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            resp = await client.post("https://stock.invalid/reserve", json={"sku": sku})
            resp.raise_for_status()
        return "Reserved."
    except httpx.HTTPStatusError as exc:
        message = auth_help()
        message += f" (HTTP {exc.response.status_code} - {exc.response.EXC_REASON})"
        return message
"""


def _found(reason: str, exc_reason: str) -> list[tuple[int, str]]:
    source = SERVER.replace("EXC_REASON", exc_reason).replace("REASON", reason)
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_the_reason_phrase_of_a_failed_reply_is_not_upstream_text() -> None:
    assert _found("{resp.reason_phrase}", "reason_phrase") == []


def test_the_body_of_a_failed_reply_beside_its_reason_is_still_reported() -> None:
    assert _found("{resp.reason_phrase}: {resp.text}", "text") == [
        (16, "Tool 'release_item' returns an upstream error body (resp.text) as a normal result"),
        (29, "Tool 'reserve_item' returns the text of a caught httpx.HTTPStatusError as a normal result"),
    ]
