"""MCP005, one finding per flow (bench/LABELING-decisions.md D1): a text helper whose value every
caller puts whole in one item of a failure record the caller builds and reports itself (`{"error":
status_text(code), "details": details_of(exc)}`) words a part of that record; the record builder's
returns are the flow, reported there and not again at the part helper. A describer handed the
caught exception whose text is the record's message (`{"error": describe(exc)}`) builds the
failure's words and stays the flow's place, as does a helper some caller returns whole."""

from __future__ import annotations

from ._support import check

HEADER = """\
import functools

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ledger")


def record_from_exception(exc: Exception) -> dict:
    if isinstance(exc, httpx.HTTPStatusError):
        return {"error": _status_text(exc.response.status_code), "details": _details(exc)}  # expect: MCP005
    return {"error": "Unexpected error while calling the API.", "details": _details(exc)}  # expect: MCP005


def handle_errors(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except Exception as exc:
            return record_from_exception(exc)
    return wrapper


@mcp.tool()
@handle_errors
async def get_entry(entry_id: str) -> dict:
    async with httpx.AsyncClient() as client:
        r = await client.get(f"https://example.invalid/{entry_id}")
        r.raise_for_status()
        return r.json()
"""

PARTS = """

def _status_text(status_code: int) -> str:
    if status_code == 401:
        return "Unauthorized: check the API key."{mark}
    if status_code == 404:
        return "Not found: the requested record does not exist."{mark}
    return f"Request failed with HTTP {{status_code}}."{mark}


def _details(exc: Exception) -> str:
    return f"{{type(exc).__name__}}: {{exc}}"  # expect: MCP002
"""


def test_the_part_helpers_of_a_reported_record_builder_are_its_flow() -> None:
    check(HEADER + PARTS.format(mark=""))


def test_a_part_helper_a_tool_also_returns_whole_and_a_describer_of_the_message_stay_reported() -> None:
    check(
        HEADER
        + PARTS.format(mark="  # expect: MCP005")
        + """

def _describe(exc: Exception) -> str:
    return f"Error: {exc}"  # expect: MCP002, MCP005


@mcp.tool()
async def entry_status(code: int) -> str:
    if code >= 400:
        return _status_text(code)
    return "ok"


@mcp.tool()
async def list_entries() -> dict:
    try:
        async with httpx.AsyncClient() as client:
            r = await client.get("https://example.invalid/")
            r.raise_for_status()
            return r.json()
    except Exception as exc:
        return {"error": _describe(exc)}
"""
    )
