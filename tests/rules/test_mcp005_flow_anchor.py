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


# Issue 20 item 5: "the statement that builds the model-facing failure value". A builder that
# writes the message itself (its callers hand in only the key) is that statement; one that only
# wraps the words its caller chose is not: the caller, who wrote them, is.
OWN_WORDS_BUILDER = HEADER + """
BEDS: dict = {}


def bed_missing_error(bed: str) -> dict:
    return {"error": f"The bed {bed} was not found in the garden."}  # expect: MCP005


@mcp.tool()
def water_bed(bed: str) -> dict:
    if bed not in BEDS:
        return bed_missing_error(bed)
    return {"watered": bed}


@mcp.tool()
def weed_bed(bed: str) -> dict:
    if bed not in BEDS:
        return bed_missing_error(bed)
    return {"weeded": bed}
"""


def test_a_builder_writing_its_own_message_is_reported_once_at_its_return_with_callers_related() -> None:
    findings = check(OWN_WORDS_BUILDER)
    assert len(findings) == 1
    related = [(r.location.row, r.message) for r in findings[0].related]
    assert (15, "returned on by `water_bed()`") in related
    assert (22, "returned on by `weed_bed()`") in related
    assert "reached from tools 'water_bed', 'weed_bed'" in findings[0].notes


def test_a_builder_wrapping_its_callers_words_stays_reported_at_each_caller() -> None:
    source = HEADER + """
BEDS: dict = {}


def _error(message: str) -> dict:
    return {"error": message}


@mcp.tool()
def water_bed(bed: str) -> dict:
    if bed not in BEDS:
        return _error(f"The bed {bed} was not found in the garden.")  # expect: MCP005
    return {"watered": bed}


@mcp.tool()
def weed_bed(bed: str) -> dict:
    if bed not in BEDS:
        return _error("Error: " + bed)  # expect: MCP005
    return {"weeded": bed}
"""
    findings = check(source)
    assert {f.location.row for f in findings} == {15, 22}


def test_a_builder_wording_a_handed_exception_stays_reported_at_its_callers() -> None:
    # The exception each caller caught is its own flow (the first test of this module): the
    # builder's own sentences do not move the anchor when it is handed an exception.
    findings = check(HEADER + BUILDER + CALLERS)
    assert {f.location.row for f in findings} == {18, 26}


def test_a_builder_returning_its_own_sentence_as_text_stays_reported_at_each_caller() -> None:
    # Text only formats the message each caller returns as its failure; a record (flag, error
    # object) is the whole failure value, built in the builder.
    source = OWN_WORDS_BUILDER.replace(
        'def bed_missing_error(bed: str) -> dict:\n    return {"error": f"The bed {bed} was not found in the garden."}  # expect: MCP005',
        'def bed_missing_error(bed: str) -> str:\n    return f"Error: the bed {bed} was not found in the garden."',
    ).replace("return bed_missing_error(bed)", "return bed_missing_error(bed)  # expect: MCP005")
    findings = check(source)
    assert {f.location.row for f in findings} == {15, 22}


def test_a_record_whose_message_is_chosen_in_branches_is_reported_at_the_builder() -> None:
    source = HEADER + """
BEDS: dict = {}


def bed_state_error(bed: str, frozen: bool) -> dict:
    if frozen:
        message = "The soil of this bed is frozen, try again in spring."
    else:
        message = "The bed was not found in the garden."
    return {"ok": False, "error": {"message": message, "bed": bed}}  # expect: MCP005


@mcp.tool()
def water_bed(bed: str) -> dict:
    if bed not in BEDS:
        return bed_state_error(bed, False)
    return {"ok": True, "watered": bed}
"""
    findings = check(source)
    assert [r.location.row for r in findings[0].related if r.message.startswith("returned on")] == [19]


# A describer handed the reply its caller found failed by its status: the record it words from
# the reply is the failure value, built once in the describer for every such caller.
REPLY_DESCRIBER = """
import httpx

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("garden")  # expect: MCP007 (a reply's failure reaches the unmasked server)


def _limit_error(tool: str, response: httpx.Response) -> dict:
    if response.headers.get("Reset"):
        message = "The garden API limit was exceeded, wait for the reset."
    else:
        message = "The garden API limit was exceeded."
    return {"ok": False, "error": {"message": message, "tool": tool}}  # expect: MCP005


@mcp.tool()
def water_bed(bed: str) -> dict:
    response = httpx.get(f"https://garden.example/beds/{bed}")
    if response.status_code == 429:
        return _limit_error("water_bed", response)
    return {"ok": True, "watered": response.json()}
"""


def test_a_describer_of_a_reply_found_failed_by_its_status_is_the_anchor() -> None:
    findings = [f for f in check(REPLY_DESCRIBER) if f.code == "MCP005"]
    assert len(findings) == 1
    assert [r.location.row for r in findings[0].related if r.message.startswith("returned on")] == [21]


def test_a_reply_handed_in_on_a_success_status_keeps_the_callers_finding() -> None:
    # `== 200` finds no failure: the caller decides, as before. (`!= 200` hands a describer whose
    # every value is a failure the reply the caller takes for failed: the describer builds the
    # value, D1; test_mcp005_failed_reply_describer.py.)
    source = REPLY_DESCRIBER.replace("response.status_code == 429", "response.status_code == 200").replace(
        '  # expect: MCP005', ''
    ).replace('return _limit_error("water_bed", response)', 'return _limit_error("water_bed", response)  # expect: MCP005')
    check(source)
