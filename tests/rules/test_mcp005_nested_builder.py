"""MCP005: an error builder defined inside the function that calls it (`def fail(e): return
[TextContent(text=f"Error: {e}")]` in a low-level dispatcher) is the builder its calls with the
caller's own message use, as one defined at module level is: each such call is a failure."""

from __future__ import annotations

from ._support import check

DISPATCHER = """\
import json
from mcp.server.lowlevel import Server
import mcp.types as types

server = Server("kiln")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    def done(data) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=json.dumps(data))]

    def {builder}(e) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=f"Error: {{e}}")]  # expect: MCP005, MCP002

    try:
        if name == "fire":
            glaze = arguments.get("glaze")
            if not glaze:
                return {builder}("A glaze is required. Call list_glazes first.")  {mark}
            return done({{"glaze": glaze}})
        if name == "cool":
            if arguments["low"] > arguments["high"]:
                return {builder}(ValueError("low must be <= high."))  {mark}
            return done({{}})
        return {builder}(f"Unknown tool: {{name}}")
    except Exception as e:
        return {builder}(e)
"""


def test_calls_of_a_nested_error_builder_with_the_callers_message_are_failures() -> None:
    check(DISPATCHER.format(builder="fail", mark="# expect: MCP005"))


def test_a_nested_function_not_named_as_a_builder_is_judged_at_its_own_return_only() -> None:
    check(DISPATCHER.format(builder="wrap", mark=""))
