"""MCP005: a status check whose result type states either outcome (`connected=True` /
`connected=False`) answers with the negative one when the checked service is down, even from
the `except` that learned it; any other tool, or a result that never states success, fails."""

from __future__ import annotations

from ._support import check

SERVER = """\
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("greenhouse")


class ControllerDown(Exception):
    pass


class Reading(BaseModel):
    FLAG: bool
    detail: str | None = None


def _ping(vent: int) -> None:
    if vent > 3:
        raise ControllerDown("The greenhouse controller did not answer; switch it on and call again")


@mcp.tool()
async def TOOL() -> Reading:
    try:
        _ping(2)
    except ControllerDown as exc:
        return Reading(FLAG=False, detail=str(exc))  MARK
    SUCCESS
"""


def _source(tool: str, flag: str, success: str, mark: str) -> str:
    return SERVER.replace("TOOL", tool).replace("FLAG", flag).replace("SUCCESS", success).replace("MARK", mark)


def test_a_status_checks_negative_outcome_is_its_answer() -> None:
    source = _source("greenhouse_status", "connected", "return Reading(connected=True)", "")
    assert [f for f in check(source) if f.code == "MCP005"] == []


def test_another_tool_or_a_result_that_never_states_success_fails() -> None:
    # An action tool: its result saying "not done" is a failure returned as an answer.
    source = _source("open_vents", "opened", "return Reading(opened=True)", "# expect: MCP005")
    assert [f.location.row for f in check(source) if f.code == "MCP005"] == [26]
    # A status tool whose other return is no Reading stating success: the `except` is its failure.
    source = _source("greenhouse_status", "connected", 'return Reading(connected=False, detail="idle")', "# expect: MCP005")
    assert [f.location.row for f in check(source) if f.code == "MCP005"] == [26]


DICT_STATUS = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")


@mcp.tool()
async def TOOL() -> dict:
    report = {"service": "greenhouse", "status": "healthy"}
    try:
        httpx.get("https://controller.invalid/ping")
    except httpx.HTTPError as exc:
        return {"service": "greenhouse", FAILED, "error": str(exc)}  # expect: MCP002MARK
    return report
"""


def test_a_health_dict_stating_the_negative_outcome_a_sibling_states_positively_is_its_answer() -> None:
    check(DICT_STATUS.replace("TOOL", "health_check").replace("FAILED", '"status": "unhealthy"').replace("MARK", ""))


def test_a_health_dict_that_states_no_outcome_or_a_non_status_tool_fails() -> None:
    # No key the other return answers with another value: the check itself crashed.
    check(DICT_STATUS.replace("TOOL", "health_check").replace("FAILED", '"reachable": False').replace("MARK", ", MCP005"))
    # A tool that is no status check: its failure is a failure.
    check(DICT_STATUS.replace("TOOL", "water_beds").replace("FAILED", '"status": "unhealthy"').replace("MARK", ", MCP005"))


FLAG_STATUS = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")


@mcp.tool()
async def TOOL() -> dict:
    try:
        httpx.get("https://controller.invalid/ping").raise_for_status()
    except httpx.HTTPError:
        return {"ok": False, "detail": "The controller did not answer."}MARK
    return {"ok": True}
"""


def test_a_flag_another_return_sets_true_states_the_outcome_of_a_status_check() -> None:
    check(FLAG_STATUS.replace("TOOL", "controller_ping").replace("MARK", ""))
    # The same answer from a tool that is no status check is its failure.
    check(FLAG_STATUS.replace("TOOL", "open_vents").replace("MARK", "  # expect: MCP005"))
