"""Review 14's "merge with edits" rows left (issue 23 "Left"), each with the code the fix must
write, on made-up servers: an API client's reason about the model's own values kept beside its
status (C2); the details an error dict carried and the status in one pair of parentheses, without
an "HTTP error" label the status replaces; never the model's whole free text (a prompt) echoed."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source
from tests.test_fixes import assert_fixes_to, fixed

# --- an API client's status error: its status and its reason ----------------------------------

CALENDAR = """\
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

logger = logging.getLogger(__name__)
mcp = FastMCP("calendar")
SERVICE = build("calendar", "v3")


@mcp.tool()
def move_event(event_id: str, start: str) -> dict:
    try:
        return SERVICE.events().patch(eventId=event_id, body={"start": start}).execute()
    except HttpError as e:
        return {"error": f"Calendar API error: {e}"}


@mcp.tool()
def copy_event(event_id: str) -> dict:
    try:
        return SERVICE.events().get(eventId=event_id).execute()
    except HttpError as e:
        raise ToolError(f"Could not copy event (HTTP {e.resp.status}: {e.reason}): {e}") from e
"""


def test_the_clients_reason_stays_beside_the_status() -> None:
    # "Invalid start time" / "Not Found" is the API's answer about the model's own id and value:
    # the model corrects its call by it (C2); the error's text (the URL, the body) goes.
    after = fixed(CALENDAR)
    assert (
        "    except HttpError as e:\n"
        '        logger.exception("Could not move event (event_id: %s, HTTP %s: %s)", event_id, e.resp.status, e.reason)\n'
        '        raise ToolError(f"Could not move event (event_id: {event_id}, HTTP {e.resp.status}: {e.reason})") from e\n'
    ) in after, after
    assert_fixes_to(CALENDAR, after, None)
    assert [f.code for f in lint_source(after)] == []


def test_a_message_reading_the_reason_already_gets_it_once() -> None:
    after = fixed(CALENDAR)
    assert '        raise ToolError(f"Could not copy event (HTTP {e.resp.status}: {e.reason})") from e\n' in after, after
    assert after.count("{e.reason}") == 2, after


HTTPX = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def cancel_order(order_id: str) -> str:
    try:
        response = httpx.post(f"https://orders.invalid/{order_id}/cancel")
        response.raise_for_status()
    except httpx.HTTPStatusError as e:
        return f"Cancel failed: {e}"
    return "cancelled"
"""


def test_a_transport_status_error_keeps_the_status_alone() -> None:
    # httpx's reason phrase is the status's fixed name and its body the upstream's own text: only
    # the status stays (a transport has no reason apart from its body).
    after = fixed(HTTPX)
    assert 'raise ToolError(f"Cancel failed (HTTP {e.response.status_code})") from e\n' in after, after
    assert "reason" not in after


# --- an error dict's echo fields, the status, and the label ------------------------------------

IMAGES = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("images")


@mcp.tool()
async def render_image(prompt: str, ratio: str = "1:1", styles: list[str] | None = None) -> dict:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.post("http://127.0.0.1:8000/render", json={"prompt": prompt, "ratio": ratio})
            response.raise_for_status()
            return {"success": True, "images": response.json()}
    except httpx.HTTPStatusError as e:
        return {"success": False, "error": f"HTTP error {e.response.status_code}: {e.response.text}", "prompt": prompt, "styles": styles}
    except httpx.RequestError as e:
        return {"success": False, "error": f"Request failed: {e}", "job_id": ratio}
"""


def test_the_status_joins_the_details_and_the_prompt_is_not_echoed() -> None:
    # Review 14 #24: "Could not render image: HTTP error (prompt: <the whole prompt>, styles: [...])
    # (HTTP 422)". The prompt is the model's own free text (it has it); the status goes inside the
    # details the dict carried, and replaces the "HTTP error" label it says more than.
    # Review 16 (C2): the request carries the model's prompt and ratio, so the 422 body may
    # answer them; the fix is shown (display-only), never applied.
    assert "HTTP error {e.response.status_code}: {e.response.text}" in fixed(IMAGES)
    (shown,) = [f for f in lint_source(IMAGES) if f.code == "MCP002" and "e.response.text" in IMAGES.splitlines()[f.location.row - 1]]
    assert shown.fix is not None and shown.fix.applicability.value == "display-only"
    assert any(
        'raise ToolError(f"Could not render image (styles: {styles}, HTTP {e.response.status_code})") from e' in edit.content for edit in shown.fix.edits
    ), shown.fix


def test_an_identifying_field_is_still_named() -> None:
    after = fixed(IMAGES)
    assert 'raise ToolError(f"Could not render image (job_id: {ratio})") from e\n' in after, after


# --- a mapper of caught exceptions whose text the tools return: raised in each tool -------------

MAPPER = """\
import logging

import httpx
from mcp.server.mcpserver import MCPServer

logger = logging.getLogger(__name__)
mcp = MCPServer("orders")


def handle_error(e: Exception) -> str:
    logger.error("request failed", exc_info=e)
    if isinstance(e, httpx.TimeoutException):
        return "Error: the service timed out. Try again in a minute."
    if isinstance(e, httpx.HTTPStatusError) and e.response.status_code == 401:
        return "Error: authentication failed. Check ORDERS_TOKEN in the settings."
    return "Error: the order service failed."


@mcp.tool()
async def get_order(order_id: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://orders.invalid/{order_id}")
            response.raise_for_status()
            return response.text
    except Exception as e:
        return handle_error(e)


@mcp.tool()
async def cancel_order(order_id: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.post(f"https://orders.invalid/{order_id}/cancel")
            response.raise_for_status()
            return "cancelled"
    except httpx.HTTPError as exc:
        return handle_error(exc)


@mcp.resource("orders://recent")
async def recent_orders() -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get("https://orders.invalid/recent")
            response.raise_for_status()
            return response.text
    except Exception as e:
        return handle_error(e)
"""


def test_each_tool_raises_the_mappers_text() -> None:
    # Review 14: `return handle_error(e)` in the tools of two mcp 2.x servers got no fix. The
    # mapper's sentences (its hints) go whole into the framework's ToolError, imported where the
    # server's own framework has it; the mapper and the resource calling it stay as they are.
    after = fixed(MAPPER)
    expected = (
        MAPPER.replace("from mcp.server.mcpserver import MCPServer\n", "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.exceptions import ToolError\n")
        .replace("    except Exception as e:\n        return handle_error(e)\n\n\n@mcp.tool()", "    except Exception as e:\n        raise ToolError(handle_error(e)) from e\n\n\n@mcp.tool()", 1)
        .replace("        return handle_error(exc)\n", "        raise ToolError(handle_error(exc)) from exc\n")
    )
    assert after == expected, after
    assert after.count("return handle_error(e)") == 1  # the resource's
    assert_fixes_to(MAPPER, after, None)
    assert [f.code for f in lint_source(after)] == []


def test_the_help_says_where_the_raise_goes() -> None:
    helps = {f.fix.message for f in lint_source(MAPPER) if f.code == "MCP005" and f.fix is not None}
    assert helps == {"Raise ToolError(handle_error(e)) from e in each of the 2 tools instead"}, helps


def test_fastmcp_gets_its_own_tool_error() -> None:
    source = MAPPER.replace("from mcp.server.mcpserver import MCPServer", "from fastmcp import FastMCP").replace('MCPServer("orders")', 'FastMCP("orders")')
    after = fixed(source)
    assert "from fastmcp.exceptions import ToolError\n" in after, after
    assert "        raise ToolError(handle_error(exc)) from exc\n" in after, after


def test_a_helper_between_leaves_every_caller_alone() -> None:
    # A helper returning the mapper's text to a tool is not rewritten here; fixing only the other
    # tool would leave the mapper's failure reported through it (all of them or none).
    source = MAPPER.replace(
        "@mcp.tool()\nasync def cancel_order(order_id: str) -> str:\n",
        "async def _cancel(order_id: str) -> str:\n",
    ).replace(
        "\n\n@mcp.resource",
        "\n\n@mcp.tool()\nasync def cancel_order(order_id: str) -> str:\n    return await _cancel(order_id)\n\n\n@mcp.resource",
    )
    assert "return await _cancel(order_id)" in source
    assert fixed(source) == source


def test_a_mapper_only_a_resource_calls_is_not_touched() -> None:
    source = MAPPER.split("@mcp.tool()")[0] + "@mcp.resource" + MAPPER.split("@mcp.resource")[1]
    assert fixed(source) == source


def test_a_low_level_server_gets_no_tool_error() -> None:
    # The low-level server has no ToolError class (its own fix is an error result, elsewhere).
    source = MAPPER.replace("from mcp.server.mcpserver import MCPServer", "from mcp.server.lowlevel import Server").replace('MCPServer("orders")', 'Server("orders")')
    assert "ToolError" not in fixed(source)


# --- a low-level dispatcher's catch-all returning the exception's text ---------------------------

DISPATCHER = """\
import logging

import mcp.types as types
from mcp.server.lowlevel import Server

logger = logging.getLogger(__name__)
server = Server("warehouse")


async def run_query(sql: str) -> list:
    return []


@server.call_tool()
async def handle_call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    try:
        if name == "run_query":
            rows = await run_query(arguments["sql"])
            return [types.TextContent(type="text", text=str(rows))]
        raise ValueError(f"Unknown tool: {name}")
    except Exception as e:
        logger.error("Tool %s failed: %s", name, e)
        return [types.TextContent(type="text", text=f"Error: {str(e)}")]
"""

PINNED_1X = "mcp==1.9.4"


def test_the_dispatcher_re_raises_on_mcp_1x() -> None:
    # Review 14: low-level dispatchers got no fix. mcp 1.x's low level sends a raised exception's
    # text as an error result on every release (1.9 included, where CallToolResult is not
    # honoured): the same words, with isError: true (the SQL error about the model's own query
    # reaches it, C2).
    after = fixed(DISPATCHER, PINNED_1X)
    assert after == DISPATCHER.replace('        return [types.TextContent(type="text", text=f"Error: {str(e)}")]\n', "        raise\n"), after
    assert_fixes_to(DISPATCHER, after, PINNED_1X)
    helps = {f.fix.message for f in lint_source(DISPATCHER, target=PINNED_1X) if f.fix is not None}
    assert helps == {"Re-raise the exception (the server sends its text with isError: true)"}, helps


def test_a_hint_after_the_exception_text_is_not_re_raised_away() -> None:
    source = DISPATCHER.replace('text=f"Error: {str(e)}"', 'text=f"Error: {str(e)}. Check the query syntax."')
    assert fixed(source, PINNED_1X) == source


def test_a_raise_an_outer_clause_would_catch_is_not_offered() -> None:
    nested = """\
@server.call_tool()
async def handle_call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    try:
        try:
            rows = await run_query(arguments["sql"])
            return [types.TextContent(type="text", text=str(rows))]
        except Exception as e:
            return [types.TextContent(type="text", text=f"Error: {e}")]
    except Exception:
        logger.exception("dispatch failed")
        return [types.TextContent(type="text", text="Error: the tool failed.")]
"""
    source = DISPATCHER.split("@server.call_tool()")[0] + nested
    assert "        raise\n" not in fixed(source, PINNED_1X)


def test_a_high_level_server_is_not_given_a_bare_raise() -> None:
    # FastMCP prefixes and (mcp 2.x) masks other exceptions: the re-raise is the low level's.
    source = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("warehouse")


@mcp.tool()
def run_query(sql: str) -> str:
    try:
        return str(sql)
    except Exception as e:
        return f"Error: {e}"
"""
    assert "        raise\n" not in fixed(source, PINNED_1X)


def test_a_clause_that_no_longer_reads_its_exception_loses_the_name() -> None:
    # `except Exception as e: raise` would leave `e` unused (ruff F841).
    # (A comment on the clause keeps the try: an unwrapped body would not carry it.)
    source = DISPATCHER.replace('        logger.error("Tool %s failed: %s", name, e)\n', "").replace("    except Exception as e:\n", "    except Exception as e:  # shown to the client\n")
    after = fixed(source, PINNED_1X)
    assert after.endswith("    except Exception:  # shown to the client\n        raise\n"), after
    assert_fixes_to(source, after, PINNED_1X)
