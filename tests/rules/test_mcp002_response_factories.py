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


# A class taking a builtin exception's `__init__` (no `__init__` of its own or of a project base):
# its constructor's arguments are its message, so a factory that words the body into them sends
# the body (heldout14 CAUSES-MCP002 row 8). A library base's `__init__` may word it otherwise.
BUILTIN_INIT = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shipping")


class CarrierError(BASE):
    \"\"\"Raised when the carrier's API refuses a call.\"\"\"


def error_for(reply: httpx.Response) -> CarrierError:
    return CarrierError(f"Carrier refused the call (HTTP {reply.status_code}): {reply.text}")  # expect-factory


@mcp.tool()
def track(parcel: str) -> dict:
    \"\"\"Track a parcel.\"\"\"
    reply = httpx.get(f"https://carrier.invalid/parcels/{parcel}")
    if reply.status_code >= 400:
        raise error_for(reply)
    return reply.json()
"""


def _builtin_init(base: str, expect: bool, before: str = "") -> str:
    text = unmasked(BUILTIN_INIT).replace("class CarrierError(BASE):", before + f"class CarrierError({base}):")
    return text.replace("# expect-factory", "# expect: MCP002" if expect else "")


def test_factory_of_a_class_taking_exceptions_init_is_flagged() -> None:
    findings = check(_builtin_init("Exception", expect=True))
    assert [said(f).splitlines()[0] for f in findings if f.code == "MCP002"] == [
        "Helper 'error_for' builds CarrierError with an upstream error body (reply.text), which the caller raises"
    ]


def test_factory_of_a_class_whose_project_base_takes_runtime_errors_init_is_flagged() -> None:
    # Metamorphic: another builtin base, reached through a project base without `__init__`.
    check(_builtin_init("ServiceError", expect=True, before="class ServiceError(RuntimeError):\n    pass\n\n\n"))


def test_factory_of_a_class_on_a_library_base_stays_silent() -> None:
    # The library base's `__init__` is not read here: whether the arguments are the message is not known.
    check(_builtin_init("httpx.HTTPError", expect=False))


def test_factory_of_a_class_taking_exceptions_init_but_no_failed_response_stays_silent() -> None:
    check(_builtin_init("Exception", expect=False).replace("if reply.status_code >= 400:", "if parcel.startswith('X'):"))


# A factory that takes the body through a describer of the module (`detail = _detail_of(resp)`)
# into one local, sent by one return per status: one flow, reported where the local takes it
# (heldout14 CAUSES-MCP002 row 8). A describer that gives back no part of the body sends none.
DESCRIBED = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("library")


class CatalogueError(Exception):
    pass


def _detail_of(answer: httpx.Response) -> str:
    try:
        data = answer.json()
    except ValueError:
        return DESCRIBED_TEXT
    return str(data.get("detail", data))


def catalogue_error(answer: httpx.Response) -> CatalogueError:
    detail = _detail_of(answer)  # expect-local
    if answer.status_code == 404:
        return CatalogueError(f"No such book: {detail}")
    return CatalogueError(f"Catalogue refused the call ({answer.status_code}): {detail}")


@mcp.tool()
def find_book(isbn: str) -> dict:
    \"\"\"Look a book up.\"\"\"
    answer = httpx.get(f"https://catalogue.invalid/books/{isbn}")
    if answer.status_code >= 400:
        raise catalogue_error(answer)
    return answer.json()
"""


def test_factory_taking_the_body_through_a_describer_is_flagged_where_the_local_takes_it() -> None:
    text = unmasked(DESCRIBED).replace("DESCRIBED_TEXT", "answer.text").replace("# expect-local", "# expect: MCP002")
    findings = check(text)
    assert [said(f).splitlines()[0] for f in findings if f.code == "MCP002"] == [
        "Helper 'catalogue_error' builds CatalogueError with an upstream error body (_detail_of(answer)), which the caller raises"
    ]


def test_factory_whose_describer_gives_back_no_body_stays_silent() -> None:
    text = DESCRIBED.replace("DESCRIBED_TEXT", 'f"HTTP {answer.status_code}"').replace("return str(data.get(\"detail\", data))", "return f\"HTTP {answer.status_code}\"")
    check(unmasked(text).replace("# expect-local", ""))
