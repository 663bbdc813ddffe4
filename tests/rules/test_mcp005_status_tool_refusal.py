"""MCP005: a status tool's refusal of an argument the call lacked is a failure of the call, also
when the refusal is an error dict (its message says what is required) and the branch tests a
local made from the argument (`target = (job_id or "").strip()`); what the status check finds is
its answer."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
JOBS: dict[str, str] = {}
"""


def test_a_status_tools_argument_refusal_in_an_error_dict_is_a_failure() -> None:
    check(HEADER + """

@mcp.tool()
def get_firing_status(job_id: str) -> dict:
    target = (job_id or "").strip()
    if not target:
        return {"error": "job_id is required; it comes back from start_firing."}  # expect: MCP005
    state = JOBS.get(target)
    if state is None:
        return {"job_id": target, "status": "pending"}
    return {"job_id": target, "status": state}
""")


def test_a_status_tools_finding_about_the_status_is_its_answer() -> None:
    check(HEADER + """

@mcp.tool()
def get_firing_status(job_id: str) -> dict:
    target = (job_id or "").strip()
    if not target:
        return {"error": "The kiln controller does not answer."}
    return {"job_id": target, "status": JOBS.get(target, "pending")}
""")


def test_a_status_tools_refusal_worded_as_the_absence_of_an_argument_is_a_failure() -> None:
    # "No ids provided": the call lacked what it needs, worded without "required" or "invalid".
    check(HEADER + """

@mcp.tool()
def check_firing_statuses(job_ids: list[str]) -> dict:
    if not job_ids:
        return {"error": "No job_ids provided"}  # expect: MCP005
    return {"statuses": {job: JOBS.get(job, "pending") for job in job_ids}}
""")


def test_a_status_tools_absence_found_by_the_check_is_its_answer() -> None:
    # The same words about what the check found, under a branch that tests no argument: its answer.
    check(HEADER + """

@mcp.tool()
def check_firing_statuses(job_ids: list[str]) -> dict:
    if not JOBS:
        return {"error": "No jobs were given to the kiln yet"}
    return {"statuses": {job: JOBS.get(job, "pending") for job in job_ids}}
""")
