"""MCP002, one flow through a chain of describers: the tool hands a caught library exception to a
helper that hands it on whole to another (`explain(exc)` returning `scrub(describe(exc))`), and
that last one puts the text in. The finding is the describer's; the tool's clause only passes the
flow on, however it holds the value (a local, `+=` of its own hint, another wrapper around it, a
second helper handed the same exception that only reads it)."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

DESCRIBE = """\
import httpx


def describe(exc: Exception) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return "Error: the inventory service timed out; the outcome of a write is unknown."
    return f"Error: unexpected failure - {type(exc).__name__}: {exc}"


def scrub(text: str) -> str:
    return text.replace("Bearer ", "Bearer ***")


def explain(exc: Exception) -> str:
    EXPLAIN


def with_hint(message: str, exc: Exception, hint: str) -> str:
    if not isinstance(exc, httpx.HTTPStatusError):
        return message
    return f"{message} (HTTP {exc.response.status_code}): {hint}"
"""

SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

from stock.errors import explain, scrub, with_hint

mcp = FastMCP("stock")


@mcp.tool()
async def reserve_item(sku: str, count: int) -> str:
    try:
        async with httpx.AsyncClient() as client:
            resp = await client.post("https://stock.invalid/reserve", json={"sku": sku, "count": count})
            resp.raise_for_status()
        return f"Reserved {count} of {sku}."
    except Exception as exc:
        HANDLE
"""

CHAINED = "return scrub(describe(exc))"


def _lint(tmp_path: Path, handle: str, explain: str = CHAINED) -> list[tuple[str, int, str]]:
    write_tree(
        tmp_path,
        {
            "stock/__init__.py": "",
            "stock/errors.py": DESCRIBE.replace("EXPLAIN", explain),
            "stock/server.py": SERVER.replace("HANDLE", handle),
        },
    )
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP002"]


DESCRIBER = ("errors.py", 7, "Helper 'describe' returns the text of the exception passed in 'exc' as a normal result")


def test_the_describer_two_calls_down_reports_a_tool_returning_the_chain_whole(tmp_path: Path) -> None:
    assert _lint(tmp_path, "return explain(exc)") == [DESCRIBER]


def test_a_local_holding_the_chains_text_is_the_describers_flow(tmp_path: Path) -> None:
    handle = "message = explain(exc)\n        return message"
    assert _lint(tmp_path, handle) == [DESCRIBER]


def test_a_hint_added_to_the_chains_text_and_scrubbed_again_is_the_describers_flow(tmp_path: Path) -> None:
    handle = 'message = explain(exc)\n        message += "\\nRead the reservation back before retrying."\n        return scrub(message)'
    assert _lint(tmp_path, handle) == [DESCRIBER]


def test_a_second_helper_handed_the_same_exception_that_only_reads_its_status_is_the_describers_flow(tmp_path: Path) -> None:
    handle = 'return with_hint(explain(exc), exc, "check the sku")'
    assert _lint(tmp_path, handle) == [DESCRIBER]


def test_a_chain_that_keeps_the_exceptions_text_out_leaves_the_tools_own_interpolation_reported(tmp_path: Path) -> None:
    # Nothing down the chain reports: the tool's own `{exc}` beside it is the finding.
    explain = 'return scrub("Error: the inventory service failed; " + type(exc).__name__)'
    handle = 'return f"{explain(exc)} ({exc})"'
    findings = _lint(tmp_path, handle, explain=explain)
    assert [(name, row) for name, row, _ in findings] == [("server.py", 17)]
    assert findings[0][2] == "Tool 'reserve_item' returns the text of a caught Exception as a normal result"


def test_a_tool_interpolating_the_exception_beside_the_chain_is_still_reported_there(tmp_path: Path) -> None:
    handle = 'message = explain(exc)\n        return f"{message} (raw: {exc})"'
    findings = _lint(tmp_path, handle)
    assert [(name, row) for name, row, _ in findings] == [("errors.py", 7), ("server.py", 17)]
