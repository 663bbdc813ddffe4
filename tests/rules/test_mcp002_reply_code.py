"""MCP002 on a decoded reply whose numeric outcome code the branch tests (`data.get("errcode", 0)
!= 0`, also beside `status_code == 200`): a non-zero code says the call failed, so the reply's
fields put into the raised text are an upstream error body (heldout14 CAUSES-MCP002 row 15).
Silent: a non-zero count or another number that says nothing of the outcome."""

from __future__ import annotations

from ._support import check, said, unmasked

SERVER = unmasked("""\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("wiki")


class WikiError(Exception):
    pass


@mcp.tool()
def page_text(title: str) -> dict:
    \"\"\"Read a wiki page.\"\"\"
    reply = httpx.get(f"https://wiki.invalid/pages/{title}")
    data = reply.json()
    if TEST:
        raise WikiError(f"Wiki refused the call: {data.get('errmsg')}")  # expect-here
    return data
""")


def _server(test: str, expect: bool) -> str:
    return SERVER.replace("TEST", test).replace("# expect-here", "# expect: MCP002" if expect else "")


def test_non_zero_error_code_is_a_failed_reply() -> None:
    findings = check(_server('data.get("errcode", 0) != 0', expect=True))
    assert [said(f).splitlines()[0] for f in findings if f.code == "MCP002"] == [
        "Tool 'page_text' raises WikiError with an upstream error body (data.get('errmsg'))"
    ]


def test_non_zero_code_beside_a_200_status_is_a_failed_reply() -> None:
    # Metamorphic: another code field, subscripted, beside the status test of a 200 reply.
    check(_server('reply.status_code == 200 and data["err_code"] != 0', expect=True))


def test_non_zero_count_is_no_failure_test() -> None:
    check(_server('data.get("count", 0) != 0', expect=False))
