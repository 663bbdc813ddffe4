"""Values collected with `asyncio.gather(...)`: unpacked (`a, b = await gather(f(), g())`), each
local is what its own awaitable returns, so a helper's failure reaches the tool only through the
local the tool returns; not unpacked, the gathered list holds each value as one row of a batch."""

from __future__ import annotations

import textwrap

from ._support import check

HEADER = """\
import asyncio

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("probe")


async def ping_host(url: str) -> dict:
    try:
        async with httpx.AsyncClient() as client:
            reply = await client.get(url)
        return {"reachable": True, "code": reply.status_code}
    except httpx.HTTPError as e:
        return {"reachable": False, "error": f"{type(e).__name__}: {e}"}{marks}


async def local_clock() -> dict:
    return {"now": 1}
"""


def _src(marks: str, body: str) -> str:
    return HEADER.replace("{marks}", marks) + "\n\n" + textwrap.dedent(body)


def test_an_unpacked_gathered_value_carries_its_own_awaitable_s_return() -> None:
    check(
        _src(
            "  # expect: MCP002, MCP005",
            """\
            @mcp.tool()
            async def overview(url: str) -> dict:
                clock, host = await asyncio.gather(local_clock(), ping_host(url))
                return host
            """,
        )
    )


def test_an_unpacked_gathered_value_not_returned_carries_nothing() -> None:
    check(
        _src(
            "",
            """\
            @mcp.tool()
            async def overview(url: str) -> dict:
                clock, host = await asyncio.gather(local_clock(), ping_host(url))
                return clock
            """,
        )
    )


def test_a_gathered_list_is_rows_for_mcp005_and_text_for_mcp002() -> None:
    check(
        _src(
            "  # expect: MCP002",
            """\
            @mcp.tool()
            async def ping_all(urls: list[str]) -> list:
                return list(await asyncio.gather(*[ping_host(u) for u in urls]))
            """,
        )
    )
