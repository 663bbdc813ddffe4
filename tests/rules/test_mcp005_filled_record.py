"""MCP005 on a result record filled in on the way: `result = {"success": False, "error": None}`,
then `result["success"] = True` on the path that succeeds, returned once at the end. The literal
is the record's starting state, not what the return sends: the return also serves every
successful call, so it is no failure return, and a fix raising there would fail every call (an
outside review saw `raise ToolError(None)` written over such a return). A record whose outcome is
never stored again is still its literal; an empty message slot (`"error": None`) is never taken
for the failure's words."""

from __future__ import annotations

from ._support import check, only

HEADER = """\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ledger")


def fetch_rows(query: str) -> list:
    return [query]
"""

FILLED = HEADER + """

def run_query(query: str) -> str:
    outcome = {"success": False, "rows": None, "error": None}
    try:
        outcome["rows"] = fetch_rows(query)
        outcome["success"] = True
    except ValueError:
        outcome["error"] = "The query could not be read; check its syntax"
    return json.dumps(outcome)


@mcp.tool()
def list_rows(query: str) -> str:
    \"\"\"List the rows a query selects.\"\"\"
    return run_query(query)
"""


def test_a_record_filled_in_on_the_way_is_not_a_failure_return() -> None:
    check(FILLED)


def test_the_same_record_with_a_status_word_filled_in_and_renamed() -> None:
    renamed = (
        FILLED.replace('"success": False', '"status": "error"')
        .replace('outcome["success"] = True', 'outcome["status"] = "ok"')
        .replace("outcome", "etat")
    )
    check(renamed)


NEVER_FILLED = HEADER + """

def run_query(query: str) -> str:
    outcome = {"success": False, "error": None}
    try:
        outcome["rows"] = fetch_rows(query)
    except ValueError:
        outcome["error"] = "The query could not be read; check its syntax"
    return json.dumps(outcome)  # expect: MCP005


@mcp.tool()
def list_rows(query: str) -> str:
    \"\"\"List the rows a query selects.\"\"\"
    return run_query(query)
"""


def test_a_record_whose_outcome_is_never_stored_again_is_still_its_literal_and_gets_no_fix() -> None:
    finding = only(NEVER_FILLED)
    assert finding.message == "Helper 'run_query' returns a failure dict as a normal result"
    # The only message slot is empty (`"error": None`): nothing to raise with, so no fix.
    assert finding.fix is None
    assert "ToolError(None)" not in finding.help
