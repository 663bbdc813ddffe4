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
    after = fixed(IMAGES)
    assert (
        "    except httpx.HTTPStatusError as e:\n"
        '        logger.exception("Could not render image (styles: %s, HTTP %s)", styles, e.response.status_code)\n'
        '        raise ToolError(f"Could not render image (styles: {styles}, HTTP {e.response.status_code})") from e\n'
    ) in after, after
    assert "prompt: {prompt}" not in after and "HTTP error" not in after, after
    assert_fixes_to(IMAGES, after, None)


def test_an_identifying_field_is_still_named() -> None:
    after = fixed(IMAGES)
    assert 'raise ToolError(f"Could not render image (job_id: {ratio})") from e\n' in after, after
