"""The framework table (mcp_lint/model/frameworks.py) re-checked on the real releases.

For every release of the suite and every server family it ships, a tiny server has one tool per
behaviour the rules read from the table: raising ToolError, a protocol error (McpError/MCPError),
the v1 constructor McpError(ErrorData(...)), any other exception; returning an error result
(CallToolResult with isError / is_error, fastmcp's ToolResult(is_error=True)); fastmcp's masking
(mask_error_details=True, FASTMCP_MASK_ERROR_DETAILS) and ErrorHandlingMiddleware. Each test
asserts what the table's row for that family and release says, so a new framework release that
behaves otherwise fails here instead of silently making a rule wrong. To check a new release, add
it to venvs.RELEASES.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pytest
from packaging.version import Version

from mcp_lint.model.frameworks import Delivery, Family, channel

from .claims import is_protocol_error, is_result, text_of
from .venvs import RELEASES, Release

pytestmark = pytest.mark.semantics

MESSAGE = "Order 12 not found; call list_orders"

# Both mcp majors: the protocol error of the installed mcp (MCPError(code, message) on 2.x,
# McpError(ErrorData(...)) on 1.x), so one source serves every release.
_PREAMBLE = f'''
from mcp.types import INVALID_PARAMS, CallToolResult, ErrorData, TextContent

MESSAGE = {MESSAGE!r}
try:
    from mcp import MCPError

    def protocol_error_of(text):
        return MCPError(INVALID_PARAMS, text)
except ImportError:
    from mcp.shared.exceptions import McpError

    def protocol_error_of(text):
        return McpError(ErrorData(code=INVALID_PARAMS, message=text))


def error_result(**flag):
    return CallToolResult(content=[TextContent(type="text", text=MESSAGE)], **flag)
'''

# The tools of the high-level servers, under a decorator `@server.tool()`.
_HIGH_LEVEL_TOOLS = '''

@server.tool()
def tool_error() -> str:
    raise ToolError(MESSAGE)


@server.tool()
def protocol_error() -> str:
    raise protocol_error_of(MESSAGE)


@server.tool()
def other_exception() -> str:
    raise ValueError(MESSAGE)


@server.tool()
def call_tool_result_error():
    return error_result(isError=True)


@server.tool()
def call_tool_result_snake_case():
    return error_result(is_error=True)
'''

_FASTMCP_TOOLS = '''

@server.tool()
def v1_constructor() -> str:
    from fastmcp.exceptions import McpError

    raise McpError(ErrorData(code=INVALID_PARAMS, message=MESSAGE))


@server.tool()
def tool_result_error():
    try:
        from fastmcp.tools import ToolResult
    except ImportError:
        from fastmcp.tools.tool import ToolResult
    return ToolResult(content=[TextContent(type="text", text=MESSAGE)], is_error=True)
'''

_SOURCES: dict[Family, Callable[[Release, str], str]] = {
    Family.MCP_FASTMCP: lambda rel, options: _PREAMBLE
    + 'from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nserver = FastMCP("rows")\n'
    + _HIGH_LEVEL_TOOLS,
    Family.MCP_SERVER: lambda rel, options: _PREAMBLE
    + 'from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.exceptions import ToolError\n\nserver = MCPServer("rows")\n'
    + _HIGH_LEVEL_TOOLS,
    Family.FASTMCP: lambda rel, options: _PREAMBLE
    + f'from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nserver = FastMCP("rows"{options})\n'
    + _HIGH_LEVEL_TOOLS
    + _FASTMCP_TOOLS,
    Family.MCP_LOWLEVEL: lambda rel, options: _PREAMBLE + (_LOWLEVEL_V1 if rel.version.startswith("1.") else _LOWLEVEL_V2),
}

_LOWLEVEL_V1 = '''
from mcp.server.lowlevel import Server

server = Server("rows")


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    if name == "protocol_error":
        raise protocol_error_of(MESSAGE)
    if name == "other_exception":
        raise ValueError(MESSAGE)
    if name == "call_tool_result_error":
        return error_result(isError=True)
    return [TextContent(type="text", text="done")]
'''

_LOWLEVEL_V2 = '''
from mcp.server.lowlevel import Server


async def handle_call_tool(ctx, params):
    if params.name == "protocol_error":
        raise protocol_error_of(MESSAGE)
    if params.name == "other_exception":
        raise ValueError(MESSAGE)
    if params.name == "call_tool_result_error":
        return error_result(is_error=True)
    return CallToolResult(content=[TextContent(type="text", text="done")])


server = Server("rows", on_call_tool=handle_call_tool)
'''

_MIDDLEWARE = '''
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

server.add_middleware(ErrorHandlingMiddleware())
'''


@dataclass(frozen=True)
class Setup:
    """One server of a family under a release: plain, masked by argument or by environment, or
    with fastmcp's ErrorHandlingMiddleware."""

    family: Family
    variant: str = "default"  # "default" | "mask-argument" | "mask-env" | "middleware"

    @property
    def env(self) -> dict[str, str]:
        return {"FASTMCP_MASK_ERROR_DETAILS": "true"} if self.variant == "mask-env" else {}

    def source(self, rel: Release) -> str:
        options = ", mask_error_details=True" if self.variant == "mask-argument" else ""
        text = _SOURCES[self.family](rel, options)
        return text + _MIDDLEWARE if self.variant == "middleware" else text

    @property
    def masked(self) -> bool:
        return self.variant in {"mask-argument", "mask-env"}


def setups(rel: Release) -> list[Setup]:
    """The families a release ships (mcp 1.x: FastMCP and the low level; 2.x: MCPServer and the
    low level; fastmcp: its FastMCP, plain, masked two ways, and with the error middleware)."""
    if rel.distribution == "fastmcp":
        return [Setup(Family.FASTMCP, v) for v in ("default", "mask-argument", "mask-env", "middleware")]
    high = Family.MCP_FASTMCP if rel.version.startswith("1.") else Family.MCP_SERVER
    return [Setup(high), Setup(Family.MCP_LOWLEVEL)]


def _key(setup: Setup) -> str:
    return f"{setup.family.value}-{setup.variant}"


# -- What the rows say, as checks on a report --------------------------------------------------
# Facts the table has no field for yet are written here with the doc section they come from;
# each is to become a read of the row once the table carries it (issue 12, `frameworks`).


def _at_least(rel: Release, lowest: str) -> bool:
    return Version(rel.version) >= Version(lowest)


def _tool_error_text(setup: Setup, tool: str) -> str:
    """mcp-error-semantics.md §2a, column ToolError: mcp prefixes, fastmcp 2.5+ sends it bare."""
    return MESSAGE if setup.family is Family.FASTMCP else f"Error executing tool {tool}: {MESSAGE}"


def _expect_protocol_error(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    row = channel(setup.family, rel.version)
    delivery = row.protocol_error
    if setup.masked and delivery is Delivery.WRAPPED:
        delivery = Delivery.MASKED  # §2a "same, mask_error_details=True": R(Error calling tool '{name}')
    checks = {
        Delivery.WRAPPED: (lambda: is_result(report, True) and MESSAGE in text_of(report) and text_of(report) != MESSAGE, "a result with the message behind a prefix"),
        Delivery.RESULT: (lambda: is_result(report, True) and text_of(report) == MESSAGE, "a result with exactly the message"),
        Delivery.PROTOCOL: (lambda: is_protocol_error(report) and report["error"]["code"] == -32602 and report["error"]["message"] == MESSAGE, "JSON-RPC error -32602 with the message"),
        Delivery.MASKED: (lambda: is_result(report, True) and MESSAGE not in text_of(report), "a result without the message"),
    }
    check, wanted = checks[delivery]
    return check(), f"row {row.label!r}: protocol_error={delivery.value}: {wanted}"


def _expect_other_exception(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    row = channel(setup.family, rel.version)
    reaches = row.other_exception_text_reaches_model and not setup.masked
    if reaches:
        return is_result(report, True) and MESSAGE in text_of(report), f"row {row.label!r}: the exception's text reaches the model"
    # Masked / not forwarded: the model reads no part of it (a JSON-RPC error never reaches it).
    ok = not (is_result(report, True) and MESSAGE in text_of(report))
    return ok, f"row {row.label!r}{' with masking on' if setup.masked else ''}: the exception's text does not reach the model"


def _expect_v1_constructor(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    row = channel(setup.family, rel.version)
    if row.v1_constructor_crashes:
        return is_result(report, True) and MESSAGE not in text_of(report) and "argument" in text_of(report), f"row {row.label!r}: McpError(ErrorData(...)) raises TypeError"
    return is_result(report, True) and MESSAGE in text_of(report), f"row {row.label!r}: McpError(ErrorData(...)) is a working protocol error"


def _call_tool_result_survives(setup: Setup, rel: Release) -> bool:
    """§3: a CallToolResult returned from a decorated tool passes through on mcp >= 1.19 (FastMCP
    and the 1.x low level), mcp 2.x and fastmcp 4.x; mcp <= 1.18 and fastmcp 2.x/3.x serialise it."""
    if setup.family is Family.FASTMCP:
        return _at_least(rel, "4")
    return _at_least(rel, "1.19")


def _expect_call_tool_result(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    if _call_tool_result_survives(setup, rel):
        return is_result(report, True) and text_of(report) == MESSAGE, "§3: the error result passes through (isError: true, the text)"
    if setup.family is Family.MCP_LOWLEVEL:
        return is_result(report, True) and text_of(report) != MESSAGE, "§3: mcp <= 1.18 low level turns it into a validation error text"
    return is_result(report, False), "§3: the result object is serialised as text, isError: false"


def _expect_snake_case(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    """§3: `is_error=True` is silently ignored on mcp 1.x (isError false), works on mcp 2.x."""
    if rel.distribution == "mcp" and rel.version.startswith("1."):
        return is_result(report, False), "§3: mcp 1.x ignores is_error=True: isError: false"
    if setup.family is Family.FASTMCP and not _at_least(rel, "4"):
        return is_result(report, False), "§3: fastmcp 2.x/3.x serialise a returned CallToolResult"
    return is_result(report, True) and text_of(report) == MESSAGE, "§3: mcp 2.x accepts is_error=True"


def _expect_tool_result(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    """§10 Rule R: ToolResult(is_error=True) raises TypeError before fastmcp 3.4, works from 3.4."""
    if _at_least(rel, "3.4"):
        return is_result(report, True) and text_of(report) == MESSAGE, "§3: fastmcp 3.4+ ToolResult(is_error=True) is an error result"
    return is_result(report, True) and "is_error" in text_of(report), "§10: fastmcp < 3.4: TypeError about 'is_error'"


def _expect_tool_error(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    wanted = _tool_error_text(setup, "tool_error")
    return is_result(report, True) and text_of(report) == wanted, f"§2a: ToolError arrives as {wanted!r}"


def _expect_middleware_tool_error(setup: Setup, rel: Release, report: dict[str, Any]) -> tuple[bool, str]:
    """§2b: ErrorHandlingMiddleware turns ToolError into -32603 'Internal error: ...'; fastmcp 2.x/3.x
    swallow it back into a result, 4.x sends the JSON-RPC error."""
    if _at_least(rel, "4"):
        return is_protocol_error(report) and report["error"]["code"] == -32603, "§2b: fastmcp 4.x: JSON-RPC error -32603"
    return is_result(report, True) and text_of(report).startswith("Internal error"), "§2b: fastmcp 2.x/3.x: result 'Internal error: ...'"


Check = Callable[[Setup, Release, dict[str, Any]], "tuple[bool, str]"]

# (tool, which setups it applies to, check)
BEHAVIOURS: tuple[tuple[str, Callable[[Setup], bool], Check], ...] = (
    ("tool_error", lambda s: s.family is not Family.MCP_LOWLEVEL and s.variant != "middleware", _expect_tool_error),
    ("tool_error", lambda s: s.variant == "middleware", _expect_middleware_tool_error),
    ("protocol_error", lambda s: s.variant not in {"middleware"}, _expect_protocol_error),
    ("other_exception", lambda s: s.variant != "middleware", _expect_other_exception),
    ("v1_constructor", lambda s: s.family is Family.FASTMCP and s.variant == "default", _expect_v1_constructor),
    ("call_tool_result_error", lambda s: s.variant == "default", _expect_call_tool_result),
    ("call_tool_result_snake_case", lambda s: s.family is not Family.MCP_LOWLEVEL and s.variant == "default", _expect_snake_case),
    ("tool_result_error", lambda s: s.family is Family.FASTMCP and s.variant == "default", _expect_tool_result),
)


def _calls(setup: Setup) -> list[str]:
    return [tool for tool, applies, _ in BEHAVIOURS if applies(setup)]


def _jobs(rel: Release) -> list[dict[str, Any]]:
    return [
        {
            "id": _key(setup),
            "source": setup.source(rel),
            "env": setup.env,
            "calls": [{"tool": tool, "arguments": {}} for tool in _calls(setup)],
        }
        for setup in setups(rel)
    ]


def _params() -> list:
    params = []
    for rel in RELEASES:
        for setup in setups(rel):
            for number, (tool, applies, check) in enumerate(b for b in BEHAVIOURS if b[1](setup)):
                params.append(pytest.param(rel, setup, tool, number, check, id=f"{rel.pin}-{_key(setup)}-{tool}"))
    return params


@pytest.mark.parametrize(("rel", "setup", "tool", "number", "check"), _params())
def test_row_holds_on_the_release(rel: Release, setup: Setup, tool: str, number: int, check: Check, batches) -> None:
    report = batches.reports("rows", rel, _jobs)[_key(setup)]
    assert "setup_error" not in report, f"{rel.pin} {_key(setup)}: the probe server does not load:\n{report.get('setup_error')}"
    outcome = report["calls"][number]
    assert "crash" not in outcome, f"{rel.pin} {_key(setup)} {tool}: the client failed:\n{outcome['crash']}"
    # On mcp 2.x the row must hold on both protocol eras (the report's "legacy" is the handshake era).
    for era, wire in [("", outcome)] + ([(" on a handshake-era connection", outcome["legacy"])] if "legacy" in outcome else []):
        ok, wanted = check(setup, rel, wire)
        got = wire.get("error") or {"isError": wire["result"].get("isError"), "text": text_of(wire)}
        assert ok, f"{rel.pin} {_key(setup)}: {tool} received {got}{era}; the table says {wanted}"
