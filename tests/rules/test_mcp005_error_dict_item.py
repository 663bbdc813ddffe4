"""MCP005 on a failure dict written as the error item of a helper's tuple (`return None,
{"success": False, "error": ...}` beside `return line, None`): reported at the helper's return
where a tool unpacks the tuple and returns that item as it is; silent where the tool raises it."""

from __future__ import annotations

from ._support import check, only

HELPER = """\
from typing import Any

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notebook")

LINES = ["alpha", "beta"]


def _find_line(text: str) -> tuple[int, None] | tuple[None, dict[str, Any]]:
    for number, line in enumerate(LINES):
        if text in line:
            return number, None
    return None, {"success": False, "error": f"No line matches {text!r}"}{mark}
"""

RETURNED = HELPER + """

@mcp.tool()
def annotate(text: str, note: str) -> dict:
    line, error = _find_line(text)
    if error:
        return error
    return {"success": True, "line": line, "note": note}
"""

RAISED = HELPER + """

@mcp.tool()
def annotate(text: str, note: str) -> dict:
    line, error = _find_line(text)
    if error:
        raise ToolError(error["error"])
    return {"success": True, "line": line, "note": note}
"""


def test_a_failure_dict_in_the_error_item_returned_by_a_tool_is_reported() -> None:
    finding = only(RETURNED.replace("{mark}", "  # expect: MCP005"))
    assert finding.message == "Helper '_find_line' returns a failure dict as a normal result"
    assert 'the failure: a dict with an "error" key' in finding.notes


def test_a_failure_dict_item_the_tool_raises_is_silent() -> None:
    check(RAISED.replace("{mark}", ""))
