"""MCP005 on "No <things> found" in a tool that takes a record's key: a listing under the key
that came back empty ("No loans found for member 7") is an answer, while a miss of the one record
("No member found with id 7", "Member 7 not found") stays a failure the model must see."""

from __future__ import annotations

from ._support import check

SOURCE = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("library")

LOANS: dict[str, list[dict]] = {}
MEMBERS: dict[str, dict] = {}


def _loans_of(member_id: str) -> list[dict]:
    return LOANS.get(member_id, [])


@mcp.tool()
def get_loan_history(member_id: str) -> str:
    loans = _loans_of(member_id)
    if not loans:
        return f"No open loans found for member {member_id}."
    return "\\n".join(loan["title"] for loan in loans)


@mcp.tool()
def get_member(member_id: str) -> str:
    member = MEMBERS.get(member_id)
    if member is None:
        return f"No member found with id {member_id}."  # expect: MCP005
    return member["name"]


@mcp.tool()
def get_member_card(member_id: str) -> str:
    member = MEMBERS.get(member_id)
    if member is None:
        return f"Member {member_id} not found."  # expect: MCP005
    return member["card"]
"""


def test_an_empty_listing_under_a_key_is_an_answer_a_missing_record_is_not() -> None:
    check(SOURCE)
