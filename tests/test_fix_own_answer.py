"""MCP002's fix where the dropped text may be the other side's answer about the caller's own
arguments (review 16, C2): a reply's body for a request built from the function's parameters, a
query runner's reason for a query built from them. The finding stays (LABELING-decisions D3);
its fix is display-only (shown in the JSON and the help, never applied by `--fix` nor
`--unsafe-fixes`) and the help says what a maintainer keeps. The same shapes with nothing of
the caller's in the request, or under a branch for an auth/rate/server status, keep their
applied fix."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.findings import Applicability
from tests.test_fixes import findings_of, fixed

CLIENT = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("monitors")


class MonitorClient:
    def __init__(self) -> None:
        self.http = httpx.Client(base_url="https://monitors.invalid")

    def create_monitor(self, name: str, interval: int) -> dict:
        try:
            response = self.http.post("/monitors", json={"name": name, "interval": interval})
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as e:
            raise Exception(f"Failed to create monitor: {e.response.status_code} - {e.response.text}")

    def list_monitors(self) -> dict:
        try:
            response = self.http.get("/monitors")
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as e:
            raise Exception(f"Failed to list monitors: {e.response.status_code} - {e.response.text}")


client = MonitorClient()


@mcp.tool()
def create_monitor(name: str, interval: int) -> dict:
    \"\"\"Create a monitor.\"\"\"
    return client.create_monitor(name, interval)


@mcp.tool()
def list_monitors() -> dict:
    \"\"\"List monitors.\"\"\"
    return client.list_monitors()
"""

KEEP_REPLY = "Keep the reply's validation message, drop the rest: it may answer the caller's own arguments (the fix shown drops it all)"


def _by_line(source: str) -> dict[int, object]:
    return {f.location.row: f for f in findings_of(source, "MCP002")}


def test_a_body_answering_the_arguments_sent_gets_a_display_only_fix() -> None:
    findings = _by_line(CLIENT)
    sent, listed = findings[17], findings[25]
    assert sent.fix is not None and sent.fix.applicability is Applicability.DISPLAY_ONLY
    assert sent.fix.message == (
        'Raise Exception(f"Failed to create monitor: {e.response.status_code}") from e;'
        " not applied: keep the reply's validation message, drop the rest"
    )
    assert sent.help == KEEP_REPLY
    # A request carrying nothing of the caller's: the body is not about the model's arguments.
    assert listed.fix is not None and listed.fix.applicability is Applicability.UNSAFE
    assert listed.help == 'Raise Exception(f"Failed to list monitors: {e.response.status_code}") from e'


def test_fix_applies_only_the_fix_of_the_request_with_nothing_of_the_callers() -> None:
    after = fixed(CLIENT)
    assert after == CLIENT.replace(
        'raise Exception(f"Failed to list monitors: {e.response.status_code} - {e.response.text}")',
        'raise Exception(f"Failed to list monitors: {e.response.status_code}") from e',
    ), after
    assert fixed(after) == after


def test_cli_json_and_summary(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(CLIENT)
    runner = CliRunner()
    shown = runner.invoke(cli, ["check", "--no-cache", "--output-format", "json", str(tmp_path)])
    fixes = {f["location"]["row"]: f["fix"]["applicability"] for f in json.loads(shown.output) if f["code"] == "MCP002"}
    assert fixes == {17: "display-only", 25: "unsafe"}
    summary = runner.invoke(cli, ["check", "--no-cache", "--output-format", "concise", str(tmp_path)])
    assert "1 more fix available with `--fix --unsafe-fixes`.\n" in summary.output, summary.output
    applied = runner.invoke(cli, ["check", "--no-cache", "--fix", "--unsafe-fixes", "--output-format", "concise", str(tmp_path)])
    assert "Found 2 errors (1 fixed, 1 remaining).\n" in applied.output, applied.output
    assert "e.response.text}\")\n" in (tmp_path / "server.py").read_text()  # the create helper's line stays


HELPER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("leads")


async def request(method: str, path: str, params: dict | None = None) -> dict:
    async with httpx.AsyncClient(base_url="https://leads.invalid") as client:
        try:
            response = await client.request(method, path, params=params)
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as e:
            status = e.response.status_code
            body = e.response.text
            if status == 401:
                msg = "The API key was rejected; check LEADS_API_KEY."
            elif status == 404:
                msg = "Not found; check the id."
            elif status >= 500:
                msg = f"The service failed ({status}): {body[:200]}"
            else:
                msg = LAST_RESORT
            raise ToolError(msg) from e


@mcp.tool()
async def search_leads(stage: str, owner: str) -> dict:
    \"\"\"Search the leads.\"\"\"
    return await request("GET", "/leads", params={"stage": stage, "owner": owner})
"""


def test_a_last_resort_body_after_the_authors_status_sentences_is_display_only() -> None:
    source = HELPER.replace("LAST_RESORT", 'f"Request failed ({status}): {body[:200]}"')
    (finding,) = findings_of(source, "MCP002")
    assert finding.fix is not None and finding.fix.applicability is Applicability.DISPLAY_ONLY
    assert finding.fix.message.startswith("Leave the exception text out of msg (")
    assert finding.help == KEEP_REPLY
    assert fixed(source) == source


def test_a_body_only_under_the_server_trouble_branch_keeps_its_fix() -> None:
    source = HELPER.replace("LAST_RESORT", 'f"Request failed ({status})"')
    (finding,) = findings_of(source, "MCP002")
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    assert fixed(source) == source.replace('f"The service failed ({status}): {body[:200]}"', 'f"The service failed ({status})"')


SQL = """\
import logging

import pymysql
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tables")
logger = logging.getLogger(__name__)


def connect(database: str):
    return pymysql.connect(host="localhost", database=database)


@mcp.tool()
def get_records(database: str, table: str, limit: int = 10) -> list:
    \"\"\"Read some rows of a table.\"\"\"
    try:
        conn = connect(database)
        with conn.cursor() as cursor:
            query = f"SELECT * FROM `{table}` LIMIT {limit}"
            cursor.execute(query)
            return list(cursor.fetchall())
    except Exception as e:
        raise ToolError(f"Could not get records: {e}")


@mcp.tool()
def count_rows() -> int:
    \"\"\"Count the rows of the server's own table.\"\"\"
    try:
        conn = connect("app")
        with conn.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM events")
            return cursor.fetchone()[0]
    except Exception as e:
        raise ToolError(f"Could not count rows: {e}")
"""


def test_a_drivers_reason_about_a_query_built_from_the_arguments_is_display_only() -> None:
    findings = _by_line(SQL)
    built, own = findings[25], findings[37]
    assert built.fix is not None and built.fix.applicability is Applicability.DISPLAY_ONLY
    assert built.help == "Name the column or table the driver rejected: it may answer the caller's own arguments (the fix shown drops it all)"
    assert own.fix is not None and own.fix.applicability is Applicability.UNSAFE
    after = fixed(SQL)
    assert '        raise ToolError(f"Could not get records: {e}")\n' in after, after
    assert '        logger.exception("Could not count rows")\n        raise ToolError("Could not count rows") from e\n' in after, after
