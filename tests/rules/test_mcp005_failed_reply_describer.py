"""MCP005, D1 (bench/LABELING-decisions.md): a helper handed a failed reply (the response object, or
its status and body) that returns the whole failure text builds the model-facing value: the flow is
reported at the helper's returns, and its callers' `return describe(...)` are pass-throughs. A
caller that found no failure (no test of the reply's status) keeps its own finding."""

from __future__ import annotations

from ._support import check, unmasked

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orchard")
"""

STATUS_AND_BODY = """

def _describe(status_code: int, body: dict) -> str:
    detail = body.get("detail")
    if detail:
        return f"Orchard API error ({status_code}): {detail}"  # expect: MCP005
    return f"Orchard API error ({status_code}): {body}"  # expect: MCP005


def _fetch(path: str):
    resp = httpx.get(path)
    data = resp.json()
    if not resp.is_success:
        return _describe(resp.status_code, data)  # expect: MCP002
    return data


@mcp.tool()
def count_trees(row: str) -> str:
    return str(_fetch(f"/rows/{row}/trees"))
"""

BY_STATUS = """

def _explain(status_code: int, detail: str) -> str:
    if status_code == 429:
        return f"Orchard API error ({status_code}): {detail}. Too many requests."  # expect: MCP005
    if status_code in (401, 403):
        return f"Orchard API error ({status_code}): {detail}. Set ORCHARD_KEY."  # expect: MCP005
    return f"Orchard API error ({status_code}): {detail}"  # expect: MCP005


@mcp.tool()
def list_rows() -> str:
    resp = httpx.get("/rows")
    if resp.status_code != 200:
        detail = resp.text
        return _explain(resp.status_code, detail)  # expect: MCP002
    return resp.text
"""

def test_a_describer_of_a_failed_replys_status_and_body_is_the_flows_place() -> None:
    findings = [f for f in check(unmasked(HEADER) + STATUS_AND_BODY) if f.code == "MCP005"]
    assert {f.message for f in findings} == {"Helper '_describe' returns a failure string as a normal result"}


def test_a_describer_choosing_its_words_by_the_status_is_the_flows_place() -> None:
    findings = [f for f in check(unmasked(HEADER) + BY_STATUS) if f.code == "MCP005"]
    assert len(findings) == 3
    assert all("'_explain'" in f.message for f in findings)


def test_a_caller_wording_its_own_sentence_around_the_describer_keeps_its_finding() -> None:
    # Negative: the caller writes its own failure around the describer's text (not a
    # pass-through): its finding stays, as before this change.
    own_sentence = BY_STATUS.replace(
        "        return _explain(resp.status_code, detail)  # expect: MCP002\n",
        '        return f"Could not list the rows. {_explain(resp.status_code, detail)}"  # expect: MCP002, MCP005\n',
    )
    findings = [f for f in check(unmasked(HEADER) + own_sentence) if f.code == "MCP005"]
    assert "Tool 'list_rows' returns a failure string as a normal result" in {f.message for f in findings}


def test_a_success_status_test_hands_no_failure_on() -> None:
    # Negative: `== 200` is the success branch: nothing there is a found failure; the caller's own
    # failure keeps its finding.
    ok_branch = """

def _summary(status_code: int, text: str) -> str:
    if status_code == 200:
        return f"Rows: {text}"
    return f"Orchard API error ({status_code})"  # expect: MCP005 (judged on its own, as before)


@mcp.tool()
def list_rows() -> str:
    resp = httpx.get("/rows")
    if resp.status_code == 200:
        return _summary(resp.status_code, resp.text)
    return "Orchard API error: the rows could not be listed"  # expect: MCP005
"""
    check(unmasked(HEADER) + ok_branch)
