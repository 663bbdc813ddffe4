"""MCP002, one finding per flow: a raise whose library text a broad clause on the way wraps again
(`except Exception as e: raise ApiError(f"...: {e}")`) is that clause's flow, reported there."""

from __future__ import annotations

from ._support import check

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("library")


class CatalogError(Exception):
    pass


def _get(path: str) -> dict:
    reply = httpx.get(f"https://catalog.invalid/{path}")
    if reply.status_code >= 400:
        raise CatalogError(f"catalog answered {reply.status_code}: {reply.text}")  # INNER
    return reply.json()


def find_book(isbn: str) -> dict:
    try:
        return _get(f"books/{isbn}")
    except Exception as e:
        raise CatalogError(f"book lookup failed: {e}")  # expect: MCP002


@mcp.tool()
def show_book(isbn: str) -> str:
    try:
        return str(find_book(isbn))
    except CatalogError as e:
        return f"Error: {e}"  # expect: MCP005
"""


def test_a_raise_every_way_of_which_is_wrapped_again_by_a_reported_clause_is_that_clauses_flow() -> None:
    (finding,) = [f for f in check(HEADER) if f.code == "MCP002"]
    assert finding.message == "Helper 'find_book' raises CatalogError with the text of a caught Exception"
    # The raise it wraps again is a statement of the same flow: a related location.
    assert (14, "the text it wraps is raised here, in `_get()`") in [(r.location.row, r.message) for r in finding.related]


def test_a_raise_that_also_reaches_a_tool_unwrapped_is_reported_itself() -> None:
    direct = """

@mcp.tool()
def show_shelf(shelf: str) -> str:
    try:
        return str(_get(f"shelves/{shelf}"))
    except CatalogError as e:
        return f"Error: {e}"  # expect: MCP005
"""
    check(HEADER.replace("# INNER", "# expect: MCP002") + direct)
