"""MCP005, one flow one finding: a helper that only formats a failure message is reported where a
caller returns what it built (where the fix goes), its returns travel as related locations."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("garden")
"""

BUILDER = """
def _format_error(exc: Exception) -> str:
    if isinstance(exc, TimeoutError):
        return "Error: the greenhouse did not answer in time."
    if isinstance(exc, PermissionError):
        return "Error: the greenhouse refused access."
    return f"Error: the greenhouse call failed ({type(exc).__name__})."
"""

CALLERS = """

@mcp.tool()
def water_bed(bed: str) -> str:
    try:
        return GREENHOUSE.water(bed)
    except Exception as exc:
        return _format_error(exc)  # expect: MCP005


@mcp.tool()
def count_seeds(tray: str) -> str:
    try:
        return str(GREENHOUSE.seeds(tray))
    except Exception as exc:
        return _format_error(exc)  # expect: MCP005
"""


def test_a_message_builder_is_reported_at_its_callers_with_its_returns_related() -> None:
    findings = check(HEADER + BUILDER + CALLERS)
    assert len(findings) == 2
    for finding in findings:
        assert [r.location.row for r in finding.related] == [7, 9, 10]
        assert all(r.filename == "server.py" for r in finding.related)


def test_a_builder_that_also_returns_data_is_still_reported_at_its_failure_returns() -> None:
    mixed = BUILDER.replace(
        '    return f"Error: the greenhouse call failed ({type(exc).__name__})."',
        "    return GREENHOUSE.last_reading()",
    ).replace('        return "Error: the greenhouse did not answer in time."', '        return "Error: the greenhouse did not answer in time."  # expect: MCP005').replace(
        '        return "Error: the greenhouse refused access."', '        return "Error: the greenhouse refused access."  # expect: MCP005'
    )
    findings = check(HEADER + mixed + CALLERS)
    # Each failure return is its own anchor: no finding points at the builder's returns.
    assert not any(r.location.row in (7, 9) for f in findings for r in f.related)


def test_a_builder_registered_as_a_tool_keeps_its_own_findings() -> None:
    source = HEADER + """
@mcp.tool()
def report_failure(code: int) -> str:
    if code == 1:
        return "Error: the greenhouse did not answer in time."  # expect: MCP005
    return "Error: the greenhouse refused access."  # expect: MCP005
"""
    check(source)
