"""MCP005 and a low-level dispatcher's miss: the answer to a tool name it does not list is not a
tool's failure, whatever form it takes; a failure inside a listed tool's branch still is."""

from __future__ import annotations

import pytest

from ._support import check

DISPATCHER = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("pantry")
JARS: dict[str, int] = {}


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "count_jars":
        shelf = arguments.get("shelf", "")
        if shelf not in JARS:
            return [types.TextContent(type="text", text=f"Error: shelf {shelf} does not exist")]  # expect: MCP005
        return [types.TextContent(type="text", text=str(JARS[shelf]))]
    elif name == "list_shelves":
        return [types.TextContent(type="text", text=", ".join(JARS))]
MISS
"""


@pytest.mark.parametrize(
    "miss",
    [
        '    else:\n        return [types.TextContent(type="text", text=f"Unknown tool: {name}")]',
        '    else:\n        return [types.TextContent(type="text", text=f"Error: no handler for {name}")]',
        '    return [types.TextContent(type="text", text=f"Unknown tool: {name}")]',
    ],
    ids=["else-unknown-tool", "else-other-wording", "after-the-branches"],
)
def test_the_dispatchers_miss_is_not_reported_a_tools_failure_is(miss: str) -> None:
    check(DISPATCHER.replace("MISS", miss))


def test_the_same_wording_in_a_decorated_tool_is_reported() -> None:
    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("pantry")


@mcp.tool()
def run_recipe(step_name: str) -> str:
    if step_name not in STEPS:
        return f"Unknown step: {step_name}"  # expect: MCP005
    return STEPS[step_name]()
"""
    )


def test_a_plain_content_dict_carrying_a_failure_is_reported_like_text_content() -> None:
    source = DISPATCHER.replace("MISS", "")
    source = source.replace(
        '            return [types.TextContent(type="text", text=f"Error: shelf {shelf} does not exist")]  # expect: MCP005',
        '            return [{"type": "text", "text": f"Error: shelf {shelf} does not exist"}]  # expect: MCP005',
    )
    check(source)


def test_a_plain_content_dict_carrying_an_answer_is_not_reported() -> None:
    source = DISPATCHER.replace("MISS", "").replace(
        '            return [types.TextContent(type="text", text=f"Error: shelf {shelf} does not exist")]  # expect: MCP005',
        '            return [{"type": "text", "text": f"Shelf {shelf} holds no jars yet"}]',
    )
    check(source)


def test_a_membership_test_on_the_name_with_a_records_wording_is_still_reported() -> None:
    # `name not in DATA` may be about a record the tool looks up: only unknown-tool wording or the
    # `else:` of the tool-name branches marks the dispatcher's miss.
    source = DISPATCHER.replace("MISS", "").replace(
        '    if name == "count_jars":',
        '    if name not in JARS:\n        return [types.TextContent(type="text", text="Error: no such jar")]  # expect: MCP005\n    if name == "count_jars":',
    )
    check(source)


TABLE_DISPATCHER = """\
import json

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("pantry")
JARS: dict[str, int] = {}


def _reply(payload: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=json.dumps(payload))]


def _failed(message: str) -> list[types.TextContent]:
    return _reply({"success": False, "error": message})


async def count_jars(arguments: dict) -> list[types.TextContent]:
    return _reply({"count": len(JARS)})


HANDLERS = {"count_jars": count_jars}


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    handler = HANDLERS.get(name)
    if handler is None:
        MISS
    return await handler(arguments)
"""


@pytest.mark.parametrize(
    "miss",
    [
        'return [types.TextContent(type="text", text=json.dumps({"error": f"Unknown tool: {name}"}))]',
        'return _failed(f"Unknown tool: {name}")',
    ],
    ids=["json-error-dict", "error-builder"],
)
def test_a_table_dispatchers_miss_as_an_error_dict_is_not_a_tools_failure(miss: str) -> None:
    check(TABLE_DISPATCHER.replace("MISS", miss))


def test_a_table_dispatchers_other_failure_as_an_error_dict_is_reported() -> None:
    miss = 'return [types.TextContent(type="text", text=json.dumps({"error": "Pantry is locked: ask for the key"}))]  # expect: MCP005'
    check(TABLE_DISPATCHER.replace("MISS", miss))
