"""MCP002 on a 2xx reply whose own failure field is tested through a local that holds it (heldout16
CAUSES-MCP002 form B): `errors = data.get("errors") if isinstance(data, dict) else None` then `if
errors:`, or a status word normalised into a local (`state = str(data.get("state", "")).lower()`)
tested by membership in a literal list of failure words; the reply's fields put into the raised
text are an upstream error body. Silent: a local of a non-status field tested, a status local
compared with words that are no verdict, success words."""

from __future__ import annotations

from ._support import check, said, unmasked

HEADER = unmasked("""\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("jobs")


class QueryError(Exception):
    pass


""")


def _messages(source: str, header: str = HEADER) -> list[str]:
    return [said(f).splitlines()[0] for f in check(header + source) if f.code == "MCP002"]


def test_error_field_local_tested_by_truthiness() -> None:
    assert _messages("""\
@mcp.tool()
def run_query(query: str) -> dict:
    \"\"\"Run a query.\"\"\"
    reply = httpx.post("https://q.invalid/graph", json={"query": query})
    parsed = reply.json()
    errors = parsed.get("errors") if isinstance(parsed, dict) else None
    if errors:
        raise QueryError(f"Query failed: {errors}")  # expect: MCP002
    return parsed["data"]
""") == ["Tool 'run_query' raises QueryError with an upstream error body (parsed.get(\"errors\"))"]


def test_normalised_status_local_in_a_list_of_failure_words() -> None:
    # Metamorphic: another status key, an early success branch, the field read into a local.
    assert _messages("""\
@mcp.tool()
def job_state(job_id: str) -> str:
    \"\"\"State of a job.\"\"\"
    resp = httpx.get(f"https://q.invalid/jobs/{job_id}")
    body = resp.json()
    phase = str(body.get("status", "")).strip().lower()
    if phase in ["ok", "success"]:
        return "done"
    elif phase in ("failed", "error"):
        reason = body.get("message", "unknown")
        raise ToolError(f"Job {job_id} failed: {reason}")  # expect: MCP002
    return "running"
""") == ["Tool 'job_state' puts an upstream error body (body.get(\"message\", \"unknown\")) into ToolError"]


def test_locals_of_other_fields_and_stage_words_are_silent() -> None:
    check(HEADER + """\
@mcp.tool()
def job_stage(job_id: str) -> str:
    \"\"\"Stage of a job.\"\"\"
    resp = httpx.get(f"https://q.invalid/jobs/{job_id}")
    data = resp.json()
    state = data.get("state")
    if state in ("running", "queued"):
        raise ToolError(f"Job still {state}: {data.get('note')}")
    count = data.get("count")
    if count:
        return f"Counted: {data.get('note')}"
    return "done"
""")


def test_failure_after_leaving_on_success_inside_a_try_returned_in_an_envelope_tuple() -> None:
    # The early return on the reply's success sits in the `try` body, and the failure is the
    # first item of an (envelope, retryable) tuple the caller reads.
    assert _messages("""\
def _once(endpoint: str):
    try:
        response = httpx.get(f"https://n.invalid/{endpoint}")
        data: dict = response.json()
        if data.get("status") == "success":
            return {"status": "success", "data": data}, False
        message = data.get("message") or "Unknown error."
        return {"status": "error", "message": message}, False  # expect: MCP002
    except httpx.HTTPError:
        return {"status": "error", "message": "request failed"}, True


@mcp.tool()
def headlines(topic: str) -> dict:
    \"\"\"Headlines.\"\"\"
    envelope, _ = _once(topic)
    return envelope
""", HEADER.replace("  # expect: MCP007", "")) == ["Helper '_once' returns an upstream error body (data.get(\"message\")) as a normal result"]


def test_success_tuple_and_a_status_left_on_in_another_branch_are_silent() -> None:
    check(HEADER.replace("  # expect: MCP007", "") + """\
def _once(endpoint: str):
    try:
        response = httpx.get(f"https://n.invalid/{endpoint}")
        data: dict = response.json()
        if data.get("count") == 0:
            return {"status": "success", "data": []}, False
        return {"status": "success", "data": data.get("message")}, False
    except httpx.HTTPError:
        return {"status": "error", "message": "request failed"}, True


@mcp.tool()
def headlines(topic: str) -> dict:
    \"\"\"Headlines.\"\"\"
    envelope, _ = _once(topic)
    return envelope
""")
