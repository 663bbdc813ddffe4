"""MCP005 in a reachability check: a status tool whose subject is whether what it calls answers
(`test_connection`, `*_ping`) answers "connection failed: ..." from an `except` of the probed
call's error class: the exception is its verdict, not a crash of the check. A broad `except
Exception` also catches the check's own crash, a check of something the caller names
(`test_sensor_connection(sensor)`) failed for that input, and a status tool of another subject
(`check_quota`) whose call raised has no verdict to give: all are still failures."""

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
def greenhouse_ping(ctx=None) -> str:
    try:
        httpx.get("https://greenhouse.invalid/api/ping").raise_for_status()
    except httpx.HTTPError:
        return "Ping failed: the greenhouse service did not answer."
    return "pong"


@mcp.tool()
def test_sensor_connection(sensor: str) -> str:
    try:
        httpx.get(f"https://greenhouse.invalid/api/sensors/{sensor}/ping").raise_for_status()
    except httpx.HTTPError:
        return f"Connection failed: sensor {sensor} did not answer."  # expect: MCP005
    return "Connected."


@mcp.tool()
def check_connection() -> str:
    try:
        httpx.get("https://greenhouse.invalid/api/ping").raise_for_status()
        return "Connection successful."
    except Exception as exc:
        return f"Connection check failed: {exc}"  # expect: MCP002, MCP005


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
