"""MCP005 in a reachability check: a status tool whose subject is whether what it calls answers
(`test_connection`, `*_ping`) answers "connection failed: ..." from the `except` around that
call: the exception is its verdict, not a crash of the check. A status tool of another subject
(`check_quota`) whose call raised has no verdict to give: that is still a failure."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")


@mcp.tool()
def test_connection() -> str:
    try:
        httpx.get("https://greenhouse.invalid/api/ping").raise_for_status()
        return "Connection successful: the greenhouse service answers."
    except httpx.HTTPError as exc:
        return f"Connection failed: {exc}"  # expect: MCP002


@mcp.tool()
def greenhouse_ping() -> dict:
    try:
        httpx.get("https://greenhouse.invalid/api/ping").raise_for_status()
    except httpx.HTTPError:
        return {"ok": False, "error": "The greenhouse service did not answer."}
    return {"ok": True}


@mcp.tool()
def check_quota(account: str) -> str:
    try:
        used = httpx.get(f"https://greenhouse.invalid/api/quota/{account}").json()["used"]
    except httpx.HTTPError:
        return f"Error: could not read the quota of {account}."  # expect: MCP005
    return f"Quota used: {used}"
"""


def test_a_reachability_check_answers_with_the_exception() -> None:
    check(SOURCE)
