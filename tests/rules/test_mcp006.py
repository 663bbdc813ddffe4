"""MCP006 lost-error-flag: error results the resolved framework version does not deliver as errors.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet (MCP006 and the default rules), so another
rule's finding on the same statement is asserted too.
"""

from __future__ import annotations

import textwrap

import pytest

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

from ._support import said, expected

SELECT = ("MCP0", "MCP006")


def _check(source: str, target: str | None = None) -> list:
    text = textwrap.dedent(source)
    findings = lint_source(text, filename="server.py", target=target, select=SELECT)
    assert {(f.code, f.location.row) for f in findings} == expected(text)
    return [f for f in findings if f.code == "MCP006"]


def _only(source: str, target: str | None = None):
    found = _check(source, target)
    assert len(found) == 1, found
    return found[0]


def _fixed(source: str, target: str | None) -> str:
    text = textwrap.dedent(source)
    outcome = fix_source(text, lambda s: lint_source(s, filename="server.py", target=target, select=("MCP006",)), unsafe=True)
    assert outcome.error is None, outcome.error
    return outcome.fixed


# -- CallToolResult(isError=True) returned from a decorated tool ------------------------------------

FASTMCP_CALL_TOOL_RESULT = """\
from fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("orders")
ORDERS: dict[int, str] = {}


@mcp.tool
async def cancel_order(order_id: int) -> CallToolResult:
    if order_id not in ORDERS:
        text = f"Order {order_id} not found; call list_orders"
        return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)  # expect: MCP006
    del ORDERS[order_id]
    return CallToolResult(content=[TextContent(type="text", text="cancelled")])
"""


@pytest.mark.parametrize("target", ["fastmcp>=2.5,<3", "fastmcp>=3,<4", "fastmcp==2.14.7"])
def test_call_tool_result_from_a_fastmcp_2_or_3_tool_is_serialized(target: str) -> None:
    finding = _only(FASTMCP_CALL_TOOL_RESULT, target)
    assert finding.message == "Tool 'cancel_order' returns CallToolResult(..., isError=True), whose error flag is lost"
    assert finding.notes[0].startswith("on fastmcp")
    assert "it is JSON-serialized into a text block and the wire says isError: false" in said(finding)
    assert "(from [tool.mcp-lint] target)" in said(finding)
    assert finding.help == "Raise ToolError instead (fastmcp >= 3.4: return ToolResult(..., is_error=True))"
    assert finding.fix is None  # no spelling of the flag works there


def test_call_tool_result_is_not_reported_where_fastmcp_4_may_run() -> None:
    # fastmcp 4.x passes a CallToolResult through: without a pin, the defect does not hold on every release.
    assert _check(FASTMCP_CALL_TOOL_RESULT.replace("  # expect: MCP006", "")) == []
    assert _check(FASTMCP_CALL_TOOL_RESULT.replace("  # expect: MCP006", ""), "fastmcp>=4") == []


MCP1_CALL_TOOL_RESULT = """\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(note_id: str) -> CallToolResult:
    if note_id not in NOTES:
        text = f"Note {note_id} not found"
        return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)  # expect: MCP006
    return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])
"""


def test_call_tool_result_on_mcp_before_1_19_is_serialized() -> None:
    finding = _only(MCP1_CALL_TOOL_RESULT, "mcp>=1.6,<1.19")
    assert "on mcp 1.x FastMCP (from [tool.mcp-lint] target) it is JSON-serialized into a text block" in said(finding)
    assert "annotate the tool '-> CallToolResult' (mcp >= 1.19)" in said(finding)


def test_call_tool_result_annotated_as_such_on_mcp_1_19_is_passed_through() -> None:
    assert _check(MCP1_CALL_TOOL_RESULT.replace("  # expect: MCP006", ""), "mcp>=1.19,<2") == []
    # Unpinned, mcp 1.x may be older than 1.19: not on every release, so not reported.
    assert _check(MCP1_CALL_TOOL_RESULT.replace("  # expect: MCP006", "")) == []


STRUCTURED = """\
from pydantic import BaseModel

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("weather")


class Forecast(BaseModel):
    high: int
    low: int


@mcp.tool()
def forecast(city: str) -> Forecast:
    if city not in CITIES:
        message = f"No forecast for {city}; call list_cities"
        return CallToolResult(content=[TextContent(type="text", text=message)], isError=True)  # expect: MCP006
    return Forecast(high=21, low=12)
"""


def test_structured_return_annotation_replaces_the_error_text_on_mcp_1_19_to_1_30() -> None:
    finding = _only(STRUCTURED, "mcp>=1.19,<2")
    assert "the return annotation '-> Forecast' gives the tool an output schema" in said(finding)
    assert "the model gets 'Error executing tool forecast: 1 validation error ...' instead of your message" in said(finding)


def test_structured_return_annotation_unpinned_names_each_version_span() -> None:
    finding = _only(STRUCTURED)
    assert "on mcp 1.6 / 1.9 it is JSON-serialized into a text block" in said(finding)
    assert "on mcp 1.10–1.18, 1.19–1.30 the return annotation '-> Forecast' gives the tool an output schema" in said(finding)


@pytest.mark.parametrize("annotation", ["str", "dict[str, int]", "list[str]"])
def test_primitive_and_generic_annotations_have_a_schema(annotation: str) -> None:
    finding = _only(STRUCTURED.replace("-> Forecast:", f"-> {annotation}:"), "mcp>=1.19,<2")
    assert f"the return annotation '-> {annotation}' gives the tool an output schema" in said(finding)


@pytest.mark.parametrize("annotation", ["dict", "list", "Any"])
def test_bare_containers_and_any_have_no_schema_and_pass_the_result_through(annotation: str) -> None:
    source = STRUCTURED.replace("-> Forecast:", f"-> {annotation}:").replace("from pydantic import BaseModel", "from typing import Any\n\nfrom pydantic import BaseModel")
    assert _check(source.replace("  # expect: MCP006", ""), "mcp>=1.19,<2") == []
    # Before 1.19 the result is serialized, with or without a schema.
    finding = _only(source, "mcp>=1.10,<1.19")
    assert "it is JSON-serialized into a text block" in said(finding)


def test_structured_content_given_with_the_error_result_is_not_the_validation_case() -> None:
    source = STRUCTURED.replace("isError=True)  # expect: MCP006", "isError=True, structuredContent={\"high\": 0, \"low\": 0})")
    assert _check(source, "mcp>=1.19,<2") == []


def test_helper_returning_the_error_result_is_reported_where_it_is_written() -> None:
    finding = _only(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.types import CallToolResult, TextContent

        mcp = FastMCP("notes")


        def error_result(text: str) -> CallToolResult:
            return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)  # expect: MCP006


        @mcp.tool()
        def archive_note(note_id: str) -> CallToolResult:
            if note_id not in NOTES:
                return error_result(f"Note {note_id} not found")
            NOTES.pop(note_id)
            return CallToolResult(content=[TextContent(type="text", text="archived")])
        """,
        "mcp>=1.6,<1.10",
    )
    assert finding.message.startswith("Helper 'error_result' returns CallToolResult(..., isError=True)")
    assert "JSON-serialized" in said(finding)


def test_low_level_handler_before_1_19_cannot_return_a_call_tool_result() -> None:
    finding = _only(
        """\
        from mcp.server.lowlevel import Server
        from mcp.types import CallToolResult, TextContent

        server = Server("files")


        @server.call_tool()
        async def call_tool(name: str, arguments: dict):
            if name == "read_file" and arguments.get("path") not in FILES:
                return CallToolResult(content=[TextContent(type="text", text="No such file")], isError=True)  # expect: MCP006
            return [TextContent(type="text", text=FILES[arguments["path"]])]
        """,
        "mcp>=1.6,<1.19",
    )
    assert "a low-level handler cannot return a CallToolResult yet: the model gets a pydantic validation text" in said(finding)
    # The handler already passes isError=True: on mcp < 1.19 only raising reaches the model.
    assert finding.help == "Raise an ordinary exception with the message instead"


# -- is_error= on mcp 1.x, misspelled flags ---------------------------------------------------------

SNAKE = """\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: str) -> CallToolResult:
    if note_id not in NOTES:
        return CallToolResult(content=[TextContent(type="text", text=f"Note {note_id} not found")], is_error=True)  # expect: MCP006
    return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])
"""


def test_snake_case_flag_is_ignored_on_mcp_1x_and_the_fix_spells_it_isError() -> None:
    finding = _only(SNAKE, "mcp>=1.19,<2")
    assert "is_error is no field of mcp 1.x's CallToolResult: it is ignored and the wire says isError: false" in said(finding)
    assert finding.fix is not None and finding.fix.applicability.value == "unsafe"
    fixed = _fixed(SNAKE, "mcp>=1.19,<2")
    assert "], isError=True)" in fixed and "is_error" not in fixed
    assert _fixed(fixed, "mcp>=1.19,<2") == fixed  # a second run changes nothing
    compile(fixed, "server.py", "exec")


def test_snake_case_flag_unpinned_mcp_1x_is_reported_without_a_fix() -> None:
    # Every mcp 1.x ignores is_error; isError works only from 1.19, so renaming is no fix there.
    finding = _only(SNAKE)
    assert "on mcp 1.6 / 1.9, 1.10–1.18 it is JSON-serialized into a text block" in said(finding)
    assert "on mcp 1.19–1.30 is_error is no field of mcp 1.x's CallToolResult: it is ignored" in said(finding)
    assert finding.fix is None


def test_snake_case_flag_on_mcp_2x_is_correct() -> None:
    source = SNAKE.replace("from mcp.server.fastmcp import FastMCP", "from mcp.server.mcpserver import MCPServer").replace(
        'FastMCP("notes")', 'MCPServer("notes")'
    )
    assert _check(source.replace("  # expect: MCP006", ""), "mcp>=2.1,<3") == []


@pytest.mark.parametrize("keyword", ["is_Error", "iserror", "error", "has_error", "IsError"])
def test_misspelled_flags_are_dropped_on_mcp_2x(keyword: str) -> None:
    # The failure text in a result without a working flag is also MCP005's (rules are independent).
    source = f"""\
    from mcp.server.mcpserver import MCPServer
    from mcp.types import CallToolResult, TextContent

    mcp = MCPServer("tickets")


    @mcp.tool()
    def close_ticket(ticket_id: int) -> CallToolResult:
        if ticket_id not in TICKETS:
            return CallToolResult(content=[TextContent(type="text", text=f"Ticket {{ticket_id}} does not exist")], {keyword}=True)  # expect: MCP005, MCP006
        return CallToolResult(content=[TextContent(type="text", text="closed")])
    """
    finding = _only(source, "mcp>=2.1,<3")
    assert f"'{keyword}' is no field of CallToolResult: pydantic drops it and the wire says isError: false" in said(finding)
    fixed = _fixed(source, "mcp>=2.1,<3")
    assert "], isError=True)" in fixed


def test_false_and_computed_flags_are_not_misspellings() -> None:
    _check(
        """\
        from mcp.server.mcpserver import MCPServer
        from mcp.types import CallToolResult, TextContent

        mcp = MCPServer("tickets")


        @mcp.tool()
        def close_ticket(ticket_id: int) -> CallToolResult:
            failed = ticket_id not in TICKETS
            if ticket_id < 0:
                return CallToolResult(content=[TextContent(type="text", text="closed")], isError=False)
            return CallToolResult(content=[TextContent(type="text", text="done")], is_error=failed)
        """,
        "mcp>=2.1,<3",
    )


# -- fastmcp ToolResult ----------------------------------------------------------------------------

TOOL_RESULT = """\
from fastmcp import FastMCP
from fastmcp.tools.tool import ToolResult

mcp = FastMCP("orders")


@mcp.tool
def refund_order(order_id: int) -> ToolResult:
    if order_id not in CHARGED:
        return ToolResult(content=f"Order {order_id} was never charged", is_error=True)  # expect: MCP006
    return ToolResult(content="refunded")
"""


def test_tool_result_is_error_before_fastmcp_3_4_raises_type_error() -> None:
    finding = _only(TOOL_RESULT, "fastmcp>=2.10,<3.4")
    assert "ToolResult takes no is_error before fastmcp 3.4: the call raises TypeError" in said(finding)
    assert "'Error calling tool 'refund_order': ... unexpected keyword argument'" in said(finding)


def test_tool_result_is_error_on_fastmcp_3_4_is_correct() -> None:
    assert _check(TOOL_RESULT.replace("  # expect: MCP006", ""), "fastmcp>=3.4") == []


def test_tool_result_with_a_misspelled_flag_raises_on_every_fastmcp_and_is_fixed_where_is_error_exists() -> None:
    source = TOOL_RESULT.replace("is_error=True", "isError=True")
    finding = _only(source)
    assert "ToolResult takes no 'isError' argument: the call raises TypeError" in said(finding)
    assert finding.fix is None  # unpinned: is_error may not exist either
    assert "is_error=True)" in _fixed(source, "fastmcp>=3.4")


# -- McpError(ErrorData(...)), the mcp 1.x constructor -----------------------------------------------


def test_v1_constructor_from_fastmcp_exceptions_raises_type_error_on_fastmcp_4() -> None:
    finding = _only(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData

        mcp = FastMCP("orders")


        def require_order(order_id: int) -> dict:
            if order_id not in ORDERS:
                raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Order {order_id} not found"))  # expect: MCP001, MCP006
            return ORDERS[order_id]


        @mcp.tool
        def ship_order(order_id: int) -> str:
            order = require_order(order_id)
            return f"shipping {order['id']}"
        """,
        "fastmcp>=4",
    )
    assert finding.message.startswith("Helper 'require_order' raises McpError(ErrorData(...))")
    assert "McpError(ErrorData(...)) raises TypeError" in said(finding)
    assert "missing 1 required positional argument" in said(finding)


def test_v1_constructor_from_mcp_does_not_import_on_mcp_2x() -> None:
    finding = _only(
        """\
        from mcp.server.mcpserver import MCPServer
        from mcp.shared.exceptions import McpError
        from mcp.types import INTERNAL_ERROR, ErrorData

        mcp = MCPServer("billing")


        @mcp.tool()
        def refund(invoice_id: str) -> str:
            if invoice_id in PAID_OUT:
                raise McpError(ErrorData(code=INTERNAL_ERROR, message=f"Invoice {invoice_id} was paid out"))  # expect: MCP001, MCP006
            return "refunded"
        """,
        "mcp>=2.1,<3",
    )
    assert "mcp 2.x has no McpError (it is MCPError(code, message)): the import raises ImportError" in said(finding)


def test_v1_constructor_on_mcp_1x_and_fastmcp_3_is_only_mcp001() -> None:
    source = """\
    from fastmcp import FastMCP
    from mcp.shared.exceptions import McpError
    from mcp.types import INVALID_PARAMS, ErrorData

    mcp = FastMCP("orders")


    @mcp.tool
    def ship_order(order_id: int) -> str:
        if order_id not in ORDERS:
            raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Order {order_id} not found"))  # expect: MCP001
        return "shipping"
    """
    assert _check(source, "fastmcp>=2.5,<4") == []
    assert _check(source) == []  # unpinned: fastmcp 2.x/3.x run on mcp 1.x, where it works


def test_not_reported_outside_tools() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.types import CallToolResult, TextContent

        mcp = FastMCP("notes")


        def render(text: str) -> CallToolResult:
            return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


        @mcp.resource("notes://{note_id}")
        def note(note_id: str) -> str:
            return NOTES[note_id]
        """,
        "mcp>=1.19,<2",
    )


def test_noqa_suppresses() -> None:
    source = SNAKE.replace("  # expect: MCP006", "  # noqa: MCP006")
    assert _check(source, "mcp>=1.19,<2") == []


LOWLEVEL1_SNAKE = """\
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent

server = Server("files")
FILES: dict[str, str] = {}


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    path = arguments.get("path", "")
    if path not in FILES:
        return CallToolResult(content=[TextContent(type="text", text=f"No file {path}; call list_files")], is_error=True)  # expect: MCP006
    return [TextContent(type="text", text=FILES[path])]
"""


def test_low_level_snake_flag_from_1_19_is_respelled() -> None:
    finding = _only(LOWLEVEL1_SNAKE, "mcp>=1.19,<2")
    assert finding.location.row == 12
    assert "is_error is no field of mcp 1.x's CallToolResult" in said(finding)
    assert finding.help == "Pass the error flag as isError=True" == finding.fix.message
    assert finding.fix is not None and finding.fix.edits[0].content == "isError"


def test_low_level_snake_flag_on_every_1x_release_advises_raising() -> None:
    # Unpinned: mcp 1.6-1.18 iterate the returned object, 1.19+ ignore is_error; only raising
    # works on all of them, and re-spelling the flag would not help before 1.19 (no fix).
    finding = _only(LOWLEVEL1_SNAKE)
    assert "pydantic validation text" in said(finding) and "is_error is no field" in said(finding)
    assert finding.help == "Raise an ordinary exception with the message instead"
    assert finding.fix is None


# -- the advice names the releases from the rows: CallToolResult is passed through from mcp 1.19


@pytest.mark.parametrize(
    ("target", "advice"),
    [
        ("mcp>=1.19,<2", "Pass the error flag as isError=True"),  # the fix's title
        ("mcp>=1.6,<1.19", "Pass isError=True (works on mcp >= 1.19) or raise ToolError instead"),
        (None, "Pass isError=True (works on mcp >= 1.19) or raise ToolError instead"),
    ],
)
def test_snake_flag_on_mcp1_fastmcp_advice_follows_the_candidates(target: str | None, advice: str) -> None:
    finding = _only(MCP1_CALL_TOOL_RESULT.replace("isError=True", "is_error=True"), target)
    assert finding.location.row == 12
    assert finding.message.startswith("Tool 'read_note' returns CallToolResult(..., is_error=True)")
    assert finding.help == advice
