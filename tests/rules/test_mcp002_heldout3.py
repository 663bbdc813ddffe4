"""MCP002 shapes met on unlabeled real servers: a text passed through a chain of locals is one
flow with one finding, where the exception is read; a regex (or other parse-only error) caught
around the tool's own pattern describes what the model sent."""

from __future__ import annotations

from ._support import said, check


# -- one flow through a chain of locals: one finding, on the line that reads `e` ------------------


def test_chain_of_locals_reports_the_building_line_only() -> None:
    findings = check(
        """\
        import json

        import httpx
        from mcp.server.lowlevel import Server
        from mcp import types

        server = Server("tickets")
        WRITE_HINT = " (the token may lack write scope)"


        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> types.CallToolResult:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.post(f"https://tickets.example.com/{name}", json=arguments)
                return types.CallToolResult(content=[types.TextContent(type="text", text=response.text)])
            except Exception as e:
                error_msg = f"Failed to run '{name}': {e}"  # expect: MCP002
                if name.startswith("update"):
                    error_msg += WRITE_HINT
                error_text = json.dumps({"error": error_msg})
                return types.CallToolResult(content=[types.TextContent(type="text", text=error_text)], isError=True)
        """
    )
    (finding,) = findings
    assert finding.location.row == 18
    # The statements that carry the text on, then the one that sends it.
    assert [(r.location.row, r.message) for r in finding.related] == [
        (20, "`error_msg` is extended, the text still in it"),
        (21, "the text is carried into `error_text`"),
        (22, "the text is returned here"),
    ]
    assert "in its error result" in said(finding)


def test_second_local_built_from_the_exception_itself_is_reported_there() -> None:
    # The last local reads `e` again: that is where the sent text is built.
    findings = check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("tickets")


        @mcp.tool()
        async def reopen_ticket(ticket_id: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    await client.post(f"https://tickets.example.com/{ticket_id}/reopen")
                return "reopened"
            except httpx.HTTPError as e:
                summary = "reopen failed"
                detail = f"{summary}: {e}"  # expect: MCP002
                raise ToolError(detail) from e
        """
    )
    assert [f.location.row for f in findings] == [16]


# -- errors only a parser raises, caught around the tool's own input -----------------------------

REGEX_TOOLS = """\
import re

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("catalog")
CODES = ["compute", "storage", "queue"]


@mcp.tool()
async def find_codes(pattern: str) -> dict:
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
        matches = [code for code in CODES if compiled.search(code)]
        if not matches:
            return {"codes": [], "hint": await suggest(pattern)}
    except re.error as e:
        return {"message": f"Invalid regex pattern {pattern!r}: {e}", "hint": "escape special characters"}  # expect: MCP005
    return {"codes": matches}


@mcp.tool()
async def find_by_stored_rule(rule_id: str) -> dict:
    try:
        rule = await load_rule(rule_id)
        compiled = re.compile(rule)
        return {"codes": [code for code in CODES if compiled.search(code)]}
    except re.error as e:
        return {"message": f"Stored rule {rule_id} does not compile: {e}"}  # expect: MCP002, MCP005


@mcp.tool()
async def find_with_both(pattern: str, rule_id: str) -> dict:
    try:
        compiled = re.compile(pattern)
        stored = re.compile(await load_rule(rule_id))
        return {"codes": [c for c in CODES if compiled.search(c) and stored.search(c)]}
    except re.error as e:
        return {"message": f"A pattern does not compile: {e}"}  # expect: MCP002, MCP005
"""


def test_regex_error_of_the_tools_own_pattern_is_not_library_text() -> None:
    # (Each clause also returns its failure as a success dict: MCP005, a rule of its own.)
    findings = [f for f in check(REGEX_TOOLS) if f.code == "MCP002"]
    assert {f.location.row for f in findings} == {28, 38}
    assert all("caught re.error" in said(f) for f in findings)


def test_regex_error_with_a_broad_class_beside_it_stays_flagged() -> None:
    # `except (re.error, Exception)`: the broad class catches the I/O of the body too.
    check(
        """\
        import re

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("catalog")


        @mcp.tool()
        async def find_codes(pattern: str) -> str:
            try:
                compiled = re.compile(pattern)
                codes = await fetch_codes()
                return ", ".join(c for c in codes if compiled.search(c))
            except (re.error, Exception) as e:
                return f"Search failed: {e}"  # expect: MCP002, MCP005
        """
    )



def test_parse_of_a_local_taken_from_a_parameter_is_the_models_input() -> None:
    # `pattern = filters[name]` / `raw = arguments.get("options")`: still what the model sent.
    check(
        """\
        import json
        import re

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("catalog")


        @mcp.tool()
        async def filter_values(names: list[str], filters: dict[str, str]) -> dict:
            result = {}
            for name in names:
                values = await fetch_values(name)
                if name in filters:
                    pattern = filters[name]
                    try:
                        compiled = re.compile(pattern)
                        values = [v for v in values if compiled.search(v)]
                    except re.error as e:
                        return {"message": f"Invalid pattern for {name}: {e}"}  # expect: MCP005
                result[name] = values
            return result


        @mcp.tool()
        def schedule(arguments: dict) -> str:
            raw = arguments.get("options")
            try:
                options = json.loads(raw)
            except json.JSONDecodeError as e:
                return f"options is not valid JSON: {e}"  # expect: MCP005
            return f"scheduled with {len(options)} options"
        """
    )


def test_parse_of_a_fetched_local_stays_flagged() -> None:
    check(
        """\
        import json

        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("catalog")  # expect: MCP007


        @mcp.tool()
        def load_settings(url: str) -> str:
            raw = httpx.get(url).text
            try:
                settings = json.loads(raw)
            except json.JSONDecodeError as e:
                return f"settings are not valid JSON: {e}"  # expect: MCP002, MCP005
            return f"{len(settings)} settings"
        """
    )



# -- objects collected in a list, returned inside another object ---------------------------------

COLLECTED_OBJECTS = """\
from dataclasses import dataclass, field

import boto3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("alarms")
cloudwatch = boto3.client("cloudwatch")


@dataclass
class AlarmDetail:
    name: str
    description: str


@dataclass
class CompositeReport:
    rule: str
    components: list = field(default_factory=list)


@mcp.tool()
def describe_composite(rule: str, names: list[str]) -> CompositeReport:
    components = []
    for name in names:
        try:
            alarm = cloudwatch.describe_alarms(AlarmNames=[name])["MetricAlarms"][0]
            components.append(AlarmDetail(name=name, description=alarm["AlarmDescription"]))
        except Exception as e:
            components.append(AlarmDetail(name=name, description=f"Failed to retrieve details: {e}"))  # expect: MCP002
    return CompositeReport(rule=rule, components=components)


@mcp.tool()
def count_components(rule: str, names: list[str]) -> CompositeReport:
    failures = []
    for name in names:
        try:
            cloudwatch.describe_alarms(AlarmNames=[name])
        except Exception as e:
            failures.append(AlarmDetail(name=name, description=f"Failed: {e}"))
    return CompositeReport(rule=rule, components=[f"{len(failures)} failed"])
"""


def test_object_put_into_a_returned_list_carries_its_text() -> None:
    findings = check(COLLECTED_OBJECTS)
    (finding,) = findings
    assert finding.location.row == 30
    assert [(r.location.row, r.message) for r in finding.related] == [(31, "the text is returned here")]



# -- a name reused across branches: a return above the clause never sends its text ---------------

REUSED_NAME = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("places")


@mcp.tool()
async def search_open(query: str) -> dict:
    if not query:
        error_msg = "query is empty"
        return {"error": error_msg}  # expect: MCP005
    try:
        async with httpx.AsyncClient() as client:
            found = (await client.get("https://places.example.com", params={"q": query})).json()
        if not found:
            error_msg = f"Nothing found for {query!r}"
            return {"error": error_msg}  # expect: MCP005
        return found
    except httpx.HTTPError as e:
        error_msg = f"Places service error: {e}"
        logger.error(error_msg)
        return {"error": "The places service failed (HTTP error); narrow the query"}  # expect: MCP005


@mcp.tool()
async def search_with_retries(query: str) -> dict:
    error_msg = ""
    for attempt in range(3):
        if error_msg and attempt == 2:
            return {"error": error_msg}  # expect: MCP005
        try:
            async with httpx.AsyncClient() as client:
                return (await client.get("https://places.example.com", params={"q": query})).json()
        except httpx.HTTPError as e:
            error_msg = f"Places service error: {e}"  # expect: MCP002
    return {"error": error_msg}  # expect: MCP005
"""


def test_a_return_above_the_clause_does_not_send_the_clauses_text() -> None:
    findings = [f for f in check(REUSED_NAME) if f.code == "MCP002"]
    (finding,) = findings
    assert finding.location.row == 38
    assert "caught httpx.HTTPError" in said(finding)
