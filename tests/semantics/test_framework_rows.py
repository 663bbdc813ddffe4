"""The framework table (mcp_lint/model/frameworks.py) re-checked on the real releases.

For every release of the suite and every server family it ships, a tiny server has one tool per
fact a row states: raising ToolError, a protocol error (McpError/MCPError), any other exception,
arguments that fail validation, the v1 constructor McpError(ErrorData(...)); returning an error
result of each shape (CallToolResult with isError / is_error, fastmcp's ToolResult(is_error=True),
a CallToolResult under a structured return annotation). Families whose row has a masking switch
run again with it on (the row's constructor argument, then its environment variable, then the
variable against `mask_error_details=False`: row.mask_argument_overrides_env), with each other
spelling of the variable (read after the first, or not read at all, row.mask_env_names), and with
ErrorHandlingMiddleware where the row says what it does. Every expectation is read from the row
(`channel(family, release)`), so a new framework release that behaves otherwise fails here instead
of silently making a rule wrong; to check a new release, add it to venvs.RELEASES.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from mcp_lint.model.frameworks import (
    FRAMEWORK_TABLE,
    Channel,
    Construction,
    Delivery,
    Failure,
    Family,
    MiddlewareEffect,
    ResultOutcome,
    ResultShape,
    channel,
)

from .claims import is_protocol_error, is_result, text_of
from .venvs import RELEASES, Release

pytestmark = pytest.mark.semantics

MESSAGE = "Order 12 not found; call list_orders"
NO_V1_NAME = "no McpError name"

# Both mcp majors: the protocol error of the installed mcp (MCPError(code, message) on 2.x,
# McpError(ErrorData(...)) on 1.x), so one source serves every release.
_PREAMBLE = f'''
import importlib

from pydantic import BaseModel
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


def v1_constructor_error():
    # The family's own name first (fastmcp.exceptions.McpError: fastmcp 4's alias of MCPError),
    # then mcp's v1 class, which is the only one fastmcp 2.3 has (its exceptions module has none).
    for module in ({{v1_modules}}):
        try:
            McpError = importlib.import_module(module).McpError
        except (ImportError, AttributeError):
            continue
        return McpError(ErrorData(code=INVALID_PARAMS, message=MESSAGE))
    return None


class Order(BaseModel):
    order_id: int
'''

_HIGH_LEVEL_TOOLS = f'''

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
def validation_failure(count: int) -> str:
    return str(count)


@server.tool()
def v1_constructor() -> str:
    error = v1_constructor_error()
    if error is None:
        return {NO_V1_NAME!r}
    raise error


@server.tool()
def call_tool_result_error():
    return error_result(isError=True)


@server.tool()
def call_tool_result_snake_case():
    return error_result(is_error=True)


@server.tool()
def structured_error_result() -> Order:
    return error_result(isError=True)
'''

_FASTMCP_TOOLS = '''

@server.tool()
def tool_result_error():
    try:
        from fastmcp.tools import ToolResult
    except ImportError:
        from fastmcp.tools.tool import ToolResult
    return ToolResult(content=[TextContent(type="text", text=MESSAGE)], is_error=True)


@server.tool()
def error_middleware_class() -> str:
    try:
        from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware  # noqa: F401
    except ImportError:
        return "absent"
    return "present"
'''

_LOWLEVEL_BRANCHES = f'''
    if name == "protocol_error":
        raise protocol_error_of(MESSAGE)
    if name == "other_exception":
        raise ValueError(MESSAGE)
    if name == "v1_constructor":
        error = v1_constructor_error()
        if error is None:
            return done({NO_V1_NAME!r})
        raise error
    if name == "call_tool_result_error":
        return error_result(isError=True)
    if name == "call_tool_result_snake_case":
        return error_result(is_error=True)
    return done("done")
'''

_LOWLEVEL_V1 = f'''
from mcp.server.lowlevel import Server

server = Server("rows")


def done(text):
    return [TextContent(type="text", text=text)]


@server.call_tool()
async def call_tool(name: str, arguments: dict):
{_LOWLEVEL_BRANCHES}'''

_LOWLEVEL_V2 = f'''
from mcp.server.lowlevel import Server


def done(text):
    return CallToolResult(content=[TextContent(type="text", text=text)])


async def handle_call_tool(ctx, params):
    name = params.name
{_LOWLEVEL_BRANCHES}

server = Server("rows", on_call_tool=handle_call_tool)
'''

_HEADERS = {
    Family.MCP_FASTMCP: 'from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nserver = FastMCP("rows"{options})\n',
    Family.MCP_SERVER: 'from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.exceptions import ToolError\n\nserver = MCPServer("rows"{options})\n',
    Family.FASTMCP: 'from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nserver = FastMCP("rows"{options})\n',
}

_MIDDLEWARE = '''
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

server.add_middleware(ErrorHandlingMiddleware())
'''


# Every spelling of the masking variable some fastmcp row reads: a release must ignore the ones
# its row does not name (2.5-2.7 read only FASTMCP_SERVER_..., 2.14 and later only FASTMCP_...).
_MASK_SPELLINGS = tuple(dict.fromkeys(name for row in FRAMEWORK_TABLE[Family.FASTMCP] for name in row.mask_env_names))


@dataclass(frozen=True)
class Setup:
    """One probe server of a family under a release: plain, with the row's masking switch on (by
    constructor argument or environment variable, or the variable on against an explicit
    `mask_error_details=False`), with each other spelling of the variable (`spelling`: one the
    row reads after `mask_env`, one it does not read, or the row's first spelling set false with
    a later one true), or with ErrorHandlingMiddleware."""

    family: Family
    # "default" | "mask-argument" | "mask-env" | "mask-env-argument-false" | "middleware"
    # | "mask-env-alias" | "mask-env-unread" | "mask-env-precedence"
    variant: str = "default"
    spelling: str = ""  # the variable of the last three variants

    @property
    def key(self) -> str:
        return f"{self.family.value}-{self.variant}" + (f"-{self.spelling}" if self.spelling else "")

    def masked(self, row: Channel) -> bool:
        if self.variant == "mask-env-argument-false":
            return not row.mask_argument_overrides_env
        return self.variant in {"mask-argument", "mask-env", "mask-env-alias"}

    def env(self, row: Channel) -> dict[str, str]:
        if self.variant == "mask-env-precedence" and row.mask_env:
            return {row.mask_env: "false", self.spelling: "true"}
        if self.spelling:
            return {self.spelling: "true"}
        return {row.mask_env: "true"} if self.variant.startswith("mask-env") and row.mask_env else {}

    def source(self, rel: Release, row: Channel) -> str:
        v1_modules = ("fastmcp.exceptions", "mcp.shared.exceptions") if self.family is Family.FASTMCP else ("mcp.shared.exceptions",)
        text = _PREAMBLE.replace("{v1_modules}", "".join(f"{m!r}, " for m in v1_modules))
        if self.family is Family.MCP_LOWLEVEL:
            return text + (_LOWLEVEL_V1 if rel.version.startswith("1.") else _LOWLEVEL_V2)
        options = {"mask-argument": f", {row.mask_setting}=True", "mask-env-argument-false": f", {row.mask_setting}=False"}.get(self.variant, "")
        text += _HEADERS[self.family].format(options=options) + _HIGH_LEVEL_TOOLS
        if self.family is Family.FASTMCP:
            text += _FASTMCP_TOOLS
        return text + _MIDDLEWARE if self.variant == "middleware" else text


def families(rel: Release) -> list[Family]:
    if rel.distribution == "fastmcp":
        return [Family.FASTMCP]
    high = Family.MCP_FASTMCP if rel.version.startswith("1.") else Family.MCP_SERVER
    return [high, Family.MCP_LOWLEVEL]


def setups(rel: Release) -> list[tuple[Setup, Channel]]:
    """Every probe server of a release, with the row it is checked against."""
    found = []
    for family in families(rel):
        row = channel(family, rel.version)
        assert row is not None, f"no row of the framework table for {family.value} {rel.version}"
        found.append((Setup(family), row))
        if row.mask_setting:
            found.append((Setup(family, "mask-argument"), row))
        if row.mask_env:
            found.append((Setup(family, "mask-env"), row))
            found.append((Setup(family, "mask-env-argument-false"), row))
            found.extend((Setup(family, "mask-env-alias", alias), row) for alias in row.mask_env_aliases)
            found.extend((Setup(family, "mask-env-precedence", alias), row) for alias in row.mask_env_aliases)
            unread = [name for name in _MASK_SPELLINGS if name not in row.mask_env_names] if family is Family.FASTMCP else []
            found.extend((Setup(family, "mask-env-unread", name), row) for name in unread)
        if row.error_middleware is not None:
            found.append((Setup(family, "middleware"), row))
    return found


# -- What a row says, as checks on a report ----------------------------------------------------

_SLOTS = {
    "{msg}": re.escape(MESSAGE),
    "{message}": re.escape(MESSAGE),
    "{e}": re.escape(MESSAGE),
    "{pydantic}": ".*validation error.*",
    "{jsonschema}": ".+",
}


def _failure_holds(failure: Failure, tool: str, report: dict[str, Any], handshake: bool) -> bool:
    """Does the report show `failure` (the doc's R(template) / E(code, message)) for `tool`?"""
    if failure.delivery is Delivery.PROTOCOL:
        if not is_protocol_error(report):
            return False
        head = failure.text.split(",", 1)[0].strip()
        if not head.lstrip("-").isdigit():  # "code, message, data": the raised error, verbatim
            return report["error"]["code"] == -32602 and report["error"]["message"] == MESSAGE
        # A fixed code ("0, `{e}`") is the handshake era's answer; 2026-07-28 sends -32603.
        if not handshake:
            return True
        return report["error"]["code"] == int(head) and ("{e}" not in failure.text or report["error"]["message"] == MESSAGE)
    if not is_result(report, True):
        return False
    pattern = re.escape(failure.text).replace(re.escape("{name}"), re.escape(tool))
    for slot, filler in _SLOTS.items():
        pattern = pattern.replace(re.escape(slot), filler)
    return re.fullmatch(pattern, text_of(report), re.S | re.I) is not None


_OUTCOMES: dict[ResultOutcome, Callable[[dict[str, Any]], bool]] = {
    ResultOutcome.DELIVERED: lambda r: is_result(r, True) and text_of(r) == MESSAGE,
    ResultOutcome.SERIALIZED: lambda r: is_result(r, False) and MESSAGE in text_of(r) and text_of(r) != MESSAGE,
    ResultOutcome.FLAG_IGNORED: lambda r: is_result(r, False) and text_of(r) == MESSAGE,
    ResultOutcome.TYPE_ERROR: lambda r: is_result(r, True) and MESSAGE not in text_of(r) and re.search(r"is_error|argument", text_of(r)) is not None,
    ResultOutcome.INVALID: lambda r: is_result(r, True) and "validation error" in text_of(r),
    ResultOutcome.OUTPUT_VALIDATED: lambda r: is_result(r, True) and "validation error" in text_of(r) and MESSAGE not in text_of(r),
}


@dataclass(frozen=True)
class Fact:
    """One statement of a row, checked by calling `tool` on a probe server."""

    tool: str
    arguments: dict
    says: str  # the row's statement, for the failure message
    check: Callable[[dict[str, Any], bool], bool]  # (report, handshake era?) -> holds


def facts(setup: Setup, row: Channel) -> list[Fact]:
    """What the row says that this probe server can show."""
    found: list[Fact] = []

    def failure(tool: str, what: str, fail: Failure | None, arguments: dict | None = None) -> None:
        if fail is not None:
            found.append(Fact(tool, arguments or {}, f"{what}: {fail.notation()}", lambda r, h, f=fail, t=tool: _failure_holds(f, t, r, h)))

    if setup.variant == "middleware":
        effect = row.error_middleware
        if effect is MiddlewareEffect.PROTOCOL_ERROR:
            found.append(Fact("tool_error", {}, f"ErrorHandlingMiddleware: {effect.value}", lambda r, h: is_protocol_error(r) and r["error"]["code"] == -32603))
            found.append(Fact("other_exception", {}, f"ErrorHandlingMiddleware: {effect.value}", lambda r, h: is_protocol_error(r) and r["error"]["code"] == -32602))
        else:
            # A ValueError: its own prefix, or (already wrapped into ToolError) ToolError's.
            prefix = "Internal error: Error calling tool 'other_exception': " if effect is MiddlewareEffect.PREFIXES_WRAPPED_TEXT else "Invalid params: "
            found.append(Fact("tool_error", {}, f"ErrorHandlingMiddleware: {effect.value}", lambda r, h: is_result(r, True) and text_of(r).startswith("Internal error: ")))
            found.append(Fact("other_exception", {}, f"ErrorHandlingMiddleware: {effect.value}", lambda r, h, p=prefix: is_result(r, True) and text_of(r).startswith(p)))
        return found

    failure("tool_error", "ToolError", row.tool_error)
    failure("protocol_error", "McpError/MCPError", row.protocol_error_under(setup.masked(row)))
    failure("other_exception", "another exception", row.unexpected_exception(setup.masked(row)))
    if setup.variant != "default":
        return found
    if setup.family is not Family.MCP_LOWLEVEL:
        failure("validation_failure", "arguments failing validation", row.validation_failure, {"count": "many"})
    if row.v1_constructor is Construction.WORKS:
        failure("v1_constructor", "McpError(ErrorData(...)) works", row.protocol_error)
    elif row.v1_constructor is Construction.TYPE_ERROR:
        found.append(Fact("v1_constructor", {}, "McpError(ErrorData(...)) raises TypeError", _OUTCOMES[ResultOutcome.TYPE_ERROR].__call__ and (lambda r, h: _OUTCOMES[ResultOutcome.TYPE_ERROR](r))))
    elif row.v1_constructor is Construction.IMPORT_ERROR:
        found.append(Fact("v1_constructor", {}, "McpError cannot be imported", lambda r, h: is_result(r, False) and text_of(r) == NO_V1_NAME))
    shapes = {
        ResultShape.CALL_TOOL_RESULT: "call_tool_result_error",
        ResultShape.CALL_TOOL_RESULT_SNAKE: "call_tool_result_snake_case",
        ResultShape.TOOL_RESULT: "tool_result_error",
    }
    for shape, tool in shapes.items():
        outcome = row.error_result(shape)
        if outcome is not None and (shape is not ResultShape.TOOL_RESULT or setup.family is Family.FASTMCP):
            found.append(Fact(tool, {}, f"{shape.value}: {outcome.value}", lambda r, h, o=outcome: _OUTCOMES[o](r)))
    if setup.family is Family.FASTMCP:  # the row has `error_middleware` exactly where the class exists
        exists = "present" if row.error_middleware is not None else "absent"
        found.append(Fact("error_middleware_class", {}, f"ErrorHandlingMiddleware is {exists}", lambda r, h, e=exists: is_result(r, False) and text_of(r) == e))
    if row.structured_error_result is not None and setup.family is not Family.MCP_LOWLEVEL:
        outcome = row.error_result(ResultShape.CALL_TOOL_RESULT, structured_return=True)
        found.append(Fact("structured_error_result", {}, f"CallToolResult(isError=True) under '-> Order': {outcome.value}", lambda r, h, o=outcome: _OUTCOMES[o](r)))
    return found


def _jobs(rel: Release) -> list[dict[str, Any]]:
    return [
        {
            "id": setup.key,
            "source": setup.source(rel, row),
            "env": setup.env(row),
            "calls": [{"tool": fact.tool, "arguments": fact.arguments} for fact in facts(setup, row)],
        }
        for setup, row in setups(rel)
    ]


def _params() -> list:
    params = []
    for rel in RELEASES:
        for setup, row in setups(rel):
            for number, fact in enumerate(facts(setup, row)):
                params.append(pytest.param(rel, setup, row, number, id=f"{rel.pin}-{setup.key}-{fact.tool}"))
    return params


@pytest.mark.parametrize(("rel", "setup", "row", "number"), _params())
def test_row_holds_on_the_release(rel: Release, setup: Setup, row: Channel, number: int, batches) -> None:
    fact = facts(setup, row)[number]
    where = f"{rel.pin} {setup.key} (row {row.label!r} {row.span})"
    report = batches.reports("rows", rel, _jobs)[setup.key]
    assert "setup_error" not in report, f"{where}: the probe server does not load:\n{report.get('setup_error')}"
    outcome = report["calls"][number]
    assert "crash" not in outcome, f"{where} {fact.tool}: the client failed:\n{outcome['crash']}"
    # On mcp 2.x the row must hold on both protocol eras ("legacy" is the handshake era, the only
    # one of mcp 1.x).
    eras = [("", outcome, "legacy" not in outcome)] + ([(" on a handshake-era connection", outcome["legacy"], True)] if "legacy" in outcome else [])
    for era, wire, handshake in eras:
        got = wire.get("error") or {"isError": wire["result"].get("isError"), "text": text_of(wire)}
        assert fact.check(wire, handshake), f"{where}: {fact.tool} received {got}{era}; the row says {fact.says}"
