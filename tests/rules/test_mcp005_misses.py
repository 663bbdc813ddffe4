"""MCP005 (and MCP003) on shapes that used to be missed: a message local assigned on several
branches, each returned right after its assignment.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet.
"""

from __future__ import annotations

import textwrap

from ._support import check

HEADER = """\
import logging

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = MCPServer("docs")
"""


def _src(body: str) -> str:
    return HEADER + "\n" + textwrap.dedent(body)


# -- a local assigned on each branch, returned right after ---------------------------------------


def test_a_message_assigned_per_branch_is_read_where_it_is_returned() -> None:
    findings = check(
        _src(
            """\
            @mcp.tool()
            async def read_page(ctx: Context, url: str) -> str:
                if not url.startswith("https://docs.example.org/"):
                    error_msg = f"Invalid URL: {url}. URL must be from the docs.example.org domain"
                    await ctx.error(error_msg)
                    return error_msg  # expect: MCP005
                if not url.endswith(".html"):
                    error_msg = f"Invalid URL: {url}. URL must end with .html"
                    logger.error(error_msg)
                    return error_msg  # expect: MCP005
                return await fetch_page(url)
            """
        )
    )
    assert [f.location.row for f in findings] == [14, 18]
    assert "the string 'Invalid URL: …. URL must be from the docs.example.org" in findings[0].message
    assert "the string 'Invalid URL: …. URL must end with .html'" in findings[1].message
    assert findings[0].fix is not None and "raise ToolError(error_msg)" in findings[0].fix.edits[0].content


def test_a_raised_message_assigned_per_branch_is_judged_by_mcp003() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def sync_calendar(calendar_id: str) -> str:
                if not calendar_id:
                    message = "calendar_id is required; pass the id list_calendars returned"
                    raise ToolError(message)
                if calendar_id not in CALENDARS:
                    message = "Something went wrong. Please try again."
                    raise ToolError(message)  # expect: MCP003
                return "synced"
            """
        )
    )


def test_a_value_a_later_branch_may_overwrite_is_not_read_as_the_returned_one() -> None:
    # `status` may hold either text when returned: neither assignment alone is what it returns.
    check(
        _src(
            """\
            @mcp.tool()
            async def publish(page_id: str, ready: bool) -> str:
                status = "Error: page not published yet"
                if ready:
                    status = f"Page {page_id} published"
                return status
            """
        )
    )


def test_a_value_assigned_in_another_handler_is_not_read_as_the_returned_one() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def page_title(url: str) -> str:
                try:
                    title = await fetch_title(url)
                except TimeoutError:
                    title = "untitled"
                return title
            """
        )
    )


def test_a_message_extended_after_its_assignment_is_not_read_as_the_first_text() -> None:
    # `+=` adds to the value: the first assignment is no longer all of it (no guess either way).
    check(
        _src(
            """\
            @mcp.tool()
            async def summary(page_id: str, verbose: bool) -> str:
                if verbose:
                    text = f"Page {page_id}"
                    return text
                text = f"Page {page_id} could not be summarised"
                text += " in short form"
                return text
            """
        )
    )
