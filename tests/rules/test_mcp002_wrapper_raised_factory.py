"""MCP002: a decorator's wrapper that catches everything and raises what a factory builds from
the caught exception (`except Exception as e: raise tool_error(e)`): that raise is outside the
wrapper's `try`, so the factory's statement that takes the exception's text is the flow's one
finding. A factory whose value the tool raises inside a wrapper whose own clause answers in its
own words is still left to that clause."""

from __future__ import annotations

from ._support import check

SERVER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tracker")
http = httpx.AsyncClient(base_url="https://tracker.invalid")


def tool_error(e: Exception) -> ToolError:
    return ToolError(str(e) or "Unknown error")  MARK


def guard(fn):
    async def inner(**kwargs):
        try:
            return await fn(**kwargs)
        except Exception as e:
            CLAUSE
    inner.__name__ = fn.__name__
    return inner


@mcp.tool(name="get_issue")
@guard
async def get_issue(key: str) -> dict:
    try:
        reply = await http.get(f"/issues/{key}")
        reply.raise_for_status()
    except httpx.HTTPError as e:
        INNER_RAISE
    return reply.json()
"""


def test_a_factory_the_wrappers_clause_raises_is_reported_where_it_takes_the_text() -> None:
    source = SERVER.replace("MARK", "# expect: MCP002").replace("INNER_RAISE", "raise").replace("CLAUSE", "raise tool_error(e)")
    (finding,) = check(source)
    assert finding.message == "Helper 'tool_error' builds ToolError with the text of the exception passed in 'e', which the caller raises"


def test_a_factory_raised_under_a_wrapper_answering_in_its_own_words_is_not_reported() -> None:
    clause = 'raise ToolError("The tracker request failed; try again later") from e  # expect: MCP003'
    source = SERVER.replace("MARK", "").replace("INNER_RAISE", "raise tool_error(e)").replace("CLAUSE", clause)
    check(source)


MASKED = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tracker", mask_error_details=True)
http = httpx.AsyncClient(base_url="https://tracker.invalid")


class TrackerError(Exception):
    pass


def to_error(error: Exception) -> CLASS:
    return CLASS(str(error))  MARK


@mcp.tool
async def get_issue(key: str) -> dict:
    try:
        reply = await http.get(f"/issues/{key}")
        reply.raise_for_status()
    except httpx.HTTPError as exc:
        raise to_error(exc) from exc
    return reply.json()
"""


def test_a_factory_of_the_frameworks_tool_error_is_reported_where_other_exceptions_are_masked() -> None:
    (finding,) = check(MASKED.replace("CLASS", "ToolError").replace("MARK", "# expect: MCP002"))
    assert finding.message == "Helper 'to_error' builds ToolError with the text of the exception passed in 'error', which the caller raises"
    assert "the model reads a ToolError's text verbatim" in finding.notes


def test_a_factory_of_another_class_is_not_reported_where_the_framework_masks_it() -> None:
    check(MASKED.replace("CLASS", "TrackerError").replace("MARK", ""))
