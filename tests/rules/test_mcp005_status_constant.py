"""MCP005: a result dict whose status item names a module's text constant (`"status": REFUSED`
with `REFUSED = "failed"` at module level) sends the constant's word: a failure word there is a
failure dict as `"status": "failed"` is."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
REFUSED = "failed"
DONE = "applied"
QUEUED = "pending"
"""


def test_a_status_constant_holding_a_failure_word_is_a_failure_dict() -> None:
    (finding,) = check(HEADER + """

@mcp.tool()
def fire(batch_id: str) -> dict:
    target = (batch_id or "").strip()
    if not target:
        return {"status": REFUSED, "reason": "batch_id is required"}  # expect: MCP005
    return {"status": DONE, "batch": target}
""")
    assert finding.message == "Tool 'fire' returns a failure dict as a normal result"


def test_a_status_constant_holding_another_word_is_no_failure() -> None:
    check(HEADER + """

@mcp.tool()
def fire(batch_id: str) -> dict:
    target = (batch_id or "").strip()
    if not target:
        return {"status": QUEUED, "reason": "waiting for a batch id"}
    return {"status": DONE, "batch": target}
""")


def test_a_local_of_the_constants_name_is_not_the_constant() -> None:
    check(HEADER + """

@mcp.tool()
def fire(batch_id: str, REFUSED: str = "queued") -> dict:
    if not batch_id:
        return {"status": REFUSED, "reason": "waiting for a batch id"}
    return {"status": DONE, "batch": batch_id}
""")
