"""MCP005 and the status exemption (a health check's or validator's "invalid" is its answer):
it belongs to a status function's own verdict, never to (1) a failure of the status function's
own upstream call (`if r.status_code != 200: return {"error": ...}`: there is no verdict to
report) or (2) a checker helper's complaint that a tool of no status of its own returns whole
(`err = _validate_query(sql); if err: return err`: the model gets the refusal as an answer).
A tool that words its own failure around the complaint, or a status tool returning it, keeps
the exemption."""

from __future__ import annotations

from ._support import check

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("recipes")
"""


def test_a_status_tools_failed_upstream_call_is_a_failure_its_verdict_is_not() -> None:
    check(HEADER.replace('FastMCP("recipes")', 'FastMCP("recipes")  # expect: MCP007') + """

@mcp.tool()
def validate_recipe(text: str) -> dict:
    reply = httpx.post("https://recipes.invalid/validate", content=text)
    if reply.status_code not in (200, 201):
        return {"error": f"the checker answered HTTP {reply.status_code}"}  # expect: MCP005
    verdict = reply.json()
    if not verdict["valid"]:
        return {"error": f"Invalid recipe: {verdict['reason']}"}
    return verdict
""")


CHECKER = """

def _validate_query(query: str) -> str | None:
    parts = [p for p in query.split(";") if p.strip()]
    if not parts:
        return "Error: the query is empty."{mark}
    if len(parts) > 1:
        return "Error: one statement at a time."{mark}
    return None
"""


def test_a_checkers_complaint_a_tool_returns_whole_is_the_tools_failure() -> None:
    check(HEADER + CHECKER.replace("{mark}", "  # expect: MCP005") + """

@mcp.tool()
def run_query(query: str) -> str:
    problem = _validate_query(query)
    if problem:
        return problem
    return "rows"
""")


def test_a_checkers_complaint_the_tool_words_itself_or_a_status_tool_returns_is_not_the_helpers() -> None:
    check(HEADER + CHECKER.replace("{mark}", "") + """

@mcp.tool()
def run_query(query: str) -> str:
    problem = _validate_query(query)
    if problem:
        return f"Error: cannot run the query ({problem})"  # expect: MCP005
    return "rows"


@mcp.tool()
def validate_query(query: str) -> str:
    problem = _validate_query(query)
    if problem:
        return problem
    return "The query is valid."
""")


def test_a_health_checks_failed_probe_is_its_verdict() -> None:
    # The subject of a health check is whether the service answers: "unhealthy" is its answer.
    check(HEADER.replace('FastMCP("recipes")', 'FastMCP("recipes")  # expect: MCP007') + """

@mcp.tool()
def health_check() -> dict:
    reply = httpx.get("https://recipes.invalid/health")
    if reply.status_code != 200:
        return {"error": f"the service answered HTTP {reply.status_code}"}
    return reply.json()
""")
