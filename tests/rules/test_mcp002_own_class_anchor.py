"""MCP002, one finding per flow where the foreign text enters: a helper puts library text into the
project's own exception (`raise ApiError(f"...: {e}")`) and each tool re-wraps that class
(`except ApiError as e: raise ServiceError(f"...: {e}")`) that the project catches again and
passes on (a tool returning `{"error": str(e)}`). The library text entered at the helper's raise:
that raise is the finding, the tools that reach it and the clauses passing it on travel with it.
The re-wraps are not findings of their own, whether the class is raised only with library text or
also with the author's own sentences. A broad clause beside the re-wrap (`except Exception as e`)
takes foreign text in itself and stays its own finding. (A re-wrap of a class raised only with
library text into an exception escaping to the framework stays reported at the re-wrap:
tests/rules/test_mcp002_carried.py.)
"""

from __future__ import annotations

from ._support import check, said

_HEADER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("stats")


class ApiError(Exception):
    pass


def fetch(path: str) -> dict:
"""

_TOOLS = """

class ServiceError(Exception):
    pass


def site_report(site: str) -> dict:
    try:
        return fetch(f"sites/{site}")
    except ApiError as e:
        raise ServiceError(f"Site stats failed: {e}") from e


def page_report(page: str) -> dict:
    try:
        return fetch(f"pages/{page}")
    except ApiError as e:
        raise ServiceError(f"Page stats failed: {e}") from e
    except Exception as e:
        raise ServiceError(f"Page stats broke: {e}") from e  # expect: MCP002


@mcp.tool
def stats(kind: str, key: str) -> dict:
    try:
        return site_report(key) if kind == "site" else page_report(key)
    except ServiceError as e:
        return {"error": str(e)}  # expect: MCP005
"""


def test_library_text_put_into_the_own_class_is_reported_at_the_helpers_raises() -> None:
    # ApiError is raised only with library text: still one finding per raise in the helper, none
    # at the tools' `except ApiError` re-wraps (rows 28 and 36).
    source = (
        _HEADER
        + """\
    try:
        resp = httpx.get(f"https://stats.example.com/api/{path}", timeout=5)
        resp.raise_for_status()
        return resp.json()
    except httpx.HTTPStatusError as e:
        raise ApiError(f"stats API answered: {e}") from e  # expect: MCP002
    except Exception as e:
        raise ApiError(f"stats API unreachable: {e}") from e  # expect: MCP002
"""
        + _TOOLS
    )
    findings = check(source, target="fastmcp>=2.10,<3")
    first = next(f for f in findings if f.code == "MCP002" and f.location.row == 18)
    assert first.message == "Helper 'fetch' raises ApiError with the text of a caught httpx.HTTPStatusError"
    assert "'page_report' raises it again as ServiceError (server.py:38), and tool 'stats' returns it (server.py:48)" in said(first)
    assert "tool 'stats' reaches this helper" in {r.message for r in first.related}
    broad = next(f for f in findings if f.code == "MCP002" and f.location.row == 40)
    assert broad.message == "Helper 'page_report' raises ServiceError with the text of a caught Exception"


def test_own_class_also_raised_with_the_authors_sentences_is_reported_at_the_library_raise_only() -> None:
    # ApiError also carries the author's own sentence (row 14): the tools' re-wraps pass on that
    # sentence too, and are no leak by themselves; the raise taking the library text in is.
    source = (
        _HEADER
        + """\
    if not path.strip():
        raise ApiError("the path is empty; pass a site or page id")
    try:
        resp = httpx.get(f"https://stats.example.com/api/{path}", timeout=5)
        resp.raise_for_status()
        return resp.json()
    except httpx.HTTPError as e:
        raise ApiError(f"stats API failed: {e}") from e  # expect: MCP002
"""
        + _TOOLS
    )
    findings = check(source, target="fastmcp>=2.10,<3")
    raised = next(f for f in findings if f.code == "MCP002" and f.location.row == 20)
    assert raised.message == "Helper 'fetch' raises ApiError with the text of a caught httpx.HTTPError"


def test_own_class_raised_only_with_the_authors_sentences_is_silent_at_the_re_wraps() -> None:
    source = (
        _HEADER
        + """\
    if not path.strip():
        raise ApiError("the path is empty; pass a site or page id")
    return {"path": path}
"""
        + _TOOLS
    )
    # Only the broad clause (its own flow: whatever fails in the `try`).
    found = [(f.location.row, f.message) for f in check(source, target="fastmcp>=2.10,<3") if f.code == "MCP002"]
    assert found == [(35, "Helper 'page_report' raises ServiceError with the text of a caught Exception")]
