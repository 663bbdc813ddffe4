"""MCP002 through a response factory (issue 20, own002 cause 2): a project function or classmethod
that builds the project's exception from a failed response's body (`raise
_error_from_response(exc.response)` in a status error's clause, `raise ApiError.from_response(resp)`
after leaving on success), whose class puts those arguments into its message: the body reaches the
model where the framework forwards the raised text. Reported at the factory's return (the
statement that takes the body into the exception), once for every caller. Silent: a class whose
`__init__` keeps the body out of the message, a factory whose value no caller raises, a response
not found failed, a tool that catches the class and words its own failure."""

from __future__ import annotations

from ._support import check, said, unmasked

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("tickets")


class TicketApiError(Exception):
    def __init__(self, status: int, messages: list[str]) -> None:
        self.status = status
        self.messages = messages
        super().__init__(MESSAGE)

    @classmethod
    def from_response(cls, response: httpx.Response) -> "TicketApiError":
        payload = response.json()
        messages = [str(m) for m in payload.get("errorMessages", [])]
        return cls(response.status_code, messages=messages)  # expect-classmethod


def _error_from_response(response: httpx.Response) -> TicketApiError:
    if not response.content:
        return TicketApiError(response.status_code, [])
    body = response.json()
    messages = [str(m) for m in body.get("errorMessages", [])]
    return TicketApiError(response.status_code, messages)  # expect-function


async def _get(path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url="https://tickets.invalid") as client:
        return await client.get(path)
"""

IN_MESSAGE = "f\"Ticket API error {status}: {'; '.join(messages)}\""
KEPT_OUT = "f\"Ticket API error {status}; list_tickets shows the keys.\""

STATUS_CLAUSE = """

@mcp.tool()
async def get_ticket(key: str) -> dict:
    \"\"\"Read a ticket.\"\"\"
    response = await _get(f"/issue/{key}")
    try:
        response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        raise _error_from_response(exc.response) from exc
    return response.json()
"""

LEFT_ON_SUCCESS = """

@mcp.tool()
async def get_board(key: str) -> dict:
    \"\"\"Read a board.\"\"\"
    response = await _get(f"/board/{key}")
    if response.is_success:
        return response.json()
    raise TicketApiError.from_response(response)
"""


def _server(message: str, body: str, expect: str = "", io_outside_try: bool = True) -> str:
    text = (unmasked(HEADER) if io_outside_try else HEADER).replace("MESSAGE", message) + body
    for marker in ("expect-function", "expect-classmethod"):
        text = text.replace(f"# {marker}", "# expect: MCP002" if marker == expect else "")
    return text


def test_function_factory_raised_in_a_status_error_clause() -> None:
    findings = check(_server(IN_MESSAGE, STATUS_CLAUSE, "expect-function"))
    assert [said(f).splitlines()[0] for f in findings if f.code == "MCP002"] == [
        "Helper '_error_from_response' builds TicketApiError with an upstream error body (response.json), which the caller raises"
    ]


def test_classmethod_factory_raised_after_leaving_on_success() -> None:
    findings = check(_server(IN_MESSAGE, LEFT_ON_SUCCESS, "expect-classmethod"))
    assert [said(f).splitlines()[0] for f in findings if f.code == "MCP002"] == [
        "Helper 'from_response' builds TicketApiError with an upstream error body (response.json), which the caller raises"
    ]


def test_init_keeps_the_body_out_of_the_message() -> None:
    check(_server(KEPT_OUT, STATUS_CLAUSE + LEFT_ON_SUCCESS))


def test_factory_value_not_raised() -> None:
    check(_server(IN_MESSAGE, """

@mcp.tool()
async def ticket_problems(key: str) -> list[str]:
    \"\"\"List what the tracker says is wrong with a ticket's last change.\"\"\"
    response = await _get(f"/issue/{key}/validation")
    return _error_from_response(response).messages
"""))


def test_response_not_found_failed() -> None:
    check(_server(IN_MESSAGE, """

@mcp.tool()
async def get_ticket(key: str) -> dict:
    \"\"\"Read a ticket.\"\"\"
    response = await _get(f"/issue/{key}")
    if key.startswith("X-"):
        raise _error_from_response(response)
    return response.json()
"""))


def test_tool_catches_the_class_and_words_its_own_failure() -> None:
    check(_server(IN_MESSAGE, """

@mcp.tool()
async def get_ticket(key: str) -> dict:
    \"\"\"Read a ticket.\"\"\"
    try:
        response = await _get(f"/issue/{key}")
        try:
            response.raise_for_status()
        except httpx.HTTPStatusError as exc:
            raise _error_from_response(exc.response) from exc
        return response.json()
    except TicketApiError as err:
        raise ToolError(f"Ticket {key} could not be read (HTTP {err.status}); check the key with list_tickets.") from err
""", io_outside_try=False))
