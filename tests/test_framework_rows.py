"""Every row of the framework table, rendered and checked against the semantics doc.

Each claim quotes a line of ``../shared/docs/mcp-error-semantics.md`` (vendored below, so the test
runs in a clone without ``../shared``); where the doc exists next to the repository, every quoted
line must still be in it verbatim, so a change of the doc fails this test until the table (and
the quote) follow. A claim names the rows it covers by release, what it checks (a ``KIND``), and
either the doc cell the rendered fact must appear in, or the rendered fact itself where the doc
words it differently. A last test asserts that every row's every known fact is claimed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, NamedTuple

import pytest

from mcp_lint.model.frameworks import (
    FRAMEWORK_TABLE,
    Channel,
    Family,
    FrameworkContext,
    ResultShape,
    channel,
)

_REPO = Path(__file__).resolve().parents[1]
# ../shared beside the repository (main and CI), or beside the folder of a worktree.
_DOC_CANDIDATES = [base / "shared" / "docs" / "mcp-error-semantics.md" for base in (_REPO.parent, _REPO.parent.parent)]
DOC = next((path for path in _DOC_CANDIDATES if path.is_file()), None)

DOC_LINES: dict[str, str] = {
    '1 mcp 1.x high level': '| mcp 1.x high level | `mcp.server.fastmcp.FastMCP` (also `mcp.server.FastMCP`) | `@mcp.tool()` (must be called; bare `@mcp.tool` raises `TypeError`), `mcp.add_tool(fn, name=...)`, `FastMCP(tools=[Tool.from_function(fn)])` (1.9+), `Tool` from `mcp.server.fastmcp.tools` | `@mcp.resource("uri")`, `@mcp.prompt()`, `@mcp.completion()` |',
    '1 mcp 1.x low level': '| mcp 1.x low level | `mcp.server.lowlevel.Server` (also `mcp.server.Server`) | `@server.call_tool()` (kwarg `validate_input=True` from 1.10) + `@server.list_tools()`; handler signature `(name, arguments)`; raw `server.request_handlers[types.CallToolRequest] = h` bypasses the decorator | `@server.read_resource()`, `@server.list_resources()`, `@server.list_resource_templates()`, `@server.get_prompt()`, `@server.list_prompts()` |',
    '1 mcp 2.x high level': '| mcp 2.x high level | `mcp.server.mcpserver.MCPServer` (also `mcp.server.MCPServer`). `import mcp.server.fastmcp` raises `ModuleNotFoundError` with a migration hint | `@mcp.tool()` (bare form raises `TypeError`), `mcp.add_tool(fn, ...)`, `MCPServer(tools=[Tool.from_function(fn)])` with `Tool` from `mcp.server.mcpserver.tools` | `@mcp.resource("uri")`, `@mcp.prompt()`, `@mcp.completion()`, `MCPServer(resources=[...])` |',
    '1 mcp 2.x low level': '| mcp 2.x low level | `mcp.server.lowlevel.Server` (also `mcp.server.Server`) | **no decorators**: constructor kwargs `Server(name, on_call_tool=h, on_list_tools=...)` or `server.add_request_handler("tools/call", CallToolRequestParams, h)`; handler signature `async (ctx, params)` | `on_read_resource=`, `on_list_resources=`, `on_list_resource_templates=`, `on_get_prompt=`, `on_list_prompts=`, `on_completion=` |',
    '1 fastmcp 2.x': '| fastmcp 2.x | `fastmcp.FastMCP` | `@mcp.tool()`, `@mcp.tool("name")`, `@mcp.tool(name=...)`, `mcp.tool(fn, name=...)`; bare `@mcp.tool` only from 2.7. In 2.x the decorator returns a `FunctionTool`, not the function. `mcp.add_tool(fn, ...)` up to 2.6, `mcp.add_tool(Tool)` from 2.7; `Tool.from_function` / `FunctionTool.from_function` (`fastmcp.tools`); `Tool.from_tool` (transforms); `mcp.mount(prefix, server)` (2.3) → `mount(server, prefix=)` (later 2.x); `import_server`, `FastMCP.from_openapi`, `FastMCP.as_proxy`; `fastmcp.contrib.mcp_mixin` `@mcp_tool` on methods | `@mcp.resource("uri")` (URI required), `@mcp.prompt` / `@mcp.prompt()` |',
    '1 fastmcp 3.x': '| fastmcp 3.x | `fastmcp.FastMCP` | as 2.x, plus: decorators return the original function (setting `decorator_mode`, `"object"` deprecated); `mcp.add_tool(Tool or callable)`; standalone `@tool` (`from fastmcp.tools import tool`) only attaches metadata and needs `mcp.add_tool(fn)`; `mount(server, namespace=)` (`prefix=` deprecated); providers (`LocalProvider`, `FileSystemProvider`) with their own `@provider.tool` | standalone `fastmcp.resources.resource`, `fastmcp.prompts.prompt` decorators too |',
    '1 fastmcp 4.x': '| fastmcp 4.x | `fastmcp.FastMCP` | as 3.x; `import_server`/`as_proxy` gone (`fastmcp.server.create_proxy`); `FastMCPApp` (`fastmcp.apps`) `@app.tool` | same as 3.x |',
    '2a mcp 1.6/1.9': "| **mcp 1.6 / 1.9** FastMCP | R(`Error executing tool {name}: {msg}`) | R(`Error executing tool {name}: {message}`) — **not** a JSON-RPC error | R(`Error executing tool {name}: {e}`) — raw text (a `KeyError` shows as `'missing'`) | R(prefix + full pydantic text `1 validation error for {name}Arguments …` incl. input value and errors.pydantic.dev URL) | R(`Unknown tool: {name}`) |",
    '2a mcp 1.30': '| **mcp 1.30** FastMCP (same for 1.10–1.30) | same | same, except `UrlElicitationRequiredError` → E(-32042) from 1.25 | same | same (FastMCP registers the low-level handler with `validate_input=False`) | same |',
    '2a mcp 1.x low level': '| **mcp 1.x** low-level `@server.call_tool()` | — (no ToolError class; any exception) | R(`{message}`) — **not** a JSON-RPC error; only `UrlElicitationRequiredError` → E(-32042) (1.25+) | R(`{e}`) raw, no prefix | 1.10+: if the tool appears in `list_tools` and `validate_input=True`, R(`Input validation error: {jsonschema message}`) before the handler runs; 1.6/1.9: no validation | not detected by the SDK: the handler runs; whatever it raises becomes R(`{e}`) |',
    '2a mcp 2.0': '| **mcp 2.0.x** MCPServer *(code)* | R(`Error executing tool {name}: {msg}`) | E(code, message, data) verbatim | R(`Error executing tool {name}: {e}`) raw | R(prefix + pydantic text) | R(`Unknown tool: {name}`) |',
    '2a mcp 2.1-2.3': "| **mcp 2.1–2.3** MCPServer | R(`Error executing tool {name}: {msg}`); same for `ResourceError` escaping the tool | E(code, message, data) verbatim, on every transport and protocol era | R(`Error executing tool {name}`) — **masked**, nothing of `{e}` (traceback logged at ERROR) | R(`Error executing tool {name}: ` + pydantic text) | R(`Unknown tool: {name}`) — a result, not the spec's -32602 |",
    '2a mcp 2.x low level': '| **mcp 2.x** low-level `on_call_tool` | — | E(code, message, data) verbatim | handshake-era connections (any 2025-xx client: verified on stdio and in-memory `mode="legacy"`; streamable-HTTP legacy sessions use the same `JSONRPCDispatcher`): **E(0, `{e}`)** raw text, non-standard code 0; 2026-07-28 connections and in-process `Client(server)` default: E(-32603, `Internal server error`) | none by the SDK (schema is advertised, never applied). A pydantic `ValidationError` escaping the handler → E(-32602, `Invalid request parameters`, data `""`) | none by the SDK; the handler decides (spec: E(-32602)) |',
    '2a fastmcp 2.3.0': "| **fastmcp 2.3.0** | R(`Error executing tool {name}: {msg}`) | R(same prefix + message) | R(`Error executing tool {name}: {e}`) | prefix + pydantic text; on mcp ≥1.10 the mcp decorator's jsonschema check fires first: R(`Input validation error: …`) | R(`Unknown tool: {name}`) |",
    '2a fastmcp 2.4.0': "| **fastmcp 2.4.0** *(code)* | R(`{msg}`) | R(`Error calling tool '{name}'`) | R(`Error calling tool '{name}'`) — always masked, no setting | masked the same way (unless mcp's jsonschema check fires first) | R(`Unknown tool: {name}`) |",
    '2a fastmcp 2.5-2.14': "| **fastmcp 2.5–2.14** (`mask_error_details=False`, default) | R(`{msg}`) — no prefix | R(`Error calling tool '{name}': {message}`) | R(`Error calling tool '{name}': {e}`) raw; httpx 429/timeout get no special text | 2.13+: R(raw pydantic `1 validation error for call[{name}] …`), never masked; 2.5–2.12: prefixed like other exceptions | R(`Unknown tool: {name}`) |",
    '2a fastmcp 2.5-2.14 masked': "| same, `mask_error_details=True` | R(`{msg}`) | R(`Error calling tool '{name}'`) | R(`Error calling tool '{name}'`) | 2.13+: still raw pydantic text | same |",
    '2a fastmcp 3.0-3.4': "| **fastmcp 3.0–3.4** (default) | R(`{msg}`) | R(`Error calling tool '{name}': {message}`) | R(`Error calling tool '{name}': {e}`); **httpx** 429 → R(`Rate limited by upstream API, please retry later`); httpx timeout → R(`Upstream request timed out, please retry`) | R(raw pydantic text), never masked; `strict_input_validation=True` → R(`Input validation error: …`) | R(`Unknown tool: '{name}'`) |",
    '2a fastmcp 3.0-3.4 masked': "| same, `mask_error_details=True` | R(`{msg}`) | R(`Error calling tool '{name}'`) | R(`Error calling tool '{name}'`); the two httpx texts above still appear | raw pydantic text | same |",
    '2a fastmcp 4.0-4.2': "| **fastmcp 4.0–4.2** (default) | R(`{msg}`) | R(`Error calling tool '{name}': {message}`); **only** code -32021 (missing client capability) passes through as E(-32021) | as 3.x (httpx and httpx2 both recognised) | R(raw pydantic text), never masked | R(`Unknown tool: '{name}'`) |",
    '2a fastmcp 4.0-4.2 masked': "| same, `mask_error_details=True` | R(`{msg}`) | R(`Error calling tool '{name}'`) (-32021 still E) | R(`Error calling tool '{name}'`) + the two httpx texts | raw pydantic text | same |",
    '2b ErrorHandlingMiddleware': '| fastmcp `ErrorHandlingMiddleware()` added (default `transform_errors=True`) | rewrites every tool failure into an `McpError`/`MCPError`: ToolError → -32603 `Internal error: {msg}`; ValueError/TypeError cause → -32602 `Invalid params: …`; KeyError/FileNotFoundError/NotFoundError → -32001 `Not found: …` (fastmcp 2.14 mislabels it `Resource not found: …`); PermissionError/TimeoutError → -32000. Under **fastmcp 2.x/3.x** the mcp-1.x low level swallows it again, so the client gets R(`Internal error: …`) etc. Under **fastmcp 4.x** it reaches the wire: **E(-32603 / -32602 / -32001)** — every tool failure becomes a protocol error the model never sees. |',
    '3 mcp 1.6/1.9': '| mcp 1.6 / 1.9 FastMCP | no supported way — raise instead | `mcp.types.CallToolResult(content=[mcp.types.TextContent(type="text", text=…)], isError=True)` | **broken**: serialized to JSON inside a text block, `isError` on the wire is **false** |',
    '3 mcp 1.10-1.18': '| mcp 1.10–1.18 FastMCP | same | same | same as above (verified on 1.18.0; passthrough appears in 1.19); with a structured return annotation the result is instead R(output-validation error text) |',
    '3 mcp 1.19-1.30': '| mcp 1.19–1.30 FastMCP | return `CallToolResult(..., isError=True)` (annotate the function `-> CallToolResult`) | same | passed through as-is — **but** if the function has an output schema (return annotation is a model/dict/etc.), `structuredContent` is validated even for error results: the error text is replaced by R(`Error executing tool {name}: 1 validation error for {Model} …`). `-> X | CallToolResult` is rejected at registration (`InvalidSignature`) |',
    '3 mcp 1.x low level': '| mcp 1.x low level | return `CallToolResult(..., isError=True)` (1.19+) | same | 1.19+: passed through, output validation skipped. ≤1.18: the model object is iterated as content and fails validation → R(pydantic garbage) |',
    '3 mcp 1.x any': '| mcp 1.x (any) | — | `is_error=True` is **silently accepted and ignored** (`Result` allows extra fields): wire `isError` stays false | — |',
    '3 mcp 2.x MCPServer': '| mcp 2.x MCPServer | return `CallToolResult(..., is_error=True)` | `mcp.types` ≡ `mcp_types`: `CallToolResult`, `TextContent`; both `is_error=` and `isError=` work (alias + populate_by_name); misspellings are silently dropped | always passed through; output validation skipped when `is_error` is true |',
    '3 mcp 2.x low level': '| mcp 2.x low level | must return `CallToolResult` (or `InputRequiredResult`, or `ErrorData` for a protocol error) | same | required shape; plain lists/tuples/dicts of content are not converted |',
    '3 fastmcp 2.x': '| fastmcp 2.x | no error-result API; raise `ToolError`. `fastmcp.tools.tool.ToolResult(content, structured_content, meta)` (2.10+) has no error flag | — | **broken**: the object is JSON-serialized into a text block and into `structuredContent`; wire `isError` false |',
    '3 fastmcp 3.0-3.3': '| fastmcp 3.0–3.3 | same as 2.x | — | broken as above |',
    '3 fastmcp 3.4': '| fastmcp 3.4 | `return ToolResult(content=…, is_error=True)` (`from fastmcp.tools import ToolResult`) | `to_mcp_result()` builds `CallToolResult(isError=True)` | still broken (serialized) |',
    '3 fastmcp 4.0-4.2': '| fastmcp 4.0–4.2 | `ToolResult(..., is_error=True)` or a plain mcp `CallToolResult(..., is_error=True)` | `mcp.types` / `mcp_types` | passed through unchanged (`ToolResult.from_mcp_result`) |',
    '4 class': '| class | `McpError` — `mcp.shared.exceptions.McpError`, also `from mcp import McpError`; constructor `McpError(ErrorData(code=…, message=…, data=…))`; `str(e)` = message | `MCPError` — `from mcp import MCPError` / `mcp.shared.exceptions.MCPError`; constructor `MCPError(code, message, data=None)`; `.code/.message/.data/.error`. **No `McpError` name**: the v1 import fails with `ImportError` | later 2.x (e.g. 2.14; not 2.3) and 3.x: `fastmcp.exceptions.McpError` re-exports the v1 class. 4.x: `McpError = MCPError` alias (catch-compatible, but the v1 constructor `McpError(ErrorData(...))` now raises `TypeError`), plus `fastmcp.exceptions.to_mcp_error(exc)` |',
    '8 settings': '* `fastmcp/settings.py` `mask_error_details` (l.257) default False; env `FASTMCP_MASK_ERROR_DETAILS`.',
    '8 bisect': '* Bisect: 2.4.0 masks all non-ToolError unconditionally (`raise ToolError(f"Error calling tool {key!r}")`); `mask_error_details` from 2.5; pydantic passthrough from 2.13; bare `@mcp.tool` from 2.7; `add_tool(Tool)` from 2.7.',
    '9 masking': '  httpx 429/timeout texts. mcp 1.x: no masking at all.',
    '10 R fastmcp ToolResult': "| fastmcp 2.x / 3.0–3.3 | `ToolResult(..., is_error=True)` → `TypeError` at run time, reported as R(`Error calling tool '{name}': …unexpected keyword argument 'is_error'`) | raise `ToolError` |",
}


def _failure(get: Callable[[Channel], object]) -> Callable[[Channel], str | None]:
    def render(row: Channel) -> str | None:
        value = get(row)
        return None if value is None else value.notation()  # type: ignore[attr-defined]

    return render


def _result(shape: ResultShape, structured: bool = False) -> Callable[[Channel], str | None]:
    def render(row: Channel) -> str | None:
        if structured and row.structured_error_result is None:
            return None
        outcome = row.error_result(shape, structured_return=structured)
        return None if outcome is None else outcome.value

    return render


# What a row says for each kind of fact (None: the row does not know, or it does not apply).
KINDS: dict[str, Callable[[Channel], str | None]] = {
    "tool_error": lambda row: "—" if row.tool_error is None else row.tool_error.notation(),
    "protocol_error": _failure(lambda row: row.protocol_error),
    "other_exception": _failure(lambda row: row.other_exception),
    "validation_failure": _failure(lambda row: row.validation_failure),
    "masked_exception": _failure(lambda row: row.masked_failure and row.unexpected_exception(True)),
    "masked_protocol_error": _failure(lambda row: row.masked_failure and row.protocol_error_under(True)),
    "call_tool_result": _result(ResultShape.CALL_TOOL_RESULT),
    "call_tool_result_snake": _result(ResultShape.CALL_TOOL_RESULT_SNAKE),
    "tool_result": _result(ResultShape.TOOL_RESULT),
    "structured_error_result": _result(ResultShape.CALL_TOOL_RESULT, structured=True),
    "v1_constructor": lambda row: None if row.v1_constructor is None else row.v1_constructor.value,
    "protocol_error_constructor": lambda row: row.protocol_error_constructor or None,
    "error_middleware": lambda row: None if row.error_middleware is None else row.error_middleware.value,
    "mask_setting": lambda row: f"{row.mask_setting} / {row.mask_env}" if row.mask_setting else "—",
    "mask_env_aliases": lambda row: ", ".join(row.mask_env_aliases) or None,
    "server_class": lambda row: f"`{row.server_class}`" if row.server_class else None,
}

MCP1 = (Family.MCP_FASTMCP, Family.MCP_LOWLEVEL)
F, S, L, X = Family.MCP_FASTMCP, Family.MCP_SERVER, Family.MCP_LOWLEVEL, Family.FASTMCP
MCP1_FASTMCP = ((F, "1.6.0"), (F, "1.9.4"), (F, "1.18.0"), (F, "1.19.0"), (F, "1.30.0"))
MCP2_SERVER = ((S, "2.0.0"), (S, "2.3.0"))
FASTMCP_25_214 = ((X, "2.5.0"), (X, "2.8.0"), (X, "2.9.0"), (X, "2.10.0"), (X, "2.13.0"), (X, "2.14.7"))
FASTMCP_3 = ((X, "3.0.0"), (X, "3.3.0"), (X, "3.4.11"))
FASTMCP_4 = ((X, "4.0.0"), (X, "4.2.0"))
FASTMCP_ALL = ((X, "2.3.0"), (X, "2.4.0"), *FASTMCP_25_214, *FASTMCP_3, *FASTMCP_4)

SERIALIZED, DELIVERED = "serialized into a text block, isError: false on the wire", "delivered with isError: true"
IGNORED, INVALID = "is_error silently ignored, isError: false on the wire", "iterated as content, fails validation"
TYPE_ERROR, OUTPUT_VALIDATED = "raises TypeError", "its text replaced by an output-validation error"
CALLING_PYDANTIC = "R(`Error calling tool '{name}': {pydantic}`)"
EXECUTING_PYDANTIC = "R(`Error executing tool {name}: {pydantic}`)"


class Claim(NamedTuple):
    line: str  # key of DOC_LINES
    column: int | None  # the table cell (split on " | ") the fact must appear in; None: the line
    kind: str
    rows: tuple[tuple[Family, str], ...]  # (family, release) of each row the claim covers
    expected: str | None = None  # the rendered fact, where the doc words it differently


CLAIMS = (
    # 1: the server class of each family.
    Claim("1 mcp 1.x high level", 1, "server_class", MCP1_FASTMCP),
    Claim("1 mcp 1.x low level", 1, "server_class", ((L, "1.9.4"), (L, "1.30.0"))),
    Claim("1 mcp 2.x high level", 1, "server_class", MCP2_SERVER),
    Claim("1 mcp 2.x low level", 1, "server_class", ((L, "2.0.0"), (L, "2.3.0"))),
    Claim("1 fastmcp 2.x", 1, "server_class", ((X, "2.3.0"), (X, "2.4.0"), *FASTMCP_25_214)),
    Claim("1 fastmcp 3.x", 1, "server_class", FASTMCP_3),
    Claim("1 fastmcp 4.x", 1, "server_class", FASTMCP_4),
    # 2a: what the client receives when a tool raises.
    Claim("2a mcp 1.6/1.9", 1, "tool_error", MCP1_FASTMCP),
    Claim("2a mcp 1.6/1.9", 2, "protocol_error", MCP1_FASTMCP),
    Claim("2a mcp 1.6/1.9", 3, "other_exception", MCP1_FASTMCP),
    Claim("2a mcp 1.6/1.9", 4, "validation_failure", MCP1_FASTMCP, EXECUTING_PYDANTIC),  # "R(prefix + full pydantic text ..."
    Claim("2a mcp 1.30", 1, "tool_error", ((F, "1.18.0"), (F, "1.30.0")), "R(`Error executing tool {name}: {msg}`)"),  # "same"
    Claim("2a mcp 1.x low level", 1, "tool_error", ((L, "1.9.4"), (L, "1.30.0"))),
    Claim("2a mcp 1.x low level", 2, "protocol_error", ((L, "1.9.4"), (L, "1.30.0"))),
    Claim("2a mcp 1.x low level", 3, "other_exception", ((L, "1.9.4"), (L, "1.30.0"))),
    Claim("2a mcp 2.0", 1, "tool_error", ((S, "2.0.0"),)),
    Claim("2a mcp 2.0", 2, "protocol_error", ((S, "2.0.0"),)),
    Claim("2a mcp 2.0", 3, "other_exception", ((S, "2.0.0"),)),
    Claim("2a mcp 2.0", 4, "validation_failure", ((S, "2.0.0"),), EXECUTING_PYDANTIC),  # "R(prefix + pydantic text)"
    Claim("2a mcp 2.1-2.3", 1, "tool_error", ((S, "2.1.0"), (S, "2.3.0"))),
    Claim("2a mcp 2.1-2.3", 2, "protocol_error", ((S, "2.1.0"), (S, "2.3.0"))),
    Claim("2a mcp 2.1-2.3", 3, "other_exception", ((S, "2.1.0"), (S, "2.3.0"))),
    Claim("2a mcp 2.1-2.3", 4, "validation_failure", ((S, "2.1.0"), (S, "2.3.0")), EXECUTING_PYDANTIC),
    Claim("2a mcp 2.x low level", 1, "tool_error", ((L, "2.0.0"), (L, "2.3.0"))),
    Claim("2a mcp 2.x low level", 2, "protocol_error", ((L, "2.0.0"), (L, "2.3.0"))),
    Claim("2a mcp 2.x low level", 3, "other_exception", ((L, "2.0.0"), (L, "2.3.0"))),
    Claim("2a fastmcp 2.3.0", 1, "tool_error", ((X, "2.3.0"),)),
    Claim("2a fastmcp 2.3.0", 2, "protocol_error", ((X, "2.3.0"),), "R(`Error executing tool {name}: {message}`)"),  # "same prefix + message"
    Claim("2a fastmcp 2.3.0", 3, "other_exception", ((X, "2.3.0"),)),
    Claim("2a fastmcp 2.3.0", 4, "validation_failure", ((X, "2.3.0"),), EXECUTING_PYDANTIC),  # "prefix + pydantic text"
    Claim("2a fastmcp 2.4.0", 1, "tool_error", ((X, "2.4.0"),)),
    Claim("2a fastmcp 2.4.0", 2, "protocol_error", ((X, "2.4.0"),)),
    Claim("2a fastmcp 2.4.0", 3, "other_exception", ((X, "2.4.0"),)),
    Claim("2a fastmcp 2.4.0", 4, "validation_failure", ((X, "2.4.0"),), "R(`Error calling tool '{name}'`)"),  # "masked the same way"
    Claim("2a fastmcp 2.5-2.14", 1, "tool_error", FASTMCP_25_214),
    Claim("2a fastmcp 2.5-2.14", 2, "protocol_error", FASTMCP_25_214),
    Claim("2a fastmcp 2.5-2.14", 3, "other_exception", FASTMCP_25_214),
    Claim("2a fastmcp 2.5-2.14", 4, "validation_failure", ((X, "2.5.0"), (X, "2.8.0"), (X, "2.9.0")), CALLING_PYDANTIC),  # "prefixed like other exceptions"
    Claim("2a fastmcp 2.5-2.14", 4, "validation_failure", ((X, "2.13.0"), (X, "2.14.7")), "R(`{pydantic}`)"),  # "R(raw pydantic ...)"
    Claim("2a fastmcp 2.5-2.14 masked", 2, "masked_protocol_error", FASTMCP_25_214),
    Claim("2a fastmcp 2.5-2.14 masked", 3, "masked_exception", FASTMCP_25_214),
    Claim("2a fastmcp 3.0-3.4", 1, "tool_error", FASTMCP_3),
    Claim("2a fastmcp 3.0-3.4", 2, "protocol_error", FASTMCP_3),
    Claim("2a fastmcp 3.0-3.4", 3, "other_exception", FASTMCP_3),
    Claim("2a fastmcp 3.0-3.4", 4, "validation_failure", FASTMCP_3, "R(`{pydantic}`)"),  # "R(raw pydantic text)"
    Claim("2a fastmcp 3.0-3.4 masked", 2, "masked_protocol_error", FASTMCP_3),
    Claim("2a fastmcp 3.0-3.4 masked", 3, "masked_exception", FASTMCP_3),
    Claim("2a fastmcp 4.0-4.2", 1, "tool_error", FASTMCP_4),
    Claim("2a fastmcp 4.0-4.2", 2, "protocol_error", FASTMCP_4),
    Claim("2a fastmcp 4.0-4.2", 3, "other_exception", FASTMCP_4, "R(`Error calling tool '{name}': {e}`)"),  # "as 3.x"
    Claim("2a fastmcp 4.0-4.2", 4, "validation_failure", FASTMCP_4, "R(`{pydantic}`)"),
    Claim("2a fastmcp 4.0-4.2 masked", 2, "masked_protocol_error", FASTMCP_4),
    Claim("2a fastmcp 4.0-4.2 masked", 3, "masked_exception", FASTMCP_4),
    # 2b: ErrorHandlingMiddleware.
    Claim("2b ErrorHandlingMiddleware", None, "error_middleware", ((X, "2.14.7"), *FASTMCP_3)),
    Claim("2b ErrorHandlingMiddleware", None, "error_middleware", FASTMCP_4),
    # 3: returning an error result explicitly.
    Claim("3 mcp 1.6/1.9", None, "call_tool_result", ((F, "1.6.0"), (F, "1.9.4")), SERIALIZED),  # "**broken**: serialized"
    Claim("3 mcp 1.6/1.9", None, "call_tool_result_snake", ((F, "1.6.0"), (F, "1.9.4"), (F, "1.18.0")), SERIALIZED),
    Claim("3 mcp 1.10-1.18", None, "call_tool_result", ((F, "1.18.0"),), SERIALIZED),  # "same as above"
    Claim("3 mcp 1.10-1.18", None, "structured_error_result", ((F, "1.18.0"),), OUTPUT_VALIDATED),
    Claim("3 mcp 1.19-1.30", None, "call_tool_result", ((F, "1.19.0"), (F, "1.30.0")), DELIVERED),  # "passed through as-is"
    Claim("3 mcp 1.19-1.30", None, "structured_error_result", ((F, "1.19.0"), (F, "1.30.0")), OUTPUT_VALIDATED),
    Claim("3 mcp 1.x low level", None, "call_tool_result", ((L, "1.9.4"), (L, "1.18.0")), INVALID),
    Claim("3 mcp 1.x low level", None, "call_tool_result_snake", ((L, "1.9.4"), (L, "1.18.0")), INVALID),
    Claim("3 mcp 1.x low level", None, "call_tool_result", ((L, "1.19.0"), (L, "1.30.0")), DELIVERED),
    Claim("3 mcp 1.x any", None, "call_tool_result_snake", ((F, "1.19.0"), (F, "1.30.0"), (L, "1.19.0"), (L, "1.30.0")), IGNORED),
    Claim("3 mcp 2.x MCPServer", None, "call_tool_result", MCP2_SERVER, DELIVERED),  # "both `is_error=` and `isError=` work"
    Claim("3 mcp 2.x MCPServer", None, "call_tool_result_snake", MCP2_SERVER, DELIVERED),
    Claim("3 mcp 2.x MCPServer", None, "structured_error_result", ((S, "2.3.0"),), DELIVERED),  # "output validation skipped"
    Claim("3 mcp 2.x low level", None, "call_tool_result", ((L, "2.0.0"), (L, "2.3.0")), DELIVERED),
    Claim("3 mcp 2.x low level", None, "call_tool_result_snake", ((L, "2.0.0"), (L, "2.3.0")), DELIVERED),
    Claim("3 fastmcp 2.x", None, "call_tool_result", ((X, "2.3.0"), (X, "2.4.0"), *FASTMCP_25_214), SERIALIZED),
    Claim("3 fastmcp 2.x", None, "call_tool_result_snake", ((X, "2.3.0"), (X, "2.4.0"), *FASTMCP_25_214), SERIALIZED),
    Claim("3 fastmcp 3.0-3.3", None, "call_tool_result", ((X, "3.0.0"), (X, "3.3.0")), SERIALIZED),  # "broken as above"
    Claim("3 fastmcp 3.0-3.3", None, "call_tool_result_snake", ((X, "3.0.0"), (X, "3.3.0")), SERIALIZED),
    Claim("10 R fastmcp ToolResult", None, "tool_result", ((X, "2.10.0"), (X, "2.13.0"), (X, "2.14.7"), (X, "3.0.0"), (X, "3.3.0")), TYPE_ERROR),
    Claim("3 fastmcp 3.4", None, "tool_result", ((X, "3.4.11"),), DELIVERED),
    Claim("3 fastmcp 3.4", None, "call_tool_result", ((X, "3.4.11"),), SERIALIZED),  # "still broken (serialized)"
    Claim("3 fastmcp 3.4", None, "call_tool_result_snake", ((X, "3.4.11"),), SERIALIZED),
    Claim("3 fastmcp 4.0-4.2", None, "tool_result", FASTMCP_4, DELIVERED),  # "passed through unchanged"
    Claim("3 fastmcp 4.0-4.2", None, "call_tool_result", FASTMCP_4, DELIVERED),
    Claim("3 fastmcp 4.0-4.2", None, "call_tool_result_snake", FASTMCP_4, DELIVERED),
    # 4: protocol error constructors.
    Claim("4 class", 1, "protocol_error_constructor", (*MCP1_FASTMCP, (L, "1.9.4"), (L, "1.30.0"))),
    Claim("4 class", 1, "v1_constructor", (*MCP1_FASTMCP, (L, "1.9.4"), (L, "1.30.0")), "works"),
    Claim("4 class", 2, "protocol_error_constructor", (*MCP2_SERVER, (L, "2.0.0"), (L, "2.3.0"))),
    Claim("4 class", 2, "v1_constructor", (*MCP2_SERVER, (L, "2.0.0"), (L, "2.3.0")), "fails to import (no McpError name)"),
    Claim("4 class", 3, "v1_constructor", ((X, "2.3.0"), (X, "2.4.0"), *FASTMCP_25_214, *FASTMCP_3), "works"),  # "re-exports the v1 class"
    Claim("4 class", 3, "protocol_error_constructor", ((X, "2.3.0"), (X, "2.4.0"), *FASTMCP_25_214, *FASTMCP_3), "McpError(ErrorData(code=…, message=…, data=…))"),
    Claim("4 class", 3, "v1_constructor", FASTMCP_4, TYPE_ERROR),  # "now raises `TypeError`"
    Claim("4 class", 2, "protocol_error_constructor", FASTMCP_4),  # McpError = MCPError
    # 8/9: the masking switch.
    # The doc's line is about 2.14.7's settings.py; 2.5-2.7 kept the setting in ServerSettings
    # (FASTMCP_SERVER_MASK_ERROR_DETAILS, read in the 2.5.0 and 2.7.0 wheels).
    Claim("8 settings", None, "mask_setting", (*FASTMCP_25_214[1:], *FASTMCP_3, *FASTMCP_4), "mask_error_details / FASTMCP_MASK_ERROR_DETAILS"),
    Claim("8 bisect", None, "mask_setting", ((X, "2.3.0"), (X, "2.4.0")), "—"),  # "`mask_error_details` from 2.5"
    Claim("9 masking", None, "mask_setting", (*MCP1_FASTMCP, (L, "1.9.4"), (L, "1.30.0"), *MCP2_SERVER, (L, "2.3.0")), "—"),
)


def _claim_id(claim: Claim) -> str:
    return f"{claim.line}:{claim.kind}:{claim.rows[0][1]}"


@pytest.mark.parametrize("claim", CLAIMS, ids=_claim_id)
def test_each_row_renders_what_the_doc_says(claim: Claim) -> None:
    quote = DOC_LINES[claim.line]
    cell = quote if claim.column is None else quote.split(" | ")[claim.column]
    for family, release in claim.rows:
        row = channel(family, release)
        assert row is not None, (family, release)
        rendered = KINDS[claim.kind](row)
        assert rendered is not None, (family, release, claim.kind)
        if claim.expected is not None:
            assert rendered == claim.expected, (family, release)
        else:
            assert rendered in cell, (family, release, rendered, cell)


@pytest.mark.skipif(DOC is None, reason="../shared/docs/mcp-error-semantics.md is not beside this clone")
@pytest.mark.parametrize("key", sorted(DOC_LINES))
def test_the_quoted_lines_are_still_in_the_doc(key: str) -> None:
    assert DOC is not None
    assert DOC_LINES[key] in DOC.read_text(encoding="utf-8").splitlines(), key


# Facts the doc gets wrong or does not state, established by running the release under the real
# client (tests/semantics/test_framework_rows.py checks every row on the releases it installs):
# (family, release, kind) -> rendered fact, and where it was seen.
RUN_FACTS = {
    # The doc's §3 "mcp 2.x MCPServer ... output validation skipped" was read from 2.3; the mcp
    # 2.0.1 wheel still validates an error result's structuredContent (2.1.0 stops).
    (S, "2.0.0", "structured_error_result"): (OUTPUT_VALIDATED, "tests/semantics on mcp 2.0.1"),
    # The doc names the variable of 2.14.7; 2.5-2.7 keep the setting in `ServerSettings`, whose
    # env prefix is FASTMCP_SERVER_ (read in the fastmcp 2.5.0 and 2.7.0 wheels).
    (X, "2.5.0", "mask_setting"): ("mask_error_details / FASTMCP_SERVER_MASK_ERROR_DETAILS", "fastmcp 2.5.0 / 2.7.0 settings.py"),
    # The doc names one variable; 2.8-2.13's `ExtendedEnvSettingsSource` reads the prefixes
    # FASTMCP_ then the deprecated FASTMCP_SERVER_ (the first set decides), 2.14 only FASTMCP_
    # (read in the 2.8.0-2.14.7 wheels; run on 2.8.1 and 2.13.3 by tests/semantics, and the old
    # spelling ignored on 2.14.7).
    (X, "2.8.0", "mask_env_aliases"): ("FASTMCP_SERVER_MASK_ERROR_DETAILS", "fastmcp 2.8.0-2.13.3 settings.py, tests/semantics on 2.8.1"),
    (X, "2.9.0", "mask_env_aliases"): ("FASTMCP_SERVER_MASK_ERROR_DETAILS", "fastmcp 2.9.2 settings.py, tests/semantics on 2.9.2"),
    (X, "2.10.0", "mask_env_aliases"): ("FASTMCP_SERVER_MASK_ERROR_DETAILS", "fastmcp 2.10.6 / 2.12.5 settings.py, tests/semantics on 2.12.5"),
    (X, "2.13.0", "mask_env_aliases"): ("FASTMCP_SERVER_MASK_ERROR_DETAILS", "fastmcp 2.13.0 / 2.13.3 settings.py, tests/semantics on 2.13.3"),
    # The doc's §2b names the prefixes of 2.14+; on 2.9-2.13 the tool manager has wrapped every
    # exception but ToolError into ToolError("Error calling tool 'x': ...") before the middleware
    # sees it, so a ValueError reads 'Internal error: Error calling tool ...', not 'Invalid params'.
    **{
        (X, release, "error_middleware"): ("R(`Internal error: Error calling tool '{name}': …`)", f"tests/semantics on {seen}")
        for release, seen in (("2.9.0", "fastmcp 2.9.2"), ("2.10.0", "fastmcp 2.12.5"), ("2.13.0", "fastmcp 2.13.3"))
    },
    # The doc's "2.5-2.12: prefixed like other exceptions" holds on the mcp 1.9 of 2.5-2.9; 2.10-2.12
    # require mcp >= 1.10 and keep its `call_tool()` default validate_input=True, so mcp's
    # jsonschema check answers first (tests/semantics on fastmcp 2.12.5, mcp 1.16.0).
    (X, "2.10.0", "validation_failure"): ("R(`Input validation error: {jsonschema}`)", "tests/semantics on fastmcp 2.12.5"),
}


def test_the_old_masking_spelling_is_read_from_2_8_to_2_13_only() -> None:
    # Beside the run facts above: no other fastmcp row reads FASTMCP_SERVER_ after FASTMCP_, and
    # 2.5-2.7 read FASTMCP_SERVER_ alone.
    for release in ("2.3.0", "2.4.0", "2.14.7", "3.0.0", "3.4.11", "4.2.0"):
        row = channel(X, release)
        assert row is not None and row.mask_env_aliases == (), release
    old = channel(X, "2.5.0")
    assert old is not None and old.mask_env_names == ("FASTMCP_SERVER_MASK_ERROR_DETAILS",)
    both = channel(X, "2.13.0")
    assert both is not None and both.mask_env_names == ("FASTMCP_MASK_ERROR_DETAILS", "FASTMCP_SERVER_MASK_ERROR_DETAILS")


# Where ErrorHandlingMiddleware begins: the doc's §2b says what it does, not since when. Read in the
# wheels (fastmcp 2.8.1 ships no fastmcp/server/middleware package; 2.9.0 ships
# middleware/error_handling.py with the class), and run by tests/semantics: the import fails on
# fastmcp 2.3.0 / 2.4.0 and the class works on 2.14.7 and later.
MIDDLEWARE_SINCE = "2.9"


def test_error_middleware_exists_from_its_first_release() -> None:
    from mcp_lint.model.frameworks import error_middleware_since

    assert error_middleware_since() == MIDDLEWARE_SINCE
    for release in ("2.3.0", "2.4.0", "2.5.0", "2.8.1"):
        row = channel(X, release)
        assert row is not None and row.error_middleware is None and row.middleware_transforms_tool_errors is None, release
    for release in ("2.9.0", "2.14.7", "3.4.11", "4.2.0"):
        row = channel(X, release)
        assert row is not None and row.middleware_transforms_tool_errors, release


@pytest.mark.parametrize(("key", "fact"), list(RUN_FACTS.items()), ids=[f"{f.value}-{r}-{k}" for f, r, k in RUN_FACTS])
def test_facts_found_by_running_the_release(key: tuple[Family, str, str], fact: tuple[str, str]) -> None:
    family, release, kind = key
    assert KINDS[kind](channel(family, release)) == fact[0]


@pytest.mark.parametrize("family", [f for f in FRAMEWORK_TABLE])
def test_every_fact_of_every_row_is_claimed(family: Family) -> None:
    claimed = {(channel(f, release), claim.kind) for claim in CLAIMS for f, release in claim.rows}
    claimed |= {(channel(f, release), kind) for f, release, kind in RUN_FACTS}
    for row in FRAMEWORK_TABLE[family]:
        for kind, render in KINDS.items():
            if render(row) is not None:
                assert (row, kind) in claimed, f"{row.label} {row.span}: {kind} = {render(row)!r} has no claim from the doc"


def _all_rows() -> list[Channel]:
    return [row for rows in FRAMEWORK_TABLE.values() for row in rows]


@pytest.mark.parametrize("row", _all_rows(), ids=lambda row: f"{row.family.value} {row.span}")
def test_every_row_renders_mcp001s_message(row: Channel) -> None:
    """MCP001's clause for one release of the row: its series, then what the model gets."""
    phrase = FrameworkContext(row.family, (row.since,)).protocol_error_phrase("lookup")
    assert phrase.startswith(f"on {row.series} ")
    if row.protocol_error.notation().startswith("E("):
        assert phrase.endswith("the client gets a JSON-RPC error and the model never sees it")
    else:
        assert f"'{row.protocol_error.seen_by_model('lookup')}'" in phrase or "plain tool-result text" in phrase
    assert "{" not in phrase  # every template slot filled


def test_the_api_answers_from_the_rows() -> None:
    mcp118, mcp119 = channel(F, "1.18.0"), channel(F, "1.19.0")
    assert mcp118 and mcp119
    assert mcp118.error_result_survives(ResultShape.CALL_TOOL_RESULT) is False
    assert mcp119.error_result_survives(ResultShape.CALL_TOOL_RESULT) is True
    assert mcp119.error_result_survives(ResultShape.CALL_TOOL_RESULT, structured_return=True) is False
    assert mcp119.error_result_survives(ResultShape.CALL_TOOL_RESULT_SNAKE) is False
    assert mcp119.error_result(ResultShape.TOOL_RESULT) is None  # not a fastmcp class: unknown
    fastmcp33, fastmcp34, fastmcp4 = channel(X, "3.3.0"), channel(X, "3.4.11"), channel(X, "4.2.0")
    assert fastmcp33 and fastmcp34 and fastmcp4
    assert fastmcp33.error_result_survives(ResultShape.TOOL_RESULT) is False
    assert fastmcp34.error_result_survives(ResultShape.TOOL_RESULT) is True
    assert fastmcp34.error_result_survives(ResultShape.CALL_TOOL_RESULT) is False
    assert fastmcp4.error_result_survives(ResultShape.CALL_TOOL_RESULT) is True
    assert not fastmcp34.masks_unexpected_exceptions(False) and fastmcp34.masks_unexpected_exceptions(True)
    assert fastmcp34.middleware_transforms_tool_errors and not fastmcp34.middleware_hides_tool_errors
    assert fastmcp4.middleware_hides_tool_errors and fastmcp4.v1_constructor_crashes
    mcp23 = channel(S, "2.3.0")
    assert mcp23 and mcp23.masks_unexpected_exceptions(False) and mcp23.middleware_transforms_tool_errors is None
    assert mcp118.error_result_shapes == () and mcp119.error_result_shapes == (ResultShape.CALL_TOOL_RESULT,)
    assert fastmcp34.error_result_shapes == (ResultShape.TOOL_RESULT,)
    assert set(fastmcp4.error_result_shapes) == set(ResultShape)
    mcp130 = channel(F, "1.30.0")
    assert mcp130 and not mcp130.masks_unexpected_exceptions(True)  # mcp 1.x has no masking setting


def test_every_candidate_helpers() -> None:
    unknown_fastmcp = FrameworkContext(X, ("2.3.0", "2.4.0", "3.4.11", "4.2.0"))
    assert unknown_fastmcp.any(lambda row: row.error_result_survives(ResultShape.TOOL_RESULT))
    assert not unknown_fastmcp.every(lambda row: row.error_result_survives(ResultShape.TOOL_RESULT))
    assert unknown_fastmcp.every(lambda row: row.masks_unexpected_exceptions(True), mask_setting=True)  # 2.3 has no setting
    assert not unknown_fastmcp.every(lambda row: row.masks_unexpected_exceptions(False))
    assert not FrameworkContext(Family.UNKNOWN, ()).every(lambda row: True)


def test_a_low_level_server_of_either_major_names_both_behaviours() -> None:
    phrase = FrameworkContext(L, ("1.18.0", "1.30.0", "2.3.0"), "pyproject.toml").protocol_error_phrase("lookup")
    assert phrase == (
        "on mcp 2.x (from pyproject.toml) the client gets a JSON-RPC error and the model never sees it "
        "(mcp 1.x: plain tool-result text)"
    )


def test_describe_keeps_one_label_per_line_of_releases() -> None:
    assert FrameworkContext(X, ("3.0.0", "3.4.11"), "pyproject.toml").describe() == "fastmcp 3.x (from pyproject.toml)"
    assert FrameworkContext(X, ("2.3.0", "2.5.0")).describe() == "fastmcp 2.x"
    assert FrameworkContext(S, ("2.0.0", "2.3.0")).describe() == "mcp 2.0 MCPServer / mcp 2.1+ MCPServer"


def test_describe_where_names_the_releases_a_fact_holds_on() -> None:
    pinned = FrameworkContext(X, ("2.14.7", "3.0.0", "3.4.11", "4.2.0"), "pyproject.toml")
    serialized = pinned.describe_where(lambda row: row.error_result_survives(ResultShape.CALL_TOOL_RESULT) is False)
    assert serialized == "fastmcp 2.x / fastmcp 3.x (from pyproject.toml)"
    assert pinned.describe_where(lambda row: row.v1_constructor_fails) == "fastmcp 4.x (from pyproject.toml)"
    assert pinned.describe_where(lambda row: False) == ""
    mcp2 = channel(S, "2.3.0")
    assert mcp2 is not None and mcp2.v1_constructor_fails and not mcp2.v1_constructor_crashes


def test_first_release_where_a_fact_holds() -> None:
    from mcp_lint.model.frameworks import first_release_where

    assert first_release_where(L, lambda row: row.error_result_survives(ResultShape.CALL_TOOL_RESULT)) == "1.19"
    assert first_release_where(X, lambda row: row.error_result_survives(ResultShape.TOOL_RESULT)) == "3.4"
    assert first_release_where(X, lambda row: row.error_result_survives(ResultShape.CALL_TOOL_RESULT)) == "4.0"
    assert first_release_where(S, lambda row: row.masks_unexpected_exceptions(False)) == "2.1"
    assert first_release_where(F, lambda row: row.masks_unexpected_exceptions(False)) is None


def test_every_vendored_line_backs_a_claim() -> None:
    assert set(DOC_LINES) == {claim.line for claim in CLAIMS}
