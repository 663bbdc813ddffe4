"""MCP005, one finding per flow: a helper's text that every caller puts, whole, in the advice item
of its own failure report (`{"error": str(e), "hint": hint_for(name)}`) is the caller's hint about
its failure; the caller's report is the flow, reported once there. The same helper's text sent any
other way is the helper's own failure value."""

from __future__ import annotations

from ._support import check

HEADER = """\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")
BEDS: dict[str, list[str]] = {}


def hint_for(error: str) -> str:
    if "not found" in error.lower():
        return "Bed not found. Call list_beds to see the beds."
    return "Check the bed name and try again."


def plant(bed: str, seed: str) -> None:
    BEDS[bed].append(seed)
"""


def test_a_helpers_text_sent_as_the_advice_of_the_callers_failure_is_the_callers_flow() -> None:
    source = HEADER + """

@mcp.tool()
def sow(bed: str, seed: str) -> str:
    try:
        plant(bed, seed)
    except Exception as e:
        return json.dumps({"error": str(e), "hint": hint_for(str(e))})  # expect: MCP002, MCP005
    return "sown"
"""
    check(source)


def test_a_helpers_failure_text_beside_data_in_a_report_that_claims_no_failure_is_its_own() -> None:
    # The advice item of a report with no error item: the helper's failure text is an answer.
    source = HEADER.replace(
        '        return "Bed not found. Call list_beds to see the beds."',
        '        return "Bed not found. Call list_beds to see the beds."  # expect: MCP005',
    ) + """

@mcp.tool()
def beds(bed: str) -> str:
    rows = BEDS.get(bed, [])
    return json.dumps({"rows": rows, "hint": hint_for(f"bed {bed} not found" if not rows else "")})
"""
    check(source)
