"""MCP002 through a helper's locals: a helper handed a caught exception that takes its text into a
local first (`message = str(error)`, then `result = {"message": message}; return result`) puts it
into what it returns as surely as `return {"message": str(error)}` does; reported where the text is
taken, one flow per statement that takes it. A caller that keeps the helper's result in a local
(`msg = describe(exc); return msg`) only passes that flow on."""

from __future__ import annotations

from ._support import lint_source


def _mcp002(source: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]

CLIENT = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("desk")


class DeskError(Exception):
    pass


async def fetch_ticket(ticket_id: str) -> dict:
    if not ticket_id:
        raise DeskError("ticket_id is required")
    try:
        async with httpx.AsyncClient() as client:
            reply = await client.get(f"https://desk.invalid/tickets/{ticket_id}")
    except httpx.TimeoutException as exc:
        raise DeskError(f"the desk did not answer in time: {exc}") from exc
    return reply.json()


def error_response(error: Exception) -> dict:
    BODY


@mcp.tool()
async def show_ticket(ticket_id: str) -> dict:
    \"\"\"Show a ticket.\"\"\"
    try:
        return await fetch_ticket(ticket_id)
    except DeskError as e:
        return error_response(e)
"""


def test_a_helper_returning_the_text_through_locals_passes_the_carried_text_on() -> None:
    body = 'message = str(error)\n    result = {"status": "error", "message": message}\n    return result'
    (finding,) = [f for f in lint_source(CLIENT.replace("BODY", body), filename="server.py") if f.code == "MCP002"]
    assert finding.location.row == 18
    assert "caught on the way: tool 'show_ticket' passes it to 'error_response', which returns its text" in " ".join(finding.notes)


def test_a_helper_keeping_only_the_class_name_in_its_locals_passes_nothing_on() -> None:
    body = 'kind = type(error).__name__\n    result = {"status": "error", "kind": kind}\n    return result'
    source = CLIENT.replace("BODY", body)
    assert _mcp002(source) == []


DESCRIBER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("desk")


def describe(exc: Exception) -> str:
    if isinstance(exc, httpx.HTTPStatusError):
        try:
            body = exc.response.json()
            detail = body.get("message", "")
        except ValueError:
            detail = exc.response.text[:300]
        return f"The desk refused the request ({exc.response.status_code}). {detail}"
    return "The desk could not be reached; try again later."


@mcp.tool()
async def close_ticket(ticket_id: str) -> str:
    \"\"\"Close a ticket.\"\"\"
    try:
        async with httpx.AsyncClient() as client:
            reply = await client.post(f"https://desk.invalid/tickets/{ticket_id}/close")
            reply.raise_for_status()
    except Exception as exc:
        msg = describe(exc)
        return msg
    return "closed"
"""


def test_each_statement_taking_the_handed_exceptions_text_is_reported_and_the_caller_is_not() -> None:
    # `body = exc.response.json()` only parses the reply: the return puts it into words
    # (test_mcp002_decoded_body); `detail = exc.response.text[:300]` takes the text in itself.
    assert _mcp002(DESCRIBER) == [
        (13, "Helper 'describe' returns the text of the exception passed in 'exc' as a normal result"),
        (14, "Helper 'describe' returns the text of the exception passed in 'exc' as a normal result"),
    ]


def test_a_describer_keeping_only_the_status_code_in_its_locals_is_not_reported() -> None:
    own = DESCRIBER.replace('            body = exc.response.json()\n            detail = body.get("message", "")\n', '            detail = f"code {exc.response.status_code}"\n')
    own = own.replace('            detail = exc.response.text[:300]\n', '            detail = "try again later"\n')
    # The helper writes its own words; the caller's `msg = describe(exc)` stays the rule's
    # conservative reading of an exception handed to a function that reports nothing itself.
    assert [row for row, _ in _mcp002(own) if row < 17] == []


SUMMARISER = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("desk")


def summarise(exc: Exception) -> dict:
    return {"kind": type(exc).__name__, "text": str(exc)[:300]}


@mcp.tool
def sync_mailbox() -> str:
    \"\"\"Sync the mailbox.\"\"\"
    try:
        import imaplib

        imaplib.IMAP4_SSL("mail.invalid").noop()
    except Exception as exc:
        parts = summarise(exc)
        raise ToolError(f"the mailbox could not sync ({parts['kind']}): {parts['text']}") from None
    return "synced"
"""


def test_a_caller_putting_a_part_of_the_helpers_result_into_its_own_words_keeps_its_finding() -> None:
    rows = [row for row, _ in _mcp002(SUMMARISER)]
    assert 19 in rows  # `parts = summarise(exc)`, whose "text" the clause raises in its own words
