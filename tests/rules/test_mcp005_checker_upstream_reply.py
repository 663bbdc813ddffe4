"""MCP005 in a tool named like a checker (`verify_*`, `check_*`): its name exempts only its
verdict (what it checks came out bad), not a reply of its own upstream call that lacks a field the
call needs (`if job_id is None: return {"error": "No job id returned ..."}`): that call failed.
And a failed job's status word put into the sentence ("Job 7 failed (status: error).") still
says the job failed, in a tool that is no status check."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("verifier")


def submit_batch(items: list[str]) -> dict:
    return {}


def batch_state(batch_id: str) -> dict:
    return {}


def job_state(job_id: str) -> dict:
    return {}


def lookup_address(address: str) -> dict:
    return {}
"""


def test_a_missing_field_of_the_checkers_own_reply_fails_the_call() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def verify_items_and_wait(items: list[str]) -> dict:
    submitted = submit_batch(items)
    if "error" in submitted:
        return submitted
    batch_id = submitted.get("batch", {}).get("id")
    if batch_id is None:
        return {"error": "No batch id returned from submission", "raw": submitted}  # expect: MCP005
    return batch_state(batch_id)


@mcp.tool()
def get_job_results(job_id: str) -> str:
    data = job_state(job_id)
    status = data.get("status", "")
    if status in ("error", "not_found"):
        return f"Job `{job_id}` failed (status: {status})."  # expect: MCP005
    if status != "finished":
        return f"Job `{job_id}` is {status}; check again later."
    return f"Job `{job_id}` finished: {data.get('result')}"
"""
    )


def test_the_checkers_verdict_stays_its_answer() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def verify_address(address: str) -> dict:
    reply = lookup_address(address)
    if not reply.get("deliverable"):
        return {"valid": False, "error": f"{address} cannot receive mail"}
    return {"valid": True, "address": address}


@mcp.tool()
def check_job(job_id: str) -> str:
    data = job_state(job_id)
    status = data.get("status", "")
    if status in ("error", "not_found"):
        return f"Job `{job_id}` failed (status: {status})."
    return f"Job `{job_id}` is {status}."
"""
    )
