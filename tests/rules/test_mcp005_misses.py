"""MCP005 (and MCP003) on shapes that used to be missed: a message local assigned on several
branches, each returned right after its assignment.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from ._support import check, lint_tree, write_tree

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


# -- a status tuple whose flag the caller never reads --------------------------------------------

CORE = {
    "docs/core.py": '''\
        def insert_footnote(path, anchor, text):
            if not text:
                return False, "Footnote text must not be empty", None
            if anchor not in read_text(path):
                return False, f"Anchor text '{anchor}' not found in document", None
            number = write_footnote(path, anchor, text)
            return True, f"Footnote {number} added", {"number": number}
        ''',
    "docs/__init__.py": "",
}


def _status_tree(tmp_path: Path, server: str, core: dict[str, str] | None = None) -> list:
    write_tree(tmp_path, {**(CORE if core is None else core), "docs/server.py": server})
    return [(f.code, Path(f.filename).name, f.location.row, f.message) for f in lint_tree(tmp_path)]


def test_a_message_returned_without_its_status_flag_is_a_failure_returned_as_a_success(tmp_path: Path) -> None:
    found = _status_tree(
        tmp_path,
        '''\
        from fastmcp import FastMCP

        from docs.core import insert_footnote

        mcp = FastMCP("docs", mask_error_details=True)


        @mcp.tool
        def add_footnote(path: str, anchor: str, text: str) -> str:
            success, message, details = insert_footnote(path, anchor, text)
            return message


        @mcp.tool
        def add_footnote_report(path: str, anchor: str, text: str) -> dict:
            ok, message, details = insert_footnote(path, anchor, text)
            return {"success": ok, "message": message, "details": details}
        ''',
    )
    assert [(code, name, row) for code, name, row, _ in found] == [("MCP005", "server.py", 11), ("MCP005", "server.py", 17)]
    assert "the message of insert_footnote(...) without reading its status flag" in found[0][3]
    assert "'Footnote text must not be empty'" in found[0][3]
    assert "the status flag of insert_footnote(...), which is False on a failure" in found[1][3]


def test_a_status_flag_the_caller_tests_is_read(tmp_path: Path) -> None:
    found = _status_tree(
        tmp_path,
        '''\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        from docs.core import insert_footnote

        mcp = FastMCP("docs", mask_error_details=True)


        @mcp.tool
        def add_footnote(path: str, anchor: str, text: str) -> str:
            success, message, _ = insert_footnote(path, anchor, text)
            if not success:
                raise ToolError(message)
            return message


        @mcp.tool
        def add_footnote_short(path: str, anchor: str, text: str) -> str:
            ok, message, _ = insert_footnote(path, anchor, text)
            return message if ok else f"Footnote not added: {message}"


        @mcp.tool
        def footnote_details(path: str, anchor: str, text: str) -> dict:
            _, _, details = insert_footnote(path, anchor, text)
            return details or {}
        ''',
    )
    assert found == []


def test_tuples_without_a_false_flag_beside_a_failure_text_are_not_status_tuples(tmp_path: Path) -> None:
    core = {
        "docs/core.py": '''\
            def split_title(text):
                if "\\n" not in text:
                    return False, text, ""
                title, body = text.split("\\n", 1)
                return True, title, body


            def word_count(path):
                if not path:
                    return None, "no path"
                return len(read_text(path).split()), "words"
            ''',
        "docs/__init__.py": "",
    }
    found = _status_tree(
        tmp_path,
        '''\
        from fastmcp import FastMCP

        from docs.core import split_title, word_count

        mcp = FastMCP("docs", mask_error_details=True)


        @mcp.tool
        def title_of(text: str) -> str:
            has_body, title, body = split_title(text)
            return title


        @mcp.tool
        def count_words(path: str) -> str:
            count, unit = word_count(path)
            return unit
        ''',
        core,
    )
    assert found == []
