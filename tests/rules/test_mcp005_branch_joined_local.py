"""MCP005 on a local assigned on several paths and serialised at one return after them
(`result = {"error": ...}` in one branch, data in the other, then
`return [TextContent(text=json.dumps(result))]`): the reaching definitions of the serialised
local on the control-flow graph; reported at the failure branch's assignment. Not when no branch
holds a failure, nor when the local goes through a helper that reshapes it."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import json

import mcp.types as types
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("aviary")


def find_bird(bird_id: str) -> dict | None:
    return None


def ring(bird_id: str) -> None:
    return None


def summarize(record: dict) -> str:
    return ", ".join(record)


@mcp.tool()
def get_bird(bird_id: str) -> list[types.TextContent]:
    bird = find_bird(bird_id)
    if bird is None:
        result = {"status": "not_found", "message": f"Bird {bird_id} not found"}  # expect: MCP005
    else:
        result = {"status": "success", "bird": bird}
    return [types.TextContent(type="text", text=json.dumps(result, indent=2))]


@mcp.tool()
def ring_bird(bird_id: str) -> str:
    try:
        ring(bird_id)
        reply = {"ringed": bird_id}
    except OSError:
        reply = {"error": f"Could not ring bird {bird_id}"}  # expect: MCP005
    return json.dumps(reply)


@mcp.tool()
def bird_card(bird_id: str) -> list[types.TextContent]:
    bird = find_bird(bird_id)
    if bird is None:
        card = {"name": bird_id, "seen": 0}
    else:
        card = {"name": bird_id, "seen": 1}
    return [types.TextContent(type="text", text=json.dumps(card))]


@mcp.tool()
def bird_note(bird_id: str) -> list[types.TextContent]:
    bird = find_bird(bird_id)
    if bird is None:
        record = {"error": "unknown"}
    else:
        record = {"name": bird_id}
    return [types.TextContent(type="text", text=summarize(record))]
"""


def test_a_branch_joined_serialised_local_sends_each_branch() -> None:
    check(SOURCE)


TRY_BODY = """\
import json

import mcp.types as types
from mcp.server.lowlevel import Server

app = Server("aviary")


def band(bird_id: str) -> dict:
    return {"banded": bird_id}


@app.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    try:
        result = band(arguments["bird_id"])
    except OSError:
        result = {"error": f"Could not band bird {arguments['bird_id']}"}  # expect: MCP005
    return [types.TextContent(type="text", text=json.dumps(result, indent=2))]


@app.call_tool()
async def call_tool_twice(name: str, arguments: dict) -> list[types.TextContent]:
    result = {"error": "not banded yet"}
    if arguments.get("bird_id"):
        result = band(arguments["bird_id"])
    return [types.TextContent(type="text", text=json.dumps(result, indent=2))]
"""


def test_the_try_bodys_last_store_does_not_reach_its_except_clause() -> None:
    """`result = call()` raising into `except: result = {...}` stored nothing: the two stores
    are branches, not a default the clause replaces."""
    check(TRY_BODY)
