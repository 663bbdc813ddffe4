"""MCP002 through one summary per project function (issue 20, points 3 and 5): what a function's
parameters give its return value, and what a class's `__init__` gives the exception's message,
read from that function wherever it is called, with one finding per flow at the statement that
takes the foreign text in."""

from __future__ import annotations

from ._support import lint_source


def _mcp002(source: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


DESCRIBER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("shelf")


def describe(exc):
    return BODY


@mcp.tool
def get_book(book_id: str) -> str:
    try:
        return httpx.get(f"https://shelf.invalid/books/{book_id}").text
    except httpx.HTTPError as e:
        detail = describe(e)
        raise ToolError(f"Could not get book {book_id}: {detail}")
"""


def test_a_describers_value_raised_through_a_local_is_one_finding_at_the_describer() -> None:
    findings = _mcp002(DESCRIBER.replace("BODY", 'f"shelf said: {exc}"'))
    assert [row for row, _ in findings] == [9]
    assert "Helper 'describe'" in findings[0][1]


def test_a_describer_that_words_the_failure_itself_sends_nothing_through_the_local() -> None:
    assert _mcp002(DESCRIBER.replace("BODY", '"the shelf service is unavailable"')) == []
