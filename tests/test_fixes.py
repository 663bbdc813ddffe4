"""Exact before/after text of each rule's fix, on every framework the fix supports (issue #3).

Every case runs the whole pipeline on one in-memory module: analysis, the project link step that
picks the framework's ToolError / error result and the imports, then the fix loop with unsafe
fixes on. Each expected text is checked to be a fixed point too: fixing it again changes nothing.
Cases marked xfail are known defects of a rule's fix; their expected text is the correct one.
"""

from __future__ import annotations

import libcst
import pytest

from mcp_lint.findings import Applicability, Finding, Location
from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

# CallToolResult(isError=True) from a low-level handler needs mcp >= 1.19.
LOWLEVEL_1 = "mcp>=1.19,<2"


def fixed(source: str, target: str | None = None, *, unsafe: bool = True) -> str:
    outcome = fix_source(source, lambda text: lint_source(text, target=target), unsafe=unsafe)
    assert outcome.error is None, outcome.error
    return outcome.fixed


def findings_of(source: str, code: str, target: str | None = None) -> list[Finding]:
    return [finding for finding in lint_source(source, target=target) if finding.code == code]


def assert_fixes_to(before: str, after: str, target: str | None) -> None:
    assert fixed(before, target) == after
    libcst.parse_module(after)
    # Nothing left to fix: a second `--fix --unsafe-fixes` leaves the text alone.
    assert fixed(after, target) == after


# --- MCP001: protocol error raised by a tool -> ToolError, or an error result on a low-level server ---

MCP001_CASES = [
    pytest.param(
        """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: int) -> str:
    if note_id not in NOTES:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Note {note_id} not found"))
    return NOTES[note_id]
""",
        """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: int) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found")
    return NOTES[note_id]
""",
        None,
        id="mcp001-mcp1",
    ),
    pytest.param(
        """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: int) -> str:
    if note_id < 0:
        raise ToolError(f"note_id must be >= 0, got {note_id}")
    if note_id not in NOTES:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Note {note_id} not found"))
    return NOTES[note_id]
""",
        """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: int) -> str:
    if note_id < 0:
        raise ToolError(f"note_id must be >= 0, got {note_id}")
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found")
    return NOTES[note_id]
""",
        None,
        id="mcp001-mcp1-reuse",
    ),
    pytest.param(
        """\
from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.types import INVALID_PARAMS

mcp = MCPServer("notes")


@mcp.tool()
def read_note(note_id: str) -> str:
    note = NOTES.get(note_id)
    if note is None:
        raise MCPError(INVALID_PARAMS, f"Note {note_id} not found")
    return note
""",
        """\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("notes")


@mcp.tool()
def read_note(note_id: str) -> str:
    note = NOTES.get(note_id)
    if note is None:
        raise ToolError(f"Note {note_id} not found")
    return note
""",
        None,
        id="mcp001-mcp2",
    ),
    pytest.param(
        """\
from mcp import MCPError
from mcp.server.mcpserver import MCPServer as Server
from mcp.server.mcpserver.exceptions import ToolError as ToolFailure
from mcp.types import INTERNAL_ERROR

server = Server("orders")


@server.tool()
def refund(order_id: int) -> str:
    if order_id not in ORDERS:
        raise MCPError(INTERNAL_ERROR, f"Order {order_id} does not exist")
    return "refunded"
""",
        """\
from mcp.server.mcpserver import MCPServer as Server
from mcp.server.mcpserver.exceptions import ToolError as ToolFailure

server = Server("orders")


@server.tool()
def refund(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ToolFailure(f"Order {order_id} does not exist")
    return "refunded"
""",
        None,
        id="mcp001-mcp2-alias",
    ),
    pytest.param(
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as TE
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

app = FastMCP("orders")


@app.tool
async def cancel_order(order_id: int) -> str:
    if order_id in SHIPPED:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message="Order already shipped"))
    return "cancelled"
""",
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as TE

app = FastMCP("orders")


@app.tool
async def cancel_order(order_id: int) -> str:
    if order_id in SHIPPED:
        raise TE("Order already shipped")
    return "cancelled"
""",
        None,
        id="mcp001-fastmcp-alias",
    ),
    pytest.param(
        """\
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

server = Server("calc")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "divide":
        if arguments["b"] == 0:
            raise McpError(ErrorData(code=INVALID_PARAMS, message="b must not be zero"))
        return [types.TextContent(type="text", text=str(arguments["a"] / arguments["b"]))]
    raise ValueError(f"Unknown tool: {name}")
""",
        """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("calc")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "divide":
        if arguments["b"] == 0:
            return types.CallToolResult(content=[types.TextContent(type="text", text="b must not be zero")], isError=True)
        return [types.TextContent(type="text", text=str(arguments["a"] / arguments["b"]))]
    raise ValueError(f"Unknown tool: {name}")
""",
        "mcp>=1.19,<2",
        id="mcp001-lowlevel1",
    ),
    pytest.param(
        """\
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, CallToolResult, ErrorData, TextContent

server = Server("calc")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> CallToolResult:
    if arguments["b"] == 0:
        raise McpError(ErrorData(code=INVALID_PARAMS, message="b must not be zero"))
    return CallToolResult(content=[TextContent(type="text", text=str(arguments["a"] / arguments["b"]))])
""",
        """\
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent

server = Server("calc")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> CallToolResult:
    if arguments["b"] == 0:
        return CallToolResult(content=[TextContent(type="text", text="b must not be zero")], isError=True)
    return CallToolResult(content=[TextContent(type="text", text=str(arguments["a"] / arguments["b"]))])
""",
        "mcp>=1.19,<2",
        id="mcp001-lowlevel1-reuse",
    ),
    pytest.param(
        """\
from mcp import MCPError
from mcp.server.lowlevel import Server
from mcp.types import INVALID_PARAMS, CallToolRequestParams, CallToolResult, TextContent


async def handle_call_tool(ctx, params: CallToolRequestParams) -> CallToolResult:
    if params.name == "divide":
        b = params.arguments["b"]
        if b == 0:
            raise MCPError(INVALID_PARAMS, "b must not be zero")
        return CallToolResult(content=[TextContent(type="text", text=str(params.arguments["a"] / b))])
    raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")


server = Server("calc", on_call_tool=handle_call_tool)
""",
        """\
from mcp import MCPError
from mcp.server.lowlevel import Server
from mcp.types import INVALID_PARAMS, CallToolRequestParams, CallToolResult, TextContent


async def handle_call_tool(ctx, params: CallToolRequestParams) -> CallToolResult:
    if params.name == "divide":
        b = params.arguments["b"]
        if b == 0:
            return CallToolResult(content=[TextContent(type="text", text="b must not be zero")], isError=True)
        return CallToolResult(content=[TextContent(type="text", text=str(params.arguments["a"] / b))])
    raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")


server = Server("calc", on_call_tool=handle_call_tool)
""",
        None,
        id="mcp001-lowlevel2",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), MCP001_CASES)
def test_mcp001_fix(before: str, after: str, target: str | None) -> None:
    assert_fixes_to(before, after, target)


# --- MCP005: failure returned as a normal result -> ToolError, or an error result on a low-level server ---

MCP005_CASES = [
    pytest.param(
        """\
"A notes server."
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"
    del NOTES[note_id]
    return "deleted"
""",
        """\
"A notes server."
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")


@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found")
    del NOTES[note_id]
    return "deleted"
""",
        None,
        id="mcp005-mcp1",
    ),
    pytest.param(
        """\
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("tickets")


@mcp.tool()
def close_ticket(ticket_id: int) -> dict:
    if ticket_id not in TICKETS:
        return {"error": f"Ticket {ticket_id} does not exist"}
    TICKETS.pop(ticket_id)
    return {"closed": ticket_id}
""",
        """\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("tickets")


@mcp.tool()
def close_ticket(ticket_id: int) -> dict:
    if ticket_id not in TICKETS:
        raise ToolError(f"Ticket {ticket_id} does not exist")
    TICKETS.pop(ticket_id)
    return {"closed": ticket_id}
""",
        None,
        id="mcp005-mcp2",
    ),
    pytest.param(
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as TE

mcp = FastMCP("tickets")


@mcp.tool
def close_ticket(ticket_id: int) -> dict:
    ticket = TICKETS.get(ticket_id)
    if ticket is None:
        return {"success": False, "message": f"Ticket {ticket_id} does not exist"}
    ticket.close()
    return {"success": True}
""",
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as TE

mcp = FastMCP("tickets")


@mcp.tool
def close_ticket(ticket_id: int) -> dict:
    ticket = TICKETS.get(ticket_id)
    if ticket is None:
        raise TE(f"Ticket {ticket_id} does not exist")
    ticket.close()
    return {"success": True}
""",
        None,
        id="mcp005-fastmcp-alias",
    ),
    pytest.param(
        """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent

server = Server("kv")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    key = arguments["key"]
    if key not in TABLE:
        return "Error: key not found"
    return [TextContent(type="text", text=TABLE[key])]
""",
        """\
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent

server = Server("kv")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    key = arguments["key"]
    if key not in TABLE:
        return CallToolResult(content=[TextContent(type="text", text="Key not found")], isError=True)
    return [TextContent(type="text", text=TABLE[key])]
""",
        "mcp>=1.19,<2",
        id="mcp005-lowlevel1",
    ),
    pytest.param(
        """\
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent


async def handle(ctx, params) -> CallToolResult:
    if params.name not in DATA:
        return CallToolResult(content=[TextContent(type="text", text="Error: no such record")])
    return CallToolResult(content=[TextContent(type="text", text=DATA[params.name])])


server = Server("kv", on_call_tool=handle)
""",
        """\
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent


async def handle(ctx, params) -> CallToolResult:
    if params.name not in DATA:
        return CallToolResult(content=[TextContent(type="text", text="No such record")], isError=True)
    return CallToolResult(content=[TextContent(type="text", text=DATA[params.name])])


server = Server("kv", on_call_tool=handle)
""",
        None,
        id="mcp005-lowlevel2",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), MCP005_CASES)
def test_mcp005_fix(before: str, after: str, target: str | None) -> None:
    assert_fixes_to(before, after, target)


# --- MCP002: raw exception text -> logged server-side, a description of the operation, `from e` ---

MCP002_CASES = [
    pytest.param(
        """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except Exception as e:
        return f"Error: {e}"
""",
        """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)

mcp = FastMCP("weather")


@mcp.tool()
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as e:
        logger.exception("Could not get forecast (HTTP %s)", e.response.status_code)
        raise ToolError(f"Could not get forecast (HTTP {e.response.status_code})") from e
    except Exception as e:
        logger.exception("Could not get forecast")
        raise ToolError("Could not get forecast") from e
""",
        None,
        id="mcp002-mcp1-newlogger",
    ),
    pytest.param(
        """\
import logging

from mcp.server.mcpserver import MCPServer

log = logging.getLogger("files")
mcp = MCPServer("files")


@mcp.tool()
def read_file(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as exc:
        return f"Error: {exc}"
""",
        """\
import logging

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

log = logging.getLogger("files")
mcp = MCPServer("files")


@mcp.tool()
def read_file(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as exc:
        log.exception("Could not read file (path: %s, %s)", path, type(exc).__name__)
        raise ToolError(f"Could not read file (path: {path}, {type(exc).__name__})") from exc
""",
        None,
        id="mcp002-mcp2-reuse-log",
    ),
    pytest.param(
        """\
import logging

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("fetcher")


@mcp.tool
def fetch(url: str) -> str:
    try:
        return httpx.get(url).text
    except httpx.HTTPError as e:
        raise ToolError(f"Could not fetch {url}: {e}")
""",
        """\
import logging

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)

mcp = FastMCP("fetcher")


@mcp.tool
def fetch(url: str) -> str:
    try:
        return httpx.get(url).text
    except httpx.HTTPError as e:
        logger.exception("Could not fetch %s", url)
        raise ToolError(f"Could not fetch {url}") from e
""",
        None,
        id="mcp002-fastmcp-logging-no-logger",
    ),
    pytest.param(
        """\
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as TE

logger = logging.getLogger(__name__)
mcp = FastMCP("db")


@mcp.tool
def run_query(name: str) -> list:
    try:
        return DB.execute(QUERIES[name]).fetchall()
    except Exception as err:
        raise TE(f"Query failed: {str(err)}") from err
""",
        """\
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as TE

logger = logging.getLogger(__name__)
mcp = FastMCP("db")


@mcp.tool
def run_query(name: str) -> list:
    try:
        return DB.execute(QUERIES[name]).fetchall()
    except Exception as err:
        logger.exception("Query failed")
        raise TE("Query failed") from err
""",
        None,
        id="mcp002-fastmcp-alias-cause",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), MCP002_CASES)
def test_mcp002_fix(before: str, after: str, target: str | None) -> None:
    assert_fixes_to(before, after, target)


# --- MCP004: mutation before the check that rejects the call -> check moved above it ---

MCP004_CASES = [
    pytest.param(
        """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")


@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    return "updated"
""",
        """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")


@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    return "updated"
""",
        None,
        id="mcp004-mcp1",
    ),
    pytest.param(
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("files")


@mcp.tool
def save(path: str, text: str) -> str:
    target = ROOT / path
    target.write_text(text)
    if not text.strip():
        raise ToolError("text must not be empty; pass the note body")
    return "saved"
""",
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("files")


@mcp.tool
def save(path: str, text: str) -> str:
    target = ROOT / path
    if not text.strip():
        raise ToolError("text must not be empty; pass the note body")
    target.write_text(text)
    return "saved"
""",
        None,
        id="mcp004-fastmcp",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), MCP004_CASES)
def test_mcp004_fix(before: str, after: str, target: str | None) -> None:
    assert_fixes_to(before, after, target)


ALL_CASES = MCP001_CASES + MCP005_CASES + MCP002_CASES + MCP004_CASES


@pytest.mark.parametrize(("before", "after", "target"), ALL_CASES)
def test_every_fix_is_unsafe_and_needs_unsafe_fixes(before: str, after: str, target: str | None) -> None:
    applicable = [f for f in lint_source(before, target=target) if f.fix is not None and f.fix.edits]
    assert applicable and {f.fix.applicability for f in applicable} == {Applicability.UNSAFE}
    assert fixed(before, target, unsafe=False) == before


@pytest.mark.parametrize(("before", "after", "target"), ALL_CASES)
def test_fixes_write_the_files_own_line_endings(before: str, after: str, target: str | None) -> None:
    # Rules write "\n" in their edits (inserted imports, `logger.exception(...)` lines, moved
    # checks); a "\r\n" file must not come out with mixed line endings.
    crlf = fixed(before.replace("\n", "\r\n"), target)
    assert crlf == after.replace("\n", "\r\n")


@pytest.mark.parametrize(
    ("source", "code", "target", "message"),
    [
        pytest.param(MCP001_CASES[0].values[0], "MCP001", None, "Raise ToolError with the same message", id="mcp001"),
        pytest.param(MCP001_CASES[3].values[0], "MCP001", None, "Raise ToolFailure with the same message", id="mcp001-alias"),
        pytest.param(
            MCP001_CASES[5].values[0],
            "MCP001",
            LOWLEVEL_1,
            "Return an error result (isError=True) with the same message",
            id="mcp001-lowlevel",
        ),
        pytest.param(
            MCP005_CASES[0].values[0],
            "MCP005",
            None,
            'Raise ToolError(f"Note {note_id} not found") instead',
            id="mcp005",
        ),
        pytest.param(
            MCP005_CASES[2].values[0],
            "MCP005",
            None,
            'Raise TE(f"Ticket {ticket_id} does not exist") instead',
            id="mcp005-alias",
        ),
        pytest.param(MCP005_CASES[3].values[0], "MCP005", LOWLEVEL_1, "Return an error result (isError=True)", id="mcp005-lowlevel"),
        pytest.param(
            MCP002_CASES[0].values[0],
            "MCP002",
            None,
            'Log the exception and raise ToolError("Could not get forecast") from e; HTTPStatusError clause first',
            id="mcp002",
        ),
        pytest.param(
            MCP002_CASES[2].values[0],
            "MCP002",
            None,
            'Log the exception and raise ToolError(f"Could not fetch {url}") from e',
            id="mcp002-fstring",
        ),
        pytest.param(MCP004_CASES[0].values[0], "MCP004", None, "Move the check above the first mutation", id="mcp004"),
    ],
)
def test_fix_message(source: str, code: str, target: str | None, message: str) -> None:
    (finding,) = findings_of(source, code, target)
    assert finding.fix is not None and finding.fix.message == message


# --- no fix where none is correct ----------------------------------------------------------------

LOWLEVEL_1_SERVER = MCP001_CASES[5].values[0]


@pytest.mark.parametrize("target", ["mcp>=1.9,<1.19", None])
def test_mcp001_on_a_low_level_server_older_than_1_19_has_no_fix(target: str | None) -> None:
    # Before mcp 1.19 a low-level handler cannot return CallToolResult(isError=True); without a
    # pin the server may be that old.
    (finding,) = findings_of(LOWLEVEL_1_SERVER, "MCP001", target)
    assert finding.fix is None
    assert fixed(LOWLEVEL_1_SERVER, target) == LOWLEVEL_1_SERVER


def test_mcp002_on_a_low_level_server_has_no_fix() -> None:
    source = """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent

server = Server("kv")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    try:
        return [TextContent(type="text", text=STORE.read(arguments["key"]))]
    except Exception as e:
        return [TextContent(type="text", text=f"Error: {e}")]
"""
    (finding,) = findings_of(source, "MCP002", LOWLEVEL_1)
    assert finding.fix is None


def test_mcp004_check_that_reads_the_mutation_result_is_not_flagged() -> None:
    # `cur.rowcount` exists only after the write: the check cannot move, and it is no defect.
    source = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")


@mcp.tool()
def rename(sku: str, name: str) -> str:
    cur = db.execute("UPDATE items SET name = ? WHERE sku = ?", (name, sku))
    if cur.rowcount == 0:
        raise ToolError(f"No item {sku}; call list_items for valid skus")
    return "renamed"
"""
    assert findings_of(source, "MCP004") == []


# --- MCP003: display-only suggestion ---------------------------------------------------------------

MCP003_SOURCE = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("billing")


@mcp.tool()
def refund(invoice_id: str, amount: float, ctx=None) -> str:
    if amount <= 0:
        raise ToolError("The operation failed. Please try again.")
    return issue_refund(invoice_id, amount)


@mcp.tool()
def ping() -> str:
    if not DB.ok:
        raise ToolError("Something went wrong")
    return "pong"
"""


def test_mcp003_suggests_a_template_naming_the_tool_and_its_arguments() -> None:
    refund, ping = findings_of(MCP003_SOURCE, "MCP003")
    template = (
        'f"refund failed for invoice_id={invoice_id!r}, amount={amount!r}: <what was observed>. '
        '<what the next call can change>; if it fails again, stop and report it."'
    )
    assert refund.fix is not None and refund.fix.applicability is Applicability.DISPLAY_ONLY
    assert [(e.location.row, e.location.column, e.end_location.column, e.content) for e in refund.fix.edits] == [
        (10, 25, 66, template)
    ]
    assert refund.fix.message == (
        "Name what failed, what was observed, what the next call can change and when to stop, e.g. " + template
    )
    # A tool without arguments: the template names the tool alone.
    assert ping.fix is not None
    assert [e.content for e in ping.fix.edits] == [
        'f"ping failed: <what was observed>. <what the next call can change>; if it fails again, stop and report it."'
    ]


def test_mcp003_suggestion_is_never_applied() -> None:
    assert fixed(MCP003_SOURCE) == MCP003_SOURCE


# --- known defects of rule fixes (reported to the rule owner; xfail until fixed) -----------------


def test_mcp002_reuses_an_imported_loguru_logger() -> None:
    before = """\
from fastmcp import FastMCP
from loguru import logger

mcp = FastMCP("search")


@mcp.tool
def search(query: str) -> str:
    try:
        return ENGINE.search(query)
    except Exception as e:
        return f"Error: {e}"
"""
    after = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from loguru import logger

mcp = FastMCP("search")


@mcp.tool
def search(query: str) -> str:
    try:
        return ENGINE.search(query)
    except Exception as e:
        logger.exception("Could not search")
        raise ToolError("Could not search") from e
"""
    assert fixed(before) == after


def test_mcp005_reuses_a_module_alias_of_the_exceptions_module() -> None:
    before = """\
import fastmcp.exceptions as fe
from fastmcp import FastMCP

mcp = FastMCP("tickets")


@mcp.tool
def close_ticket(ticket_id: int) -> str:
    if ticket_id not in TICKETS:
        return f"Error: ticket {ticket_id} does not exist"
    return "closed"
"""
    assert fixed(before) == before.replace(
        'return f"Error: ticket {ticket_id} does not exist"', 'raise fe.ToolError(f"Ticket {ticket_id} does not exist")'
    )


def test_toolerror_import_never_rebinds_a_name_the_module_defines() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP


def ToolError(message):
    return message


mcp = FastMCP("x")


@mcp.tool()
def get(key: str) -> str:
    if key not in DATA:
        return f"Error: no key {key}"
    return DATA[key]
"""
    # Either no fix, or the framework's ToolError under another name; never a second `ToolError`.
    assert "import ToolError\n" not in fixed(before)


def test_mcp005_multi_line_message_keeps_its_indentation() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("fetch")


@mcp.tool()
def fetch(url: str, backend: str) -> str:
    if backend not in BACKENDS:
        return (
            f"Error: unknown backend {backend!r}. "
            f"Supported: {sorted(BACKENDS)}"
        )
    return BACKENDS[backend](url)
"""
    after = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("fetch")


@mcp.tool()
def fetch(url: str, backend: str) -> str:
    if backend not in BACKENDS:
        raise ToolError(
            f"Unknown backend {backend!r}. "
            f"Supported: {sorted(BACKENDS)}"
        )
    return BACKENDS[backend](url)
"""
    assert fixed(before) == after


# isort's order: the standard library section first, opened with a blank line.
MCP002_NEW_IMPORTS = """\
import logging

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
"""


def test_mcp002_drops_the_parentheses_around_the_removed_exception() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("web")


@mcp.tool()
async def fetch_page(url: str) -> str:
    try:
        return await download(url)
    except Exception as e:
        return f"Error: could not access the page ({e})"
"""
    after = MCP002_NEW_IMPORTS + """\

mcp = FastMCP("web")


@mcp.tool()
async def fetch_page(url: str) -> str:
    try:
        return await download(url)
    except Exception as e:
        logger.exception("Could not access the page")
        raise ToolError("Could not access the page") from e
"""
    assert fixed(before) == after


def test_mcp002_reads_the_message_of_a_text_content_from_its_text_argument() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP
from mcp.types import TextContent

mcp = FastMCP("files")


@mcp.tool()
def download(name: str) -> TextContent:
    try:
        return TextContent(type="text", text=STORE.read(name))
    except Exception as e:
        return TextContent(type="text", text=f"Error downloading {name}: {e}")
"""
    fixed_text = fixed(before)
    assert 'raise ToolError(f"Error downloading {name}") from e' in fixed_text


def test_mcp002_keeps_escape_sequences_of_the_message() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs")


@mcp.tool()
def to_pdf(path: str) -> str:
    try:
        return convert(path)
    except Exception as e:
        return f"Failed to convert: {e}\\nNote: conversion needs Word installed."
"""
    fixed_text = fixed(before)
    assert "\\\\n" not in fixed_text  # no doubled backslash
    assert 'raise ToolError(f"Failed to convert\\nNote: conversion needs Word installed (path: {path}).") from e' in fixed_text


def test_mcp002_keeps_the_other_placeholders_of_a_concatenated_message() -> None:
    before = """\
import json

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("forms")


@mcp.tool()
def set_field(field: str, value: str) -> str:
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as e:
        raise ToolError(f"{field} must be a JSON object, " f"got: {e}") from e
    return store(field, parsed)
"""
    (line,) = [line for line in fixed(before).splitlines() if "raise ToolError(" in line]
    assert "{field} must be a JSON object" in line


def test_mcp002_in_a_helper_keeps_the_raised_class() -> None:
    before = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("hn")


class HNError(Exception):
    pass


async def get_json(path: str) -> dict:
    try:
        response = await CLIENT.get(path)
        response.raise_for_status()
    except httpx.HTTPError as e:
        raise HNError(f"Request to {path!r} failed: {e}") from e
    return response.json()


@mcp.tool
async def item(item_id: int) -> dict:
    return await get_json(f"item/{item_id}")
"""
    (finding,) = findings_of(before, "MCP002", "fastmcp>=3")
    assert finding.fix is not None
    # The exception keeps propagating, its cause chained: no log line here (its handler logs it),
    # hence no logging import either. The HTTP status the library's text carried stays, in a
    # clause of its own for the status error (the broad clause's exception may have no response).
    assert sorted(edit.content for edit in finding.fix.edits) == [
        '    except httpx.HTTPStatusError as e:\n        raise HNError(f"Request to {path!r} failed (HTTP {e.response.status_code})") from e\n',
        'raise HNError(f"Request to {path!r} failed") from e',
    ]


def test_mcp004_check_that_cannot_move_gets_a_display_only_fix() -> None:
    source = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")


@mcp.tool()
def restock(sku: str, quantity: int) -> str:
    with db:
        db.execute("UPDATE stock SET quantity = quantity + ? WHERE sku = ?", (quantity, sku))
        if quantity <= 0:
            raise ToolError(f"quantity must be > 0, got {quantity}")
    return "ok"
"""
    (finding,) = findings_of(source, "MCP004")
    assert finding.fix is not None and finding.fix.applicability is Applicability.DISPLAY_ONLY


# --- issue 11: fixes a reviewer merges as they are -------------------------------------------------


def _tool(body: str, header: str = "import logging\n\nfrom fastmcp import FastMCP\n\nlogger = logging.getLogger(__name__)\n") -> str:
    """A fastmcp server with one tool `lookup(item_id)` whose body is `body` (indented by 4)."""
    indented = "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
    return f'{header}mcp = FastMCP("inventory")\n\n\n@mcp.tool\ndef lookup(item_id: str) -> str:\n{indented}'


def _handler(fixed_text: str) -> list[str]:
    """The lines of the tool's `except` block after fixing."""
    lines = fixed_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("except"))
    return [line.strip() for line in lines[start + 1 :] if line.strip()]


def test_mcp002_adds_exc_info_to_the_handlers_own_log_call_instead_of_logging_twice() -> None:
    before = _tool(
        """\
try:
    return STORE.fetch(item_id)
except Exception as e:
    logger.error("lookup of %s failed: %s", item_id, e)
    return f"Failed to look up {item_id}: {e}"
"""
    )
    assert _handler(fixed(before)) == [
        'logger.error("lookup of %s failed: %s", item_id, e, exc_info=True)',
        'raise ToolError(f"Failed to look up {item_id}") from e',
    ]


def test_mcp002_leaves_a_log_call_that_already_records_the_traceback() -> None:
    for log in ('logger.exception("lookup of %s failed", item_id)', 'logger.warning("lookup failed", exc_info=True)'):
        before = _tool(f"try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    {log}\n    return f\"Failed to look up {{item_id}}: {{e}}\"\n")
        assert _handler(fixed(before)) == [log, 'raise ToolError(f"Failed to look up {item_id}") from e']


def test_mcp002_turns_a_loguru_error_call_into_exception() -> None:
    header = "from fastmcp import FastMCP\nfrom loguru import logger\n\n"
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    logger.error(f"lookup failed: {e}")\n    return f"Failed to look up {item_id}: {e}"\n', header)
    assert _handler(fixed(before)) == ['logger.exception(f"lookup failed: {e}")', 'raise ToolError(f"Failed to look up {item_id}") from e']


def test_mcp002_turns_an_error_call_on_a_logger_imported_from_the_project_into_exception() -> None:
    # `from .log import logger` may be loguru's (exc_info=True would be a format keyword there,
    # and an error text holding braces makes the call raise) or the standard library's:
    # `exception` means the same to both.
    header = "from fastmcp import FastMCP\nfrom notes_app.log import logger\n\n"
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    logger.error(f"lookup failed: {e}")\n    return f"Failed to look up {item_id}: {e}"\n', header)
    assert _handler(fixed(before)) == ['logger.exception(f"lookup failed: {e}")', 'raise ToolError(f"Failed to look up {item_id}") from e']
    # A warning on it gets no keyword either: its library is not known here.
    warned = before.replace("logger.error(", "logger.warning(")
    assert _handler(fixed(warned))[0] == 'logger.warning(f"lookup failed: {e}")'
    # The module's own standard-library logger keeps today's `exc_info=True`.
    stdlib = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    logger.error(f"lookup failed: {e}")\n    return f"Failed to look up {item_id}: {e}"\n', "import logging\n\nfrom fastmcp import FastMCP\n\nlogger = logging.getLogger(__name__)\n")
    assert _handler(fixed(stdlib))[0] == 'logger.error(f"lookup failed: {e}", exc_info=True)'


def test_mcp002_logs_with_percent_arguments_where_no_log_call_exists() -> None:
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f"Lookup of {item_id!r} at 100% load failed: {e}"\n')
    assert _handler(fixed(before)) == [
        'logger.exception("Lookup of %r at 100%% load failed", item_id)',
        'raise ToolError(f"Lookup of {item_id!r} at 100% load failed") from e',
    ]
    # The tool's own argument is named (the fix adds it): logging %-formats, the literal % doubles.
    plain = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f"Lookup at 100% load failed: {e}"\n')
    assert _handler(fixed(plain))[0] == 'logger.exception("Lookup at 100%% load failed (item_id: %s)", item_id)'


def test_mcp002_deletes_the_locals_that_only_fed_the_old_error_result_and_keeps_its_context() -> None:
    header = "import json\nimport logging\n\nfrom fastmcp import FastMCP\n\nlogger = logging.getLogger(__name__)\n"
    before = _tool(
        """\
try:
    return json.dumps(STORE.fetch(item_id))
except Exception as e:
    logger.error(f"Error fetching {item_id}: {e}", exc_info=True)
    error_message = str(e)
    error_result = {"success": False, "error": error_message, "item_id": item_id}
    return json.dumps(error_result, indent=2)
""",
        header,
    )
    assert _handler(fixed(before)) == [
        'logger.error(f"Error fetching {item_id}: {e}", exc_info=True)',
        # No words left in the error dict: the handler's own log call says what failed.
        'raise ToolError(f"Error fetching {item_id}") from e',
    ]


def test_mcp002_keeps_a_local_that_is_still_read_after_the_fix() -> None:
    before = _tool(
        """\
try:
    return STORE.fetch(item_id)
except Exception as e:
    msg = f"Lookup of {item_id} failed: {e}"
    AUDIT.append(msg)
    return msg
"""
    )
    assert _handler(fixed(before)) == [
        'msg = f"Lookup of {item_id} failed: {e}"',
        "AUDIT.append(msg)",
        'logger.exception("Lookup of %s failed", item_id)',
        'raise ToolError(f"Lookup of {item_id} failed") from e',
    ]


def test_mcp002_reads_the_message_through_the_local_that_held_it() -> None:
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept ValueError as e:\n    msg = f"item_id is not a valid SKU: {e}"\n    raise ToolError(msg) from e\n', "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nimport logging\n\nlogger = logging.getLogger(__name__)\n")
    assert _handler(fixed(before)) == ['logger.exception("item_id is not a valid SKU")', 'raise ToolError("item_id is not a valid SKU") from e']


def test_mcp002_treats_an_implicit_concatenation_as_one_message_and_keeps_its_layout() -> None:
    before = _tool(
        """\
try:
    return STORE.fetch(item_id)
except Exception as e:
    raise ToolError(
        f"{item_id} must be a catalogue id, e.g. "
        f'"SKU-1234"; got error: {e}'
    ) from e
""",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nimport logging\n\nlogger = logging.getLogger(__name__)\n",
    )
    text = fixed(before)
    assert text.endswith(
        """\
    except Exception as e:
        logger.exception(
            "%s must be a catalogue id, e.g. "
            '"SKU-1234"',
            item_id,
        )
        raise ToolError(
            f"{item_id} must be a catalogue id, e.g. "
            '"SKU-1234"'
        ) from e
"""
    )


def test_fixes_remove_the_imports_they_left_unused_and_only_those() -> None:
    before = """\
import os
import traceback

from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("files")
__all__ = ["ErrorData"]


@mcp.tool()
def read_file(path: str) -> str:
    if not path:
        raise McpError(ErrorData(code=INVALID_PARAMS, message="path is empty"))
    try:
        return open(path).read()
    except OSError:
        return traceback.format_exc()
"""
    text = fixed(before)
    head = text.split("\n\n\n")[0]
    # os was unused before the fix: not ours to remove. ErrorData is exported by __all__.
    assert "import os\n" in head and "from mcp.types import ErrorData\n" in head
    assert "traceback" not in text and "McpError" not in text and "INVALID_PARAMS" not in text


def test_a_new_import_joins_the_from_line_of_its_module() -> None:
    before = _tool('if item_id not in STORE:\n    return f"Error: item {item_id} not found"\nreturn STORE[item_id]\n', "from fastmcp import FastMCP\nfrom fastmcp.exceptions import (\n    NotFoundError,\n    ResourceError,\n)\n\n")
    assert fixed(before).startswith("from fastmcp import FastMCP\nfrom fastmcp.exceptions import (\n    NotFoundError,\n    ResourceError,\n    ToolError,\n)\n")
    one_line = _tool('if item_id not in STORE:\n    return f"Error: item {item_id} not found"\nreturn STORE[item_id]\n', "from fastmcp import FastMCP\nfrom fastmcp.exceptions import NotFoundError, ValidationError\n\n")
    assert fixed(one_line).startswith("from fastmcp import FastMCP\nfrom fastmcp.exceptions import NotFoundError, ToolError, ValidationError\n")


def test_new_imports_go_into_their_isort_section() -> None:
    header = "import os\nimport sys\n\nimport httpx\nfrom fastmcp import FastMCP\n\nfrom inventory.store import STORE\n\n"
    before = _tool("try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f\"Lookup failed: {e}\"\n", header)
    assert fixed(before).startswith(
        "import logging\nimport os\nimport sys\n\nimport httpx\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\n"
        "from inventory.store import STORE\n\nlogger = logging.getLogger(__name__)\n\nmcp = "
    )
    # No standard library section yet: it is opened above the third-party one.
    third_party_only = _tool("try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f\"Lookup failed: {e}\"\n", "from fastmcp import FastMCP\n\n")
    assert fixed(third_party_only).startswith("import logging\n\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nlogger = ")


def test_mcp005_keeps_the_details_of_an_error_dict_and_drops_the_error_label() -> None:
    before = _tool('if not item_id.startswith("SKU-"):\n    return {"error": "Error: invalid item id", "details": "ids look like SKU-1234"}\nreturn STORE[item_id]\n', "from fastmcp import FastMCP\n\n")
    assert 'raise ToolError("Invalid item id (ids look like SKU-1234)")' in fixed(before)
    # No details: the message alone.
    bare = _tool('if not item_id.startswith("SKU-"):\n    return {"error": "invalid item id", "item": item_id}\nreturn STORE[item_id]\n', "from fastmcp import FastMCP\n\n")
    assert 'raise ToolError("invalid item id")' in fixed(bare)


def test_mcp005_keeps_a_parenthesised_message_layout_when_it_adds_the_cause() -> None:
    before = _tool(
        """\
try:
    return STORE.fetch(item_id)
except StoreLocked as e:
    return (
        f"Error: {item_id} is locked by {e.owner}. "
        "Try again after the nightly import."
    )
""",
        "from fastmcp import FastMCP\n\n\nclass StoreLocked(Exception):\n    owner: str\n\n\n",
    )
    assert fixed(before).endswith(
        """\
    except StoreLocked as e:
        raise ToolError(
            f"{item_id} is locked by {e.owner}. "
            "Try again after the nightly import."
        ) from e
"""
    )


def test_a_raise_inside_try_except_exception_is_let_through_by_an_except_toolerror_clause() -> None:
    """Inside `try: ... except Exception:`, `return "Invalid ..."` turned into `raise ToolError`
    would be caught by that handler and its message replaced: the fix puts `except ToolError:
    raise` first, once for every fix in that `try`."""
    before = _tool(
        """\
try:
    if not item_id.startswith("SKU-"):
        return f"Invalid item id {item_id}; ids look like SKU-1234"
    if item_id in RETIRED:
        return f"Error: item {item_id} was retired"
    return STORE.fetch(item_id)
except Exception as e:
    logger.exception("lookup failed")
    return f"Lookup failed: {e}"
""",
        "import logging\n\nfrom fastmcp import FastMCP\n\nlogger = logging.getLogger(__name__)\n",
    )
    assert fixed(before).endswith(
        """\
    try:
        if not item_id.startswith("SKU-"):
            raise ToolError(f"Invalid item id {item_id}; ids look like SKU-1234")
        if item_id in RETIRED:
            raise ToolError(f"Item {item_id} was retired")
        return STORE.fetch(item_id)
    except ToolError:
        raise
    except Exception as e:
        logger.exception("lookup failed")
        raise ToolError(f"Lookup failed (item_id: {item_id})") from e
"""
    )


def test_no_toolerror_fix_where_the_catching_handler_cannot_be_preceded() -> None:
    # The handler shares its line with its body: no clause can be slipped in before it cleanly.
    before = _tool(
        """\
try:
    if not item_id.startswith("SKU-"):
        return f"Invalid item id {item_id}; ids look like SKU-1234"
    return STORE.fetch(item_id)
except Exception: return "Lookup failed"
"""
    )
    assert 'return f"Invalid item id {item_id}; ids look like SKU-1234"' in fixed(before)


def test_mcp001_fix_is_not_offered_where_only_the_protocol_error_was_let_through() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("ocr")


@mcp.tool()
def read_text(language: str) -> str:
    try:
        if language not in LANGUAGES:
            raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Unsupported language: {language}"))
        return OCR.read(language)
    except McpError:
        raise
    except Exception:
        raise ValueError("OCR failed")
"""
    finding = next(f for f in findings_of(before, "MCP001"))
    assert finding.fix is None


def test_no_fix_where_a_callers_except_would_handle_the_new_exception_differently() -> None:
    before = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

mcp = FastMCP("ocr")


async def load_image(data: str) -> bytes:
    if not data:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message="No image data"))
    return decode(data)


def read_text(path: str) -> str:
    if not path:
        return "Error: no path given"
    return open(path).read()


@mcp.tool()
async def perform_ocr(data: str) -> str:
    try:
        img = await load_image(data)
        return run(img)
    except McpError:
        raise
    except Exception as e:
        raise ValueError("OCR failed") from e


@mcp.tool()
def text(path: str) -> str:
    return read_text(path)
"""
    # The tool lets McpError through but would wrap a ToolError into "OCR failed": no fix.
    assert [f.fix for f in findings_of(before, "MCP001")] == [None]
    # Nothing catches around read_text's caller: the fix is offered.
    (mcp005,) = findings_of(before, "MCP005")
    assert mcp005.fix is not None and 'raise ToolError("No path given")' in [e.content for e in mcp005.fix.edits]


def test_mcp005_drops_the_error_label_of_a_parenthesised_message_and_keeps_its_layout() -> None:
    before = _tool(
        """\
if item_id not in STORE:
    return (
        f"Error: unknown item '{item_id}'. "
        "Call list_items for the ids."
    )
return STORE[item_id]
""",
        "from fastmcp import FastMCP\n\n",
    )
    assert fixed(before).endswith(
        """\
    if item_id not in STORE:
        raise ToolError(
            f"Unknown item '{item_id}'. "
            "Call list_items for the ids."
        )
    return STORE[item_id]
"""
    )


def test_mcp002_reads_a_message_built_with_plus_as_one_literal() -> None:
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return "Lookup of " + item_id + " failed: " + str(e)\n')
    assert _handler(fixed(before)) == ['logger.exception("Lookup of %s failed", item_id)', 'raise ToolError(f"Lookup of {item_id} failed") from e']
    # An operand that cannot move into an f-string on every Python (its own quotes): the
    # fix falls back to naming what failed (the one operation of the `try`, on its value).
    quoted = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return "Lookup of " + ", ".join(IDS) + " failed: " + str(e)\n')
    assert _handler(fixed(quoted)) == ['logger.exception("Could not fetch %s", item_id)', 'raise ToolError(f"Could not fetch {item_id}") from e']


def test_imports_and_logger_in_a_module_without_imports_follow_its_docstring() -> None:
    from mcp_lint.fixing.imports import ImportBlock, import_edits

    # A module whose docstring (row 1) is followed by code and no import line to join.
    edits = import_edits(ImportBlock((), "inventory", Location(2, 1)), [("logging", None)], ["logger = logging.getLogger(__name__)"])
    assert [(e.location, e.content) for e in edits] == [(Location(2, 1), "import logging\n\nlogger = logging.getLogger(__name__)\n\n")]


def test_mcp002_in_a_try_of_the_handler_lets_its_toolerror_through_the_inner_except() -> None:
    before = _tool(
        """\
try:
    return STORE.fetch(item_id)
except Exception as e:
    try:
        STORE.rollback(item_id)
        return f"Lookup of {item_id} failed, rolled back: {e}"
    except Exception as rollback_error:
        return f"Lookup of {item_id} failed and the rollback too: {rollback_error}"
"""
    )
    assert _handler(fixed(before)) == [
        "try:",
        "STORE.rollback(item_id)",
        'logger.exception("Lookup of %s failed, rolled back", item_id)',
        'raise ToolError(f"Lookup of {item_id} failed, rolled back") from e',
        "except ToolError:",
        "raise",
        "except Exception as rollback_error:",
        'logger.exception("Lookup of %s failed and the rollback too", item_id)',
        'raise ToolError(f"Lookup of {item_id} failed and the rollback too") from rollback_error',
    ]


def test_mcp002_log_call_turns_format_specs_into_printf_or_format_arguments() -> None:
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f"Lookup of {item_id!r} took {ELAPSED:.2f} s at {SLOT:>4}: {e}"\n')
    assert _handler(fixed(before)) == [
        'logger.exception("Lookup of %r took %.2f s at %s", item_id, ELAPSED, format(SLOT, ">4"))',
        'raise ToolError(f"Lookup of {item_id!r} took {ELAPSED:.2f} s at {SLOT:>4}") from e',
    ]


def test_mcp002_reads_a_str_format_message_with_its_positional_and_named_arguments() -> None:
    before = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return "Lookup of {} in {region} failed: {}".format(item_id, e, region=REGION)\n')
    assert _handler(fixed(before)) == [
        'logger.exception("Lookup of %s in %s failed", item_id, REGION)',
        'raise ToolError(f"Lookup of {item_id} in {REGION} failed") from e',
    ]
    # A field the f-string cannot express the same way (`{0.args}`): the fix names what failed.
    attribute = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return "Lookup failed: {0.args}".format(e)\n')
    assert _handler(fixed(attribute)) == ['logger.exception("Could not fetch %s", item_id)', 'raise ToolError(f"Could not fetch {item_id}") from e']


def test_a_local_that_held_the_message_dies_but_its_call_is_kept_as_a_statement() -> None:
    # `msg = self._log_failure(...)` logs (an effect): the fix keeps the call and drops the name.
    source = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("desk")


class Desk:
    def _log_failure(self, desk_id: str, error: Exception) -> str:
        print(desk_id, error)
        return f"request for {desk_id} failed: {error}"

    def create(self, desk_id: str) -> dict:
        try:
            return httpx.post(f"https://desk.example/{desk_id}").json()
        except httpx.HTTPError as e:
            message = self._log_failure(desk_id, e)
            raise ToolError(message) from e


DESK = Desk()


@mcp.tool
def create_request(desk_id: str) -> dict:
    return DESK.create(desk_id)
"""
    out = fixed(source)
    assert "message = " not in out
    assert "            self._log_failure(desk_id, e)\n" in out
    assert fixed(out) == out


def test_a_raise_in_a_nested_handler_chains_the_exception_that_handler_caught() -> None:
    # `restore_e` is the exception being handled: it becomes the cause (and `e` its context), so
    # the name the old message read does not go unused.
    source = """\
import shutil
from fastmcp import FastMCP

mcp = FastMCP("docs")


@mcp.tool
def protect(filename: str) -> str:
    try:
        shutil.copy2(filename, filename + ".bak")
        return "protected"
    except Exception as e:
        try:
            shutil.copy2(filename + ".bak", filename)
        except Exception as restore_e:
            return f"Failed to protect {filename}: {e}. Restore failed too: {restore_e}"
        return f"Failed to protect {filename}: {e}. Original restored."
"""
    out = fixed(source)
    assert "from restore_e" in out
    assert fixed(out) == out


# --- dead locals whose value reads something off a call (issue 11) ---

_TRACKER = """\
import httpx
from fastmcp import FastMCP, Context

mcp = FastMCP("tracker")
API = "https://tracker.example/api"


def _get_settings(ctx: Context):
    return ctx.request_context.lifespan_context.settings

"""


def test_a_dead_local_reading_an_attribute_of_a_getter_call_is_deleted_whole() -> None:
    # `region = _get_settings(ctx).region` only read configuration: once the message no longer
    # uses it, a reviewer deletes the line rather than keep `_get_settings(ctx)` as a statement.
    source = _TRACKER + """
@mcp.tool
def sync_ticket(ctx: Context, title: str) -> dict:
    try:
        return httpx.put(f"{API}/tickets", json={"title": title}).json()
    except httpx.HTTPError as e:
        region = _get_settings(ctx).region
        return {"error": f"Could not sync ticket {title}: {e}", "code": f"{region}-sync"}
"""
    out = fixed(source)
    assert _handler(out) == ['logger.exception("Could not sync ticket %s", title)', 'raise ToolError(f"Could not sync ticket {title}") from e']
    assert "_get_settings(ctx)" not in out.split("def sync_ticket")[1]
    assert fixed(out) == out


def test_a_dead_local_reading_the_result_of_a_post_keeps_the_post() -> None:
    # `(await client.post(...)).json()["id"]`: the POST files an incident (an effect worth
    # keeping); only the read of its answer and the name go.
    source = _TRACKER + """
@mcp.tool
async def close_ticket(ticket_id: str) -> dict:
    async with httpx.AsyncClient() as client:
        try:
            return (await client.delete(f"{API}/tickets/{ticket_id}")).json()
        except httpx.HTTPError as e:
            incident = (await client.post(f"{API}/incidents", json={"ticket": ticket_id})).json()["id"]
            return {"error": f"Could not close ticket {ticket_id}: {e}", "code": f"incident-{incident}"}
"""
    out = fixed(source)
    assert _handler(out) == [
        'await client.post(f"{API}/incidents", json={"ticket": ticket_id})',
        'logger.exception("Could not close ticket %s", ticket_id)',
        'raise ToolError(f"Could not close ticket {ticket_id}") from e',
    ]
    libcst.parse_module(out)
    assert fixed(out) == out


def test_a_dead_local_from_a_sync_post_keeps_the_call_without_the_json_read() -> None:
    source = _TRACKER + """
@mcp.tool
def reopen_ticket(ticket_id: str) -> dict:
    try:
        return httpx.patch(f"{API}/tickets/{ticket_id}", json={"state": "open"}).json()
    except httpx.HTTPError as e:
        audit = httpx.post(f"{API}/audit", json={"ticket": ticket_id}).json()
        return {"error": f"Could not reopen ticket {ticket_id}: {e}", "code": audit}
"""
    out = fixed(source)
    assert _handler(out)[0] == 'httpx.post(f"{API}/audit", json={"ticket": ticket_id})'
    assert fixed(out) == out


# --- where the message comes from when the author's words around the exception are gone ---

_WEATHER = """\
import logging

import httpx
from fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("weather")

"""


def test_mcp002_message_comes_from_the_handlers_log_call_when_the_result_was_only_the_exception() -> None:
    source = _WEATHER + """
@mcp.tool
def forecast(city: str) -> str:
    try:
        return httpx.get(f"https://weather.example/{city}").text
    except httpx.HTTPError as e:
        logger.warning("Fetching the forecast for %s failed: %s", city, e)
        return str(e)
"""
    out = fixed(source)
    # The warning logs the exception already: the author's level, no traceback added.
    assert _handler(out) == [
        'logger.warning("Fetching the forecast for %s failed: %s", city, e)',
        'raise ToolError(f"Fetching the forecast for {city} failed") from e',
    ]
    assert fixed(out) == out


def test_mcp002_a_bare_identifier_left_of_the_message_is_not_the_message() -> None:
    # `f"{error_message}; fallback_failed: {fallback_error}"`: both placeholders carry exception
    # text; "fallback_failed" alone is a label, not a sentence for the model.
    source = _WEATHER + """
@mcp.tool
def fetch_alerts(region: str) -> str:
    try:
        return httpx.get(f"https://weather.example/alerts/{region}").text
    except httpx.HTTPError as primary:
        error_message = f"{primary}"
        try:
            return httpx.get(f"https://mirror.example/alerts/{region}").text
        except httpx.HTTPError as fallback_error:
            raise ValueError(f"{error_message}; fallback_failed: {fallback_error}") from fallback_error
"""
    out = fixed(source)
    assert 'raise ValueError("Could not fetch alerts") from fallback_error' in out
    assert "fallback_failed" not in out and "error_message" not in out
    assert fixed(out) == out


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("_parse_request_field_values", "Could not parse request field values"),
        ("run_select_query_async", "Could not run select query"),
        ("fetchPage", "Could not fetch page"),
        ("search", "Could not search"),
    ],
)
def test_mcp002_message_from_a_function_name_reads_as_a_sentence(name: str, expected: str) -> None:
    source = _WEATHER + f"""
@mcp.tool
def {name}(city: str) -> str:
    try:
        return httpx.get(f"https://weather.example/{{city}}").text
    except httpx.HTTPError as e:
        return str(e)
"""
    assert _handler(fixed(source)) == [f'logger.exception("{expected}")', f'raise ToolError("{expected}") from e']


def test_mcp002_a_method_named_for_no_action_is_named_by_its_service() -> None:
    # `_request` says nothing ("The request failed"); the class says which service was asked.
    source = _WEATHER + """
class WeatherApiClient:
    def __init__(self) -> None:
        self.http = httpx.AsyncClient(base_url="https://weather.example")

    async def _request(self, path: str) -> dict:
        try:
            response = await self.http.request("GET", path)
            response.raise_for_status()
            return response.json()
        except httpx.RequestError as e:
            logger.error(f"Request error occurred: {e}")
            raise WeatherError(f"Request failed: {e}") from e


class WeatherError(Exception):
    pass


CLIENT = WeatherApiClient()


@mcp.tool
async def forecast(city: str) -> dict:
    return await CLIENT._request(f"/forecast/{city}")
"""
    out = fixed(source)
    assert '            raise WeatherError("Weather request failed") from e\n' in out
    assert 'logger.error(f"Request error occurred: {e}", exc_info=True)' in out
    assert fixed(out) == out


@pytest.mark.parametrize(
    ("class_name", "expected"),
    [
        ("ForecastHttpClient", "Forecast request failed"),
        ("ForecastService", "Forecast request failed"),
        # No role suffix: the class names no service; the one tool reached says what failed.
        ("Forecaster", "Could not get forecast"),
        # Only a role: nothing of the service; again the tool.
        ("ApiClient", "Could not get forecast"),
    ],
)
def test_mcp002_a_methods_service_comes_from_a_class_named_for_its_role(class_name: str, expected: str) -> None:
    source = _WEATHER + f"""
class {class_name}:
    def _request(self, path: str) -> dict:
        try:
            return httpx.get(f"https://weather.example{{path}}").json()
        except httpx.HTTPError as e:
            raise RuntimeError(str(e)) from e


@mcp.tool
def get_forecast(city: str) -> dict:
    return {class_name}()._request(f"/forecast/{{city}}")
"""
    out = fixed(source)
    assert f'            raise RuntimeError("{expected}") from e\n' in out
    assert fixed(out) == out


def test_mcp002_a_named_operation_of_the_try_needs_no_value() -> None:
    source = _TRACKER + """
@mcp.tool
def ticket(ctx: Context, key: str) -> dict:
    try:
        return CLIENT.get_issue(key)
    except httpx.HTTPError as e:
        return {"error": str(e)}
"""
    out = fixed(source)
    assert 'raise ToolError("Could not get issue") from e' in out
    assert fixed(out) == out


def test_mcp002_message_names_the_one_operation_of_the_try_and_its_value() -> None:
    # A context manager's name is no action; the `try` runs one git operation on a parameter.
    source = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
import git

mcp = FastMCP("git")


@mcp.tool
def git_switch(repo_path: str, branch: str) -> str:
    repo = git.Repo(repo_path)
    try:
        repo.git.checkout(branch)
    except git.GitCommandError as e:
        raise ToolError(str(e)) from e
    return f"Switched to {branch}"
"""
    out = fixed(source)
    assert '        logger.exception("Could not checkout %s (%s)", branch, type(e).__name__)\n        raise ToolError(f"Could not checkout {branch} ({type(e).__name__})") from e\n' in out
    assert fixed(out) == out


def test_mcp002_a_call_that_only_schedules_another_is_no_operation() -> None:
    # `asyncio.create_task` runs the operation; it is not one.
    source = _TRACKER + """
import asyncio


@mcp.tool
async def page(ctx: Context, page_id: str) -> dict:
    try:
        task = asyncio.create_task(CLIENT.fetch_page(page_id))
        return await task
    except httpx.HTTPError as e:
        return {"error": str(e)}
"""
    out = fixed(source)
    assert 'raise ToolError(f"Could not fetch page (page_id: {page_id})") from e' in out
    assert fixed(out) == out


def test_mcp002_no_operation_named_when_the_try_runs_several() -> None:
    # Two operations: naming one would guess which failed; the tool's name says what it does.
    source = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
import git

mcp = FastMCP("git")


@mcp.tool
def git_refresh(repo_path: str, remote: str, branch: str) -> str:
    repo = git.Repo(repo_path)
    try:
        repo.git.fetch(remote)
        repo.git.checkout(branch)
    except git.GitCommandError as e:
        raise ToolError(str(e)) from e
    return "synced"
"""
    out = fixed(source)
    assert 'raise ToolError(f"Git refresh failed (branch: {branch}, {type(e).__name__})") from e' in out
    assert "checkout %s" not in out and "fetch %s" not in out
    assert fixed(out) == out


_DECORATED = """\
import functools

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("weather")


def reported(fn):
    @functools.wraps(fn)
    async def inner(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
        except httpx.HTTPError as e:
            raise ToolError(str(e)) from e

    return inner

"""


def test_mcp002_a_wrapper_reached_by_one_tool_does_not_speak_for_that_tool() -> None:
    # The decorator wraps whatever function it is given: "Could not get forecast" would be wrong
    # for the next tool decorated with it (issue 23). No words of the author's name the failure
    # generically, so no text is offered; the finding stays.
    source = _DECORATED + """
@mcp.tool
@reported
async def get_forecast(city: str) -> str:
    return (await httpx.AsyncClient().get(f"https://weather.example/{city}")).text
"""
    assert fixed(source) == source
    assert [(f.location.row, f.fix) for f in findings_of(source, "MCP002")] == [(16, None)]


def test_mcp002_no_fix_where_nothing_says_what_failed() -> None:
    # A wrapper around every tool: no words of the author, no action in its name, no operation,
    # no one tool. "The inner failed" would be no better than the exception's text.
    source = _DECORATED + """
@mcp.tool
@reported
async def get_forecast(city: str) -> str:
    return (await httpx.AsyncClient().get(f"https://weather.example/{city}")).text


@mcp.tool
@reported
async def get_alerts(region: str) -> str:
    return (await httpx.AsyncClient().get(f"https://weather.example/alerts/{region}")).text
"""
    findings = findings_of(source, "MCP002")
    assert [(f.location.row, f.fix) for f in findings] == [(16, None)]
    assert fixed(source) == source


def test_mcp002_an_error_dict_with_only_exception_text_keeps_the_authors_hint() -> None:
    # The "error" entry is all exception text; the hint is the author's advice: it follows what
    # failed (named from the code) as a sentence of its own, never in its place, and the local
    # it reads stays in use.
    source = _TRACKER + """
@mcp.tool
def list_projects(ctx: Context) -> dict:
    try:
        return httpx.get(f"{API}/projects").json()
    except httpx.HTTPError as e:
        url = _get_settings(ctx).base_url
        return {
            "error": f"{type(e).__name__}: {e}",
            "hint": f"cannot reach {url}, check TRACKER_URL and that the tracker is up",
        }
"""
    out = fixed(source)
    assert _handler(out) == [
        "url = _get_settings(ctx).base_url",
        'logger.exception("Could not list projects")',
        'raise ToolError(f"Could not list projects. Cannot reach {url}, check TRACKER_URL and that the tracker is up") from e',
    ]
    assert fixed(out) == out


def test_mcp002_a_status_tuple_keeps_its_message_text() -> None:
    source = _WEATHER + """
def check_writeable(path: str) -> tuple[bool, str]:
    try:
        with open(path, "a"):
            pass
        return True, ""
    except OSError as e:
        return False, f"File {path} is not writeable: {e}"


@mcp.tool
def save_report(path: str, text: str) -> str:
    ok, error = check_writeable(path)
    if not ok:
        return f"Cannot save the report: {error}"
    with open(path, "w") as handle:
        handle.write(text)
    return "saved"
"""
    out = fixed(source)
    # The tuple stays: raising would leave the tool's `if not ok:` branch dead. The exception's
    # text goes to the log, and the clause no longer binds a name nothing reads.
    assert (
        "    except OSError:\n"
        '        logger.exception("File %s is not writeable", path)\n'
        '        return False, f"File {path} is not writeable"\n'
    ) in out
    # The tool's own `return f"Cannot save the report: {error}"` is MCP005's to fix.
    assert 'raise ToolError(f"Cannot save the report: {error}")' in out
    assert fixed(out) == out


def test_mcp002_a_status_tuple_built_in_a_local_keeps_its_shape_and_the_local_goes() -> None:
    # (success, message, value) with the message in a local; the handler already logs.
    source = _WEATHER + """
def copy_report(source: str, target: str) -> tuple[bool, str, str | None]:
    try:
        shutil.copy2(source, target)
        return True, f"Copied to {target}", target
    except OSError as e:
        logger.warning("copy of %s failed", source)
        error_message = f"Failed to copy {source}: {e}"
        return False, error_message, None


@mcp.tool
def archive_report(source: str, target: str) -> str:
    ok, message, path = copy_report(source, target)
    if not ok:
        return f"Cannot archive: {message}"
    return f"Archived at {path}"
"""
    out = fixed(source.replace("import httpx", "import shutil\n\nimport httpx"))
    assert (
        "    except OSError:\n"
        '        logger.warning("copy of %s failed", source, exc_info=True)\n'
        '        return False, f"Failed to copy {source}", None\n'
    ) in out
    assert "error_message" not in out
    assert fixed(out) == out


def test_mcp002_a_tuple_of_a_tool_result_still_keeps_the_name_its_other_code_reads() -> None:
    # `e` is still read after the fix (a second use): the clause keeps binding it.
    source = _WEATHER + """
def check_writeable(path: str) -> tuple[bool, str]:
    try:
        with open(path, "a"):
            pass
        return True, ""
    except OSError as e:
        logger.warning("errno %s", e.errno)
        return False, f"File {path} is not writeable: {e}"


@mcp.tool
def save_report(path: str, text: str) -> str:
    ok, error = check_writeable(path)
    if not ok:
        return f"Cannot save the report: {error}"
    return "saved"
"""
    out = fixed(source)
    assert "    except OSError as e:\n" in out
    assert '        return False, f"File {path} is not writeable"\n' in out
    assert fixed(out) == out


_TIME = """\
from zoneinfo import ZoneInfo

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("time")

"""


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ('f"Invalid timezone: {str(e)}"', 'f"Invalid timezone: {timezone_name}"'),
        ('f"Error: unknown time zone {e}"', 'f"Unknown time zone {timezone_name}"'),
        ('"Could not parse timezone: " + str(e)', 'f"Could not parse timezone: {timezone_name}"'),
    ],
)
def test_mcp002_a_rejected_argument_is_named_instead_of_the_exception_text_and_not_logged(words: str, expected: str) -> None:
    # "Invalid timezone: {e}" says what kind of value was rejected; the `try` ran on the
    # parameter named for it. A bad argument is the model's to correct: no traceback logged.
    source = _TIME + """
def get_zone(timezone_name: str) -> ZoneInfo:
    try:
        return ZoneInfo(timezone_name)
    except Exception as e:
        raise ToolError(WORDS) from e


@mcp.tool
def current_time(timezone_name: str) -> str:
    return str(datetime.now(get_zone(timezone_name)))
""".replace("WORDS", words)
    out = fixed(source)
    assert f"        raise ToolError({expected}) from e\n" in out
    assert "logger" not in out and "logging" not in out
    assert fixed(out) == out


@pytest.mark.parametrize(
    ("words", "call", "expected"),
    [
        # Words of an operation, not of a value: the value is named as the call's argument, not as
        # the one rejected, and the failure is logged.
        ('f"Lookup failed: {e}"', "ZoneInfo(timezone_name)", 'f"Lookup failed (timezone_name: {timezone_name})"'),
        # The words name another kind of value than the argument: nothing guessed as rejected.
        ('f"Invalid offset: {e}"', "ZoneInfo(timezone_name)", 'f"Invalid offset (timezone_name: {timezone_name})"'),
        # The value is already in the message.
        ('f"Invalid timezone {timezone_name!r}: {e}"', "ZoneInfo(timezone_name)", 'f"Invalid timezone {timezone_name!r}"'),
    ],
)
def test_mcp002_no_value_named_where_the_words_do_not_say_which(words: str, call: str, expected: str) -> None:
    source = _TIME + f"""
@mcp.tool
def current_time(timezone_name: str) -> str:
    try:
        zone = {call}
    except Exception as e:
        raise ToolError({words}) from e
    return str(zone)
"""
    out = fixed(source)
    assert f"        raise ToolError({expected}) from e\n" in out
    assert "logger.exception(" in out
    assert fixed(out) == out


def test_mcp002_a_rejected_local_value_is_named_and_the_failure_still_logged() -> None:
    # A local read from upstream data, not the caller's argument: named, and logged, since the
    # server got bad data, not bad input from the model.
    source = _WEATHER + """
from dateutil.parser import parse as parse_date
from fastmcp.exceptions import ToolError


@mcp.tool
def last_update(city: str) -> str:
    raw_date = httpx.get(f"https://weather.example/{city}").json()["updated"]
    try:
        return parse_date(raw_date).isoformat()
    except Exception as e:
        raise ToolError(f"Invalid date: {e}") from e
"""
    out = fixed(source)
    assert '        logger.exception("Invalid date: %s", raw_date)\n' in out
    assert '        raise ToolError(f"Invalid date: {raw_date}") from e\n' in out
    assert fixed(out) == out


def test_mcp002_a_project_exception_built_with_other_arguments_keeps_them() -> None:
    # Rewriting the whole call with the message alone would break the class's constructor.
    source = """\
import json

import httpx
from fastmcp import FastMCP

mcp = FastMCP("builds")


class BuildApiError(Exception):
    def __init__(self, status: int, message: str, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class BuildClient:
    def _parse(self, resp: httpx.Response) -> dict:
        try:
            return resp.json()
        except json.JSONDecodeError as e:
            raise BuildApiError(
                resp.status_code,
                f"Build server sent invalid JSON: {e}",
                resp.text[:500],
            ) from e

    def trigger(self, job: str) -> dict:
        try:
            resp = httpx.post(f"https://ci.example/jobs/{job}/build")
        except httpx.HTTPError as e:
            raise BuildApiError(0, f"Could not reach the build server: {e}", body="")
        return self._parse(resp)


CLIENT = BuildClient()


@mcp.tool
def trigger_build(job: str) -> dict:
    return CLIENT.trigger(job)
"""
    out = fixed(source)
    assert """\
            raise BuildApiError(
                resp.status_code,
                "Build server sent invalid JSON",
                resp.text[:500],
            ) from e
""" in out
    assert 'raise BuildApiError(0, "Could not reach the build server", body="") from e\n' in out
    assert fixed(out) == out


def test_mcp005_raises_what_an_error_builder_writes_and_leaves_the_builder_returning_it() -> None:
    # `_unknown_ref_error(token)` builds its text around the token: `raise ToolError(token)` would
    # tell the model less, and turning the builder's own return into a raise would leave a
    # function named for building an error that never returns. `_fail(msg)` passes the message.
    source = """\
from fastmcp import FastMCP

mcp = FastMCP("links")
LINKS: dict[str, str] = {}


def _unknown_ref_error(token: str) -> str:
    return f"Error: Unknown link reference '{token}'. Run the search again to get a fresh token."


def _fail(message: str) -> dict:
    return {"success": False, "error": message}


@mcp.tool
def expand(token: str) -> str:
    url = LINKS.get(token)
    if url is None:
        return _unknown_ref_error(token)
    return url


@mcp.tool
def open_link(token: str) -> dict:
    if token not in LINKS:
        return _fail(f"Unknown link reference '{token}'")
    return {"url": LINKS[token]}
"""
    assert [f.location.row for f in findings_of(source, "MCP005")] == [19, 26]  # not the builders' own returns
    out = fixed(source)
    assert "    return f\"Error: Unknown link reference '{token}'. Run the search again to get a fresh token.\"\n" in out
    assert "        raise ToolError(_unknown_ref_error(token))\n" in out
    assert "        raise ToolError(f\"Unknown link reference '{token}'\")\n" in out
    assert fixed(out) == out


def test_dropping_the_error_label_does_not_capitalise_an_identifier() -> None:
    # `Error: sort_by must be ...` names a parameter: `Sort_by` would no longer be its name.
    source = _WEATHER + """
@mcp.tool
def top_cities(sort_by: str) -> str:
    if sort_by not in ("rain", "sun"):
        return "Error: sort_by must be 'rain' or 'sun'"
    if not sort_by:
        return "Error: no cities ranked yet"
    return ", ".join(RANKING[sort_by])
"""
    out = fixed(source)
    assert "        raise ToolError(\"sort_by must be 'rain' or 'sun'\")\n" in out
    assert '        raise ToolError("No cities ranked yet")\n' in out
    assert fixed(out) == out


def test_mcp002_a_log_message_in_code_names_is_not_the_models_message() -> None:
    # `"get_forecast failed: %s"` is written for the operator; the name says it better.
    source = _WEATHER + """
@mcp.tool
def get_forecast(city: str) -> str:
    try:
        return httpx.get(f"https://weather.example/{city}").text
    except httpx.HTTPError as e:
        logger.error("get_forecast failed for %s: %s", city, e)
        return str(e)
"""
    assert _handler(fixed(source)) == [
        'logger.error("get_forecast failed for %s: %s", city, e, exc_info=True)',
        'raise ToolError("Could not get forecast") from e',
    ]


def test_mcp001_fix_in_an_except_clause_chains_the_caught_exception() -> None:
    source = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

mcp = FastMCP("ocr")


@mcp.tool()
def read_page(path: str) -> str:
    try:
        return OCR.read(path)
    except OSError as e:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message=f"Could not open {path}"))
"""
    finding = next(f for f in findings_of(source, "MCP001"))
    assert finding.fix is not None
    assert 'ToolError(f"Could not open {path}") from e' in [edit.content for edit in finding.fix.edits]
    out = fixed(source)
    assert '        raise ToolError(f"Could not open {path}") from e\n' in out
    assert fixed(out) == out


# --- MCP002: a chain of locals that only built the old error text goes whole ---
# `error_msg = f"...{e}"`, then `error_text = json.dumps({"error": error_msg})`, then a return of it:
# serializing has no effect, so no bare `json.dumps(...)` statement, no unread local and no unused
# `import json` may stay behind.

_CHAIN_HEADER = 'import json\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("runner")\n\n\n'
_CHAIN_FIXED_HEADER = (
    "import logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
    'logger = logging.getLogger(__name__)\n\nmcp = FastMCP("runner")\n\n\n'
)
_CHAIN_TOOL = '@mcp.tool()\ndef run_job(name: str) -> str:\n    try:\n        return JOBS.run(name)\n    except Exception as e:\n'
_CHAIN_RAISE = "        logger.exception(\"Failed to run '%s'\", name)\n        raise ToolError(f\"Failed to run '{name}'\") from e\n"


@pytest.mark.parametrize(
    "handler",
    [
        pytest.param(
            "        error_text = json.dumps({\"error\": f\"Failed to run '{name}': {e}\"})\n        return error_text\n",
            id="one-local",
        ),
        pytest.param(
            "        error_msg = f\"Failed to run '{name}': {e}\"\n"
            "        error_text = json.dumps({\"error\": error_msg}, indent=2)\n"
            "        return error_text\n",
            id="two-locals",
        ),
        pytest.param(
            "        error_msg = f\"Failed to run '{name}': {e}\"\n        return json.dumps({\"error\": error_msg})\n",
            id="serialized-in-the-return",
        ),
    ],
)
def test_mcp002_fix_deletes_a_chain_of_locals_that_only_built_the_error_text(handler: str) -> None:
    assert_fixes_to(_CHAIN_HEADER + _CHAIN_TOOL + handler, _CHAIN_FIXED_HEADER + _CHAIN_TOOL + _CHAIN_RAISE, None)


def test_mcp002_fix_deletes_the_local_of_a_returned_error_dict() -> None:
    # No serializer: `import json` was unused before the fix too, and an import the fix did not
    # make unused is not the fix's to delete.
    handler = "        error_msg = f\"Failed to run '{name}': {e}\"\n        return {\"error\": error_msg}\n"
    before = _CHAIN_HEADER.replace("import json\n\n", "") + _CHAIN_TOOL.replace("-> str", "-> dict") + handler
    after = _CHAIN_FIXED_HEADER + _CHAIN_TOOL.replace("-> str", "-> dict") + _CHAIN_RAISE
    assert_fixes_to(before, after, None)


def test_mcp002_fix_deletes_the_chain_before_an_error_result() -> None:
    before = (
        "import json\n\nfrom mcp import types\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"runner\")\n\n\n"
        "@mcp.tool()\ndef run_job(name: str) -> types.CallToolResult:\n    try:\n"
        '        return types.CallToolResult(content=[types.TextContent(type="text", text=JOBS.run(name))])\n'
        "    except Exception as e:\n"
        "        error_msg = f\"Failed to run '{name}': {e}\"\n"
        '        error_text = json.dumps({"error": error_msg})\n'
        '        return types.CallToolResult(content=[types.TextContent(type="text", text=error_text)], isError=True)\n'
    )
    after = (
        "import logging\n\nfrom mcp import types\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
        'logger = logging.getLogger(__name__)\n\nmcp = FastMCP("runner")\n\n\n'
        "@mcp.tool()\ndef run_job(name: str) -> types.CallToolResult:\n    try:\n"
        '        return types.CallToolResult(content=[types.TextContent(type="text", text=JOBS.run(name))])\n'
        "    except Exception as e:\n" + _CHAIN_RAISE
    )
    assert_fixes_to(before, after, None)


def test_mcp002_fix_keeps_a_local_of_the_chain_that_is_read_elsewhere_and_json_still_used() -> None:
    # `error_msg` is also logged: it stays (and the log call gets the traceback); only the
    # serialized copy goes. `json` is still read by the tool's success path, so its import stays.
    tool = '@mcp.tool()\ndef run_job(name: str) -> str:\n    try:\n        return json.dumps(JOBS.run(name))\n    except Exception as e:\n'
    before = (
        'import json\nimport logging\n\nfrom mcp.server.fastmcp import FastMCP\n\nlogger = logging.getLogger(__name__)\nmcp = FastMCP("runner")\n\n\n'
        + tool
        + "        error_msg = f\"Failed to run '{name}': {e}\"\n"
        + "        logger.error(error_msg)\n"
        + '        error_text = json.dumps({"error": error_msg})\n'
        + "        return error_text\n"
    )
    after = (
        "import json\nimport logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
        'logger = logging.getLogger(__name__)\nmcp = FastMCP("runner")\n\n\n'
        + tool
        + "        error_msg = f\"Failed to run '{name}': {e}\"\n"
        + "        logger.error(error_msg, exc_info=True)\n"
        + "        raise ToolError(f\"Failed to run '{name}'\") from e\n"
    )
    assert_fixes_to(before, after, None)


def test_mcp002_fix_keeps_a_serialized_local_that_is_read_elsewhere() -> None:
    # `error_text` is also recorded: it stays, and so does `error_msg`, which it reads.
    handler = (
        "        error_msg = f\"Failed to run '{name}': {e}\"\n"
        '        error_text = json.dumps({"error": error_msg})\n'
        "        FAILURES.append(error_text)\n"
    )
    before = _CHAIN_HEADER + _CHAIN_TOOL + handler + "        return error_text\n"
    after = (
        "import json\n" + _CHAIN_FIXED_HEADER + _CHAIN_TOOL + handler + _CHAIN_RAISE
    )
    assert_fixes_to(before, after, None)


def test_mcp002_fix_deletes_a_content_model_built_for_the_old_return() -> None:
    # Building `types.TextContent(...)` (an mcp.types model) and an aliased `json.dumps` does
    # nothing but compute the old value: no bare constructor call stays behind.
    before = (
        "import json as jsonlib\n\nfrom mcp import types\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"runner\")\n\n\n"
        "@mcp.tool()\ndef run_job(name: str) -> list[types.TextContent]:\n    try:\n"
        '        return [types.TextContent(type="text", text=JOBS.run(name))]\n'
        "    except Exception as e:\n"
        "        error_msg = f\"Failed to run '{name}': {e}\"\n"
        '        content = types.TextContent(type="text", text=jsonlib.dumps({"error": error_msg}))\n'
        "        return [content]\n"
    )
    out = fixed(before)
    assert "TextContent(type=\"text\", text=jsonlib" not in out
    assert "error_msg" not in out and "import json" not in out
    assert _handler(out)[-1].startswith("raise ToolError(") and _handler(out)[-1].endswith(") from e")
    assert len(_handler(out)) == 2  # the log call and the raise, nothing left dead
    assert fixed(out) == out


def test_mcp002_fix_keeps_a_constructor_that_is_no_protocol_model() -> None:
    # A project class may do something when built (register, send): its call stays as a statement.
    before = _CHAIN_HEADER + _CHAIN_TOOL + (
        "        error_msg = f\"Failed to run '{name}': {e}\"\n"
        "        report = FailureReport(name, error_msg)\n"
        "        return report.text\n"
    )
    out = fixed(before)
    assert "        FailureReport(name, error_msg)\n" in out
    assert "        error_msg = f\"Failed to run '{name}': {e}\"\n" in out
    assert fixed(out) == out


def test_an_unread_binding_after_a_parenthesised_tuple_of_classes_goes_and_the_parenthesis_stays() -> None:
    # Found by test_fix_property: the binding's edit began at the end of the tuple's range, which
    # ends inside its `)`, so the fix cut the parenthesis and left code that does not parse.
    before = (
        "from mcp.server.fastmcp import FastMCP\n"
        "\n"
        'mcp = FastMCP("notes")\n'
        "\n"
        "\n"
        "async def _validate() -> str:\n"
        "    try:\n"
        "        result = DB.execute(value)\n"
        "    except (KeyError, TypeError) as e:\n"
        '        return f"Error: could not read {value} ({e})"\n'
        '    return "ok"\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "def save() -> str:\n"
        "    value = _validate(value)\n"
        "    if value:\n"
        "        return value\n"
        '    return "ok"\n'
    )
    after = fixed(before)
    libcst.parse_module(after)
    assert "    except (KeyError, TypeError):\n" in after
    assert "({e})" not in after and " as e" not in after


def test_mcp002_leaves_no_stray_separator_where_the_exception_text_was() -> None:
    # A full-width colon ends the label as ":" does.
    wide = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f"查询失败：{e}"\n')
    assert _handler(fixed(wide))[-1] == 'raise ToolError(f"查询失败 (item_id: {item_id})") from e'
    # The exception text between two sentences: one full stop stays, not two.
    between = _tool(
        'try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n'
        '    return f"Lookup failed because the token expired. Error: {e}. Run the login tool first."\n'
    )
    assert _handler(fixed(between))[-1] == 'raise ToolError(f"Lookup failed because the token expired (item_id: {item_id}). Run the login tool first.") from e'
    # A full stop after text that does not end a sentence is the author's and stays.
    after_words = _tool('try:\n    return STORE.fetch(item_id)\nexcept Exception as e:\n    return f"Lookup failed: {e}. Run the login tool first."\n')
    assert _handler(fixed(after_words))[-1] == 'raise ToolError(f"Lookup failed (item_id: {item_id}). Run the login tool first.") from e'


def test_mcp002_keeps_advice_under_any_key_that_says_it_is_advice() -> None:
    # `troubleshooting` and `suggested_action` are no exact hint key, but their words say what
    # they hold: the next calls to make go into the raised message, after it, as `hint` does.
    before = _tool(
        """\
try:
    return STORE.fetch(item_id)
except ConnectionError as e:
    return {
        "error": "Store connection failed",
        "details": str(e),
        "troubleshooting": ["The store may be offline", "The firewall may block port 5432"],
        "suggested_action": f"Check the store with ping_store() before looking up {item_id} again",
    }
""",
    )
    raised = " ".join(_handler(fixed(before))[1:])
    assert raised.startswith('raise ToolError( f"Store connection failed'), raised
    for advice in ("The store may be offline.", "The firewall may block port 5432.", "Check the store with ping_store() before looking up {item_id} again"):
        assert advice in raised, raised
    # A key naming an action or a status is no advice: it does not travel into the message.
    plain = before.replace('"troubleshooting"', '"action"').replace('"suggested_action"', '"status"')
    assert "ping_store" not in " ".join(_handler(fixed(plain))[1:])


def test_mcp002_help_quotes_the_advice_the_raise_carries() -> None:
    # The help is the edit applied: the advice after the message is in it (clipped like the rest).
    before = _tool('try:\n    return STORE.fetch_all()\nexcept ConnectionError as e:\n    return {"error": "Store connection failed", "details": str(e), "suggested_action": "Call ping_store()"}\n')
    [finding] = findings_of(before, "MCP002")
    assert finding.fix is not None
    assert finding.fix.message == 'Log the exception and raise ToolError(f"Store connection failed ({type(e).__name__}). Call…) from e'
    assert 'f"Store connection failed ({type(e).__name__}). Call ping_store()"' in fixed(before)
