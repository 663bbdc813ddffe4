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
