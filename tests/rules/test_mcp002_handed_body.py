"""MCP002, a failed reply's body (or a field of it) handed to a project describer as a parameter
(`return describe(resp.status_code, detail)`, `def describe(status, detail): return f"... {detail}"`):
the describer builds the model-facing text, so each of its returns that puts the parameter in is
reported (LABELING-decisions D1), and the caller's return is a pass-through, not a second finding.
A describer handed no body (the model's own argument, a success reply) is not reported, and a
helper that hands the parameter back unchanged leaves the finding at the caller."""

from __future__ import annotations

from ._support import lint_source

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("desk")


"""


def _rows(body: str) -> list[tuple[int, str]]:
    source = HEADER + body
    return sorted((f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002")


DESCRIBED = '''\
def _describe(status_code: int, detail: str) -> str:
    if status_code == 429:
        return f"Desk error ({status_code}): {detail}. Slow down."
    return f"Desk error ({status_code}): {detail}"


def _format(status_code: int, data) -> str:
    if isinstance(data, dict):
        message = data.get("detail")
        if message:
            return f"Error ({status_code}): {message}"
    return f"Error ({status_code}): {data}"


@mcp.tool()
async def show_ticket(ticket_id: str) -> str:
    """Show a ticket."""
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"https://desk.invalid/tickets/{ticket_id}")
    if resp.status_code != 200:
        try:
            detail = resp.json().get("detail", resp.text)
        except Exception:
            detail = resp.text
        return _describe(resp.status_code, detail)
    return resp.text


@mcp.tool()
async def list_queues(team: str) -> str:
    """List a team's queues."""
    async with httpx.AsyncClient() as client:
        resp = await client.get("https://desk.invalid/queues", params={"team": team})
    data = resp.json()
    if not resp.is_success:
        return _format(resp.status_code, data)
    return str(data)
'''


def test_describer_handed_a_failed_body_is_reported_at_each_return_that_builds_the_text() -> None:
    assert _rows(DESCRIBED) == [
        (9, "Helper '_describe' returns an upstream error body (detail) as a normal result"),
        (10, "Helper '_describe' returns an upstream error body (detail) as a normal result"),
        (17, "Helper '_format' returns an upstream error body (data.get(\"detail\")) as a normal result"),
        (18, "Helper '_format' returns an upstream error body (data) as a normal result"),
    ]


NO_BODY = '''\
def _describe(status_code: int, detail: str) -> str:
    return f"Desk error ({status_code}): {detail}"


@mcp.tool()
async def show_ticket(ticket_id: str) -> str:
    """Show a ticket."""
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"https://desk.invalid/tickets/{ticket_id}")
    if resp.status_code == 404:
        return _describe(resp.status_code, f"no ticket {ticket_id}")
    data = resp.json()
    if resp.is_success:
        return _describe(200, data.get("summary", ""))
    return "Desk is unavailable; try again later."
'''


def test_describer_handed_no_failed_body_is_not_reported() -> None:
    assert _rows(NO_BODY) == []


PASSED_BACK = '''\
def _trimmed(detail: str) -> str:
    return detail


@mcp.tool()
async def show_ticket(ticket_id: str) -> str:
    """Show a ticket."""
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"https://desk.invalid/tickets/{ticket_id}")
    if resp.status_code != 200:
        return _trimmed(f"Desk error: {resp.text}")
    return resp.text
'''


def test_body_worded_by_the_caller_stays_at_the_caller() -> None:
    assert [row for row, _ in _rows(PASSED_BACK)] == [17]


WRAPPED = '''\
def _failure(message: str) -> dict:
    return {"success": False, "message": message}


@mcp.tool()
async def show_ticket(ticket_id: str) -> dict:
    """Show a ticket."""
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"https://desk.invalid/tickets/{ticket_id}")
    if resp.status_code >= 400:
        return _failure(f"Desk returned {resp.status_code}: {resp.text}")
    return resp.json()
'''


def test_caller_that_words_the_body_and_hands_it_to_a_wrapper_is_reported_at_the_caller() -> None:
    assert [row for row, _ in _rows(WRAPPED)] == [17]
