"""MCP005 and the unknown-tool branch: a low-level `call_tool` handler that delegates the dispatch
to a function of its own answers a name it does not list there ("Unknown tool: x"); that answer
is a protocol miss of the dispatch (MCP001's concern), not a tool's failure, wherever the dispatch
is written. A failure of a listed tool in the same function is still one."""

from __future__ import annotations

from ._support import check

SOURCE = """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent

server = Server("greenhouse")
BEDS = {"north": ["basil"]}


async def route(name: str, arguments: dict) -> list[TextContent]:
    if name == "list_bed":
        bed = arguments.get("bed", "")
        if bed not in BEDS:
            return [TextContent(type="text", text=f"Error: no bed named {bed}")]  # expect: MCP005
        return [TextContent(type="text", text=", ".join(BEDS[bed]))]
    else:
        return [TextContent(type="text", text=f"Unknown tool: {name}")]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    return await route(name, arguments)
"""


def test_an_unknown_tool_answer_of_a_delegated_dispatch_is_no_tool_failure() -> None:
    check(SOURCE)
