"""MCP002, one finding per flow for upstream bodies: a failed reply's body read once into a local
and raised in a branch per status (`body = resp.text[:500]`, then `raise NotFound(f"... {body}")`,
`raise Denied(f"... {body}")`) is one flow, reported where the local takes the body in, the raises
its related locations. A body sent by one statement is reported there, as before."""

from __future__ import annotations

from ._support import lint_source

SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("desk")


class DeskError(Exception):
    pass


async def fetch_ticket(ticket_id: str) -> dict:
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"https://desk.invalid/tickets/{ticket_id}")
    if resp.status_code != 200:
        body = resp.text[:500]
        RAISES
    return resp.json()


@mcp.tool()
async def show_ticket(ticket_id: str) -> dict:
    \"\"\"Show a ticket.\"\"\"
    return await fetch_ticket(ticket_id)
"""

BRANCHES = """if resp.status_code == 404:
            raise DeskError(f"no such ticket: {body}")
        if resp.status_code == 403:
            raise DeskError(f"not allowed: {body}")
        raise DeskError(f"desk error {resp.status_code}: {body}")"""


def _mcp002(source: str):
    return [f for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_a_body_raised_in_several_status_branches_is_one_finding_at_the_local() -> None:
    (finding,) = _mcp002(SERVER.replace("RAISES", BRANCHES))
    assert (finding.location.row, finding.message) == (15, "Helper 'fetch_ticket' raises DeskError with an upstream error body (resp.text)")
    assert sorted(r.location.row for r in finding.related if "same body" in r.message) == [19, 20]


def test_a_body_sent_by_one_raise_is_reported_at_that_raise() -> None:
    (finding,) = _mcp002(SERVER.replace("RAISES", 'raise DeskError(f"desk error {resp.status_code}: {body}")'))
    assert finding.location.row == 16


def test_branches_raising_the_authors_own_words_are_not_reported() -> None:
    own = BRANCHES.replace(": {body}", "")
    assert _mcp002(SERVER.replace("RAISES", own)) == []


def test_a_field_picked_from_a_decoded_reply_is_reported_at_each_raise() -> None:
    picked = SERVER.replace("body = resp.text[:500]", 'body = resp.json().get("error_text", "")').replace("RAISES", BRANCHES)
    assert sorted(f.location.row for f in _mcp002(picked)) == [17, 19, 20]
