"""Property tests of `--fix --unsafe-fixes` over generated programs (issue #3).

The main property runs over two hundred MCP-server-shaped programs per run, assembled from the
building blocks real servers are made of (framework, server variable, imports with and without
aliases, tools with parameters, try/except sinks, error strings and dicts, protocol errors, vague
messages, writes before checks, helpers): fixing never crashes, the loop always converges, the
fixed code compiles, fixing it again changes nothing, and the defect planted in every program
(a failure returned as a success) was fixed. A smaller hypothesmith test feeds
arbitrary valid Python, alone and as the body of a tool, and asks only for no crash.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import libcst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lazy_strategies import python_source

from mcp_lint.config import SettingsResolver
from mcp_lint.fileio import SourceFile, dominant_newline
from mcp_lint.findings import Finding
from mcp_lint.fixing.apply import fix_source, select_fixes
from mcp_lint.fixing.unused_imports import drop_unused_imports
from mcp_lint.per_file import analyze_text
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import link

# --- linting without per-call setup --------------------------------------------------------------


@lru_cache(maxsize=None)
def _resolver(target: str | None) -> tuple[SettingsResolver, PinSource]:
    resolver = SettingsResolver(isolated=True, overrides={"target": target} if target else None)
    return resolver, PinSource(resolver)


def linter(target: str | None) -> Callable[[str], list[Finding]]:
    """`lint_source` with the settings built once per target: the property runs it thousands of times."""
    resolver, pins = _resolver(target)

    def lint(text: str) -> list[Finding]:
        outcome = analyze_text(SourceFile(text, "utf-8", dominant_newline(text)), Path("server.py"), "server.py")
        assert outcome.internal_error is None, outcome.internal_error
        findings, errors = link([outcome], resolver, pins)
        assert not errors, errors
        return findings

    return lint


# --- the grammar ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Framework:
    imports: str  # the server class import
    server: str  # constructor call, `{name}` for the server's name
    decorator: str  # `{var}` for the server variable
    tool_error: str  # module of the framework's ToolError
    targets: tuple[str | None, ...]  # pins worth trying


HIGH_LEVEL = [
    Framework("from mcp.server.fastmcp import FastMCP", 'FastMCP("{name}")', "@{var}.tool()", "mcp.server.fastmcp.exceptions", (None,)),
    Framework("from mcp.server.fastmcp import FastMCP as Server", 'Server("{name}")', "@{var}.tool()", "mcp.server.fastmcp.exceptions", (None, "mcp>=1.9,<2")),
    Framework("from mcp.server.mcpserver import MCPServer", 'MCPServer("{name}")', "@{var}.tool()", "mcp.server.mcpserver.exceptions", (None, "mcp>=2.1")),
    Framework("from fastmcp import FastMCP", 'FastMCP("{name}")', "@{var}.tool", "fastmcp.exceptions", (None, "fastmcp>=3,<4", "fastmcp>=4")),
    Framework("import fastmcp", 'fastmcp.FastMCP("{name}")', "@{var}.tool()", "fastmcp.exceptions", (None, "fastmcp>=2.5,<3")),
]
LOW_LEVEL_TARGETS = (None, "mcp>=1.19,<2", "mcp>=1.9,<1.19", "mcp>=2")

NAMES = ["notes", "orders", "weather", "files", "tickets"]
SERVER_VARS = ["mcp", "app", "server", "srv"]
PARAMS = ["note_id", "url", "path", "amount", "city", "query", "sku", "quantity", "ticket_id"]
TOOL_NAMES = ["read_note", "fetch", "save", "refund", "search", "close_ticket", "set_stock", "lookup", "ping", "get_status"]
CALLS = ["download", "DB.execute", "client.get", "STORE.read", "convert", "api.fetch_json"]
EXCEPTIONS = ["Exception", "OSError", "ValueError", "httpx.HTTPError", "(KeyError, TypeError)"]
EXC_NAMES = ["e", "exc", "err", "error"]


Lines = list[tuple[int, str]]  # (indentation depth, text)

STATUS_TOOLS = {"ping", "get_status"}
# Planted in the first (non-status) tool of every program: a fixer that fixes nothing must fail the property.
PLANTED = 'return "Error: the catalogue is not loaded yet"'
PLANTED_MESSAGE = '"The catalogue is not loaded yet"'


def nest(lines: Lines, depth: int = 1) -> Lines:
    return [(level + depth, text) for level, text in lines]


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, str | None]:
    """(source, target) of one generated server module."""
    low_level = draw(st.integers(0, 5)) == 0
    var = draw(st.sampled_from(SERVER_VARS))
    name = draw(st.sampled_from(NAMES))
    header: list[str] = []
    if draw(st.booleans()):
        header.append(draw(st.sampled_from(['"""A generated MCP server."""', "from __future__ import annotations"])))
    header += ["import json", "import httpx"]

    tool_error = "ToolError"
    major2 = False
    if low_level:
        target = draw(st.sampled_from(LOW_LEVEL_TARGETS))
        major2 = target == "mcp>=2" or (target is None and draw(st.booleans()))
        header.append("from mcp.server.lowlevel import Server")
        header.append(
            draw(
                st.sampled_from(
                    ["from mcp.types import TextContent", "import mcp.types as types", "from mcp.types import CallToolResult, TextContent"]
                )
            )
        )
    else:
        framework = draw(st.sampled_from(HIGH_LEVEL))
        target = draw(st.sampled_from(framework.targets))
        header.append(framework.imports)
        style = draw(st.sampled_from(["none", "plain", "alias"]))
        if style == "plain":
            header.append(f"from {framework.tool_error} import ToolError")
        elif style == "alias":
            tool_error = draw(st.sampled_from(["TE", "ToolFailure"]))
            header.append(f"from {framework.tool_error} import ToolError as {tool_error}")
    protocol = draw(st.sampled_from(["v1", "v2"]))
    if protocol == "v1":
        header += ["from mcp.shared.exceptions import McpError", "from mcp.types import INVALID_PARAMS, ErrorData"]
    else:
        header += ["from mcp import MCPError", "from mcp.types import INVALID_PARAMS"]
    logging_style = draw(st.sampled_from(["none", "import", "logger", "log"]))
    if logging_style != "none":
        # After a docstring or `from __future__` import, which must come first.
        header.insert(1 if header[0].startswith(('"""', "from __future__")) else 0, "import logging")
    module_level: list[str] = []
    if logging_style == "logger":
        module_level.append("logger = logging.getLogger(__name__)")
    elif logging_style == "log":
        module_level.append(f'log = logging.getLogger("{name}")')
    log_call = {"logger": "logger.exception", "log": "log.error"}.get(logging_style, "print")

    def protocol_error(message: str) -> str:
        if protocol == "v1":
            return f"McpError(ErrorData(code=INVALID_PARAMS, message={message}))"
        return f"MCPError(INVALID_PARAMS, {message})"

    def failure(p: str) -> Lines:
        choices = [
            'return f"Error: {%s} not found"' % p,
            'return {"error": f"No record for {%s}"}' % p,
            'return {"success": False, "message": "%s does not exist"}' % p,
            "raise " + protocol_error(repr(f"{p} is invalid")),
            f'raise {tool_error}("Something went wrong")',
            f'raise {tool_error}("The operation failed. Please try again.")',
            'raise ValueError(f"%s must be positive, got {%s}")' % (p, p),
            'return "Failed to process request"',
        ]
        multi_line: list[Lines] = [
            # A message split over lines, as formatters leave long ones.
            [(0, "return ("), (1, 'f"Error: unknown {%s}. "' % p), (1, '"Pass one of the listed values."'), (0, ")")],
            [(0, f"raise {tool_error}("), (1, 'f"{%s} is out of range; "' % p), (1, '"call list_items first"'), (0, ")")],
            [(0, "return json.dumps("), (1, '{"success": False, "error": f"%s {%s} not found"},' % (p, p)), (1, "indent=2,"), (0, ")")],
        ]
        if draw(st.integers(0, 3)) == 0:
            return draw(st.sampled_from(multi_line))
        return [(0, draw(st.sampled_from(choices)))]

    def sink(p: str, exc: str) -> Lines:
        choices: list[Lines] = [
            [(0, 'return f"Error: {%s}"' % exc)],
            [(0, 'return {"error": str(%s)}' % exc)],
            [(0, 'return f"Could not fetch {%s}: {%s}"' % (p, exc))],
            [(0, 'raise %s(f"Failed to load %s: {%s}")' % (tool_error, p, exc))],
            [(0, f"raise {tool_error}(str({exc})) from {exc}")],
            [(0, 'raise ValueError(f"bad %s: {%s!r}") from %s' % (p, exc, exc))],
            [(0, "raise " + protocol_error(f"str({exc})"))],
            [(0, f'{log_call}("request failed")'), (0, 'return "Error: request failed"')],
            [(0, 'return f"Error: could not read {%s} ({%s})"' % (p, exc))],
            [(0, "return ("), (1, 'f"Failed to fetch {%s}: "' % p), (1, 'f"{%s}"' % exc), (0, ")")],
            [(0, 'return TextContent(type="text", text=f"Error: {%s}")' % exc)],
        ]
        return draw(st.sampled_from(choices))

    def body(params: list[str], asynchronous: bool) -> Lines:
        lines: Lines = []
        p = draw(st.sampled_from(params)) if params else "value"
        has_result = False
        for _ in range(draw(st.integers(1, 3))):
            block = draw(st.sampled_from(["try", "guard", "mutate", "assign", "with", "helper"]))
            if block == "helper" and helpers:
                helper = draw(st.sampled_from(helpers))
                lines += [(0, f"value = _{helper}({p})"), (0, "if value:"), (1, "return value")]
                continue
            call = draw(st.sampled_from(CALLS))
            awaited = "await " if asynchronous and draw(st.booleans()) else ""
            if block == "try":
                exc = draw(st.sampled_from(EXC_NAMES))
                caught = draw(st.sampled_from(EXCEPTIONS))
                lines += [(0, "try:"), (1, f"result = {awaited}{call}({p})"), (0, f"except {caught} as {exc}:")]
                lines += nest(sink(p, exc))
                has_result = True
            elif block == "guard":
                lines += [(0, f"if {p} is None:"), *nest(failure(p))]
            elif block == "mutate":
                lines += [(0, f'DB.execute("UPDATE items SET value = ? WHERE key = ?", ({p}, {p}))'), (0, "DB.commit()")]
                lines += [(0, f"if not {p}:"), (1, f'raise {tool_error}("{p} must not be empty; pass a value")')]
            elif block == "assign":
                lines += [(0, f"value = {awaited}{call}({p})")]
            else:
                lines += [(0, "with LOCK:"), (1, f"STATE[{p}] = {p}"), (1, f"if {p} == 0:"), *nest(failure(p), 2)]
        finals = ['return "ok"', f"return {p}", "return result" if has_result else 'return "done"']
        lines.append((0, draw(st.sampled_from(finals))))
        return lines

    def function(fname: str, decorator: str | None, planted: bool = False) -> Lines:
        params = draw(st.lists(st.sampled_from(PARAMS), max_size=3, unique=True))
        asynchronous = draw(st.booleans())
        signature = ", ".join(f"{p}: str" for p in params)
        out: Lines = [(0, decorator)] if decorator else []
        out.append((0, f"{'async ' if asynchronous else ''}def {fname}({signature}) -> str:"))
        # The defect whose fix the property checks: a failure returned as a success (MCP005).
        plant: Lines = [(0, "if not READY:"), (1, PLANTED)] if planted else []
        return out + nest(plant + body(params, asynchronous))

    functions: list[Lines] = []
    helpers: list[str] = []
    for helper in draw(st.lists(st.sampled_from(["load", "store", "format_error", "validate"]), max_size=2, unique=True)):
        functions.append(function(f"_{helper}", None))
        helpers.append(helper)  # later functions (the tools) may call it
    tools = draw(st.lists(st.sampled_from(TOOL_NAMES), min_size=1, max_size=3, unique=True))
    # A status tool ("ping") may report "failed" as its answer: the defect goes into another one.
    planted_in = next((tool for tool in tools if tool not in STATUS_TOOLS), None)
    server_first = True
    if low_level:
        functions += [function(f"tool_{tool}", None, planted=tool == planted_in) for tool in tools]
        if major2:
            handler: Lines = [(0, "async def handle_call_tool(ctx, params):")]
            for tool in tools:
                handler += [(1, f'if params.name == "{tool}":'), (2, f"return await tool_{tool}(**(params.arguments or {{}}))")]
            handler.append((1, "raise " + protocol_error('f"Unknown tool: {params.name}"')))
            server_line = f'{var} = Server("{name}", on_call_tool=handle_call_tool)'
            server_first = False  # the handler must exist before the constructor names it
        else:
            handler = [(0, f"@{var}.call_tool()"), (0, "async def call_tool(name: str, arguments: dict):")]
            for tool in tools:
                handler += [(1, f'if name == "{tool}":'), (2, f"return await tool_{tool}(**arguments)")]
            handler.append((1, 'raise ValueError(f"Unknown tool: {name}")'))
            server_line = f'{var} = Server("{name}")'
        functions.append(handler)
    else:
        functions += [function(tool, framework.decorator.format(var=var), planted=tool == planted_in) for tool in tools]
        server_line = f"{var} = {framework.server.format(name=name)}"

    indent = draw(st.sampled_from(["    ", "  ", "\t"]))
    blocks = ["\n".join(indent * level + text for level, text in lines) for lines in functions]
    top = "\n".join([*module_level, server_line] if server_first else module_level)
    parts = ["\n".join(header), top, *blocks] + ([] if server_first else [server_line])
    source = "\n\n\n".join(part for part in parts if part) + "\n"
    if draw(st.integers(0, 4)) == 0:
        source = source.replace("\n", "\r\n")
    return source, target


# --- properties ----------------------------------------------------------------------------------


def _compiles(text: str) -> None:
    # Stricter than parsing: also rejects e.g. `await` outside async functions and misplaced
    # `from __future__` imports, which an inserted import could cause.
    compile(text, "server.py", "exec", dont_inherit=True)


def _planted_fix_expected(source: str) -> bool:
    """Every high-level framework has a ToolError to raise. (What a low-level server gets depends
    on its dispatcher and version: tests/test_fixes.py covers those fixes one by one.)"""
    return PLANTED in source and "from mcp.server.lowlevel import Server" not in source


# 200 programs: the planted defect makes each one count (a fixer that does nothing fails on the
# first), and the suite stays fast; raise it locally (HYPOTHESIS profile) when changing fixes.
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_fixing_generated_servers_converges_to_code_that_compiles(program: tuple[str, str | None]) -> None:
    source, target = program
    _compiles(source)  # the generator itself must produce valid programs
    lint = linter(target)
    outcome = fix_source(source, lint, unsafe=True)
    assert outcome.error is None, outcome.error
    _compiles(outcome.fixed)
    libcst.parse_module(outcome.fixed)
    # Line endings survive: a CRLF program stays CRLF only.
    if "\r\n" in source:
        assert "\n" not in outcome.fixed.replace("\r\n", "")
    # The planted defect was fixed: its return is gone, its words are raised (or an error result).
    if _planted_fix_expected(source):
        assert PLANTED not in outcome.fixed
        line = next(line.strip() for line in outcome.fixed.splitlines() if PLANTED_MESSAGE in line)
        assert line.startswith("raise "), line
        assert any(f.code == "MCP005" for f in outcome.applied)
    # A second --fix --unsafe-fixes has nothing left to do: the loop ended on the findings of the
    # fixed text (linting is deterministic), none of which offers an applicable fix.
    assert select_fixes(outcome.remaining, unsafe=True) == []
    assert drop_unused_imports(outcome.fixed, outcome.fixed) == []


def _lint_and_fix_without_crash(source: str) -> None:
    lint = linter(None)
    outcome = fix_source(source, lint, unsafe=True)
    try:
        libcst.parse_module(source)
    except libcst.ParserSyntaxError:
        # CPython accepts a few texts libcst does not (a line continuation at the end of the file):
        # such a file is reported as unreadable and never changed.
        assert outcome.fixed == source
        assert [f.code for f in outcome.remaining] == ["MCP000"]
        return
    # Any fix that did apply left code that parses; a failed loop left the text alone.
    libcst.parse_module(outcome.fixed)
    if outcome.error is not None:
        assert outcome.fixed == source


ROBUSTNESS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

TOOL_HEADER = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("fuzz")\n\n\n@mcp.tool()\ndef fuzz(value: str) -> str:\n'


# hypothesmith compiles what it generates; its SyntaxWarnings ("'int' object is not callable") are noise.
@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@ROBUSTNESS
@given(python_source())
def test_arbitrary_modules_do_not_crash_the_linter_or_the_fixer(source: str) -> None:
    _lint_and_fix_without_crash(source)


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@ROBUSTNESS
@given(python_source("file_input"))
def test_arbitrary_statements_as_a_tool_body_do_not_crash(source: str) -> None:
    body = textwrap.indent(source, "    ") if source.strip() else "    pass\n"
    module = TOOL_HEADER + body + ("\n" if not body.endswith("\n") else "")
    try:
        libcst.parse_module(module)
    except libcst.ParserSyntaxError:
        assume(False)  # indenting broke a continuation line; not a program
    _lint_and_fix_without_crash(module)
