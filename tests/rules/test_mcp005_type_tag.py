"""MCP005: a result that is one of several kinds, tagged by a `type` item (`{"type": "error",
"message": ...}` beside `{"type": "text", ...}`), reports a failure when its tag is a failure word;
another tag (`"type": "summary"`) is a kind of answer."""

from __future__ import annotations

from ._support import check

HEADER = """\
import json
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
LOGS = {"a": "fired"}
"""


def test_a_result_tagged_error_is_a_failure_dict() -> None:
    (finding,) = check(HEADER + """

@mcp.tool()
def read_log(name: str) -> str:
    if name not in LOGS:
        return json.dumps({"type": "error", "message": f"No log named {name}."})  # expect: MCP005
    return json.dumps({"type": "text", "content": LOGS[name]})
""")
    assert finding.message == "Tool 'read_log' returns a failure dict as a normal result"


def test_a_result_tagged_with_another_kind_is_an_answer() -> None:
    check(HEADER + """

@mcp.tool()
def read_log(name: str) -> str:
    if name not in LOGS:
        return json.dumps({"type": "summary", "message": f"{len(LOGS)} logs, none named {name}."})
    return json.dumps({"type": "text", "content": LOGS[name]})
""")
