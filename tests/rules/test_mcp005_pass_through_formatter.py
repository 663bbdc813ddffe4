"""MCP005 through a pass-through formatter (issue 20, cause F): `return finish(str(exc))` where
`finish` (a function of the module) returns its text as it is, a note appended at most: the
call's value says what its argument says. Not through a formatter that builds an error result,
nor for the data it formats on the success path."""

from __future__ import annotations

from ._support import check

SOURCE = """\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("ledger")


class LedgerError(Exception):
    pass


def fetch(entry_id: str) -> dict:
    return {}


def quota_note() -> str | None:
    return None


def finish(text: str) -> str:
    note = quota_note()
    if note is None:
        return text
    return f"{text}\\n\\n{note}"


def failed(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)


@mcp.tool()
def get_entry(entry_id: str) -> str:
    try:
        entry = fetch(entry_id)
    except LedgerError as exc:
        return finish(str(exc))  # expect: MCP005
    if not entry:
        return finish(f"No entry found with id {entry_id}")  # expect: MCP005
    return finish(str(entry))


@mcp.tool()
def get_entry_result(entry_id: str) -> CallToolResult | str:
    try:
        entry = fetch(entry_id)
    except LedgerError as exc:
        return failed(str(exc))
    return str(entry)
"""


def test_a_pass_through_formatter_sends_its_arguments_failure() -> None:
    check(SOURCE)
