"""MCP005 on a return whose conditional expression picks a failure value in one branch
(`return {"saved": key} if not err else {"error": err}`): on the path that picks it, the failure
goes out as the tool's success. Not when neither branch is a failure, nor when the test sums up
a batch the function counted. No fix: raising the one branch would drop the other."""

from __future__ import annotations

from ._support import check, only

SOURCE = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelf")


def _store(method: str, path: str) -> tuple[int | None, str | None]:
    if not path:
        return None, "no path given"
    return 200, None


@mcp.tool()
def shelve(book_id: str) -> dict:
    status, err = _store("PUT", f"/books/{book_id}")
    return {"shelved": book_id} if not err else {"error": err}  # expect: MCP005


@mcp.tool()
def unshelve(book_id: str) -> str:
    status, err = _store("DELETE", f"/books/{book_id}")
    return f"Error: could not remove {book_id}" if err else f"Removed {book_id}"  # expect: MCP005


@mcp.tool()
def shelf_state(book_id: str) -> dict:
    status, err = _store("GET", f"/books/{book_id}")
    return {"state": "on the shelf"} if status == 200 else {"state": "lent out"}


@mcp.tool()
def shelve_all(book_ids: list[str]) -> dict:
    missed = []
    for book_id in book_ids:
        status, err = _store("PUT", f"/books/{book_id}")
        if err:
            missed.append(book_id)
    return {"error": "some books were not shelved", "missed": missed} if missed else {"shelved": len(book_ids)}
"""


def test_a_failure_in_one_branch_of_a_returned_choice_is_reported() -> None:
    check(SOURCE)


def test_the_finding_names_the_choice_and_offers_no_fix() -> None:
    finding = only(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelf")


def _store(path: str) -> str | None:
    return None if path else "no path given"


@mcp.tool()
def shelve(book_id: str) -> dict:
    err = _store(f"/books/{book_id}")
    return {"shelved": book_id} if not err else {"error": err}  # expect: MCP005
"""
    )
    assert finding.message == "Tool 'shelve' returns a failure dict as a normal result"
    assert 'the failure: a dict with an "error" key, chosen by a test' in finding.notes
    assert finding.fix is None
