"""MCP005 on a search or listing that matched nothing, answered under an "error" key or in
not-found words (bench/LABELING-decisions.md D2): what happened decides, not the key. The
function's shape tells a listing from a lookup, never its name: the branch finds a local empty
that the success path uses as a collection (iterates, joins, sums, slices). A lookup of one given
key or id keeps its miss as a failure, under any key, and so does a miss of the entry under the
model's key in a mapping (`BY_HOST.get(host)`), whatever the function is named."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("tracker")
SHELVES: dict[str, list[str]] = {}
BY_HOST: dict[str, dict] = {}


class Client:
    def sessions(self, days: int) -> list:
        return []

    def session(self, session_id: str) -> dict:
        return {}

    def query(self, text: str) -> list:
        return []

    def tables(self, pattern: str) -> list:
        return []


client = Client()
"""


def test_an_empty_listing_under_an_error_key_is_no_failure() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def recent_sessions(days: int = 7) -> list:
    sessions = client.sessions(days)
    if not sessions:
        return [{"error": "No session data available"}]
    return [{"session": s} for s in sessions]


@mcp.tool()
def average_effort(days: int = 7) -> dict:
    sessions = client.sessions(days)
    efforts = [s["effort"] for s in sessions if s.get("effort")]
    if len(efforts) == 0:
        return {"error": "No effort data available"}
    return {"average": sum(efforts) / len(efforts), "days": days}


@mcp.tool()
def table_names(pattern: str) -> str:
    tables = client.tables(pattern)
    if not tables:
        return f"テーブル '{pattern}' が見つかりませんでした"
    return "\\n".join(tables)


@mcp.tool()
def shelf_history(shelf_name: str) -> str:
    plants = SHELVES.get(shelf_name.strip())
    if not plants:
        return f"No plants found on shelf {shelf_name}."
    return "\\n".join(plants)


@mcp.tool()
def host_search(text: str) -> str:
    hits = [h for h in BY_HOST if text in h]
    if not hits:
        return f"No certificate found for {text}."
    return "\\n".join(hits)


@mcp.tool()
def tables_like(pattern: str) -> str:
    tables = client.tables(pattern)
    if not tables:
        return f"Table matching '{pattern}' not found"
    return "\\n".join(tables[:50])
"""
    )


def test_a_lookup_miss_an_argument_refusal_or_a_failure_label_stays_a_failure() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def session_by_id(session_id: str) -> dict:
    session = client.session(session_id)
    if not session:
        return {"error": f"No session found with ID {session_id}"}  # expect: MCP005
    return {"session": session}


@mcp.tool()
def first_match(text: str) -> dict:
    rows = client.query(text)
    if not rows:
        return {"error": f"No record found for {text}"}  # expect: MCP005
    return {"record": rows[0]}


@mcp.tool()
def get_shelf(shelf_name: str) -> str:
    plants = SHELVES.get(shelf_name)
    if not plants:
        return f"No shelf found named {shelf_name}"  # expect: MCP005
    return ", ".join(plants)


@mcp.tool()
def hostname_history(hostname: str) -> str:
    host = hostname.strip().lower()
    entry = BY_HOST.get(host) or BY_HOST.get("*." + host)
    if not entry:
        return f"No certificate found for {host}."  # expect: MCP005
    return f"{entry['name']}: first seen {entry['first']}"


@mcp.tool()
def sum_of(values: list[int]) -> dict:
    if not values:
        return {"error": "No values found"}  # expect: MCP005
    return {"total": sum(values)}


@mcp.tool()
def search_labeled(text: str) -> str:
    rows = client.query(text)
    if not rows:
        return "Error: no rows found"  # expect: MCP005
    return "\\n".join(str(r) for r in rows)
"""
    )
