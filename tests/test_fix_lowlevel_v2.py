"""Fixes on the mcp 2.x low-level Server (review 14 / stop 42 "Fixes"), and fixes that must not
write what the next `check` reports.

On mcp 2.x's low level a raised exception is a JSON-RPC error the model never reads, so the
re-raise that mcp 1.x's low level gets is never offered there: the handler's return of a caught
exception's text becomes an error result (`isError=True`), with MCP002's new message, in the
author's own `CallToolResult`/`TextContent` spelling and layout, for every such return of the
handler or for none. A fix's text is checked again: `check --fix` followed by `check` reports
nothing the first run did not (review 14 "new findings after fixing")."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source
from tests.test_fixes import assert_fixes_to, fixed

MCP2 = "mcp>=2"


def codes(source: str, target: str | None = None) -> list[tuple[str, int, bool]]:
    return sorted((f.code, f.location.row, f.fix is not None) for f in lint_source(source, target=target))


def assert_nothing_new(before: str, after: str, target: str | None = None) -> None:
    """What a user sees when running `check` again after `check --fix --unsafe-fixes`: nothing
    the first run did not report (by rule and message; the lines move with added imports)."""
    first = {(f.code, f.message) for f in lint_source(before, target=target)}
    new = [(f.code, f.location.row, f.message) for f in lint_source(after, target=target) if (f.code, f.message) not in first]
    assert not new, new


# --- mcp 2.x low level: an error result, never a raise ------------------------------------------

DISPATCHER = """\
import logging

from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent

logger = logging.getLogger(__name__)


async def run_query(sql: str) -> list:
    return []


async def handle_call_tool(ctx, params) -> CallToolResult:
    try:
        rows = await run_query(params.arguments["sql"])
        return CallToolResult(content=[TextContent(type="text", text=str(rows))])
    except Exception as e:
        logger.error("Tool %s failed: %s", params.name, e)
        return CallToolResult(content=[TextContent(type="text", text=f"Error: {str(e)}")])


server = Server("warehouse", on_call_tool=handle_call_tool)
"""

DISPATCHER_FIXED = DISPATCHER.replace(
    """        logger.error("Tool %s failed: %s", params.name, e)
        return CallToolResult(content=[TextContent(type="text", text=f"Error: {str(e)}")])
""",
    """        logger.error("Tool %s failed: %s", params.name, e, exc_info=True)
        return CallToolResult(content=[TextContent(type="text", text=f"Tool {params.name} failed")], isError=True)
""",
)


def test_a_v2_handler_returns_an_error_result() -> None:
    # The author's label ("Tool {name} failed" of the log line) is the message, the exception's
    # text is logged with its traceback, and the author's return gets the flag.
    assert fixed(DISPATCHER, MCP2) == DISPATCHER_FIXED
    assert_fixes_to(DISPATCHER, DISPATCHER_FIXED, MCP2)
    assert_nothing_new(DISPATCHER, DISPATCHER_FIXED, MCP2)
    assert not [c for c in codes(DISPATCHER_FIXED, MCP2) if c[0] in {"MCP002", "MCP005"}]
    helps = {f.code: f.fix.message for f in lint_source(DISPATCHER, target=MCP2) if f.fix is not None}
    assert helps == {"MCP002": 'Return an error result, isError=True (f"Tool {params.name} failed")'}, helps


def test_a_v2_handler_is_never_given_a_raise() -> None:
    # Unpinned too: the registration form (`on_call_tool=`) says 2.x, where a raise is a protocol error.
    after = fixed(DISPATCHER)
    assert "raise" not in after and "isError=True" in after, after


ADDED_HANDLER = """\
import mcp.types as types
from mcp.server.lowlevel import Server


async def fetch_page(url: str) -> str:
    return url


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    try:
        page = await fetch_page(args["url"])
    except Exception as exc:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"Fetch failed: {exc}. Check that the URL is public.")],
        )
    return types.CallToolResult(content=[types.TextContent(type="text", text=page)], is_error=False)


server = Server("pages")
server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)
"""


def test_the_hint_the_layout_and_the_flag_spelling_are_the_authors() -> None:
    # One argument a line stays so; `is_error=` as the module writes it; the hint after the
    # exception's text kept; ` as exc` goes when nothing reads it any more (F841).
    after = fixed(ADDED_HANDLER, MCP2)
    assert after == (
        "import logging\n\n"
        + ADDED_HANDLER.replace(
            "from mcp.server.lowlevel import Server\n",
            "from mcp.server.lowlevel import Server\n\nlogger = logging.getLogger(__name__)\n",
        ).replace(
            """    except Exception as exc:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"Fetch failed: {exc}. Check that the URL is public.")],
        )
""",
            """    except Exception:
        logger.exception("Fetch failed. Check that the URL is public.")
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="Fetch failed. Check that the URL is public.")],
            is_error=True,
        )
""",
        )
    ), after
    assert_fixes_to(ADDED_HANDLER, after, MCP2)
    assert_nothing_new(ADDED_HANDLER, after, MCP2)


def test_a_bare_content_list_is_wrapped_in_an_error_result() -> None:
    # A v1-style list is no result on 2.x: the fix returns the author's TextContent in one.
    source = """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent


async def fetch_page(url: str) -> str:
    return url


async def call_tool(ctx, params):
    try:
        page = await fetch_page(params.arguments["url"])
    except OSError as exc:
        return [TextContent(type="text", text=f"Fetch failed: {exc}")]
    return page


server = Server("pages", on_call_tool=call_tool)
"""
    after = fixed(source, MCP2)
    assert 'return CallToolResult(content=[TextContent(type="text", text=f"Fetch failed ({type(exc).__name__})")], isError=True)' in after, after
    assert "from mcp.types import CallToolResult, TextContent\n" in after, after


def test_all_or_none_per_handler() -> None:
    # A second return whose text a helper words gets no fix: the first stays as written too (one
    # error result beside a success carrying another failure would be half a conversion).
    source = DISPATCHER.replace(
        """    except Exception as e:
""",
        """    except KeyError as e:
        return CallToolResult(content=[TextContent(type="text", text=describe(e))])
    except Exception as e:
""",
    ).replace(
        "async def run_query",
        "def describe(exc: Exception) -> str:\n    return f\"{type(exc).__name__}: {exc}\"\n\n\nasync def run_query",
    )
    assert fixed(source, MCP2) == source
    assert [c for c in codes(source, MCP2) if c[0] == "MCP002" and c[1] == 25] == [("MCP002", 25, False)]


def test_v1_low_level_keeps_its_re_raise() -> None:
    # mcp 1.x's low level sends a raised exception's text as an error result: its fix is a raise.
    source = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("warehouse")


@server.call_tool()
async def handle_call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    try:
        return [types.TextContent(type="text", text=str(arguments))]
    except Exception as e:
        return [types.TextContent(type="text", text=f"Error: {str(e)}")]
"""
    after = fixed(source, "mcp==1.9.4")
    # The clause would only re-raise: the try goes (review 16).
    assert after.endswith("    return [types.TextContent(type=\"text\", text=str(arguments))]\n"), after
    assert "isError" not in after and "try:" not in after


# --- a fix must not write what the next `check` reports --------------------------------------

DECODE = """\
import logging

import requests
from fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("articles")


@mcp.tool()
def get_article(article_id: str) -> str:
    response = requests.get(f"https://example.invalid/articles/{article_id}")
    if response.status_code != 200:
        return f"HTTP {response.status_code}"
    try:
        data = response.json()
    except ValueError as e:
        return f"Bad JSON ({e}): {response.text}"
    return data["text"]
"""


def test_the_body_of_a_reply_that_failed_to_decode_is_not_raised() -> None:
    # Raised, a reply's body in the clause that caught its failed decoding is MCP002's finding:
    # the fix drops it with the exception's text (before: `raise ToolError(f"Bad JSON:
    # {response.text}")`, reported by the next check with no fix).
    after = fixed(DECODE)
    assert after == DECODE.replace(
        "from fastmcp import FastMCP\n", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n"
    ).replace(
        '        return f"Bad JSON ({e}): {response.text}"\n',
        '        logger.exception("Bad JSON")\n        raise ToolError("Bad JSON") from e\n',
    ), after
    assert_nothing_new(DECODE, after)


def test_a_body_the_clause_did_not_find_failed_stays() -> None:
    # A KeyError on the decoded data: the reply was an answer, its text the author's to send, and
    # the next check reports nothing on what the fix wrote.
    source = DECODE.replace("    try:\n        data = response.json()\n    except ValueError as e:", "    data = response.json()\n    try:\n        data = data[\"article\"]\n    except KeyError as e:")
    after = fixed(source)
    assert "{response.text}" in after, after
    before = {c for c in codes(source) if c[0] == "MCP002"}
    assert {c for c in codes(after) if c[0] == "MCP002"} <= before


# --- a broad clause around a program start keeps the OS's class ---------------------------------

RUNNER = """\
import shlex
import subprocess

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("runner")


class RunnerError(Exception):
    pass


class RunFailed(RunnerError):
    pass


def run_program(command_line: str) -> subprocess.CompletedProcess:
    try:
        argv = shlex.split(command_line)
        return subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except RunnerError:
        raise
    except Exception as e:
        raise RunFailed(f"Program run failed: {str(e)}")


@server.call_tool()
async def handle_call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    try:
        result = run_program(arguments["command"])
        return [types.TextContent(type="text", text=result.stdout)]
    except Exception as e:
        return [types.TextContent(type="text", text=f"Error: {str(e)}")]
"""


def test_a_re_raising_dispatcher_leaves_the_program_start_its_reason() -> None:
    # Stop 42's mixed public fix: the 1.x dispatcher re-raises, then (a later pass) the helper's
    # raise is MCP002's and is rewritten; the class of a failed start (FileNotFoundError: no such
    # program, TimeoutExpired) stays, the model's next command depends on it.
    after = fixed(RUNNER, "mcp==1.9.4")
    assert after == RUNNER.replace(
        '        raise RunFailed(f"Program run failed: {str(e)}")\n',
        '        raise RunFailed(f"Program run failed ({type(e).__name__})") from e\n',
    ).replace(
        # The clause would only re-raise: the try goes, its body dedented (review 16).
        '    try:\n        result = run_program(arguments["command"])\n        return [types.TextContent(type="text", text=result.stdout)]\n'
        '    except Exception as e:\n        return [types.TextContent(type="text", text=f"Error: {str(e)}")]\n',
        '    result = run_program(arguments["command"])\n    return [types.TextContent(type="text", text=result.stdout)]\n',
    ), after
    assert_fixes_to(RUNNER, after, "mcp==1.9.4")
    assert_nothing_new(RUNNER, after, "mcp==1.9.4")


def test_a_broad_clause_around_a_request_names_no_class() -> None:
    # Around any other call the class could be anyone's: the message names the operation only.
    source = RUNNER.replace("import subprocess\n", "import subprocess\n\nimport httpx\n").replace(
        "        return subprocess.run(argv, capture_output=True, text=True, timeout=30)\n",
        '        return httpx.post("http://localhost:9000/run", json={"argv": argv})\n',
    )
    after = fixed(source, "mcp==1.9.4")
    assert 'raise RunFailed("Program run failed") from e\n' in after, after


JSON_CLAUSES = """\
import json

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("articles")
BASE = "http://localhost:8080/api"


@mcp.tool()
async def list_articles(category: str) -> str:
    \"\"\"List the articles of a category.\"\"\"
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get(f"{BASE}/articles", params={"category": category})
        except httpx.HTTPError as e:
            return f"Failed to reach the site: {e}"
        if response.status_code != 200:
            return f"Failed to list articles: HTTP {response.status_code} - {response.text}"
        try:
            data = response.json()
        except json.JSONDecodeError:
            return f"Failed to list articles: Invalid JSON - {response.text}"
        return json.dumps(data)
"""


def test_review_14s_json_clause_leaves_nothing_new() -> None:
    # Review 14 (c260381): `raise ToolError(f"... Invalid JSON - {response.text}") from None` was
    # reported by the next check with no fix. The body goes; the status branch that still returns
    # it (no fix offered) is reported before and after alike.
    after = fixed(JSON_CLAUSES)
    assert '            raise ToolError("Failed to list articles: Invalid JSON") from None\n' in after, after
    assert_nothing_new(JSON_CLAUSES, after)
