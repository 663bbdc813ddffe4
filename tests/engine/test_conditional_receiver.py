"""A value put into a container chosen by a conditional expression
(`(done if ok else failed).append(v)`) may be in either container."""

from __future__ import annotations

from tests.rules._support import check

HEADER = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("svc")

"""

TOOL = """\
@mcp.tool()
def sync_all(ids: list[str], strict: bool) -> dict:
    done: list[str] = []
    failed: list[str] = []
    retried: list[str] = []
    for item_id in ids:
        try:
            httpx.post(f"https://sync.example/{{item_id}}").raise_for_status()
            done.append(item_id)
        except httpx.HTTPError as e:
            (failed if strict else retried).append({entry}){mark}
    return {{"done": done, "failed": failed}}
"""


def test_exception_text_appended_through_a_conditional_receiver_is_followed() -> None:
    check(HEADER + TOOL.format(entry='f"{item_id}: {e}"', mark="  # expect: MCP002"))


def test_own_text_appended_through_a_conditional_receiver_is_no_finding() -> None:
    check(HEADER + TOOL.format(entry="item_id", mark=""))
