"""MCP001 protocol-error-in-tool: precision and recall on every framework of the semantics table.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) the linter reports for the whole snippet, so a finding of any other
rule is a failure too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.pipeline import lint_source

from ._support import said, check as _check, only as _only, lint_tree as _lint_tree


# -- recall: a protocol error for the tool's own failure, on every framework -------------------

MCP1_FASTMCP_V1 = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}

@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Note {note_id} not found"))  # expect: MCP001
    return NOTES[note_id]
"""

MCP2_SERVER_V2 = """\
from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.types import INVALID_PARAMS

mcp = MCPServer("notes")
NOTES: dict[str, str] = {}

@mcp.tool()
def read_note(note_id: str) -> str:
    note = NOTES.get(note_id)
    if note is None:
        raise MCPError(INVALID_PARAMS, f"Note {note_id} not found")  # expect: MCP001
    return note
"""

FASTMCP_V1 = """\
from fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

app = FastMCP("orders")
SHIPPED: set[int] = set()

@app.tool
async def cancel_order(order_id: int) -> str:
    if order_id in SHIPPED:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message=f"Order {order_id} already shipped"))  # expect: MCP001
    return "cancelled"
"""

FASTMCP4_V2 = """\
from fastmcp import FastMCP
from fastmcp.exceptions import MCPError
from mcp.types import INVALID_PARAMS

app = FastMCP("orders")
ORDERS: dict[int, str] = {}

@app.tool
async def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise MCPError(INVALID_PARAMS, f"Order {order_id} does not exist")  # expect: MCP001
    return ORDERS[order_id]
"""

MCP1_LOWLEVEL = """\
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import McpError
from mcp.types import ErrorData

server = Server("weather")
CITIES = {"paris": 12.0}

@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name != "get_temperature":
        raise ValueError(f"Unknown tool: {name}")
    city = arguments["city"]
    if city not in CITIES:
        raise McpError(ErrorData(code=-32602, message=f"City {city} not found"))  # expect: MCP001
    return [types.TextContent(type="text", text=str(CITIES[city]))]
"""

MCP2_LOWLEVEL_RAISE = """\
from mcp import MCPError
from mcp.server.lowlevel import Server
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent

CITIES = {"paris": 12.0}
TOOLS = {"get_temperature"}

async def handle_call_tool(ctx, params) -> CallToolResult:
    if params.name not in TOOLS:
        raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
    city = (params.arguments or {}).get("city", "")
    if city not in CITIES:
        raise MCPError(INVALID_PARAMS, f"City {city} not found")  # expect: MCP001
    return CallToolResult(content=[TextContent(type="text", text=str(CITIES[city]))])

server = Server("weather", on_call_tool=handle_call_tool)
"""

MCP2_LOWLEVEL_RETURN = """\
from mcp.server.lowlevel import Server
from mcp.types import INTERNAL_ERROR, CallToolResult, ErrorData, TextContent

BALANCES = {"acme": 10}

async def handle_call_tool(ctx, params):
    account = (params.arguments or {}).get("account", "")
    if account not in BALANCES:
        return ErrorData(code=INTERNAL_ERROR, message=f"Account {account} does not exist")  # expect: MCP001
    return CallToolResult(content=[TextContent(type="text", text=str(BALANCES[account]))])

server = Server("bank", on_call_tool=handle_call_tool)
"""


def test_mcp1_fastmcp_v1_constructor_is_misleading_not_a_protocol_error() -> None:
    finding = _only(MCP1_FASTMCP_V1)
    assert finding.message.startswith(
        "Tool 'read_note' raises McpError for a missing record"
    )
    assert "on mcp 1.x FastMCP it is not a protocol error at all" in said(finding)
    assert "'Error executing tool read_note: <message>'" in said(finding)
    assert finding.help == "Raise ToolError with the same message"


def test_mcp2_mcpserver_error_never_reaches_the_model() -> None:
    finding = _only(MCP2_SERVER_V2)
    assert finding.message.startswith(
        "Tool 'read_note' raises MCPError for a missing record"
    )
    assert (
        "mcp 2.x MCPServer the client gets a JSON-RPC error and the model never sees it"
        in said(finding)
    )
    assert finding.message == "Tool 'read_note' raises MCPError for a missing record"
    assert finding.help == "Raise ToolError with the same message"


def test_mcp2_mcpserver_message_names_the_pinned_target() -> None:
    finding = _only(MCP2_SERVER_V2, target="mcp>=2.1")
    assert "[tool.mcp-lint] target" in said(finding)
    assert "model never sees it" in said(finding)


def test_fastmcp_unpinned_v1_constructor_is_wrapped_and_lost_under_masking() -> None:
    finding = _only(FASTMCP_V1)
    assert finding.message.startswith(
        "Tool 'cancel_order' raises McpError for a failure of its own execution"
    )
    assert (
        "wrapped into 'Error calling tool 'cancel_order': <message>'" in said(finding)
    )
    assert "lost entirely with mask_error_details=True" in said(finding)
    assert (
        "TypeError" not in said(finding)
    )  # only fastmcp 4 crashes; the version is unknown here


def test_fastmcp4_v1_constructor_from_the_mcp_package_fails_to_import() -> None:
    # fastmcp 4 runs on mcp 2.x, which has no McpError: the server never starts (seen on the real
    # release by the semantics suite). MCP006 reports the constructor as well (rules are independent).
    [finding] = [f for f in lint_source(FASTMCP_V1, target="fastmcp>=4") if f.code == "MCP001"]
    assert (
        "on fastmcp 4.x (from [tool.mcp-lint] target) the mcp package has no McpError (mcp 2.x names it MCPError): "
        "the import fails and the server does not start"
        in finding.notes
    )
    assert "TypeError" not in said(finding)
    assert finding.message == "Tool 'cancel_order' raises McpError for a failure of its own execution"
    assert finding.help == "Raise ToolError with the same message"


def test_fastmcp4_v1_constructor_crashes_with_type_error() -> None:
    source = FASTMCP_V1.replace("from mcp.shared.exceptions import McpError", "from fastmcp.exceptions import McpError")
    [finding] = [f for f in lint_source(source, target="fastmcp>=4") if f.code == "MCP001"]
    assert (
        "on fastmcp 4.x (from [tool.mcp-lint] target) the v1 constructor McpError(ErrorData(...)) raises TypeError, so the tool crashes"
        in finding.notes
    )
    assert "Tool 'cancel_order'" in said(finding)
    assert finding.help == "Raise ToolError with the same message"


def test_fastmcp3_v1_constructor_is_wrapped() -> None:
    finding = _only(FASTMCP_V1, target="fastmcp>=3,<4")
    assert "TypeError" not in said(finding)
    assert "Error calling tool 'cancel_order'" in said(finding)


def test_fastmcp4_v2_constructor_is_wrapped() -> None:
    finding = _only(FASTMCP4_V2, target="fastmcp>=4")
    assert finding.message.startswith(
        "Tool 'get_order' raises MCPError for a missing record"
    )
    assert (
        "on fastmcp 4.x (from [tool.mcp-lint] target) it is wrapped into 'Error calling tool 'get_order': <message>'"
        in said(finding)
    )


def test_mcp1_lowlevel_mcperror_arrives_as_plain_text() -> None:
    finding = _only(MCP1_LOWLEVEL)
    assert (
        "on the mcp 1.x low-level Server it arrives as plain tool-result text, not a protocol error"
        in said(finding)
    )


# -- the advice for a low-level 1.x handler follows the rows: a returned CallToolResult is passed
# through only from mcp 1.19 (before, it is iterated as content and fails validation), while a
# raised ordinary exception becomes isError: true with its text on every 1.x release.

RAISE_ADVICE = "Raise an ordinary exception with the message instead"
RAISE_NOTE = (
    "the mcp 1.x low-level Server{source} turns a raised exception into isError: true with its text; "
    "a returned CallToolResult(isError=True) works only from mcp 1.19"
)


@pytest.mark.parametrize("target", ["mcp==1.18.0", "mcp>=1.6,<1.19"])
def test_mcp1_lowlevel_before_1_19_advises_raising(target: str) -> None:
    finding = _only(MCP1_LOWLEVEL, target=target)
    assert finding.location.row == 15
    assert "arrives as plain tool-result text" in said(finding)
    assert finding.help == RAISE_ADVICE
    assert finding.notes[-1] == RAISE_NOTE.format(source=" (from [tool.mcp-lint] target)")
    assert "Return CallToolResult(isError=True) instead" not in said(finding)
    assert finding.fix is None  # the CallToolResult fix would hand the model a validation error


@pytest.mark.parametrize("target", ["mcp==1.19.0", "mcp>=1.19,<2"])
def test_mcp1_lowlevel_from_1_19_advises_the_error_result(target: str) -> None:
    finding = _only(MCP1_LOWLEVEL, target=target)
    assert finding.message == "Tool 'call_tool' raises McpError for a missing record"
    assert finding.help == "Return an error result (isError=True) with the same message"
    assert finding.fix is not None and "isError=True" in finding.fix.edits[0].content


def test_mcp1_lowlevel_unknown_version_advises_what_works_on_every_1x_release() -> None:
    # No pin: the candidates are mcp 1.6-1.30; raising holds on all of them, returning does not.
    finding = _only(MCP1_LOWLEVEL)
    assert finding.help == RAISE_ADVICE
    assert finding.notes[-1] == RAISE_NOTE.format(source="")
    assert finding.fix is None


def test_lowlevel_of_either_major_names_both_ways_with_their_ranges() -> None:
    # Candidates on both majors (a dispatcher whose registration form is unknown): neither way
    # works on all of them (raising is a JSON-RPC error on 2.x), so both are named with their range.
    from mcp_lint.model.frameworks import Family, FrameworkContext
    from mcp_lint.rules.base import RenderContext
    from mcp_lint.rules.common import lowlevel_failure_advice

    framework = FrameworkContext(Family.MCP_LOWLEVEL, ("1.9.4", "1.18.0", "1.30.0", "2.3.0"))
    context = RenderContext("call_tool", ("call_tool",), True, framework)
    assert lowlevel_failure_advice(context) == (
        "Return CallToolResult(isError=True) on mcp 1.19+, else raise an ordinary exception",
        "on mcp 1.6–1.18 a returned CallToolResult is iterated as content, fails validation; "
        "the mcp 1.x low-level Server turns a raised exception into isError: true with its text",
    )
    newer = FrameworkContext(Family.MCP_LOWLEVEL, ("1.30.0", "2.3.0"))
    assert lowlevel_failure_advice(RenderContext("call_tool", ("call_tool",), True, newer)) == ("Return CallToolResult(isError=True) instead", "")


def test_mcp2_lowlevel_domain_failure_after_the_unknown_tool_branch() -> None:
    finding = _only(MCP2_LOWLEVEL_RAISE)
    assert "raises MCPError for a missing record" in said(finding)
    assert (
        "on the mcp 2.x low-level Server the client gets a JSON-RPC error and the model never sees it"
        in said(finding)
    )
    assert finding.help == "Return an error result (isError=True) with the same message"


def test_mcp2_lowlevel_returned_error_data() -> None:
    finding = _only(MCP2_LOWLEVEL_RETURN)
    assert "returns ErrorData for a missing record" in said(finding)
    assert (
        "the client gets a JSON-RPC error and the model never sees it"
        in said(finding)
    )
    assert finding.help == "Return an error result (isError=True) with the same message"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """\
            from mcp.server.fastmcp import FastMCP
            from mcp import McpError
            from mcp.types import ErrorData

            mcp = FastMCP("s")

            @mcp.tool()
            def pay(amount: int) -> str:
                if amount > 1000:
                    raise McpError(ErrorData(code=-32602, message="amount must be at most 1000"))  # expect: MCP001
                return "paid"
            """,
            id="mcp-reexport-literal-code",
        ),
        pytest.param(
            """\
            import mcp.shared.exceptions as mcp_exc
            import mcp.types as types
            from mcp.server.fastmcp import FastMCP

            server = FastMCP("s")

            @server.tool()
            def pay(amount: int) -> str:
                if amount > 1000:
                    raise mcp_exc.McpError(types.ErrorData(code=types.INVALID_PARAMS, message="amount must be at most 1000"))  # expect: MCP001
                return "paid"
            """,
            id="module-alias",
        ),
        pytest.param(
            """\
            from mcp import MCPError
            from mcp.server.mcpserver import MCPServer

            mcp = MCPServer("s")
            USERS = {"ann": 1}

            @mcp.tool()
            def lookup(user: str) -> int:
                try:
                    return USERS[user]
                except KeyError:
                    raise MCPError(-32602, f"User {user} not found") from None  # expect: MCP001
            """,
            id="in-except-handler",
        ),
        pytest.param(
            """\
            from mcp import MCPError
            from mcp.server.mcpserver import MCPServer
            from mcp.types import INTERNAL_ERROR

            def archive(path: str) -> str:
                raise MCPError(INTERNAL_ERROR, f"Archive of {path} is not configured")  # expect: MCP001

            mcp = MCPServer("s", tools=[])
            mcp.add_tool(archive)
            """,
            id="add_tool",
        ),
        pytest.param(
            """\
            from fastmcp import FastMCP
            from fastmcp.exceptions import McpError
            from mcp.types import ErrorData

            mcp = FastMCP("s")

            class Billing:
                def refund(self, invoice: str) -> str:
                    if not invoice.startswith("INV-"):
                        raise McpError(ErrorData(code=-32602, message="invoice must look like INV-123"))  # expect: MCP001
                    return "refunded"

            billing = Billing()
            mcp.tool(billing.refund)
            """,
            id="bound-method-registered",
        ),
        pytest.param(
            """\
            from mcp.server.mcpserver import MCPServer

            mcp = MCPServer("s")
            STOCK = {"a": 1}

            @mcp.tool()
            def reserve(sku: str) -> dict:
                if sku not in STOCK:
                    return {"jsonrpc": "2.0", "error": {"code": -32602, "message": f"unknown sku {sku}"}}  # expect: MCP001, MCP005
                return {"reserved": sku}
            """,
            id="jsonrpc-error-dict",
        ),
        pytest.param(
            """\
            from fastmcp import FastMCP
            from fastmcp.exceptions import McpError
            from mcp.types import ErrorData

            mcp = FastMCP("s", mask_error_details=True)
            QUEUES = {"default": []}

            @mcp.tool
            def enqueue(queue: str, job: str) -> str:
                if queue not in QUEUES:
                    raise McpError(ErrorData(code=-32602, message=f"Queue {queue} does not exist"))  # expect: MCP001
                QUEUES[queue].append(job)
                return "queued"
            """,
            id="fastmcp-masked",
        ),
        pytest.param(
            """\
            from fastmcp import FastMCP
            from fastmcp.exceptions import MCPError
            from fastmcp.tools import tool

            mcp = FastMCP("s")

            @tool
            def resize(width: int) -> str:
                if width > 4096:
                    raise MCPError(-32602, "width must be at most 4096")  # expect: MCP001
                return "resized"

            mcp.add_tool(resize)
            """,
            id="fastmcp-standalone-tool",
        ),
        pytest.param(
            """\
            from mcp import MCPError
            from mcp.server.mcpserver import MCPServer
            from mcp.server.mcpserver.tools import Tool

            def convert(amount: float, currency: str) -> float:
                if currency not in {"EUR", "USD"}:
                    raise MCPError(-32602, f"Currency {currency} is not supported; use EUR or USD")  # expect: MCP001
                return amount

            mcp = MCPServer("fx", tools=[Tool.from_function(convert)])
            """,
            id="mcpserver-tools-kwarg",
        ),
        pytest.param(
            """\
            from mcp import MCPError
            from mcp.server.lowlevel import Server
            from mcp.types import INVALID_PARAMS, CallToolResult, TextContent

            FORECASTS = {"paris": "sunny"}

            async def get_forecast(arguments: dict) -> CallToolResult:
                city = arguments.get("city", "")
                if city not in FORECASTS:
                    raise MCPError(INVALID_PARAMS, f"No forecast for city {city}")  # expect: MCP001
                return CallToolResult(content=[TextContent(type="text", text=FORECASTS[city])])

            async def handle_call_tool(ctx, params) -> CallToolResult:
                if params.name == "get_forecast":
                    return await get_forecast(params.arguments or {})
                raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")

            server = Server("weather", on_call_tool=handle_call_tool)
            """,
            id="lowlevel2-per-tool-function",
        ),
    ],
)
def test_protocol_error_forms_are_flagged(source: str) -> None:
    _check(source)


# -- helpers: reported once, where written, naming the tools -----------------------------------

HELPER_TWO_TOOLS = """\
from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.types import INVALID_PARAMS

mcp = MCPServer("files")
FILES = {"a.txt": "hello"}

def load(path: str) -> str:
    if path not in FILES:
        raise MCPError(INVALID_PARAMS, f"File {path} not found")  # expect: MCP001
    return FILES[path]

@mcp.tool()
def read_file(path: str) -> str:
    return load(path)

@mcp.tool()
def word_count(path: str) -> int:
    return len(load(path).split())
"""


def test_helper_reached_from_two_tools_is_reported_once_naming_both() -> None:
    finding = _only(HELPER_TWO_TOOLS)
    assert finding.message == "Helper 'load' raises MCPError for a missing record"
    assert finding.notes[0] == "reached from tools 'read_file', 'word_count'"
    # Each tool is a related location at its definition.
    assert [(r.location.row, r.message) for r in finding.related] == [
        (14, "tool 'read_file' reaches this helper"),
        (18, "tool 'word_count' reaches this helper"),
    ]


def test_helper_in_another_module_is_reported_in_that_module(tmp_path: Path) -> None:
    package = tmp_path / "files_server"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "errors.py").write_text(
        textwrap.dedent(
            """\
            from mcp import MCPError
            from mcp.types import INVALID_PARAMS


            def not_found(kind: str, key: str) -> MCPError:
                return MCPError(INVALID_PARAMS, f"{kind} {key} not found")


            def require(found: bool, key: str) -> None:
                if not found:
                    raise MCPError(INVALID_PARAMS, f"File {key} not found")
            """
        )
    )
    (package / "server.py").write_text(
        textwrap.dedent(
            """\
            from mcp.server.mcpserver import MCPServer

            from .errors import require

            mcp = MCPServer("files")
            FILES = {"a.txt": "hello"}


            @mcp.tool()
            def read_file(path: str) -> str:
                require(path in FILES, path)
                return FILES[path]


            @mcp.tool()
            def file_size(path: str) -> int:
                require(path in FILES, path)
                return len(FILES[path])
            """
        )
    )
    findings = _lint_tree(tmp_path)
    assert [
        (f.filename.endswith("errors.py"), f.code, f.location.row) for f in findings
    ] == [(True, "MCP001", 11)]
    assert findings[0].message.startswith(
        "Helper 'require' raises MCPError"
    )


# -- precision: correct code stays silent -----------------------------------------------------

SILENT = [
    pytest.param(
        """\
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("notes")
        NOTES: dict[str, str] = {}

        @mcp.tool()
        def read_note(note_id: str) -> str:
            if note_id not in NOTES:
                raise ToolError(f"Note {note_id} not found; call list_notes for valid ids")
            return NOTES[note_id]
        """,
        id="toolerror-mcp2",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.lowlevel import Server
        from mcp.types import INVALID_PARAMS, CallToolResult, TextContent

        TOOLS = {"echo": lambda args: args.get("text", "")}

        async def handle_call_tool(ctx, params) -> CallToolResult:
            name = params.name
            if name not in TOOLS:
                raise MCPError(INVALID_PARAMS, f"Unknown tool: {name}")
            return CallToolResult(content=[TextContent(type="text", text=TOOLS[name](params.arguments or {}))])

        server = Server("echo", on_call_tool=handle_call_tool)
        """,
        id="lowlevel2-unknown-tool-branch",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.lowlevel import Server
        from mcp.types import METHOD_NOT_FOUND, CallToolResult, TextContent

        async def handle_call_tool(ctx, params) -> CallToolResult:
            if params.name == "ping":
                return CallToolResult(content=[TextContent(type="text", text="pong")])
            else:
                raise MCPError(METHOD_NOT_FOUND, f"No tool named {params.name}")

        server = Server("ping")
        server.add_request_handler("tools/call", dict, handle_call_tool)
        """,
        id="lowlevel2-unknown-tool-else-branch",
    ),
    pytest.param(
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import McpError

        server = Server("s")

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name != "echo":
                raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}"))
            return [types.TextContent(type="text", text=arguments.get("text", ""))]
        """,
        id="lowlevel1-unknown-tool-branch",
    ),
    pytest.param(
        """\
        from mcp.server.mcpserver import MCPServer
        from mcp.shared.exceptions import UrlElicitationRequiredError

        mcp = MCPServer("pay")
        AUTHORIZED: set[str] = set()

        @mcp.tool()
        def charge(user: str, amount: int) -> str:
            if user not in AUTHORIZED:
                raise UrlElicitationRequiredError([])
            return "charged"
        """,
        id="url-elicitation-required",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer
        from mcp.types import MISSING_REQUIRED_CLIENT_CAPABILITY

        mcp = MCPServer("s")

        @mcp.tool()
        def ask_user(question: str, ctx) -> str:
            if ctx.session.client_params is None:
                raise MCPError(MISSING_REQUIRED_CLIENT_CAPABILITY, "this tool needs the elicitation capability")
            return question
        """,
        id="missing-client-capability-constant",
    ),
    pytest.param(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import MCPError

        mcp = FastMCP("s")

        @mcp.tool
        def sample(prompt: str, ctx) -> str:
            if not ctx.client_supports_sampling:
                raise MCPError(-32021, "this tool needs the sampling capability")
            return prompt
        """,
        id="missing-client-capability-literal-fastmcp4",
    ),
    pytest.param(
        """\
        from mcp.server.mcpserver import Context, MCPServer, require_client_extension

        mcp = MCPServer("s")

        @mcp.tool()
        def render_chart(data: str, ctx: Context) -> str:
            require_client_extension(ctx, "io.example/charts")
            return data
        """,
        id="require-client-extension",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer, ResourceError
        from mcp.types import INVALID_PARAMS

        mcp = MCPServer("notes")
        NOTES: dict[str, str] = {}

        @mcp.resource("note://{note_id}")
        def note(note_id: str) -> str:
            if note_id not in NOTES:
                raise MCPError(INVALID_PARAMS, f"Unknown note {note_id}")
            if not NOTES[note_id]:
                raise ResourceError(f"Note {note_id} is empty")
            return NOTES[note_id]

        @mcp.prompt()
        def summarize(note_id: str) -> str:
            if note_id not in NOTES:
                raise MCPError(INVALID_PARAMS, f"Unknown note {note_id}")
            return f"Summarize: {NOTES[note_id]}"
        """,
        id="mcp2-resource-and-prompt",
    ),
    pytest.param(
        """\
        from fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import ErrorData

        mcp = FastMCP("docs")
        DOCS: dict[str, str] = {}

        @mcp.resource("doc://{name}")
        def doc(name: str) -> str:
            if name not in DOCS:
                raise McpError(ErrorData(code=-32002, message=f"Document {name} not found"))
            return DOCS[name]
        """,
        id="fastmcp-resource",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.lowlevel import Server
        from mcp.types import INVALID_PARAMS

        DOCS: dict[str, str] = {}

        async def read_resource(ctx, params):
            if params.uri not in DOCS:
                raise MCPError(INVALID_PARAMS, f"Unknown resource {params.uri}")
            return DOCS[params.uri]

        server = Server("docs", on_read_resource=read_resource)
        """,
        id="lowlevel2-read-resource",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer
        from mcp.types import INVALID_PARAMS

        mcp = MCPServer("s")

        def legacy_lookup(key: str) -> str:
            raise MCPError(INVALID_PARAMS, f"Key {key} not found")

        @mcp.tool()
        def version() -> str:
            return "1.0"
        """,
        id="function-not-reached-from-a-tool",
    ),
    pytest.param(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("s")

        @mcp.tool()
        async def fetch(url: str, ctx) -> str:
            try:
                return await ctx.session.send_ping()
            except McpError:
                raise ToolError(f"The client did not answer a ping before fetching {url}; reconnect and call fetch again")
        """,
        id="catching-mcperror-and-raising-toolerror",
    ),
    pytest.param(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("s")

        @mcp.tool()
        async def ping(ctx) -> str:
            try:
                await ctx.session.send_ping()
            except McpError:
                raise
            return "pong"
        """,
        id="bare-reraise",
    ),
    pytest.param(
        """\
        from mcp import MCPError
        from mcp.server.lowlevel import Server
        from mcp.types import INVALID_PARAMS, URL_ELICITATION_REQUIRED, CallToolResult, ErrorData, TextContent

        TOOLS = {"charge"}

        async def handle_call_tool(ctx, params):
            if params.name not in TOOLS:
                return ErrorData(code=INVALID_PARAMS, message=f"Unknown tool: {params.name}")
            if not params.arguments:
                raise MCPError(URL_ELICITATION_REQUIRED, "authorize the payment in the browser first")
            return CallToolResult(content=[TextContent(type="text", text="charged")])

        async def get_prompt(ctx, params):
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {params.name}")

        server = Server("pay", on_call_tool=handle_call_tool, on_get_prompt=get_prompt)
        """,
        id="lowlevel2-returned-unknown-tool-and-url-elicitation-code",
    ),
    pytest.param(
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import McpError

        server = Server("notes")
        NOTES: dict[str, str] = {}

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> types.CallToolResult:
            note_id = arguments.get("note_id", "")
            if note_id not in NOTES:
                return types.CallToolResult(content=[types.TextContent(type="text", text=f"Note {note_id} not found")], isError=True)
            return types.CallToolResult(content=[types.TextContent(type="text", text=NOTES[note_id])])

        @server.read_resource()
        async def read_resource(uri):
            raise McpError(types.ErrorData(code=-32002, message=f"Resource {uri} not found"))
        """,
        id="lowlevel1-error-result-and-resource",
    ),
    pytest.param(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import McpError, ToolError
        from mcp.types import ErrorData

        mcp = FastMCP("templates")

        def load_template(name: str) -> str:
            raise McpError(ErrorData(code=-32602, message=f"Template {name} not found"))

        @mcp.prompt
        def review(name: str) -> str:
            return load_template(name)

        @mcp.resource("tpl://{name}")
        def template(name: str) -> str:
            return load_template(name)

        @mcp.tool
        async def summarize(text: str, ctx) -> str:
            try:
                return await ctx.sample(text)
            except McpError as e:
                raise ToolError("The client does not support sampling; call summarize_locally instead") from e
        """,
        id="helper-reached-only-from-resource-and-prompt",
    ),
    pytest.param(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("notes")
        NOTES: dict[str, str] = {}

        @mcp.tool()
        def read_note(note_id: str) -> str:
            if note_id not in NOTES:
                raise ToolError(f"Note {note_id} not found; call list_notes for valid ids")
            return NOTES[note_id]
        """,
        id="toolerror-mcp1",
    ),
    pytest.param(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("orders")
        ORDERS: dict[int, str] = {}

        @mcp.tool
        def get_order(order_id: int) -> str:
            if order_id not in ORDERS:
                raise ToolError(f"Order {order_id} does not exist; call list_orders for valid ids")
            return ORDERS[order_id]
        """,
        id="toolerror-fastmcp",
    ),
    pytest.param(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import UrlElicitationRequiredError

        mcp = FastMCP("pay")
        TOKENS: dict[str, str] = {}

        @mcp.tool()
        def charge(user: str, amount: int) -> str:
            if user not in TOKENS:
                raise UrlElicitationRequiredError([])
            return "charged"
        """,
        id="url-elicitation-required-mcp1",
    ),
]


@pytest.mark.parametrize("source", SILENT)
def test_correct_code_is_silent(source: str) -> None:
    _check(source)


@pytest.mark.parametrize("target", ["mcp>=2.1", "mcp>=2,<2.1"])
def test_unknown_tool_branch_is_silent_on_every_mcp2_version(target: str) -> None:
    source = """\
    from mcp import MCPError
    from mcp.server.lowlevel import Server
    from mcp.types import INVALID_PARAMS

    async def call(ctx, params):
        if params.name not in {"a", "b"}:
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
        return None

    server = Server("s", on_call_tool=call)
    """
    _check(source, target=target)


def test_protocol_error_caught_in_the_same_tool_is_silent() -> None:
    # The McpError never leaves the tool: the broad handler turns it into a ToolError.
    _check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError
        from mcp.shared.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData

        mcp = FastMCP("notes")


        @mcp.tool()
        def read_note(note_id: str) -> str:
            try:
                if note_id not in NOTES:
                    raise McpError(ErrorData(code=INVALID_PARAMS, message="missing"))
                return NOTES[note_id]
            except Exception:
                raise ToolError(f"Note {note_id} not found; call list_notes for the ids")
        """
    )


def test_protocol_error_behind_a_handler_that_reraises_is_flagged() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData

        mcp = FastMCP("notes")


        @mcp.tool()
        def read_note(note_id: str) -> str:
            try:
                if note_id not in NOTES:
                    raise McpError(ErrorData(code=INVALID_PARAMS, message="missing"))  # expect: MCP001
                return NOTES[note_id]
            except Exception:
                LOG.warning("read_note failed")
                raise
        """
    )


# -- protocol errors built by factories (issue 9, cause 14) ------------------------------------

FACTORY_SERVER = """\
from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.types import INVALID_PARAMS

mcp = MCPServer("notes")
NOTES: dict[str, str] = {}


def not_found(what: str) -> MCPError:
    return MCPError(INVALID_PARAMS, f"{what} not found")


def note_title(note_id: str) -> str:
    return NOTES[note_id].splitlines()[0]


@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise not_found(f"Note {note_id}")  # expect: MCP001
    return NOTES[note_id]
"""


def test_protocol_error_built_by_a_factory_of_the_same_module() -> None:
    finding = _only(FACTORY_SERVER)
    assert finding.message == "Tool 'read_note' raises the MCPError that not_found() builds for a missing record"
    assert finding.notes == ("on mcp 2.x MCPServer the client gets a JSON-RPC error and the model never sees it",)


def test_factory_of_another_module_is_resolved_by_the_linker(tmp_path: Path) -> None:
    from ._support import write_tree

    write_tree(
        tmp_path,
        {
            "notes/__init__.py": "",
            "notes/errors.py": """\
                from mcp.shared.exceptions import McpError
                from mcp.types import INVALID_PARAMS, ErrorData


                def not_found(what: str) -> McpError:
                    return McpError(ErrorData(code=INVALID_PARAMS, message=f"{what} not found"))


                def bad_request(what: str) -> ValueError:
                    return ValueError(f"bad request: {what}")
                """,
            "notes/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from . import errors

                mcp = FastMCP("notes")
                NOTES: dict[str, str] = {}


                @mcp.tool()
                def read_note(note_id: str) -> str:
                    if not note_id:
                        raise errors.bad_request("note_id is empty")
                    if note_id not in NOTES:
                        raise errors.not_found(f"Note {note_id}")
                    return NOTES[note_id]
                """,
        },
    )
    findings = _lint_tree(tmp_path)
    assert [(Path(f.filename).name, f.code, f.location.row) for f in findings] == [("server.py", "MCP001", 14)]
    assert "raises the McpError that not_found() builds" in said(findings[0])


def test_factories_that_build_no_protocol_error_are_silent() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("notes")
        NOTES: dict[str, str] = {}


        def not_found(what: str) -> ToolError:
            return ToolError(f"{what} not found; call list_notes for ids")


        @mcp.tool()
        def read_note(note_id: str) -> str:
            if note_id not in NOTES:
                raise not_found(f"Note {note_id}")
            return NOTES[note_id]
        """
    )


# -- the unknown-tool exemption holds on the dispatcher's miss branch only ----------------------


def test_a_tools_own_branch_of_a_dispatcher_is_not_the_unknown_tool_branch() -> None:
    _check(
        """\
        from mcp import MCPError
        from mcp.server.lowlevel import Server
        from mcp.types import INVALID_PARAMS, CallToolResult, TextContent


        async def handle_call_tool(ctx, params) -> CallToolResult:
            if params.name == "ping":
                return CallToolResult(content=[TextContent(type="text", text="pong")])
            elif params.name == "lookup":
                raise MCPError(INVALID_PARAMS, f"Tool lookup failed: record {params.arguments} not found")  # expect: MCP001
            elif params.name not in {"ping", "lookup"}:
                raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
            return CallToolResult(content=[TextContent(type="text", text="done")])


        server = Server("lookup", on_call_tool=handle_call_tool)
        """
    )


def test_the_else_after_every_tool_branch_is_the_unknown_tool_branch() -> None:
    _check(
        """\
        from mcp import MCPError
        from mcp.server.lowlevel import Server
        from mcp.types import INVALID_PARAMS, CallToolResult, TextContent


        async def handle_call_tool(ctx, params) -> CallToolResult:
            if params.name == "ping":
                return CallToolResult(content=[TextContent(type="text", text="pong")])
            elif params.name == "echo":
                return CallToolResult(content=[TextContent(type="text", text=str(params.arguments))])
            else:
                raise MCPError(INVALID_PARAMS, f"No handler for {params.name}")


        server = Server("echo", on_call_tool=handle_call_tool)
        """
    )


def test_protocol_error_built_by_a_method_of_the_same_class() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData


        class NotesServer:
            def __init__(self) -> None:
                self.mcp = FastMCP("notes")
                self.notes: dict[str, str] = {}
                self.mcp.tool()(self.read_note)

            def _not_found(self, note_id: str) -> McpError:
                return McpError(ErrorData(code=INVALID_PARAMS, message=f"Note {note_id} not found"))

            def read_note(self, note_id: str) -> str:
                if note_id not in self.notes:
                    raise self._not_found(note_id)  # expect: MCP001
                return self.notes[note_id]
        """
    )


# -- the wording comes from the framework table (model/frameworks.py) -------------------------

FASTMCP_RAISES_MCP_ERROR = """\
from fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("inventory")
STOCK: dict[str, int] = {}

@mcp.tool()
def reserve(sku: str, count: int) -> str:
    if sku not in STOCK:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"SKU {sku} is not stocked"))  # expect: MCP001
    STOCK[sku] -= count
    return f"reserved {count} x {sku}"
"""


def test_fastmcp_2_4_masks_the_protocol_error() -> None:
    """fastmcp 2.4.0 masked every non-ToolError exception: the message never reaches the model."""
    finding = _only(FASTMCP_RAISES_MCP_ERROR, target="fastmcp==2.4.0")
    assert finding.location.row == 11
    assert (
        "on fastmcp 2.4 (from [tool.mcp-lint] target) it is not a protocol error at all, the model gets only "
        "'Error calling tool 'reserve'' and the message is lost" in said(finding)
    )
    assert "wrapped into" not in said(finding)
    assert finding.help.startswith("Raise ToolError")


def test_fastmcp_2_3_prefixes_like_mcp_1() -> None:
    finding = _only(FASTMCP_RAISES_MCP_ERROR, target="fastmcp==2.3.0")
    assert (
        "on fastmcp 2.3 (from [tool.mcp-lint] target) it is not a protocol error at all, the model gets "
        "'Error executing tool reserve: <message>'" in said(finding)
    )
    assert "mask_error_details" not in said(finding)  # 2.3 has no such setting


def test_a_range_over_releases_that_differ_names_each() -> None:
    finding = _only(FASTMCP_RAISES_MCP_ERROR, target="fastmcp>=2.3,<2.5")
    assert "on fastmcp 2.4 (from [tool.mcp-lint] target) it is not a protocol error at all" in said(finding)
    assert "(fastmcp 2.3: 'Error executing tool reserve: <message>')" in said(finding)


def test_unknown_fastmcp_version_leads_with_what_a_fresh_install_does() -> None:
    (finding,) = _check(FASTMCP_RAISES_MCP_ERROR)
    assert (
        "on fastmcp 2.5+ it is wrapped into 'Error calling tool 'reserve': <message>' and lost entirely with "
        "mask_error_details=True (fastmcp 2.4: only 'Error calling tool 'reserve''; fastmcp 2.3: "
        "'Error executing tool reserve: <message>')" in said(finding)
    )


def test_fastmcp_3_names_its_series() -> None:
    (finding,) = _check(FASTMCP_RAISES_MCP_ERROR, target="fastmcp>=3,<4")
    assert "on fastmcp 3.x (from [tool.mcp-lint] target) it is wrapped into 'Error calling tool 'reserve': <message>'" in said(finding)

